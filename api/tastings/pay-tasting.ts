/**
 * A tasting's deposit or balance paid through PayPal (issue 34): the 'tasting' purchase kind of
 * the one payment lifecycle (api/money/settle.ts), built as the gift card's
 * (gift-cards/buy-gift-card.ts).
 *
 *   startTastingPayment: the PayPal order, made by the server for exactly what is due now (the
 *     deposit, then the rest), its reference naming the quote, the part and the amount;
 *   payTasting: checks the approved order, opens the payment attempt (committed before any
 *     capture), captures with no transaction open, and in the completing transaction records the
 *     payment; a deposit also holds the day in her agenda (a private event) and the client's
 *     receipt and her notice are queued (the outbox).
 *
 * A crash between the capture and the commit leaves the attempt open: the client's retry, the
 * reconciler or PayPal's webhook completes it through the adapter registered below. The attempt
 * completes once, and a quote takes one deposit and one balance (unique (quote_id, part)): a
 * capture that finds its part paid meanwhile (a second tab) records nothing and is refunded.
 */
import type { Services } from '../services/index.ts';
import type { DB } from '../../db/client.ts';
import type { TastingAttemptDetails } from '../../db/schema.ts';
import type { TastingPart } from '../../contract/tastings.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { brandNames } from '../site/brand.ts';
import { findAttempt, openAttempt, type PaymentAttempt } from '../money/attempts.repo.ts';
import { attemptFor, createPayPalOrder, followAttempt, readApprovedOrder } from '../money/capture.ts';
import { acceptsApprovedUsd, answerAttempt, answerSettled, captureAndSettle, settlePayment } from '../money/settle.ts';
import type { PaidAnswers, PaymentDeps, Purchase, PurchaseRefusal } from '../money/settle.ts';
import { wallTime, zonedNow } from '../lib/time.ts';
import { findQuote, insertPayment, insertPrivateEvent, lockQuote, markDepositPaid, paymentOfOrder, paymentsOf } from './tastings.repo.ts';
import { dueOf, eventTitleOf, paidCentsOf } from './tastings.ts';
import { paymentMails } from './mails.ts';

/** The PayPal order a tasting's payment is made with: made by us, for this quote, part and amount. */
export const tastingOrderReference = (quoteId: string, part: TastingPart, amountCents: number) => `tasting:${quoteId}:${part}:${amountCents}`;

/** Why there is nothing to pay: no such quote, all paid, or another part is due. */
type DueRefusal = 'not-found' | 'nothing-due' | 'part-not-due';

/** What is due on the quote now, if it is `part`. */
async function dueNow(db: DB, quoteId: string, part: TastingPart) {
  const quote = await findQuote(db, quoteId);
  if (!quote) return { ok: false, kind: 'not-found' } as const;
  const due = dueOf(quote, await paymentsOf(db, quoteId));
  if (!due) return { ok: false, kind: 'nothing-due' } as const;
  if (due.part !== part) return { ok: false, kind: 'part-not-due' } as const;
  return { ok: true, amountCents: due.amountCents } as const;
}

export type TastingOrderResult = { ok: true; orderId: string } | { ok: false; kind: DueRefusal | 'payment-unavailable' };

/** Creates the PayPal order for what is due on the quote, if it is `part`. */
export async function startTastingPayment(deps: Pick<Services, 'db' | 'payments'>, input: { quoteId: string; part: TastingPart }): Promise<TastingOrderResult> {
  const due = await dueNow(deps.db, input.quoteId, input.part);
  if (!due.ok) return due;
  const order = {
    amountCents: due.amountCents,
    referenceId: tastingOrderReference(input.quoteId, input.part, due.amountCents),
    description: `Chocolate tasting ${input.part}`,
  };
  return createPayPalOrder(deps.payments, order, 'a tasting order');
}

export type PayTastingRefusal = DueRefusal | PurchaseRefusal;
export type PayTastingResult = { ok: true; part: TastingPart; amountCents: number; payerFirstName: string } | { ok: false; kind: PayTastingRefusal };

type PayDeps = PaymentDeps & Pick<Services, 'clock'>;

/** What the completing transaction recorded. */
interface Made {
  part: TastingPart;
  amountCents: number;
}

const detailsOf = (a: PaymentAttempt) => a.details as TastingAttemptDetails;

/**
 * Pays the part with the PayPal order the client approved: the order must be ours, for this
 * quote, part and amount due, approved and in USD. A replay of the same order answers what it
 * paid, waits for it, or after a crash completes it.
 */
