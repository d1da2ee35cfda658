/**
 * Class places after sign-up (issue 15): the waitlist of a full class, a sign-up's class, the
 * places of one student, and the claim of the day-before reminders. Functions that lock or
 * claim rows take a transaction.
 */
import { sql, type Insertable, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { ClassWaitlistTable, Database } from '../../db/schema.ts';
import { classColumns, classSeats, type ClassEvent } from './signups.repo.ts';

/**
 * The event row by id, held until the transaction ends (the same lock enrol() takes). FOR NO KEY
 * UPDATE: it serializes every change of the class's places, yet lets a row that merely points at
 * the event (a payment, a place: their foreign key's KEY SHARE) be written meanwhile, so a payment
 * recorded while a claim holds the class never waits on it in a circle.
 */
export async function lockEventById(trx: Transaction<Database>, eventId: string): Promise<ClassEvent | undefined> {
  return trx.selectFrom('events').select(classColumns).where('id', '=', eventId).forNoKeyUpdate().executeTakeFirst();
}

export async function findSignupById(db: DB, id: string) {
  return db.selectFrom('classSignups').select(['id', 'eventId', 'classTitle', 'date', 'name', 'email']).where('id', '=', id).executeTakeFirst();
}

/** Places taken in the class (any e-mail). */
export async function placesTaken(db: DB, event: Pick<ClassEvent, 'id' | 'title' | 'date'>): Promise<number> {
  return (await classSeats(db, event, '')).taken;
}

/** Adds `row` at the end of its class's line; undefined when that e-mail is in it already. */
export async function insertWaitlistEntry(trx: Transaction<Database>, row: Insertable<ClassWaitlistTable>) {
  return trx
    .insertInto('classWaitlist')
    .values(row)
    .onConflict((oc) => oc.columns(['eventId', 'email']).doNothing())
    .returning(['id', 'seq'])
    .executeTakeFirst();
}

/** Where the entry of sequence `seq` stands in its class's line (1 = next). */
export async function waitlistPosition(trx: Transaction<Database>, eventId: string, seq: string): Promise<number> {
  const position = await trx
    .selectFrom('classWaitlist')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('eventId', '=', eventId)
    .where('seq', '<=', seq)
    .executeTakeFirstOrThrow();
  return Number(position.n);
}

/** The first in line for the class, its row held: two freed places take two different people. */
export async function takeFirstInLine(trx: Transaction<Database>, eventId: string) {
  const first = await trx
    .selectFrom('classWaitlist')
    .select(['id', 'name', 'email', 'phone', 'waiverAccepted', 'signaturePng', 'waiverRevision', 'waiverHash'])
    .where('eventId', '=', eventId)
    .orderBy('seq')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
  if (first) await trx.deleteFrom('classWaitlist').where('id', '=', first.id).execute();
  return first;
}

/** A waitlist entry with its class and its place in line (1 = next). */
export async function findWaitlistEntry(db: DB, id: string) {
  return db
    .selectFrom('classWaitlist as w')
    .innerJoin('events as e', 'e.id', 'w.eventId')
    .select((eb) => [
      'w.id',
      'w.name',
      'w.email',
      'e.title',
      'e.date',
      'e.time',
      'e.startsAt',
      'e.location',
      eb
        .selectFrom('classWaitlist as o')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('o.eventId', '=', 'w.eventId')
        .whereRef('o.seq', '<=', 'w.seq')
        .as('position'),
    ])
    .where('w.id', '=', id)
    .executeTakeFirst();
}

export async function deleteWaitlistEntry(db: DB, id: string): Promise<boolean> {
  const result = await db.deleteFrom('classWaitlist').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The admin's view: the waitlists of classes that have not started, class by class, in line order. */
export async function listWaitlists(db: DB, now: Date) {
  return db
    .selectFrom('classWaitlist as w')
    .innerJoin('events as e', 'e.id', 'w.eventId')
    .select(['w.id', 'w.eventId', 'w.name', 'w.email', 'w.phone', 'e.title', 'e.date', 'e.time'])
    .where('e.startsAt', '>', now)
    .orderBy('e.startsAt')
    .orderBy('w.eventId')
    .orderBy('w.seq')
    .execute();
}

/**
 * The sign-ups of `email` for classes that start after `now`, with their class, soonest first.
 * A sign-up belongs to its event by id, or by title and date (as classSeats counts).
 */
export async function upcomingPlacesOf(db: DB, email: string, now: Date) {
  const rows = await db
    .selectFrom('classSignups as s')
    .innerJoin('events as e', (join) =>
      join.on((eb) => eb.or([eb('e.id', '=', eb.ref('s.eventId')), eb.and([eb('e.title', '=', eb.ref('s.classTitle')), eb('e.date', '=', eb.ref('s.date'))])])),
    )
    .select(['s.id', 's.name', 'e.title', 'e.date', 'e.time', 'e.startsAt', 'e.location'])
    .where('s.email', '=', email)
    .where('e.startsAt', '>', now)
    .orderBy('e.startsAt')
    .orderBy('s.id')
    .execute();
  const seen = new Set<string>();
  return rows.filter((r) => !seen.has(r.id) && seen.add(r.id));
}

/**
 * Claims the day-before reminders due at `now`, in one conditional UPDATE: a row is returned to
 * exactly one caller however many processes run this at once. Due: the class starts in the next
 * 24 hours, and the sign-up was made more than 24 hours before it starts (a later one has just
 * had its confirmation or its "you're in" mail). The caller commits before any mail goes out.
 */
export async function claimDueClassReminders(trx: Transaction<Database>, now: Date) {
  return trx
    .updateTable('classSignups as s')
    .from('events as e')
    .set({ reminderSentAt: now })
    .whereRef('e.id', '=', 's.eventId')
    .where('s.reminderSentAt', 'is', null)
    .where('e.startsAt', '>', now)
    .where('e.startsAt', '<=', sql<Date>`${now}::timestamptz + interval '24 hours'`)
    .where('s.createdAt', '<', sql<Date>`e.starts_at - interval '24 hours'`)
    .returning(['s.id', 's.name', 's.email', 'e.title', 'e.date', 'e.time', 'e.startsAt', 'e.location'])
    .execute();
}
