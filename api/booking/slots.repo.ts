/**
 * Bookable slots and the sessions booked into them: one table, a booked slot has booked_at.
 * "Past" is decided by starts_at, the instant the teacher's date and time denote.
 */
import type { DB } from '../../db/client.ts';

const free = ['id', 'date', 'time', 'startsAt', 'place', 'online'] as const;
const booked = [
  ...free,
  'bookedBy',
  'bookedAt',
  'firstName',
  'lastName',
  'email',
  'sessionType',
  'message',
  'duration',
  'link',
  'couponUsed',
  'amountCents',
  'creditLotId',
] as const;

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

/** The admin's view: every future slot, and booked ones whatever their time, in time order. */
export async function listSlotsForAdmin(db: DB, now: Date) {
  return db
    .selectFrom('slots')
    .select(booked)
    .where((w) => w.or([w('startsAt', '>', now), w('bookedAt', 'is not', null)]))
    .orderBy('startsAt')
    .orderBy('id')
    .execute();
}

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
