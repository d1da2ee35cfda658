/** The administrator and its sessions (the session store itself is api/auth/sessions.ts). */
import type { DB } from '../client.ts';

export async function findAdminByEmail(db: DB, email: string) {
  return db
    .selectFrom('admins')
    .select(['id', 'email', 'name', 'passwordHash'])
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
}

export async function findAdminById(db: DB, id: string) {
  return db.selectFrom('admins').select(['id', 'email', 'name']).where('id', '=', id).executeTakeFirst();
}

/** Moves a live session's expiry to `expiresAt`; false when the session is gone or expired. */
export async function extendAdminSession(db: DB, sessionId: string, expiresAt: Date, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable('adminSessions')
    .set({ expiresAt })
    .where('id', '=', sessionId)
    .where('expiresAt', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
