/**
 * Payment attempts (db/migrations/0005_payment_attempts.ts; docs/decisions/0012): every move is
 * one conditional UPDATE guarded by the state it leaves, so of the checkout, a buyer's retry,
 * the reconcilers of every replica and PayPal's webhook, exactly one makes each move.
 *
 *   claimed ─► capturing ─► completed   (order stored / booking confirmed, mails sent)
 *      │           │
 *      └───────────┴─────► released    (tins back / slot free, PayPal order left uncaptured)
 *
 * A released attempt is opened again by a new checkout of the same PayPal order (the buyer
 * tries again): its claim is then taken afresh.
 */
import { sql, type Selectable, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database, PaymentAttemptsTable, PaymentSettler } from '../../db/schema.ts';

export type PaymentAttempt = Selectable<PaymentAttemptsTable>;

export const OPEN_STATES = ['claimed', 'capturing'] as const;

export const isOpen = (a: Pick<PaymentAttempt, 'state'>) => a.state === 'claimed' || a.state === 'capturing';

/** What opening an attempt records: the table's own fields (db/schema.ts), and who holds it. */
export type NewAttempt = Pick<
  Selectable<PaymentAttemptsTable>,
  'kind' | 'paypalOrderId' | 'paypalRequestId' | 'amountCents' | 'currency' | 'slotId' | 'userId' | 'details'
> & { claimedBy: string };

/**
 * Records the attempt, in the transaction that claims what it pays for: a new one, or a released
 * one of the same PayPal order opened again. Undefined when the PayPal order already has an open
 * or completed attempt (a concurrent or later replay): the caller rolls its claim back and follows
 * that attempt instead. A concurrent insert of the same PayPal order waits here until this
 * transaction ends.
 */
export async function openAttempt(trx: Transaction<Database>, a: NewAttempt): Promise<PaymentAttempt | undefined> {
  const values = { ...a, details: JSON.stringify(a.details), state: 'claimed' as const };
  return trx
    .insertInto('paymentAttempts')
    .values(values)
    .onConflict((oc) =>
      oc
        .column('paypalOrderId')
        .doUpdateSet({
          amountCents: a.amountCents,
          currency: a.currency,
          slotId: a.slotId,
          userId: a.userId,
          details: values.details,
          state: 'claimed',
          claimedBy: a.claimedBy,
          claimedAt: sql<Date>`now()`,
          settledBy: null,
          outcome: null,
          updatedAt: sql<Date>`now()`,
        })
        .where('paymentAttempts.state', '=', 'released'),
    )
    .returningAll()
    .executeTakeFirst();
}

export async function findAttempt(db: DB, paypalOrderId: string): Promise<PaymentAttempt | undefined> {
  return db.selectFrom('paymentAttempts').selectAll().where('paypalOrderId', '=', paypalOrderId).executeTakeFirst();
}

/** Before the capture call: from here the PayPal order may be captured, so only PayPal can say how it ended. */
export async function markCapturing(db: DB, id: string, holder: string): Promise<void> {
  await db
    .updateTable('paymentAttempts')
    .set({ state: 'capturing', claimedAt: sql<Date>`now()`, updatedAt: sql<Date>`now()` })
    .where('id', '=', id)
    .where('state', '=', 'claimed')
    .where('claimedBy', '=', holder)
    .execute();
}

/**
 * Takes over an open attempt whose holder has been silent for `staleMs` (crashed, or lost): one
 * conditional UPDATE, so of every replica's reconciler and the buyer's retry, one gets it. The
 * attempt, now held by `holder`, or undefined.
 */
export async function takeStaleAttempt(db: DB, id: string, holder: string, staleMs: number): Promise<PaymentAttempt | undefined> {
  return db
    .updateTable('paymentAttempts')
    .set({ claimedBy: holder, claimedAt: sql<Date>`now()`, updatedAt: sql<Date>`now()` })
    .where('id', '=', id)
    .where('state', 'in', OPEN_STATES)
    .where('claimedAt', '<', sql<Date>`now() - ${staleMs}::int * interval '1 millisecond'`)
    .returningAll()
    .executeTakeFirst();
}

