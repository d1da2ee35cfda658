import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { validateParams } from '../validation.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { id } from '../../contract/common.ts';
import type { ImageUploadedView } from '../../contract/images.ts';
import { deleteOrphanImages, findImage, findVariant, IMAGE_URL_PREFIX, insertImage, pictureViews } from './images.repo.ts';
import { receiveImage, uploadBodyLimit } from './upload.ts';

/**
 * Uploaded images: sent by the admin (product photos; the galleries use the same pipeline),
 * processed once into their sizes, stored in the database, served publicly under URLs whose
 * bytes never change: `/api/images/{id}` (the largest WebP) and `/api/images/{id}/{width}.{avif|webp}`.
 */

const imageParams = z.object({ id });
const variantParams = z.object({ id, file: z.string().regex(/^[1-9][0-9]{0,4}\.(avif|webp)$/, 'Invalid size') });

const IMMUTABLE = {
  'cache-control': 'public, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
  // Served only as an image: no script or style could run even if one were opened directly.
  'content-security-policy': "default-src 'none'; sandbox",
} as const;

/** POST /api/admin/images, multipart/form-data with the field `file`. */
export const adminImages = new Hono<AppEnv>().post('/', requireAdmin(), uploadBodyLimit, async (c) => {
  const received = await receiveImage(c);
  if (!received.ok) return c.json({ message: received.message }, received.status);
  const { db } = c.var.services;
  const imageId = await db.transaction().execute((trx) => insertImage(trx, received.image));
  // Orphans are swept after the admin's image and product changes (rare, and the admin is
  // there): no timer to run, and an orphan lives at most until the next change.
  await deleteOrphanImages(db);
  const picture = (await pictureViews(db, [imageId])).get(imageId)!;
  return c.json({ url: `${IMAGE_URL_PREFIX}${imageId}`, picture } satisfies ImageUploadedView, 201);
});

/** GET /api/images/{id} and /api/images/{id}/{width}.{avif|webp}: public; never changing. */
export const images = new Hono<AppEnv>()
  .get('/:id', validateParams(imageParams), async (c) => {
    const found = await findImage(c.var.services.db, c.req.valid('param').id);
    if (!found) return c.json({ message: 'Image not found' }, 404);
    return c.body(new Uint8Array(found.bytes), 200, { 'content-type': found.contentType, ...IMMUTABLE });
  })
  .get('/:id/:file', validateParams(variantParams), async (c) => {
    const { id: imageId, file } = c.req.valid('param');
    const [width, format] = file.split('.') as [string, 'avif' | 'webp'];
    const found = await findVariant(c.var.services.db, imageId, format, Number(width));
    if (!found) return c.json({ message: 'Image not found' }, 404);
    return c.body(new Uint8Array(found.bytes), 200, { 'content-type': `image/${format}`, ...IMMUTABLE });
  });
