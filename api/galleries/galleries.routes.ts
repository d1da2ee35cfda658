import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import type { DB } from '../../db/client.ts';
import { validateJson, validateParams } from '../validation.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { check } from '../../contract/check.ts';
import {
  GALLERY_MAX_PHOTOS,
  galleryOrder,
  galleryParams,
  galleryPhotoEdit,
  galleryPhotoParams,
  galleryUpload,
  type Gallery,
  type GalleryPhotoSavedView,
  type GalleryPhotoView,
  type GalleryView,
} from '../../contract/galleries.ts';
import { pictureViews } from '../images/images.repo.ts';
import { receiveImage, uploadBodyLimit } from '../images/upload.ts';
import { countPhotos, listPhotos, updateAlt } from './galleries.repo.ts';
import { addPhoto, removePhoto, reorderPhotos } from './photos.ts';

/**
 * The slideshows' galleries: read by /yoga and /chocolates at run time (a change shows without
 * a rebuild), managed on the admin page "Galleries". Photos go through the same pipeline as
 * product images (api/images/).
 */

type PhotoRow = { id: string; imageId: string; alt: string };

async function views(db: DB, rows: PhotoRow[]): Promise<GalleryPhotoView[]> {
  const pictures = await pictureViews(
    db,
    rows.map((r) => r.imageId),
  );
  return rows.flatMap((r) => {
    const picture = pictures.get(r.imageId);
    return picture ? [{ _id: r.id, alt: r.alt, picture }] : [];
  });
}

async function galleryView(db: DB, gallery: Gallery): Promise<GalleryView> {
  return { gallery, photos: await views(db, await listPhotos(db, gallery)) };
}

/**
 * GET /api/galleries/{gallery}: public. A few hundred bytes asked once per visit, so it is never
 * cached stale: the teacher sees her change on the next page load. The photos themselves are
 * immutable and cached for good.
 */
export const galleries = new Hono<AppEnv>().get('/:gallery', validateParams(galleryParams), async (c) => {
  const view = await galleryView(c.var.services.db, c.req.valid('param').gallery);
  return c.json(view, 200, { 'cache-control': 'no-cache' });
});

export const adminGalleries = new Hono<AppEnv>()
  .get('/:gallery', requireAdmin(), validateParams(galleryParams), async (c) => c.json(await galleryView(c.var.services.db, c.req.valid('param').gallery)))

  /** Multipart: `file` (the photo) and `alt` (required). One photo per request, so each has its own progress. */
  .post('/:gallery/photos', requireAdmin(), uploadBodyLimit, validateParams(galleryParams), async (c) => {
    const { gallery } = c.req.valid('param');
    const { db } = c.var.services;
    if ((await countPhotos(db, gallery)) >= GALLERY_MAX_PHOTOS) {
      return c.json({ message: `A slideshow holds at most ${GALLERY_MAX_PHOTOS} photos. Delete one first.` }, 409);
    }
    let alt = '';
    const received = await receiveImage(c, (fields) => {
      const result = check(galleryUpload, { alt: fields['alt'] ?? '' });
      // The field's own words ('Alt text is required'): the admin page shows them as they are.
      if (!result.ok) return result.issues[0]?.message ?? result.message;
      alt = result.data.alt;
      return null;
    });
    if (!received.ok) return c.json({ message: received.message }, received.status);
    // The encoding is done: the transaction only inserts.
    const row = await addPhoto(db, gallery, received.image, alt);
    const [photo] = await views(db, [row]);
    return c.json({ message: 'Photo added.', photo: photo! } satisfies GalleryPhotoSavedView, 201);
  })

  .put('/:gallery/photos/:id', requireAdmin(), validateParams(galleryPhotoParams), validateJson(galleryPhotoEdit), async (c) => {
    const { gallery, id } = c.req.valid('param');
    const { db } = c.var.services;
    const row = await updateAlt(db, gallery, id, c.req.valid('json').alt);
    if (!row) return c.json({ message: 'Photo not found' }, 404);
    const [photo] = await views(db, [row]);
    return c.json({ message: 'Alt text saved.', photo: photo! } satisfies GalleryPhotoSavedView);
  })

  .put('/:gallery/order', requireAdmin(), validateParams(galleryParams), validateJson(galleryOrder), async (c) => {
    const { gallery } = c.req.valid('param');
    const { db } = c.var.services;
    const ok = await reorderPhotos(db, gallery, c.req.valid('json').ids);
    if (!ok) return c.json({ message: 'The order must list every photo of the slideshow once. Reload the page and try again.' }, 409);
    return c.json(await galleryView(db, gallery));
  })

  .delete('/:gallery/photos/:id', requireAdmin(), validateParams(galleryPhotoParams), async (c) => {
    const { gallery, id } = c.req.valid('param');
    const deleted = await removePhoto(c.var.services.db, gallery, id);
    if (!deleted) return c.json({ message: 'Photo not found' }, 404);
    return c.json({ message: 'Photo deleted.' });
  });
