/** Uploaded images and their sizes, kept in the database so every server replica serves the same bytes. */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { IMAGE_URL_PREFIX, srcsetOf, type FocusPoint, type PictureView } from '../../contract/images.ts';
import type { ImageVariant, ProcessedImage } from './process.ts';

export { IMAGE_URL_PREFIX };

/**
 * Stores a processed image with all its sizes in one short transaction (only inserts: the
 * encoding happened before). Galleries pass their own transaction to add the photo row with it.
 */
export async function insertImage(trx: Transaction<Database>, image: ProcessedImage): Promise<string> {
  const { id } = await trx
    .insertInto('images')
    .values({ contentType: 'image/webp', bytes: image.master, width: image.width, height: image.height, placeholder: image.placeholder })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (image.variants.length > 0) {
    await trx
      .insertInto('imageVariants')
      .values(image.variants.map((v) => ({ imageId: id, format: v.format, width: v.width, height: v.height, bytes: v.bytes, crop: v.crop })))
      .execute();
  }
  return id;
}

export async function findImage(db: DB, id: string) {
  return db.selectFrom('images').select(['contentType', 'bytes']).where('id', '=', id).executeTakeFirst();
}

export async function imageExists(db: DB, id: string): Promise<boolean> {
  return (await db.selectFrom('images').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

export async function findVariant(db: DB, id: string, format: 'avif' | 'webp', width: number, crop = '') {
  return db
    .selectFrom('imageVariants')
    .select('bytes')
    .where('imageId', '=', id)
    .where('crop', '=', crop)
    .where('format', '=', format)
    .where('width', '=', width)
    .executeTakeFirst();
}

/** The stored master and her focal point: what a new cut is made from. */
export async function findMaster(db: DB, id: string) {
  return db
    .selectFrom('images')
    .select(['bytes', 'width', 'height', 'focusX', 'focusY'])
    .where('id', '=', id)
    .where('width', 'is not', null)
    .executeTakeFirst();
}

/**
 * Her new focal point and the cut made around it, in one transaction: the old cut's sizes go
 * (their URLs named the old point), the new ones come under a new name.
 */
export async function replaceCrop(db: DB, id: string, focus: FocusPoint | null, variants: readonly ImageVariant[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('images')
      .set({ focusX: focus?.x ?? null, focusY: focus?.y ?? null })
      .where('id', '=', id)
      .execute();
    await trx.deleteFrom('imageVariants').where('imageId', '=', id).where('crop', '!=', '').execute();
    if (variants.length > 0) {
      await trx
        .insertInto('imageVariants')
        .values(variants.map((v) => ({ imageId: id, format: v.format, width: v.width, height: v.height, bytes: v.bytes, crop: v.crop })))
        .execute();
    }
  });
}

/**
 * The `<picture>` of each image id that went through the pipeline (older uploads have none).
 * Two queries whatever the number of ids.
 */
export async function pictureViews(db: DB, ids: readonly string[]): Promise<Map<string, PictureView>> {
  const out = new Map<string, PictureView>();
  if (ids.length === 0) return out;
  const [images, variants] = await Promise.all([
    db
      .selectFrom('images')
      .select(['id', 'width', 'height', 'placeholder', 'focusX', 'focusY'])
      .where('id', 'in', ids)
      .where('width', 'is not', null)
      .execute(),
    db.selectFrom('imageVariants').select(['imageId', 'format', 'width', 'height', 'crop']).where('imageId', 'in', ids).orderBy('width').execute(),
  ]);
  for (const img of images) {
    if (img.width === null || img.height === null) continue;
    const mine = variants.filter((v) => v.imageId === img.id && v.crop === '');
    const widths = (format: 'avif' | 'webp') => mine.filter((v) => v.format === format).map((v) => v.width);
    const src = `${IMAGE_URL_PREFIX}${img.id}`;
    const webpWidths = widths('webp');
    // The largest WebP is the image itself, served at `src`.
    const webp = [srcsetOf(img.id, webpWidths, 'webp'), `${src} ${img.width}w`].filter(Boolean).join(', ');
    const view: PictureView = {
      src,
      width: img.width,
      height: img.height,
      placeholder: img.placeholder ?? '',
      avif: srcsetOf(img.id, widths('avif'), 'avif'),
      webp,
      focus: img.focusX !== null && img.focusY !== null ? { x: img.focusX, y: img.focusY } : null,
    };
    const cut = variants.filter((v) => v.imageId === img.id && v.crop !== '');
    const largest = cut.at(-1);
    if (largest) {
      const cutWidths = (format: 'avif' | 'webp') => cut.filter((v) => v.format === format).map((v) => v.width);
      view.crop = {
        width: largest.width,
        height: largest.height,
        avif: srcsetOf(img.id, cutWidths('avif'), 'avif', largest.crop),
        webp: srcsetOf(img.id, cutWidths('webp'), 'webp', largest.crop),
      };
    }
    out.set(img.id, view);
  }
  return out;
}

/** The image id in an uploaded image's URL, or null for any other address. */
/** Her uploaded photos, newest first: the photo chooser of the page editor. */
export async function listImages(db: DB, limit = 200): Promise<{ id: string; createdAt: Date }[]> {
  return db.selectFrom('images').select(['id', 'createdAt']).where('width', 'is not', null).orderBy('createdAt', 'desc').limit(limit).execute();
}

export function imageIdOf(url: string): string | null {
  if (!url.startsWith(IMAGE_URL_PREFIX)) return null;
  const id = url.slice(IMAGE_URL_PREFIX.length);
  return /^[A-Za-z0-9_-]{1,64}$/.test(id) ? id : null;
}

/** How long an upload may wait to be saved into a product before it counts as abandoned. */
export const UNSAVED_IMAGE_GRACE_MS = 24 * 60 * 60_000;

/**
 * Deletes uploads no product or gallery shows any more (replaced, or their product deleted),
 * and uploads never saved into a product, once they are older than `uploadedBefore`: the grace
 * period keeps an image the admin has just uploaded but not saved yet. One statement (the sizes
 * go with their image by the foreign key); returns how many went.
 */
export async function deleteOrphanImages(db: DB, uploadedBefore = new Date(Date.now() - UNSAVED_IMAGE_GRACE_MS)): Promise<number> {
  const result = await db
    .deleteFrom('images')
    .where('createdAt', '<', uploadedBefore)
    .where(sql<boolean>`not exists (select 1 from products where products.image = ${IMAGE_URL_PREFIX} || images.id)`)
    .where(sql<boolean>`not exists (select 1 from gallery_photos where gallery_photos.image_id = images.id)`)
    // Her pages name photos inside their JSON (drafts, the published copy, every revision a restore may bring back).
    .where(sql<boolean>`not exists (select 1 from pages where strpos(pages.draft, images.id) > 0 or strpos(coalesce(pages.published, ''), images.id) > 0)`)
    .where(sql<boolean>`not exists (select 1 from page_revisions where strpos(page_revisions.content, images.id) > 0)`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
