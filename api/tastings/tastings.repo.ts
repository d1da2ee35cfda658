/**
 * The tastings' SQL (issue 34, db/migrations/0031_tastings.ts): requests, her quotes, their
 * payments, and the private event a paid deposit holds in her agenda.
 */
import { sql, type Selectable, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database, TastingPaymentsTable, TastingQuotesTable, TastingRequestsTable } from '../../db/schema.ts';

type Handle = DB | Transaction<Database>;

export type TastingRequestRow = Selectable<TastingRequestsTable>;
export type TastingQuoteRow = Selectable<TastingQuotesTable>;
export type TastingPaymentRow = Selectable<TastingPaymentsTable>;

/** A quote with the request it answers: what the pay page and the mails need. */
export type QuoteWithRequest = TastingQuoteRow & Pick<TastingRequestRow, 'name' | 'email' | 'occasion' | 'guests'>;

export async function insertRequest(trx: Transaction<Database>, r: Omit<TastingRequestRow, 'id' | 'createdAt'>): Promise<string> {
  const row = await trx
    .insertInto('tastingRequests')
    .values({ ...r, dates: JSON.stringify(r.dates) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findRequest(db: Handle, id: string): Promise<TastingRequestRow | undefined> {
  return db.selectFrom('tastingRequests').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every request, newest first, with its quote (if any) and that quote's payments. */
export async function listTastings(db: DB) {
  const [requests, quotes, payments] = await Promise.all([
    db.selectFrom('tastingRequests').selectAll().orderBy('createdAt', 'desc').orderBy('id').execute(),
    db.selectFrom('tastingQuotes').selectAll().execute(),
    db.selectFrom('tastingPayments').selectAll().orderBy('createdAt').execute(),
  ]);
  return { requests, quotes, payments };
}

/**
 * Her quote for a request: a new one, or the one she sent changed, while its deposit is unpaid.
 * Undefined when the deposit came in (the day is held: the quote stays as paid).
 */
export async function upsertQuote(
  trx: Transaction<Database>,
  requestId: string,
  q: Pick<TastingQuoteRow, 'priceCents' | 'depositCents' | 'date' | 'time' | 'place'>,
): Promise<TastingQuoteRow | undefined> {
  return trx
    .insertInto('tastingQuotes')
    .values({ requestId, ...q })
    .onConflict((oc) =>
      oc
        .column('requestId')
        .doUpdateSet({ ...q, updatedAt: sql<Date>`now()` })
        .where('tastingQuotes.depositPaidAt', 'is', null),
    )
    .returningAll()
    .executeTakeFirst();
}

const quoteWithRequest = (db: Handle) =>
  db
    .selectFrom('tastingQuotes as q')
    .innerJoin('tastingRequests as r', 'r.id', 'q.requestId')
    .selectAll('q')
    .select(['r.name', 'r.email', 'r.occasion', 'r.guests']);

export async function findQuote(db: Handle, quoteId: string): Promise<QuoteWithRequest | undefined> {
  return quoteWithRequest(db).where('q.id', '=', quoteId).executeTakeFirst();
}

export async function quoteOfRequest(db: Handle, requestId: string): Promise<QuoteWithRequest | undefined> {
  return quoteWithRequest(db).where('q.requestId', '=', requestId).executeTakeFirst();
}

/** The quote, locked until the transaction ends: what is due is decided under it. */
export async function lockQuote(trx: Transaction<Database>, quoteId: string): Promise<QuoteWithRequest | undefined> {
  await trx.selectFrom('tastingQuotes').select('id').where('id', '=', quoteId).forUpdate().executeTakeFirst();
  return findQuote(trx, quoteId);
}

export async function paymentsOf(db: Handle, quoteId: string): Promise<TastingPaymentRow[]> {
  return db.selectFrom('tastingPayments').selectAll().where('quoteId', '=', quoteId).orderBy('createdAt').execute();
}

/** The payment a PayPal order made, if it made one. */
export async function paymentOfOrder(db: Handle, paypalOrderId: string): Promise<TastingPaymentRow | undefined> {
  return db.selectFrom('tastingPayments').selectAll().where('paypalOrderId', '=', paypalOrderId).executeTakeFirst();
}

/** Records a payment; undefined when that part of the quote was paid already (one of each). */
export async function insertPayment(
  trx: Transaction<Database>,
  p: Omit<TastingPaymentRow, 'id' | 'createdAt' | 'refund'>,
): Promise<TastingPaymentRow | undefined> {
  return trx
    .insertInto('tastingPayments')
    .values(p)
    .onConflict((oc) => oc.columns(['quoteId', 'part']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/**
 * The private event that holds a paid tasting's day in her agenda (events.private, 0030): never
 * on the public calendar, never open to sign-ups; its places are the guests.
 */
export async function insertPrivateEvent(
  trx: Transaction<Database>,
  e: { title: string; date: string; time: string; startsAt: Date; location: string; capacity: number },
): Promise<string> {
  const row = await trx
    .insertInto('events')
    .values({ ...e, private: true })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function markDepositPaid(trx: Transaction<Database>, quoteId: string, eventId: string): Promise<void> {
  await trx
    .updateTable('tastingQuotes')
    .set({ depositPaidAt: sql<Date>`now()`, eventId, updatedAt: sql<Date>`now()` })
    .where('id', '=', quoteId)
    .execute();
}
