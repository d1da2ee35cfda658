/** The endpoint table's images part (tests/helpers/endpoints.ts holds the whole table, in order). */
import { PNG, pngForm, type Endpoint, type Fixtures } from './common.ts';

/** An image stored with one 1×1 webp variant (of the cut `crop` when given), named by the example's params. */
const storedVariant = (crop?: string) => async (fx: Fixtures) => {
  const id = await fx.image();
  await fx.db
    .insertInto('imageVariants')
    .values({ imageId: id, format: 'webp', width: 1, height: 1, bytes: new Uint8Array(PNG), ...(crop ? { crop } : {}) })
    .execute();
  return { params: { id, ...(crop ? { crop } : {}), file: '1.webp' } };
};

export const IMAGES_ENDPOINTS: Endpoint[] = [
  // --- images --------------------------------------------------------------------------------
  {
    method: 'POST',
    route: '/api/admin/images',
    auth: 'admin',
    body: 'multipart',
    writes: ['images', 'imageVariants'],
    bodyLimit: 20 * 1024 * 1024 + 64 * 1024,
    example: async () => ({ form: () => pngForm() }),
  },
  { method: 'GET', route: '/api/images/:id', auth: 'none', body: 'none', writes: [], example: async (fx) => ({ params: { id: await fx.image() } }) },
  // The cut a shared page shows (1200×630), made from the stored photo.
  { method: 'GET', route: '/api/images/:id/og.jpg', auth: 'none', body: 'none', writes: [], example: async (fx) => ({ params: { id: await fx.image() } }) },
  {
    method: 'GET',
    route: '/api/images/:id/:file',
    auth: 'none',
    body: 'none',
    writes: [],
    example: storedVariant(),
  },

  // The landscape cut of a portrait photo (issue 25), under its focal point's name.
  {
    method: 'GET',
    route: '/api/images/:id/:crop/:file',
    auth: 'none',
    body: 'none',
    writes: [],
    example: storedVariant('ca'),
  },
  // Her focal point on a photo: the cut is made again around it (issue 25).
  {
    method: 'PUT',
    route: '/api/admin/images/:id/focus',
    auth: 'admin',
    body: 'json',
    writes: ['images', 'imageVariants'],
    example: async (fx) => {
      const id = await fx.image();
      // A photo the pipeline made (it has a size); 1×1 gives a cut of no size, so nothing is encoded.
      await fx.db.updateTable('images').set({ width: 1, height: 1, placeholder: '' }).where('id', '=', id).execute();
      return { params: { id }, json: { focus: { x: 0.5, y: 0.25 } } };
    },
  },
];
