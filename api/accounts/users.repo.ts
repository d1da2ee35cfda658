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
