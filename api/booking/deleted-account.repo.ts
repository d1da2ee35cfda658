/** What the erasure of an account reads of the booking wing (sessions-of-deleted-account.ts). */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The ids of the sessions `userId` booked that start after `now` (not yet locked: lockSlots holds them). */
export async function comingSessionIdsOf(trx: Transaction<Database>, userId: string, now: Date): Promise<string[]> {
  const rows = await trx.selectFrom('slots').select('id').where('bookedBy', '=', userId).where('startsAt', '>', now).execute();
  return rows.map((r) => r.id);
}
