import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { validateParams } from '../validation.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { id } from '../schemas/common.ts';
import { IMAGE_MAX_BYTES } from '../schemas/chocolates.ts';
import { deleteOrphanImages, findImage, IMAGE_URL_PREFIX, insertImage } from '../../db/queries/images.ts';

/**
 * Product images: uploaded by the admin, stored in the database (every replica can serve
 * them), served publicly under a URL that never changes its bytes.
 */

const TOO_LARGE = 'The image must be at most 2 MB.';
const WRONG_TYPE = 'Please upload a PNG, JPEG or WebP image.';

/** The type the bytes say, whatever the upload claimed. */
function sniffImageType(b: Uint8Array): 'image/png' | 'image/jpeg' | 'image/webp' | null {
  const at = (offset: number, sig: number[]) => sig.every((x, i) => b[offset + i] === x);
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (at(0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (at(0, [0x52, 0x49, 0x46, 0x46]) && at(8, [0x57, 0x45, 0x42, 0x50])) return 'image/webp';
  return null;
}

const imageParams = z.object({ id });

/** POST /api/admin/images, multipart/form-data with the field `file`. */
export const adminImages = new Hono<AppEnv>().post(
  '/',
  requireAdmin(),
  // Room for the multipart framing around a file of the largest size.
  bodyLimit({ maxSize: IMAGE_MAX_BYTES + 64 * 1024, onError: (c) => c.json({ message: TOO_LARGE }, 413, { connection: 'close' }) }),
  async (c) => {
    if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
      return c.json({ message: 'Send the image as multipart/form-data in the field "file".' }, 400);
    }
    let file: unknown;
    try {
      file = (await c.req.parseBody())['file'];
    } catch {
      return c.json({ message: 'The upload could not be read. Please try again.' }, 400);
    }
    if (!(file instanceof File) || file.size === 0) return c.json({ message: 'Choose an image to upload.' }, 400);
    if (file.size > IMAGE_MAX_BYTES) return c.json({ message: TOO_LARGE }, 413);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const type = sniffImageType(bytes);
    if (!type) return c.json({ message: WRONG_TYPE }, 400);
    const { db } = c.var.services;
    const { id: imageId } = await insertImage(db, type, bytes);
    // Orphans are swept after the admin's image and product changes (rare, and the admin is
    // there): no timer to run, and an orphan lives at most until the next change.
    await deleteOrphanImages(db);
    return c.json({ url: `${IMAGE_URL_PREFIX}${imageId}` }, 201);
  },
);

/** GET /api/images/{id}: public; the bytes never change under one id. */
export const images = new Hono<AppEnv>().get('/:id', validateParams(imageParams), async (c) => {
  const found = await findImage(c.var.services.db, c.req.valid('param').id);
  if (!found) return c.json({ message: 'Image not found' }, 404);
  return c.body(new Uint8Array(found.bytes), 200, {
    'content-type': found.contentType,
    'cache-control': 'public, max-age=31536000, immutable',
    'x-content-type-options': 'nosniff',
    // Served only as an image: no script or style could run even if one were opened directly.
    'content-security-policy': "default-src 'none'; sandbox",
  });
});
