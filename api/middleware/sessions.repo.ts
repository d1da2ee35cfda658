/**
 * The session rows (api/middleware/sessions.ts, decision 0013): clients' in user_sessions, the
 * administrator's in admin_sessions. The two tables differ only in the subject column's name, so
 * each function takes the kind and reads or writes that table alone: one kind never unlocks the other.
 */
import type { DB } from '../../db/client.ts';

export type SessionKind = 'user' | 'admin';

// Typed as the user table; the admin table has the same columns with adminId for userId.
const tables = {
  user: { table: 'userSessions', subject: 'userId' },
  admin: { table: 'adminSessions', subject: 'adminId' },
} as const;
const tableOf = (kind: SessionKind) => tables[kind].table as 'userSessions';
const subjectOf = (kind: SessionKind) => tables[kind].subject as 'userId';

export interface SessionRow {
  id: string;
  secretHash: string;
  subjectId: string;
  expiresAt: Date;
  createdAt: Date;
}

/** The row of session `id`, or undefined. */
export async function findSessionRow(db: DB, kind: SessionKind, id: string): Promise<SessionRow | undefined> {
  const col = subjectOf(kind);
  const row = await db.selectFrom(tableOf(kind)).select(['id', 'secretHash', 'expiresAt', 'createdAt', col]).where('id', '=', id).executeTakeFirst();
  return row && { id: row.id, secretHash: row.secretHash, subjectId: row[col], expiresAt: row.expiresAt, createdAt: row.createdAt };
}

export async function insertSessionRow(db: DB, kind: SessionKind, row: SessionRow): Promise<void> {
  await db
    .insertInto(tableOf(kind))
    .values({ id: row.id, secretHash: row.secretHash, [subjectOf(kind)]: row.subjectId, expiresAt: row.expiresAt, createdAt: row.createdAt } as never)
    .execute();
}

/** Moves session `id`'s expiry to `expiresAt`. */
export async function extendSession(db: DB, kind: SessionKind, id: string, expiresAt: Date): Promise<void> {
  await db.updateTable(tableOf(kind)).set({ expiresAt }).where('id', '=', id).execute();
}

/** Moves session `id`'s expiry to `expiresAt` if it is still live at `now`; whether it was. */
export async function extendLiveSession(db: DB, kind: SessionKind, id: string, expiresAt: Date, now: Date): Promise<boolean> {
  const result = await db.updateTable(tableOf(kind)).set({ expiresAt }).where('id', '=', id).where('expiresAt', '>', now).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteSession(db: DB, kind: SessionKind, id: string): Promise<void> {
  await db.deleteFrom(tableOf(kind)).where('id', '=', id).execute();
}

/** Ends every session of one client or of the administrator. */
export async function deleteSessionsOf(db: DB, kind: SessionKind, subjectId: string): Promise<void> {
  await db.deleteFrom(tableOf(kind)).where(subjectOf(kind), '=', subjectId).execute();
}

/** Ends every session of the kind (a new admin password ends them all: api/seed.ts). */
export async function deleteAllSessions(db: DB, kind: SessionKind): Promise<void> {
  await db.deleteFrom(tableOf(kind)).execute();
}
