/** The slideshows' photos: one row per photo, pointing at its processed image. */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';
import type { Gallery } from '../../contract/galleries.ts';

export async function listPhotos(db: DB, gallery: Gallery) {
  return db
    .selectFrom('galleryPhotos')
    .select(['id', 'imageId', 'alt', 'position'])
    .where('gallery', '=', gallery)
    .orderBy('position')
    .orderBy('createdAt')
    .execute();
}

export async function countPhotos(db: DB, gallery: Gallery): Promise<number> {
  const row = await db
    .selectFrom('galleryPhotos')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('gallery', '=', gallery)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Appends a photo at the end of its gallery. */
export async function insertPhoto(trx: Transaction<Database>, gallery: Gallery, imageId: string, alt: string) {
  return trx
    .insertInto('galleryPhotos')
    .values({
      gallery,
      imageId,
      alt,
      position: sql<number>`coalesce((select max(position) + 1 from gallery_photos where gallery = ${gallery}), 0)`,
    })
    .returning(['id', 'imageId', 'alt', 'position'])
    .executeTakeFirstOrThrow();
}

export async function updateAlt(db: DB, gallery: Gallery, id: string, alt: string) {
  return db
    .updateTable('galleryPhotos')
    .set({ alt })
    .where('gallery', '=', gallery)
    .where('id', '=', id)
    .returning(['id', 'imageId', 'alt', 'position'])
    .executeTakeFirst();
}

/**
 * Gives the photos their new positions. `ids` must be exactly the gallery's photos (checked by
 * the caller under the same lock), so no photo is lost or doubled by two admins reordering at once.
 */
export async function reorder(trx: Transaction<Database>, gallery: Gallery, ids: readonly string[]): Promise<boolean> {
  const current = await trx.selectFrom('galleryPhotos').select('id').where('gallery', '=', gallery).forUpdate().execute();
  const have = new Set(current.map((r) => r.id));
  if (ids.length !== have.size || new Set(ids).size !== ids.length || !ids.every((i) => have.has(i))) return false;
  for (const [position, id] of ids.entries()) {
    await trx.updateTable('galleryPhotos').set({ position }).where('id', '=', id).execute();
  }
  return true;
}

/** Deletes the photo and its image (the sizes go with it by the foreign key). */
export async function deletePhoto(trx: Transaction<Database>, gallery: Gallery, id: string): Promise<boolean> {
  const gone = await trx.deleteFrom('galleryPhotos').where('gallery', '=', gallery).where('id', '=', id).returning('imageId').executeTakeFirst();
  if (!gone) return false;
  await trx.deleteFrom('images').where('id', '=', gone.imageId).execute();
  return true;
}
