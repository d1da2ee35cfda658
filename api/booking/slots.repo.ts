/**
 * Bookable slots and the sessions booked into them: one table, a booked slot has booked_at.
 * "Past" is decided by starts_at, the instant the teacher's date and time denote.
 */
import type { DB } from '../../db/client.ts';
import { instantKey, instantThenId, keysetPage } from '../lib/pages.repo.ts';

const free = ['id', 'date', 'time', 'startsAt', 'place', 'online'] as const;
/** Who booked a slot and what she wrote: the columns a booking adds to a free slot. */
export const bookerColumns = ['bookedBy', 'bookedAt', 'firstName', 'lastName', 'email', 'sessionType', 'message'] as const;
const booked = [...free, ...bookerColumns, 'duration', 'link', 'couponUsed', 'amountCents', 'creditLotId'] as const;

/** Inserts the slots whose date and time are new; returns those inserted (with their length, for the agenda's warning). */
export async function insertSlots(db: DB, slots: { date: string; time: string; startsAt: Date; place: string; online?: boolean }[]) {
  if (slots.length === 0) return [];
  return db
    .insertInto('slots')
    .values(slots)
    .onConflict((oc) => oc.columns(['date', 'time']).doNothing())
    .returning([...free, 'duration'])
    .execute();
}

/**
 * A page of one of the admin's lists (issue 36): the free slots ahead and the sessions to come,
 * soonest first; the passed sessions, latest first; after the cursor's keys, one row more than
 * `limit`. `q` (a client's name or e-mail) and `from`/`to` (her dates) narrow the sessions; the
 * free slots ahead stay as they are (a search for a client leaves her free times in view). slots_free_starts_at_id and slots_booked_starts_at_id (0036) serve them.
 */
export async function pageSlotsForAdmin(
  db: DB,
  now: Date,
  list: 'available' | 'booked' | 'passed',
  page: { limit: number; after?: string[] | undefined; q?: string | undefined; from?: string | undefined; to?: string | undefined },
) {
  const direction = list === 'passed' ? 'desc' : 'asc';
  return db
    .selectFrom('slots')
    .select([...booked, instantKey('slots.starts_at').as('cursorAt')])
    .$call((w) => (list === 'available' ? w.where('bookedAt', 'is', null) : w.where('bookedAt', 'is not', null)))
    .$call((w) => (list === 'passed' ? w.where('startsAt', '<=', now) : w.where('startsAt', '>', now)))
    .$if(list !== 'available' && page.from !== undefined, (w) => w.where('date', '>=', page.from!))
    .$if(list !== 'available' && page.to !== undefined, (w) => w.where('date', '<=', page.to!))
    .$call((w) => keysetPage(w, page, SLOT_KEYS, direction, list === 'available' ? [] : ['first_name', 'last_name', 'email']))
    .execute();
}

const SLOT_KEYS = instantThenId('slots.starts_at', 'slots.id');

/** A client's view: future free slots, and the client's own sessions (past ones too). */
/**
 * The free slots from now on (only those dated `from`..`to`, the teacher's dates, when given: the
 * month her calendar shows, issue 25) and every session of the client's own.
 */
export async function listSlotsForClient(db: DB, userId: string, now: Date, range: { from?: string | undefined; to?: string | undefined } = {}) {
  return db
    .selectFrom('slots')
    .select([...booked, 'seriesId'])
    .where((w) => {
      const free = [w('bookedAt', 'is', null), w('startsAt', '>', now)];
      if (range.from !== undefined) free.push(w('date', '>=', range.from));
      if (range.to !== undefined) free.push(w('date', '<=', range.to));
      return w.or([w.and(free), w('bookedBy', '=', userId)]);
    })
    .orderBy('startsAt')
    .orderBy('id')
    .execute();
}

/**
 * Deletes a slot or a booked session; undefined when there was none. Returns the booking as it
 * was, from the same statement, so the client can be told about a cancelled session: the e-mail
 * is the booking's copy, the address its confirmation went to.
 */
export async function deleteSlot(db: DB, id: string) {
  return db
    .deleteFrom('slots')
    .where('id', '=', id)
    .returning([
      'id',
      'startsAt',
      'bookedAt',
      'bookedBy',
      'firstName',
      'lastName',
      'email',
      'sessionType',
      'duration',
      'amountCents',
      'calendarUid',
      'calendarSequence',
    ])
    .executeTakeFirst();
}

/** A slot with what a change of its place needs to tell its client (issue 20). */
export async function findSlotWithBooking(db: DB, id: string) {
  return db
    .selectFrom('slots')
    .select([...booked, 'calendarUid', 'calendarSequence'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Sets a slot's place. A booked session's calendar entry moves to its next revision with it (its
 * UID stored, `derivedUid` when it had none yet; SEQUENCE + 1), so the updated .ics mailed to the
 * client replaces the one their calendar holds. The slot as changed, or undefined when there is
 * no such slot.
 */
export async function setSlotPlace(db: DB, id: string, place: string, derivedUid: string | null) {
  return db
    .updateTable('slots')
    .set((eb) =>
      derivedUid === null
        ? { place }
        : { place, calendarUid: eb.fn.coalesce('calendarUid', eb.val(derivedUid)), calendarSequence: eb('calendarSequence', '+', 1) },
    )
    .where('id', '=', id)
    .returning([...booked, 'calendarUid', 'calendarSequence'])
    .executeTakeFirst();
}
