/**
 * The roster's SQL (issue 34): an event's sign-ups with their attendance, the marks themselves,
 * a walk-in's place, a weekly series' attendance and a client's classes. A sign-up belongs to
 * its event by id, or by the class title and date it was made for (as signups.repo.ts
 * classSeats counts). A place still being paid for ('held') is not yet an attendee.
 */
import { sql, type ExpressionBuilder, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';
import type { Attendance } from '../../contract/roster.ts';

type SignupOfEvent = ExpressionBuilder<Database & { s: Database['classSignups']; e: Database['events'] }, 's' | 'e'>;

/** The sign-up `s` is one of event `e`'s. */
const ofEvent = (eb: SignupOfEvent) =>
  eb.or([eb('s.eventId', '=', eb.ref('e.id')), eb.and([eb('s.classTitle', '=', eb.ref('e.title')), eb('s.date', '=', eb.ref('e.date'))])]);

/** The sign-up `s` holds a place: not one still being paid for. */
const notHeld = (eb: SignupOfEvent) => eb.or([eb('s.payment', 'is', null), eb('s.payment', '!=', 'held')]);

const eventColumns = ['id', 'title', 'date', 'time', 'startsAt', 'location', 'capacity', 'seriesId', 'cancelledAt'] as const;

export async function findRosterEvent(db: DB, eventId: string) {
  return db.selectFrom('events').select(eventColumns).where('id', '=', eventId).executeTakeFirst();
}
export type RosterEvent = NonNullable<Awaited<ReturnType<typeof findRosterEvent>>>;

/** The event's row, held until the transaction ends: the lock enrol() takes, so places are added one at a time. */
export async function lockRosterEvent(trx: Transaction<Database>, eventId: string) {
  return trx.selectFrom('events').select(eventColumns).where('id', '=', eventId).forUpdate().executeTakeFirst();
}

/** The event's sign-ups in the order they came. */
export async function rosterSignups(db: DB, eventId: string) {
  return db
    .selectFrom('classSignups as s')
    .innerJoin('events as e', (j) => j.on(ofEvent))
    .select((eb) => ['s.id', 's.name', 's.email', 's.phone', 's.attendance', 's.walkIn', 's.payment', eb('s.signaturePng', 'is not', null).as('hasSignature')])
    .where('e.id', '=', eventId)
    .orderBy('s.createdAt')
    .orderBy('s.id')
    .execute();
}

/**
 * The sign-up `signupId` of the event, its row held until the transaction ends, so two marks of
 * one person (two taps, two phones) are made one after the other and each sees the one before.
 */
export async function lockSignupOfEvent(trx: Transaction<Database>, eventId: string, signupId: string) {
  return trx
    .selectFrom('classSignups as s')
    .innerJoin('events as e', (j) => j.on(ofEvent))
    .select(['s.id', 's.email', 's.payment', 's.attendance', 's.attendanceAt'])
    .where('e.id', '=', eventId)
    .where('s.id', '=', signupId)
    .forUpdate('s')
    .executeTakeFirst();
}

export async function setAttendance(trx: Transaction<Database>, signupId: string, status: Attendance, at: Date) {
  return trx
    .updateTable('classSignups')
    .set({ attendance: status, attendanceAt: at })
    .where('id', '=', signupId)
    .returning(['attendance', 'attendanceAt'])
    .executeTakeFirstOrThrow();
}

/**
 * The past events of a series since `sinceDate` (her YYYY-MM-DD), oldest first, each with its
 * sign-ups (places being paid for left out), who came and who did not.
 */
export async function seriesAttendance(db: DB, seriesId: string, sinceDate: string, now: Date) {
  return db
    .selectFrom('events as e')
    .leftJoin('classSignups as s', (j) => j.on((eb) => eb.and([ofEvent(eb), notHeld(eb)])))
    .select([
      'e.id',
      'e.date',
      'e.capacity',
      sql<number>`count(s.id)::int`.as('signedUp'),
      sql<number>`(count(s.id) filter (where s.attendance = 'present'))::int`.as('present'),
      sql<number>`(count(s.id) filter (where s.attendance = 'noShow'))::int`.as('noShow'),
    ])
    .where('e.seriesId', '=', seriesId)
    .where('e.date', '>=', sinceDate)
    .where('e.startsAt', '<=', now)
    .groupBy(['e.id', 'e.date', 'e.capacity', 'e.startsAt'])
    .orderBy('e.startsAt')
    .orderBy('e.id')
    .execute();
}

/**
 * The classes `email` signed up for, latest first, with their event when it still exists; a
 * place still being paid for is left out. One row per sign-up, should two events share a title and day.
 */
export async function classesOfEmail(db: DB, email: string) {
  const rows = await db
    .selectFrom('classSignups as s')
    .leftJoin('events as e', (j) => j.on(ofEvent))
    .select(['s.id', 's.classTitle', 's.date', 's.attendance', 's.walkIn', 'e.id as eventId', 'e.time', 'e.startsAt'])
    .where('s.email', '=', email)
    .where(notHeld)
    .orderBy('s.date', 'desc')
    .orderBy('e.startsAt', 'desc')
    .orderBy('s.id')
    .execute();
  const seen = new Set<string>();
  return rows.filter((r) => !seen.has(r.id) && seen.add(r.id));
}
