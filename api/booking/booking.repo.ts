/**
 * A client booking a slot. A slot and the session booked into it are one row; claiming it is
 * one conditional UPDATE, so of any number of concurrent claims exactly one changes the row
 * (the others wait for its row lock, then find booked_at set and change nothing).
 */
import { sql, type Insertable, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { BookingCancellationsTable, Database } from '../../db/schema.ts';
import { bookerColumns } from './slots.repo.ts';

/** What the booking endpoints check before asking PayPal anything. */
export async function findSlotForBooking(db: DB, id: string) {
  return db
    .selectFrom('slots')
    .select(['id', 'date', 'time', 'startsAt', 'bookedAt', 'bookedBy', 'duration', 'place', 'online'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export interface Claim {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  sessionType: string;
  message: string;
  /** Paid amount; null with the coupon. */
  amountCents: number | null;
  couponUsed: boolean;
  paypalOrderId: string | null;
  /** Booked with a credit of this lot (issue 32); nothing paid now. */
  creditLotId?: string | null;
}

/**
 * Books the slot for `claim` if it is still free and in the future (the database's clock
 * decides); the booked row, or undefined when someone else got it first or its time has come.
 * Takes a transaction: the row lock it leaves is what keeps concurrent claims queued until the
 * caller has captured the payment (or rolled the claim back). An online slot takes `onlineLink`
 * (her meeting room, api/settings/meeting-room.ts; null: it will follow), an in-person one none.
 */
export async function claimSlot(trx: Transaction<Database>, slotId: string, claim: Claim, onlineLink: string | null = null) {
  return trx
    .updateTable('slots')
    .set({
      bookedBy: claim.userId,
      bookedAt: sql<Date>`now()`,
      firstName: claim.firstName,
      lastName: claim.lastName,
      email: claim.email,
      sessionType: claim.sessionType,
      message: claim.message,
      amountCents: claim.amountCents,
      couponUsed: claim.couponUsed,
      paypalOrderId: claim.paypalOrderId,
      creditLotId: claim.creditLotId ?? null,
      link: sql<string | null>`case when online then ${onlineLink}::text else null end`,
    })
    .where('id', '=', slotId)
    .where('bookedAt', 'is', null)
    .where('startsAt', '>', sql<Date>`now()`)
    .returningAll()
    .executeTakeFirst();
}

/** A slot as booked by claimSlot. */
export type BookedSlot = NonNullable<Awaited<ReturnType<typeof claimSlot>>>;

/** A booked slot as claimSlot returns it, read again (to answer a replay, or to mail a recovered booking). */
export async function findBookedSlot(db: DB, slotId: string, paypalOrderId: string): Promise<BookedSlot | undefined> {
  return db.selectFrom('slots').selectAll().where('id', '=', slotId).where('paypalOrderId', '=', paypalOrderId).executeTakeFirst();
}

/** The columns that make a slot booked, all cleared: the slot is free for anyone again. */
const freed = {
  bookedBy: null,
  bookedAt: null,
  firstName: null,
  lastName: null,
  email: null,
  sessionType: null,
  message: null,
  amountCents: null,
  couponUsed: false,
  paypalOrderId: null,
  creditLotId: null,
  seriesId: null,
  calendarUid: null,
  calendarSequence: 0,
  // An online session's link was its booking's (issue 35): the next booking gets its own.
  link: null,
  // The next booking of this slot gets its own reminders.
  reminderDaySentAt: null,
  reminderSoonSentAt: null,
} as const;

/**
 * Frees a slot claimed for a payment that did not go through: only while it is still claimed by
 * that PayPal order. Takes the transaction that releases the payment attempt.
 */
export async function freeSlot(trx: Transaction<Database>, slotId: string, paypalOrderId: string): Promise<void> {
  await trx.updateTable('slots').set(freed).where('id', '=', slotId).where('paypalOrderId', '=', paypalOrderId).execute();
}

/**
 * How many sessions the client has booked with the coupon. Locks the client's row first, so two
 * concurrent coupon bookings of one client count one after the other: both cannot pass at the limit.
 */
export async function lockAndCountCouponBookings(trx: Transaction<Database>, userId: string): Promise<number> {
  // FOR NO KEY UPDATE: queues coupon bookings of one client, yet lets a paid booking's attempt
  // (whose foreign key takes KEY SHARE on the client's row) through, so the two never deadlock.
  await trx.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().execute();
  const row = await trx
    .selectFrom('slots')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('bookedBy', '=', userId)
    .where('couponUsed', '=', true)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** The booking columns a client's cancel and reschedule read, locked for the change. */
const bookingColumns = [
  'id',
  'date',
  'time',
  'startsAt',
  'duration',
  ...bookerColumns,
  'amountCents',
  'couponUsed',
  'paypalOrderId',
  'creditLotId',
  'seriesId',
  'calendarUid',
  'calendarSequence',
  'place',
  'online',
  'link',
] as const;

/**
 * Locks slot rows FOR UPDATE in id order and returns them by id. Every change that touches two
 * slots (a reschedule) goes through here, so two changes lock in the same order and never
 * deadlock; a booking's claim (claimSlot) locks one row only.
 */
export async function lockSlots(trx: Transaction<Database>, ids: string[]) {
  const sorted = [...new Set(ids)].sort();
  const rows = [];
  // One statement per row, in order: a single `IN (...) FOR UPDATE` locks in scan order, which the plan chooses.
  for (const id of sorted) {
    const row = await trx.selectFrom('slots').select(bookingColumns).where('id', '=', id).forUpdate().executeTakeFirst();
    if (row) rows.push(row);
  }
  return new Map(rows.map((r) => [r.id, r]));
}

/** A slot row as lockSlots returns it. */
export type LockedSlot = NonNullable<ReturnType<Awaited<ReturnType<typeof lockSlots>>['get']>>;

/** Frees a booked slot its client cancelled or moved away from; takes the transaction holding its lock (lockSlots). */
export async function releaseBookedSlot(trx: Transaction<Database>, slotId: string): Promise<void> {
  await trx.updateTable('slots').set(freed).where('id', '=', slotId).execute();
}

/**
 * Moves the booking of `from` onto the free slot `to`, payment and all, with the calendar entry's
 * UID and its next SEQUENCE; frees `from`. Both rows must be locked by the caller (lockSlots) and
 * `to` checked free; undefined (the caller must roll back) when `to` was not free after all. The payment attempt follows the booking, so a late replay of its PayPal
 * order finds the booking where it now is. Onto an online slot the session takes `onlineLink`
 * (issue 35: her room as it is now), onto an in-person one it carries none.
 */
export async function moveBooking(
  trx: Transaction<Database>,
  from: LockedSlot,
  toId: string,
  calendar: { uid: string; sequence: number },
  onlineLink: string | null = null,
) {
  // The old slot first: a PayPal order books one slot at most (unique), so it must leave before it lands.
  // When the target turns out taken the caller throws, and the rollback books the old slot again.
  await releaseBookedSlot(trx, from.id);
  const moved = await trx
    .updateTable('slots')
    .set({
      bookedBy: from.bookedBy,
      bookedAt: from.bookedAt,
      firstName: from.firstName,
      lastName: from.lastName,
      email: from.email,
      sessionType: from.sessionType,
      message: from.message,
      amountCents: from.amountCents,
      couponUsed: from.couponUsed,
      paypalOrderId: from.paypalOrderId,
      creditLotId: from.creditLotId,
      // A moved session of a weekly series stays in it (issue 32).
      seriesId: from.seriesId,
      calendarUid: calendar.uid,
      calendarSequence: calendar.sequence,
      reminderDaySentAt: null,
      reminderSoonSentAt: null,
      link: sql<string | null>`case when online then ${onlineLink}::text else null end`,
    })
    .where('id', '=', toId)
    .where('bookedAt', 'is', null)
    .returning(bookingColumns)
    .executeTakeFirst();
  if (!moved) return undefined;
  if (from.paypalOrderId) {
    await trx
      .updateTable('paymentAttempts')
      .set({ slotId: toId, updatedAt: sql<Date>`now()` })
      .where('paypalOrderId', '=', from.paypalOrderId)
      .execute();
  }
  return moved;
}

/** A client's cancellation, recorded in the transaction that frees the slot. */
export async function recordCancellation(
  trx: Transaction<Database>,
  c: Omit<Insertable<BookingCancellationsTable>, 'id' | 'createdAt' | 'updatedAt'>,
): Promise<string> {
  const row = await trx.insertInto('bookingCancellations').values(c).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** How the refund of a cancelled session ended (after PayPal answered, no transaction open). */
export async function settleCancellationRefund(db: DB, id: string, outcome: { state: 'refunded' | 'failed'; refundId?: string | null; note: string }) {
  await db
    .updateTable('bookingCancellations')
    .set({ refundState: outcome.state, refundId: outcome.refundId ?? null, refundNote: outcome.note, updatedAt: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}

/**
 * Cancelled sessions whose PayPal refund is still owed (issue 47): PayPal refused it ('failed'), or
 * a crash left it 'pending' after the cancellation's commit (untouched since `staleBefore`). The
 * refund runner's work, oldest first.
 */
export async function owedCancellationRefunds(db: DB, staleBefore: Date, limit = 50) {
  return db
    .selectFrom('bookingCancellations')
    .select(['id', 'slotId', 'paypalOrderId', 'paypalCaptureId'])
    .where('paypalOrderId', 'is not', null)
    .where((eb) => eb.or([eb('refundState', '=', 'failed'), eb.and([eb('refundState', '=', 'pending'), eb('updatedAt', '<', staleBefore)])]))
    .orderBy('createdAt')
    .limit(limit)
    .execute();
}

/** The admin's list of clients' cancellations, newest first (refunds that failed are there to make by hand). */
export async function listCancellations(db: DB, limit = 200) {
  return db.selectFrom('bookingCancellations').selectAll().orderBy('createdAt', 'desc').limit(limit).execute();
}
