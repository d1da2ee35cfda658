/**
 * The rows the client's data export reads (api/accounts/client-data.ts; issue 23, GDPR articles
 * 15 and 20): her account, and every row tied to it or to her address. Nothing about anyone else.
 */
import { sql } from 'kysely';
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
  // Issue 34: what she paid for class places (kept when a place is given back), and her tasting requests.
  const classPayments = await db.selectFrom('eventPayments').selectAll().where('email', '=', email).orderBy('createdAt').execute();
  const tastings = await db.selectFrom('tastingRequests').selectAll().where('email', '=', email).orderBy('createdAt').execute();
  const waitlist = await db.selectFrom('classWaitlist').selectAll().where('email', '=', email).orderBy('createdAt').execute();
  const subscriber = await db.selectFrom('subscribers').selectAll().where('email', '=', email).executeTakeFirst();
  const messages = await db.selectFrom('contactMessages').selectAll().where('email', '=', email).orderBy('createdAt').execute();
  const requests = await db.selectFrom('bookingRequests').selectAll().where('email', '=', email).orderBy('createdAt').execute();
  // Gift cards (issue 33) she bought or was given, by her address (a card needs no account), and
  // their rows; never the code (only its hash is kept), and a card given to her only once it went.
  const giftCards = await db
    .selectFrom('giftCards as g')
    .innerJoin('creditLots as l', 'l.id', 'g.lotId')
    .select(['g.id', 'g.lotId', 'g.codeLast4', 'g.design', 'g.buyerName', 'g.buyerEmail', 'g.recipientName', 'g.recipientEmail', 'g.message', 'g.sendOn'])
    .select(['g.deliveredAt', 'g.voidedAt', 'g.createdAt', 'l.quantity as amountCents'])
    .where((w) =>
      w.or([
        w(sql`lower(${sql.ref('g.buyerEmail')})`, '=', email.toLowerCase()),
        w.and([w(sql`lower(${sql.ref('g.recipientEmail')})`, '=', email.toLowerCase()), w('g.deliveredAt', 'is not', null)]),
      ]),
    )
    .orderBy('g.createdAt')
    .execute();
  const giftCardRows = giftCards.length
    ? await db
        .selectFrom('ledgerEntries')
        .select(['lotId', 'change', 'reason', 'orderId', 'slotId', 'createdAt'])
        .where(
          'lotId',
          'in',
          giftCards.map((g) => g.lotId),
        )
        .orderBy('createdAt')
        .execute()
    : [];
  return { user, slots, cancelled, orders, items, signups, classPayments, tastings, waitlist, subscriber, messages, requests, giftCards, giftCardRows };
}
