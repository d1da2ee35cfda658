/**
 * The rows the client's data export reads (api/accounts/client-data.ts; issue 23, GDPR articles
 * 15 and 20): her account, and every row tied to it or to her address. Nothing about anyone else.
 */
import type { DB } from '../../db/client.ts';

/** Her account and every row tied to it or to her address, in the export's order; undefined without an account. */
export async function clientRows(db: DB, userId: string) {
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!user) return undefined;
  const email = user.email;
  const slots = await db.selectFrom('slots').selectAll().where('bookedBy', '=', userId).orderBy('startsAt').execute();
  const cancelled = await db.selectFrom('bookingCancellations').selectAll().where('userId', '=', userId).orderBy('createdAt').execute();
  const orders = await db.selectFrom('orders').selectAll().where('payerEmail', '=', email).orderBy('createdAt').execute();
  const items = orders.length
    ? await db
        .selectFrom('orderItems')
        .selectAll()
        .where(
          'orderId',
          'in',
          orders.map((o) => o.id),
        )
        .execute()
    : [];
  const signups = await db.selectFrom('classSignups').selectAll().where('email', '=', email).orderBy('createdAt').execute();
  const waitlist = await db.selectFrom('classWaitlist').selectAll().where('email', '=', email).orderBy('createdAt').execute();
  const subscriber = await db.selectFrom('subscribers').selectAll().where('email', '=', email).executeTakeFirst();
  const messages = await db.selectFrom('contactMessages').selectAll().where('email', '=', email).orderBy('createdAt').execute();
  const requests = await db.selectFrom('bookingRequests').selectAll().where('email', '=', email).orderBy('createdAt').execute();
  return { user, slots, cancelled, orders, items, signups, waitlist, subscriber, messages, requests };
}