export async function payTasting(deps: PayDeps, input: { quoteId: string; part: TastingPart; paypalOrderId: string }): Promise<PayTastingResult> {
  const { db, payments } = deps;
  const mine = (a: PaymentAttempt) => a.kind === 'tasting' && detailsOf(a).quoteId === input.quoteId && detailsOf(a).part === input.part;
  const existing = await findAttempt(db, input.paypalOrderId);
  if (existing && existing.state !== 'released') return mine(existing) ? replay(deps, existing) : { ok: false, kind: 'order-for-another-purchase' };

  const due = await dueNow(db, input.quoteId, input.part);
  if (!due.ok) return due;
  const read = await readApprovedOrder(payments, input.paypalOrderId, 'a tasting order');
  if (!read.ok) return read;
  const { order } = read;
  if (order.referenceId !== tastingOrderReference(input.quoteId, input.part, due.amountCents)) return { ok: false, kind: 'order-for-another-purchase' };
  if (order.status === 'COMPLETED') {
    // A concurrent request for the same order may have captured since we looked: follow it.
    const late = await findAttempt(db, input.paypalOrderId);
    return late && mine(late) ? replay(deps, late) : { ok: false, kind: 'order-already-used' };
  }
  if (order.status !== 'APPROVED') return { ok: false, kind: 'order-not-approved' };
  if (order.currency !== 'USD' || order.amountCents !== due.amountCents) return { ok: false, kind: 'order-for-another-purchase' };

  // The money comes in now (the capture follows at once); a recovery later still dates it today.
  const details: TastingAttemptDetails = { quoteId: input.quoteId, part: input.part, paidOn: zonedNow(deps.env.SITE_TIMEZONE, deps.clock.now()).date };
  // The attempt, committed before the capture: what a crash leaves for the reconciler to find.
  const attempt = await db.transaction().execute((trx) => openAttempt(trx, attemptFor('tasting', order, details)));
  if (attempt) return answerSettled(tastingAnswers(db), attempt, await captureAndSettle(deps, tastingPurchase(deps.env), attempt), '');
  // A concurrent request for this same order opened it first (a double click): follow it.
  const other = await findAttempt(db, order.id);
  return other && mine(other) ? replay(deps, other) : { ok: false, kind: 'order-for-another-purchase' };
}

/** The same PayPal order again: what it paid, once its settling is known (or settled now after a crash). */
async function replay(deps: PayDeps, first: PaymentAttempt): Promise<PayTastingResult> {
  const followed = await followAttempt(deps, first);
  const answers = tastingAnswers(deps.db);
  switch (followed.kind) {
    case 'timeout':
      return { ok: false, kind: 'payment-unavailable' };
    case 'captured': {
      const by = { settledBy: 'retry', holder: followed.holder } as const;
      return answerSettled(answers, followed.attempt, await settlePayment(deps, tastingPurchase(deps.env), followed.attempt, followed.outcome, by), '');
    }
    default:
      return answerAttempt(answers, followed.attempt, '');
  }
}

/** The tasting's words for how settling ended (api/money/settle.ts answerSettled): the payment it recorded. */
function tastingAnswers(db: DB): PaidAnswers<Made, PayTastingResult, 'capture-failed'> {
  return {
    // Nothing is recorded when the part was paid meanwhile: the capture was refunded, a failed payment to the client.
    nothingToRecord: 'capture-failed',
    recorded: (made, payerFirstName) => ({ ok: true, ...made, payerFirstName }),
    async recordedBefore(attempt, payerFirstName) {
      const paid = await paymentOfOrder(db, attempt.paypalOrderId);
      return paid ? { ok: true, part: paid.part, amountCents: paid.amountCents, payerFirstName } : undefined;
    },
  };
}

/**
 * The tasting's adapter of the payment lifecycle: the approved amount in USD, completed; nothing
 * held to give back on a release; on completion the payment recorded if its part is still the one
 * due for that amount (else null: refunded), a deposit's private event made, and the mails queued.
 */
export function tastingPurchase(env: PaymentDeps['env']): Purchase<Made> {
  return {
    kind: 'tasting',
    log: '[tastings]',
    accepts: acceptsApprovedUsd,
    async release() {
      // Nothing was held for it: the day is held only once the deposit is paid.
    },
    async record(trx, attempt, captured) {
      const d = detailsOf(attempt);
      const quote = await lockQuote(trx, d.quoteId);
      if (!quote) return null;
      const before = await paymentsOf(trx, quote.id);
      const due = dueOf(quote, before);
      // Her quote changed, or this part was paid by another order or by her hand meanwhile.
      if (!due || due.part !== d.part || due.amountCents !== attempt.amountCents) return null;
      const paid = await insertPayment(trx, {
        quoteId: quote.id,
        part: d.part,
        amountCents: attempt.amountCents,
        method: 'paypal',
        paypalOrderId: attempt.paypalOrderId,
        paypalCaptureId: captured.captureId,
        paidOn: d.paidOn,
      });
      if (!paid) return null;
      if (d.part === 'deposit') {
        const startsAt = wallTime(quote.date, quote.time, env.SITE_TIMEZONE).instant;
        const eventId = await insertPrivateEvent(trx, {
          title: eventTitleOf(quote.occasion),
          date: quote.date,
          time: quote.time,
          startsAt,
          location: quote.place,
          capacity: quote.guests,
        });
        await markDepositPaid(trx, quote.id, eventId);
      }
      const note = {
        part: d.part,
        amountCents: attempt.amountCents,
        leftCents: quote.priceCents - paidCentsOf([...before, paid]),
        method: 'paypal' as const,
        paypalOrderId: attempt.paypalOrderId,
      };
      const mails = paymentMails(env, (await brandNames(trx)).chocolates, quote, note);
      return { recorded: { part: d.part, amountCents: attempt.amountCents }, mails: await queueMails(trx, 'tasting-payment', mails) };
    },
  };
}
