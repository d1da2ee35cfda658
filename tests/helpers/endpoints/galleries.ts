/** The endpoint table's galleries part (tests/helpers/endpoints.ts holds the whole table, in order). */
import { pngForm, text, type Endpoint } from './common.ts';

export const GALLERIES_ENDPOINTS: Endpoint[] = [
  // --- galleries (the slideshows of /yoga and /chocolates) ------------------------------------
  { method: 'GET', route: '/api/galleries/:gallery', auth: 'none', body: 'none', writes: [], example: async () => ({ params: { gallery: 'yoga' } }) },
  {
    method: 'GET',
    route: '/api/admin/galleries/:gallery',
    auth: 'admin',
    body: 'none',
    writes: [],
    example: async () => ({ params: { gallery: 'chocolates' } }),
  },
  {
    method: 'POST',
    route: '/api/admin/galleries/:gallery/photos',
    auth: 'admin',
    body: 'multipart',
    writes: ['images', 'imageVariants', 'galleryPhotos'],
    bodyLimit: 20 * 1024 * 1024 + 64 * 1024,
    example: async () => ({
      params: { gallery: 'chocolates' },
      form: () => {
        const form = pngForm();
        form.append('alt', 'A tin of chai spice bonbons');
        return form;
      },
    }),
  },
  {
    method: 'PUT',
    route: '/api/admin/galleries/:gallery/photos/:id',
    auth: 'admin',
    body: 'json',
    fields: { alt: text({ required: true }) },
    writes: ['galleryPhotos'],
    example: async (fx) => ({ params: { gallery: 'yoga', id: await fx.galleryPhoto() }, json: { alt: 'Morning class by the window' } }),
  },
  {
    method: 'PUT',
    route: '/api/admin/galleries/:gallery/order',
    auth: 'admin',
    body: 'json',
    fields: { ids: { kind: 'array', required: true, role: 'match' } },
    writes: ['galleryPhotos'],
    example: async (fx) => {
      await fx.galleryPhoto();
      const ids = (await fx.db.selectFrom('galleryPhotos').select('id').where('gallery', '=', 'yoga').orderBy('position').execute()).map((r) => r.id);
      return { params: { gallery: 'yoga' }, json: { ids: ids.reverse() } };
    },
  },
  {
    method: 'DELETE',
    route: '/api/admin/galleries/:gallery/photos/:id',
    auth: 'admin',
    body: 'none',
    writes: ['galleryPhotos', 'images', 'imageVariants'],
    example: async (fx) => ({ params: { gallery: 'yoga', id: await fx.galleryPhoto() } }),
  },
];
