/**
 * What the erasure of a person reads and changes of the tastings (api/tastings/tastings-of-deleted-account.ts;
 * issue 47, decision 0053), each in the erasure's one transaction. Her requests are found by her
 * exact address (lower-cased, as the form's schema stores it), never by a search of the words.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';

type Trx = Transaction<Database>;

/** Her tastings booked (deposit paid), not called off, still to come at `now`: locked until the erasure commits. */
export async function lockComingTastingsOf(trx: Trx, email: string, now: Date) {
  return trx
    .selectFrom('tastingQuotes as q')
    .innerJoin('tastingRequests as r', 'r.id', 'q.requestId')
    .innerJoin('events as e', 'e.id', 'q.eventId')
    .select(['q.id', 'q.date', 'q.time', 'q.priceCents', 'q.eventId', 'r.guests', 'e.startsAt'])
    .where('r.email', '=', email)
    .where('q.depositPaidAt', 'is not', null)
    .where('q.cancelledAt', 'is', null)
    .where('e.startsAt', '>', now)
    .orderBy('e.startsAt')
    .forUpdate()
    .execute();
}

/** The tasting is called off: its quote and the private event that held the day (out of her agenda). */
export async function cancelTasting(trx: Trx, quote: { id: string; eventId: string | null }): Promise<void> {
  await trx
    .updateTable('tastingQuotes')
    .set({ cancelledAt: sql<Date>`now()`, updatedAt: sql<Date>`now()` })
    .where('id', '=', quote.id)
    .execute();
  if (quote.eventId)
    await trx
      .updateTable('events')
      .set({ cancelledAt: sql<Date>`now()` })
      .where('id', '=', quote.eventId)
      .where('cancelledAt', 'is', null)
      .execute();
}

/** The quote's payments, kept ones only. */
export async function keptPaymentsOf(trx: Trx, quoteId: string) {
  return trx.selectFrom('tastingPayments').selectAll().where('quoteId', '=', quoteId).where('refund', 'is', null).orderBy('createdAt').execute();
}

/** Tasting payments owed back through PayPal and not yet refunded, oldest first: the refund runner's work. */
export async function dueTastingRefunds(db: DB, limit = 50) {
  return db
    .selectFrom('tastingPayments')
    .select(['id', 'paypalCaptureId', 'amountCents'])
    .where('refund', '=', 'due')
    .where('method', '=', 'paypal')
    .where('paypalCaptureId', 'is not', null)
    .orderBy('createdAt')
    .limit(limit)
    .execute();
}

/** These payments are owed back (made after the commit by PayPal). */
export async function oweTastingRefunds(trx: Trx, paymentIds: readonly string[]): Promise<void> {
  if (paymentIds.length === 0) return;
  await trx.updateTable('tastingPayments').set({ refund: 'due' }).where('id', 'in', paymentIds).execute();
}

export async function markTastingRefunded(db: DB, paymentId: string): Promise<void> {
  await db.updateTable('tastingPayments').set({ refund: 'refunded' }).where('id', '=', paymentId).where('refund', '=', 'due').execute();
}

/**
 * Who goes from every tasting of hers, past or to come: the request's name, address, phone,
 * place and occasion; the quote's place; the private event's title and place; PayPal's name for
 * the payer on their attempts. The money (price,
 * deposit, payments, days) stays for the books. The private events' ids (their calendar events).
 */
export async function eraseTastingsOf(trx: Trx, email: string): Promise<string[]> {
  const requests = await trx.selectFrom('tastingRequests').select('id').where('email', '=', email).execute();
  if (requests.length === 0) return [];
  const ids = requests.map((r) => r.id);
  const quotes = await trx.updateTable('tastingQuotes').set({ place: '' }).where('requestId', 'in', ids).returning(['id', 'eventId']).execute();
  const eventIds = quotes.flatMap((q) => (q.eventId ? [q.eventId] : []));
  // Their payments' attempts name no one but PayPal's first name for the payer, reached by the quote.
  if (quotes.length) {
    await trx
      .updateTable('paymentAttempts')
      .set({ payerFirstName: null })
      .where('kind', '=', 'tasting')
      .where(
        sql<string>`details->>'quoteId'`,
        'in',
        quotes.map((q) => q.id),
      )
      .execute();
  }
  if (eventIds.length) await trx.updateTable('events').set({ title: 'Private tasting', location: '' }).where('id', 'in', eventIds).execute();
  await trx.updateTable('tastingRequests').set({ name: '', email: '', phone: '', place: '', occasion: '' }).where('id', 'in', ids).execute();
  return eventIds;
}