/** Open attempts silent for `staleMs`, oldest first: the reconciler's candidates. */
export async function staleAttemptIds(db: DB, staleMs: number, limit = 50): Promise<string[]> {
  const rows = await db
    .selectFrom('paymentAttempts')
    .select('id')
    .where('state', 'in', OPEN_STATES)
    .where('claimedAt', '<', sql<Date>`now() - ${staleMs}::int * interval '1 millisecond'`)
    .orderBy('claimedAt')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Completes an open attempt, in the transaction that records its outcome (the order row, the
 * booking). Anyone holding PayPal's capture may complete it, holder or not: PayPal took the money
 * once, and the first to record it wins. Undefined when it was completed or released already.
 */
export async function completeAttempt(
  trx: Transaction<Database>,
  id: string,
  outcome: { settledBy: PaymentSettler; paypalCaptureId: string; orderId?: string; payerFirstName?: string; note: string },
): Promise<PaymentAttempt | undefined> {
  return trx
    .updateTable('paymentAttempts')
    .set({
      state: 'completed',
      settledBy: outcome.settledBy,
      paypalCaptureId: outcome.paypalCaptureId,
      orderId: outcome.orderId ?? null,
      payerFirstName: outcome.payerFirstName ?? null,
      outcome: outcome.note,
      updatedAt: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where('state', 'in', OPEN_STATES)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Releases an open attempt, in the transaction that gives its claim back. Only its holder may:
 * anyone else might release it while the holder's capture is on its way. Undefined when it is no
 * longer open, or held by someone else.
 */
export async function releaseAttempt(
  trx: Transaction<Database>,
  id: string,
  holder: string,
  outcome: { settledBy: PaymentSettler; note: string },
): Promise<PaymentAttempt | undefined> {
  return trx
    .updateTable('paymentAttempts')
    .set({ state: 'released', settledBy: outcome.settledBy, outcome: outcome.note, updatedAt: sql<Date>`now()` })
    .where('id', '=', id)
    .where('state', 'in', OPEN_STATES)
    .where('claimedBy', '=', holder)
    .returningAll()
    .executeTakeFirst();
}

/** Links the order stored for a completed attempt (same transaction as completeAttempt). */
export async function linkOrder(trx: Transaction<Database>, id: string, orderId: string): Promise<void> {
  await trx.updateTable('paymentAttempts').set({ orderId }).where('id', '=', id).execute();
}

const WHO: Record<PaymentSettler, string> = {
  checkout: 'the checkout',
  retry: 'the buyer’s retry',
  reconciler: 'the reconciler',
  webhook: 'PayPal’s webhook',
};

/**
 * What the admin reads beside an order or a booking about its payment: that it is still being
 * captured, or that it needed recovery (and by whom); null for a payment its checkout recorded.
 */
export function paymentNoteOf(a: Pick<PaymentAttempt, 'state' | 'settledBy' | 'updatedAt'> | undefined): string | null {
  if (!a) return null;
  if (a.state === 'claimed' || a.state === 'capturing') return 'Payment in progress';
  if (a.state === 'completed' && a.settledBy && a.settledBy !== 'checkout') {
    return `Recovered by ${WHO[a.settledBy]} on ${new Date(a.updatedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC: PayPal captured once, the checkout's answer was lost`;
  }
  return null;
}

/** Payment notes by order id (orders recorded by someone else than their checkout): of `orderIds`, else of every order. */
export async function paymentNotesOfOrders(db: DB, orderIds?: readonly string[]): Promise<Map<string, string>> {
  if (orderIds?.length === 0) return new Map();
  const rows = await db
    .selectFrom('paymentAttempts')
    .select(['orderId', 'state', 'settledBy', 'updatedAt'])
    // Those of a page's orders (issue 36), or of every order.
    .$call((q) => (orderIds ? q.where('orderId', 'in', orderIds) : q.where('orderId', 'is not', null)))
    .where('settledBy', 'in', ['retry', 'reconciler', 'webhook'])
    .execute();
  return new Map(rows.flatMap((r) => (paymentNoteOf(r) ? [[r.orderId!, paymentNoteOf(r)!] as const] : [])));
}

/** Payment notes by slot id: a payment in progress, or one recovered. A slot holds one PayPal order at a time. */
export async function paymentNotesOfSlots(db: DB, slotIds?: readonly string[]): Promise<Map<string, string>> {
  if (slotIds?.length === 0) return new Map();
  const rows = await db
    .selectFrom('paymentAttempts')
    .innerJoin('slots', (j) => j.onRef('slots.id', '=', 'paymentAttempts.slotId').onRef('slots.paypalOrderId', '=', 'paymentAttempts.paypalOrderId'))
    .select(['paymentAttempts.slotId', 'paymentAttempts.state', 'paymentAttempts.settledBy', 'paymentAttempts.updatedAt'])
    .where('paymentAttempts.state', 'in', ['claimed', 'capturing', 'completed'])
    // Those of a page's slots (issue 36), or of every slot.
    .$if(slotIds !== undefined, (q) => q.where('paymentAttempts.slotId', 'in', slotIds!))
    .execute();
  return new Map(rows.flatMap((r) => (paymentNoteOf(r) ? [[r.slotId!, paymentNoteOf(r)!] as const] : [])));
}
