/**
 * A client booking a slot. A slot and the session booked into it are one row; claiming it is
 * one conditional UPDATE, so of any number of concurrent claims exactly one changes the row
 * (the others wait for its row lock, then find booked_at set and change nothing).
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';

/** What the booking endpoints check before asking PayPal anything. */
export async function findSlotForBooking(db: DB, id: string) {
  return db.selectFrom('slots').select(['id', 'date', 'time', 'startsAt', 'bookedAt', 'duration']).where('id', '=', id).executeTakeFirst();
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
}

/**
 * Books the slot for `claim` if it is still free and in the future (the database's clock
 * decides); the booked row, or undefined when someone else got it first or its time has come.
 * Takes a transaction: the row lock it leaves is what keeps concurrent claims queued until the
 * caller has captured the payment (or rolled the claim back).
 */
export async function claimSlot(trx: Transaction<Database>, slotId: string, claim: Claim) {
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

/**
 * Frees a slot claimed for a payment that did not go through: only while it is still claimed by
 * that PayPal order. Takes the transaction that releases the payment attempt.
 */
export async function freeSlot(trx: Transaction<Database>, slotId: string, paypalOrderId: string): Promise<void> {
  await trx
    .updateTable('slots')
    .set({
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
    })
    .where('id', '=', slotId)
    .where('paypalOrderId', '=', paypalOrderId)
    .execute();
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
