/**
 * A client booking a slot. A slot and the session booked into it are one row; claiming it is
 * one conditional UPDATE, so of any number of concurrent claims exactly one changes the row
 * (the others wait for its row lock, then find booked_at set and change nothing).
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../client.ts';
import type { Database } from '../schema.ts';

type Q = DB | Transaction<Database>;

/** What the booking endpoints check before asking PayPal anything. */
export async function findSlotForBooking(db: Q, id: string) {
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
 */
export async function claimSlot(db: Q, slotId: string, claim: Claim) {
  return db
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
