/** The administrator (its sessions are api/middleware/sessions.ts). */
import type { DB } from '../../db/client.ts';

export async function findAdminByEmail(db: DB, email: string) {
  return db.selectFrom('admins').select(['id', 'email', 'name', 'passwordHash']).where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
}

export async function findAdminById(db: DB, id: string) {
  return db.selectFrom('admins').select(['id', 'email', 'name']).where('id', '=', id).executeTakeFirst();
}

/**
 * Replaces the stored hash with one of the current scheme after a successful login. Only while
 * the row still holds the hash that was verified: a password changed meanwhile (a restart with
 * a new ADMIN_PASSWORD) is never overwritten with the old one.
 */
export async function rehashAdminPassword(db: DB, id: string, verifiedHash: string, newHash: string): Promise<void> {
  await db.updateTable('admins').set({ passwordHash: newHash }).where('id', '=', id).where('passwordHash', '=', verifiedHash).execute();
}
