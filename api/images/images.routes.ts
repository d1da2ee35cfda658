import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { validateJson, validateParams } from '../validation.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { id } from '../../contract/common.ts';
import { CROP_KEY, needsCrop, type AdminImageView, type ImageUploadedView } from '../../contract/images.ts';
import { deleteOrphanImages, findImage, findMaster, findVariant, IMAGE_URL_PREFIX, imageExists, listImages, pictureViews, replaceCrop } from './images.repo.ts';
import { receiveImage, uploadBodyLimit } from './upload.ts';
import { storeImage } from './store-image.ts';
import { photoWork, type PhotoWork } from './queue.ts';

/**
 * Uploaded images: sent by the admin (product photos; the galleries use the same pipeline),
 * processed once into their sizes, stored in the database, served publicly under URLs whose
 * bytes never change: `/api/images/{id}` (the largest WebP), `/api/images/{id}/{width}.{avif|webp}`
 * and `/api/images/{id}/og.jpg` (the 1200×630 cut a shared page shows).
 */

const imageParams = z.object({ id });
const sizeFile = z.string().regex(/^[1-9][0-9]{0,4}\.(avif|webp)$/, 'Invalid size');
const variantParams = z.object({ id, file: sizeFile });
const cropParams = z.object({ id, crop: z.string().regex(CROP_KEY, 'Invalid cut'), file: sizeFile });
/** Her focal point (fractions from the top left), or null to let the pipeline choose again. */
const focusBody = z.object({
  focus: z
    .object({
      x: z.number({ error: 'x must be a number from 0 to 1' }).min(0, 'x must be from 0 to 1').max(1, 'x must be from 0 to 1'),
      y: z.number({ error: 'y must be a number from 0 to 1' }).min(0, 'y must be from 0 to 1').max(1, 'y must be from 0 to 1'),
    })
    .nullable(),
});

const IMMUTABLE = {
  'cache-control': 'public, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
  // Served only as an image: no script or style could run even if one were opened directly.
  'content-security-policy': "default-src 'none'; sandbox",
} as const;

/**
 * The latest og.jpg cuts, by image id. A shared link brings every site that draws previews at
 * about the same time, and the cut costs a decode of the master: each is made once here (the
 * same promise for requests that overlap), not once per request. The image's row is still
 * looked up on every request, so a deleted photo's cut isn't served from here.
 */
const OG_CACHE_SIZE = 16;
const ogCuts = new Map<string, Promise<Buffer | undefined>>();

function ogCutOf(imageId: string, master: () => Promise<Uint8Array | undefined>, work: PhotoWork): Promise<Buffer | undefined> {
  let cut = ogCuts.get(imageId);
  if (cut) return cut;
  // A decode like an upload's: it waits its turn in the photo queue (a burst of link previews
  // of many photos can't decode them all at once) and runs in the photo worker.
  cut = master().then((bytes) => (bytes ? work.openGraph(bytes) : undefined));
  ogCuts.set(imageId, cut);
  if (ogCuts.size > OG_CACHE_SIZE) ogCuts.delete(ogCuts.keys().next().value!);
  // Only a cut is kept: a photo gone meanwhile, or one sharp can't read, is asked again next time.
  cut.then(
    (bytes) => bytes || ogCuts.delete(imageId),
    () => ogCuts.delete(imageId),
  );
  return cut;
}

