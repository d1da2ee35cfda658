/** Uploaded images, kept in the database so every server replica can serve them. */
import { sql } from 'kysely';
import type { DB } from '../client.ts';

/** Where an uploaded image is served; a product's `image` holds this plus the id. */
export const IMAGE_URL_PREFIX = '/api/images/';

export async function insertImage(db: DB, contentType: string, bytes: Uint8Array) {
  return db.insertInto('images').values({ contentType, bytes }).returning('id').executeTakeFirstOrThrow();
}

export async function findImage(db: DB, id: string) {
  return db.selectFrom('images').select(['contentType', 'bytes']).where('id', '=', id).executeTakeFirst();
}

/** How long an upload may wait to be saved into a product before it counts as abandoned. */
export const UNSAVED_IMAGE_GRACE_MS = 24 * 60 * 60_000;

/**
 * Deletes uploads no product shows any more (replaced, or their product deleted), and uploads
 * never saved into a product, once they are older than `uploadedBefore`: the grace period keeps
 * an image the admin has just uploaded but not saved yet. One statement; returns how many went.
 */
export async function deleteOrphanImages(db: DB, uploadedBefore = new Date(Date.now() - UNSAVED_IMAGE_GRACE_MS)): Promise<number> {
  const result = await db
    .deleteFrom('images')
    .where('createdAt', '<', uploadedBefore)
    .where(sql<boolean>`not exists (select 1 from products where products.image = ${IMAGE_URL_PREFIX} || images.id)`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
