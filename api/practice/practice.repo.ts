/**
 * The practice's reads of rows that are not private (issue 31: SQL in repos only): the client,
 * her booked sessions and orders for the record page, the session a note belongs to, whether she
 * has booked before. The private rows (answers, notes, the access log) are records.ts's alone.
 */
import type { DB } from '../../db/client.ts';
import type { User } from '../../db/schema.ts';

/** The client's account, or undefined. */
export async function findClient(db: DB, userId: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

/** Whether an account by that id exists. */
export async function clientExists(db: DB, userId: string): Promise<boolean> {
  return !!(await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst());
}

/** Whose session `slotId` is: its booker, or (a session cancelled after she wrote notes) the latest note's client. */
export async function clientOfSession(db: DB, slotId: string): Promise<string | null> {
  const slot = await db.selectFrom('slots').select(['bookedBy']).where('id', '=', slotId).executeTakeFirst();
  const earlier = await db.selectFrom('sessionNotes').select('userId').where('slotId', '=', slotId).orderBy('createdAt', 'desc').limit(1).executeTakeFirst();
  return slot?.bookedBy ?? earlier?.userId ?? null;
}

/** Whether the client ever booked a session (one booked now, or one cancelled since). */
export async function hasBookedBefore(db: DB, userId: string): Promise<boolean> {
  const booked = await db.selectFrom('slots').select('id').where('bookedBy', '=', userId).limit(1).executeTakeFirst();
  if (booked) return true;
  const cancelled = await db.selectFrom('bookingCancellations').select('id').where('userId', '=', userId).limit(1).executeTakeFirst();
  return !!cancelled;
}

/** The sessions the client has booked, for her record page. */
export async function bookedSessionsOf(db: DB, userId: string) {
  return db
    .selectFrom('slots')
    .select(['id', 'date', 'time', 'startsAt', 'sessionType', 'amountCents', 'couponUsed', 'bookedAt'])
    .where('bookedBy', '=', userId)
    .execute();
}

/** When a session was (a note's session no longer booked by the client), or undefined. */
export async function sessionTimeOf(db: DB, slotId: string) {
  return db.selectFrom('slots').select(['date', 'time', 'startsAt']).where('id', '=', slotId).executeTakeFirst();
}

/** The packages the client paid for (on the site or sold by her by hand), with how they were paid. */
export async function packagesBoughtBy(db: DB, userId: string) {
  return db
    .selectFrom('creditLots')
    .select(['name', 'priceCents', 'method', 'createdAt'])
    .where('userId', '=', userId)
    .where('packageId', 'is not', null)
    .where('priceCents', '>', 0)
    .execute();
}

/** The chocolate orders bought with the client's address. */
export async function ordersOf(db: DB, email: string) {
  return db.selectFrom('orders').select(['createdAt', 'totalCents', 'status']).where('payerEmail', '=', email).execute();
}
