/**
 * Class sign-ups and the events they are for. A sign-up belongs to the class by its event id,
 * or by the class title and date it was made for (as api/classes/events.repo.ts classStatus counts).
 */
import { sql, type Insertable, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { ClassSignupsTable, Database } from '../../db/schema.ts';
import { instantKey, keysetPage } from '../lib/pages.repo.ts';

/** A class as sign-ups, give-backs and payments read it. */
export const classColumns = [
  'id',
  'title',
  'date',
  'time',
  'startsAt',
  'location',
  'isExternal',
  'capacity',
  'priceCents',
  'minPriceCents',
  'suggestedPriceCents',
  'maxPriceCents',
  'private',
  'cancelledAt',
] as const;

/**
 * Whether a sign-up row takes a place (issue 34): a free or paid place does; a place held for a
 * payment only until its hold lapses (the hold runner then deletes it and offers it on). Its
 * columns unqualified: events has none of these names, so it reads the same in a join.
 */
export const TAKES_A_PLACE = sql<boolean>`(payment is null or payment = 'paid' or held_until > now())`;

const classQuery = (db: DB | Transaction<Database>, title: string, date: string) =>
  db
    .selectFrom('events')
    .select(classColumns)
    .where('title', '=', title)
    .where('date', '=', date)
    // A private event (a tasting she sold) is in her agenda only, never open to sign-ups.
    .where('private', '=', false)
    .orderBy('startsAt')
    .orderBy('id')
    .limit(1);

/** The class `title` on `date`: the earliest, should two share a day, as class-status picks it. */
export async function findClass(db: DB, title: string, date: string) {
  return classQuery(db, title, date).executeTakeFirst();
}

/**
 * The same class, its row held (SELECT ... FOR UPDATE) until the transaction ends, so sign-ups
 * for one class are counted and added one at a time.
 */
export async function lockClass(trx: Transaction<Database>, title: string, date: string) {
  return classQuery(trx, title, date).forNoKeyUpdate().executeTakeFirst();
}
export type ClassEvent = NonNullable<Awaited<ReturnType<typeof findClass>>>;

/** A place held for a payment that has not lapsed: taken for now, free again at held_until unless paid. */
const LIVE_HOLD = sql<boolean>`(payment = 'held' and held_until > now())`;

/**
 * Places taken in the class and whether `email` holds one of them, in one query; of the taken,
 * how many are only held for a payment (issue 47) and when the first of those holds lapses.
 */
export async function classSeats(db: DB, event: Pick<ClassEvent, 'id' | 'title' | 'date'>, email: string) {
  const row = await db
    .selectFrom('classSignups')
    .select([
      sql<number>`count(*) filter (where ${TAKES_A_PLACE})::int`.as('taken'),
      sql<boolean>`coalesce(bool_or(email = ${email}), false)`.as('mine'),
      sql<number>`count(*) filter (where ${LIVE_HOLD})::int`.as('held'),
      sql<Date | null>`min(held_until) filter (where ${LIVE_HOLD})`.as('firstFree'),
    ])
    .where((eb) => eb.or([eb('eventId', '=', event.id), eb.and([eb('classTitle', '=', event.title), eb('date', '=', event.date)])]))
    .executeTakeFirstOrThrow();
  return { taken: row.taken, mine: row.mine, held: row.held, firstFree: row.firstFree === null ? null : new Date(row.firstFree) };
}

/** Adds a sign-up; undefined when this e-mail is signed up for this class title and date already. */
export async function insertSignup(db: DB, row: Insertable<ClassSignupsTable>) {
  return db
    .insertInto('classSignups')
    .values(row)
    .onConflict((oc) => oc.columns(['classTitle', 'date', 'email']).doNothing())
    .returning(['id', 'createdAt'])
    .executeTakeFirst();
}

/** Name, phone and signature of the student's latest sign-up with an accepted waiver. */
export async function latestStudentProfile(db: DB, email: string) {
  return db
    .selectFrom('classSignups')
    .select(['name', 'phone', 'signaturePng', 'waiverRevision', 'waiverHash'])
    .where('email', '=', email)
    .where('waiverAccepted', '=', true)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * A page of the admin's sign-ups (issue 36): latest class first, then the latest made, after the
 * cursor's keys, one row more than `limit`; `since` an instant (made at or after), `q` in the
 * name, e-mail or class. class_signups_date_created_at_id (0036) serves the order.
 */
export async function pageSignups(db: DB, page: { limit: number; after?: string[] | undefined; q?: string | undefined; since?: string | undefined }) {
  return db
    .selectFrom('classSignups')
    .select((eb) => [
      'id',
      'date',
      'classTitle',
      'name',
      'email',
      'phone',
      eb('signaturePng', 'is not', null).as('hasSignature'),
      'waiverRevision',
      'waiverHash',
      'createdAt',
      instantKey('class_signups.created_at').as('cursorAt'),
    ])
    .$if(page.since !== undefined, (w) => w.where('createdAt', '>=', new Date(page.since!)))
    .$call((w) => keysetPage(w, page, SIGNUP_KEYS, 'desc', ['name', 'email', 'class_title']))
    .execute();
}

/**
 * Places taken in each class dated `fromDay` or later (her events list's window): one row per
 * class, however many sign-ups (issue 36: the events page counted them from the whole list).
 */
export async function takenPlacesFrom(db: DB, fromDay: string) {
  return db
    .selectFrom('classSignups')
    .select(['classTitle', 'date', sql<number>`count(*)::int`.as('taken')])
    .where('date', '>=', fromDay)
    .groupBy(['classTitle', 'date'])
    .execute();
}

const SIGNUP_KEYS = [
  { column: 'class_signups.date', kind: 'day' },
  { column: 'class_signups.created_at', kind: 'instant' },
  { column: 'class_signups.id', kind: 'id' },
] as const;

/** Deletes a sign-up; inside a transaction holding its class's lock when a waitlist may take the place. */
export async function deleteSignup(db: DB, id: string): Promise<boolean> {
  const result = await db.deleteFrom('classSignups').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function findSignature(db: DB, id: string) {
  return db.selectFrom('classSignups').select('signaturePng').where('id', '=', id).executeTakeFirst();
}
