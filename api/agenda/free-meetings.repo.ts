/**
 * The free 30-minute online meetings visitors book from the home page (issue 35, migration 0034).
 * A live one (not cancelled) takes her time in the agenda (agenda.repo.ts takenRows).
 */
import { sql, type Insertable, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database, FreeMeetingsTable } from '../../db/schema.ts';

export async function insertFreeMeeting(trx: Transaction<Database>, row: Omit<Insertable<FreeMeetingsTable>, 'createdAt' | 'cancelledAt'> & { id: string }) {
  return trx.insertInto('freeMeetings').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findFreeMeeting(db: DB, id: string) {
  return db.selectFrom('freeMeetings').selectAll().where('id', '=', id).executeTakeFirst();
}

export type FreeMeeting = NonNullable<Awaited<ReturnType<typeof findFreeMeeting>>>;

/** Cancels a live meeting that has not begun (the database's clock decides); the row, or undefined when it was not. */
export async function cancelFreeMeetingRow(trx: Transaction<Database>, id: string) {
  return trx
    .updateTable('freeMeetings')
    .set({ cancelledAt: sql<Date>`now()` })
    .where('id', '=', id)
    .where('cancelledAt', 'is', null)
    .where('startsAt', '>', sql<Date>`now()`)
    .returningAll()
    .executeTakeFirst();
}