/** POST /api/admin/images, multipart/form-data with the field `file`. */
export const adminImages = new Hono<AppEnv>()
  /** GET /api/admin/images: her photos, newest first, with their sizes (the editors' photo chooser). */
  .get('/', requireAdmin(), async (c) => {
    const { db } = c.var.services;
    const rows = await listImages(db);
    const views = await pictureViews(
      db,
      rows.map((r) => r.id),
    );
    return c.json(
      rows.flatMap((r) => {
        const picture = views.get(r.id);
        return picture
          ? [{ id: r.id, url: `${IMAGE_URL_PREFIX}${r.id}`, picture, createdAt: new Date(r.createdAt).toISOString() } satisfies AdminImageView]
          : [];
      }),
    );
  })
  .post('/', requireAdmin(), uploadBodyLimit, async (c) => {
    const received = await receiveImage(c);
    if (!received.ok) return c.json({ message: received.message }, received.status);
    const { db } = c.var.services;
    const imageId = await storeImage(db, received.image);
    // Orphans are swept after the admin's image and product changes (rare, and the admin is
    // there): no timer to run, and an orphan lives at most until the next change.
    await deleteOrphanImages(db);
    const picture = (await pictureViews(db, [imageId])).get(imageId)!;
    return c.json({ url: `${IMAGE_URL_PREFIX}${imageId}`, picture } satisfies ImageUploadedView, 201);
  })
  /**
   * PUT /api/admin/images/{id}/focus `{ focus: { x, y } | null }`: her focal point; the landscape
   * cut is made again around it (in the photo worker, from the stored master) under a new name,
   * and the pages rendered ahead are made again so they name the new cut.
   */
  .put('/:id/focus', requireAdmin(), validateParams(imageParams), validateJson(focusBody), async (c) => {
    const { db, env, publisher } = c.var.services;
    const imageId = c.req.valid('param').id;
    const master = await findMaster(db, imageId);
    if (!master || master.width === null || master.height === null) return c.json({ message: 'Image not found' }, 404);
    const focus = c.req.valid('json').focus;
    const rounded = focus && { x: Math.round(focus.x * 100) / 100, y: Math.round(focus.y * 100) / 100 };
    const variants = needsCrop(master.width, master.height) ? await photoWork(env.IMAGE_CONCURRENCY).recrop(master.bytes, rounded) : [];
    await replaceCrop(db, imageId, rounded, variants);
    await publisher.regenerate({ kind: 'all' }).catch((err: unknown) => {
      console.error('[render-ahead] pages not regenerated after a new focal point:', err instanceof Error ? err.message : err);
    });
    const picture = (await pictureViews(db, [imageId])).get(imageId)!;
    return c.json({ url: `${IMAGE_URL_PREFIX}${imageId}`, picture } satisfies ImageUploadedView);
  });

/** GET /api/images/{id}, /api/images/{id}/og.jpg and /api/images/{id}/{width}.{avif|webp}: public; never changing. */
export const images = new Hono<AppEnv>()
  // Before /:id/:file, whose size pattern would refuse og.jpg.
  .get('/:id/og.jpg', validateParams(imageParams), async (c) => {
    const { db } = c.var.services;
    const imageId = c.req.valid('param').id;
    if (!(await imageExists(db, imageId))) return c.json({ message: 'Image not found' }, 404);
    let cut: Buffer | undefined;
    try {
      cut = await ogCutOf(imageId, async () => (await findImage(db, imageId))?.bytes, photoWork(c.var.services.env.IMAGE_CONCURRENCY));
    } catch {
      // An upload from before the pipeline that sharp can't read: there is no cut to show.
      cut = undefined;
    }
    if (!cut) return c.json({ message: 'Image not found' }, 404);
    return c.body(new Uint8Array(cut), 200, { 'content-type': 'image/jpeg', ...IMMUTABLE });
  })
  .get('/:id', validateParams(imageParams), async (c) => {
    const found = await findImage(c.var.services.db, c.req.valid('param').id);
    if (!found) return c.json({ message: 'Image not found' }, 404);
    return c.body(new Uint8Array(found.bytes), 200, { 'content-type': found.contentType, ...IMMUTABLE });
  })
  .get('/:id/:crop/:file', validateParams(cropParams), async (c) => {
    const { id: imageId, crop, file } = c.req.valid('param');
    const [width, format] = file.split('.') as [string, 'avif' | 'webp'];
    const found = await findVariant(c.var.services.db, imageId, format, Number(width), crop);
    if (!found) return c.json({ message: 'Image not found' }, 404);
    return c.body(new Uint8Array(found.bytes), 200, { 'content-type': `image/${format}`, ...IMMUTABLE });
  })
  .get('/:id/:file', validateParams(variantParams), async (c) => {
    const { id: imageId, file } = c.req.valid('param');
    const [width, format] = file.split('.') as [string, 'avif' | 'webp'];
    const found = await findVariant(c.var.services.db, imageId, format, Number(width));
    if (!found) return c.json({ message: 'Image not found' }, 404);
    return c.body(new Uint8Array(found.bytes), 200, { 'content-type': `image/${format}`, ...IMMUTABLE });
  });
