/** Clients, as the admin sees them. */
import type { DB } from '../../db/client.ts';

export async function listUsers(db: DB) {
  return db
    .selectFrom('users')
    .select(['id', 'firstName', 'lastName', 'preferredName', 'pronoun', 'email', 'phone', 'city', 'zipcode', 'createdAt'])
    .orderBy('createdAt', 'desc')
    .orderBy('id')
    .execute();
}

/** Their sessions and login links go with them; their booked slots stay booked (booked_by set null). */
export async function deleteUser(db: DB, id: string) {
  return db.deleteFrom('users').where('id', '=', id).returning('id').executeTakeFirst();
}
