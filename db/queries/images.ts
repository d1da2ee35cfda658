/** Uploaded images, kept in the database so every server replica can serve them. */
import type { DB } from '../client.ts';

export async function insertImage(db: DB, contentType: string, bytes: Uint8Array) {
  return db.insertInto('images').values({ contentType, bytes }).returning('id').executeTakeFirstOrThrow();
}

export async function findImage(db: DB, id: string) {
  return db.selectFrom('images').select(['contentType', 'bytes']).where('id', '=', id).executeTakeFirst();
}
