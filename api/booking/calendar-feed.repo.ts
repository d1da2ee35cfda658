/**
 * The private calendar feed of a client's booked sessions (issue 15, decision 0016): a secret
 * per client on their users row. The secret is stored as it is (not hashed) so the account page
 * can show the address again; it opens only a read-only list of the client's own sessions.
 */
import type { DB } from '../../db/client.ts';

/** The client's current feed secret; null when none was made. */
export async function findCalendarSecret(db: DB, userId: string): Promise<string | null> {
  const row = await db.selectFrom('users').select('calendarSecret').where('id', '=', userId).executeTakeFirst();
  return row?.calendarSecret ?? null;
}

/** Replaces the client's feed secret: the old address stops answering at once. */
export async function replaceCalendarSecret(db: DB, userId: string, secret: string): Promise<boolean> {
  const res = await db.updateTable('users').set({ calendarSecret: secret }).where('id', '=', userId).executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** The client whose feed the secret opens, or undefined. */
export async function findUserByCalendarSecret(db: DB, secret: string) {
  return db.selectFrom('users').select(['id', 'firstName']).where('calendarSecret', '=', secret).executeTakeFirst();
}

/** The client's booked sessions that have not ended yet (a day's grace), in time order. */
export async function upcomingSessionsOf(db: DB, userId: string, since: Date) {
  return db
    .selectFrom('slots')
    .select(['id', 'startsAt', 'bookedAt', 'duration', 'sessionType', 'link', 'calendarUid', 'calendarSequence', 'place'])
    .where('bookedBy', '=', userId)
    .where('bookedAt', 'is not', null)
    .where('startsAt', '>', since)
    .orderBy('startsAt')
    .limit(500)
    .execute();
}
