/** The administrator (its sessions are api/middleware/sessions.ts). */
import type { DB } from '../../db/client.ts';

export async function findAdminByEmail(db: DB, email: string) {
  return db.selectFrom('admins').select(['id', 'email', 'name', 'passwordHash']).where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
}

export async function findAdminById(db: DB, id: string) {
  return db.selectFrom('admins').select(['id', 'email', 'name']).where('id', '=', id).executeTakeFirst();
}

/** Deletes the admins under any other e-mail than `email` (their sessions cascade); how many. */
export async function deleteAdminsOtherThan(db: DB, email: string): Promise<number> {
  const removed = await db.deleteFrom('admins').where('email', '!=', email).executeTakeFirst();
  return Number(removed.numDeletedRows);
}

/** Adds the admin, unless one with that e-mail exists already (another replica starting at the same moment). */
export async function insertAdminIfMissing(db: DB, email: string, passwordHash: string): Promise<void> {
  await db
    .insertInto('admins')
    .values({ email, passwordHash })
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
}

/** Stores the hash of a new password (ADMIN_PASSWORD changed, or an old scheme's hash upgraded). */
export async function setAdminPasswordHash(db: DB, id: string, passwordHash: string): Promise<void> {
  await db.updateTable('admins').set({ passwordHash }).where('id', '=', id).execute();
}

/**
 * Replaces the stored hash with one of the current scheme after a successful login. Only while
 * the row still holds the hash that was verified: a password changed meanwhile (a restart with
 * a new ADMIN_PASSWORD) is never overwritten with the old one.
 */
export async function rehashAdminPassword(db: DB, id: string, verifiedHash: string, newHash: string): Promise<void> {
  await db.updateTable('admins').set({ passwordHash: newHash }).where('id', '=', id).where('passwordHash', '=', verifiedHash).execute();
}
