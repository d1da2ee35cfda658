/**
 * The payment attempt's lifecycle, written once (issue 21, decision 0012): what the shop and the
 * booking share after their claim, each through a small adapter (`Purchase`) that knows only its
 * own rows. The next purchase kind is one more adapter.
 *
 *   claim      the kind's own transaction: its goods held (tins, a slot) and `openAttempt`
 *   capture    `captureAndSettle`: marked capturing, captured at PayPal with no transaction open
 *   settle     `settlePayment`: how the capture (or the look-up at PayPal) ended —
 *                unknown              → left open for the reconciler;
 *                not money, or not    → released by its holder with the kind's goods given back
 *                what was approved      (one transaction), a capture refunded after the commit;
 *                the approved money   → completed, the purchase recorded and its mails queued
 *                                       (one transaction), the mails sent after the commit;
 *              the first to record an outcome wins; the others are answered what it recorded
 *              ('lost'), and a capture in hand for an attempt released meanwhile is refunded;
 *   reconcile  reconcile.ts: the reconciler and PayPal's webhook settle any kind's attempt
 *              through its kind's handler in the one table of kinds (`PurchaseKinds`, built in
 *              api/boot.ts and handed to them).
 */
import type { Transaction } from 'kysely';
import type { Services } from '../services/index.ts';
import type { Database, PaymentSettler } from '../../db/schema.ts';
import type { CapturedOrder } from '../services/payments/paypal.ts';
import type { QueuedMails } from '../mail/outbox.repo.ts';
import { sendQueued } from '../mail/outbox.ts';
import { completeAttempt, findAttempt, markCapturing, releaseAttempt, type PaymentAttempt } from './attempts.repo.ts';
import { PROCESS_ID } from '../lib/process.ts';
import { PAYMENT_ALREADY_USED, PAYMENT_SERVICE_UNAVAILABLE, PAYMENT_UNSUCCESSFUL } from '../../contract/booking.ts';
import { captureAttempt, followAttempt, refundQuietly, type CaptureOutcome } from './capture.ts';

export type PaymentDeps = Pick<Services, 'db' | 'env' | 'payments' | 'mailer' | 'realtime'> & Partial<Pick<Services, 'calendar' | 'clock'>>;

/** Who settles, and whether they hold the attempt (only its holder may release it). */
export interface Settler {
  settledBy: PaymentSettler;
  holder: string | null;
}

/** What a purchase kind adds to the lifecycle. */
export interface Purchase<Recorded> {
  kind: PaymentAttempt['kind'];
  /** The log's prefix, e.g. '[orders]'. */
  log: string;
  /** Whether this capture is the money the attempt waits for; if not, why, and whether money was taken (to refund). */
  accepts(attempt: PaymentAttempt, captured: CapturedOrder): { ok: true } | { ok: false; why: string; refund: boolean };
  /** Gives back what the claim holds (tins to stock, the slot freed), in the releasing transaction. */
  release(trx: Transaction<Database>, attempt: PaymentAttempt): Promise<void>;
  /**
   * Records the purchase and queues its mails, in the completing transaction (the attempt is
   * completed in it already). Null: nothing left to record it on (the teacher deleted the slot):
   * the capture is refunded.
   */
  record(trx: Transaction<Database>, attempt: PaymentAttempt, captured: CapturedOrder, by: Settler): Promise<{ recorded: Recorded; mails: QueuedMails } | null>;
  /** After the completing commit, besides its mails (the booking tells every open page). */
  announce?(deps: PaymentDeps, recorded: Recorded): Promise<void>;
}

/**
 * The money the booking, a package and a gift card accept: the approved amount in USD, completed (a PENDING
 * capture such as an eCheck is not money yet, and is refunded like any other).
 */
export const acceptsApprovedUsd: Purchase<unknown>['accepts'] = (attempt, captured) => {
  if (captured.captureStatus === 'COMPLETED' && captured.currency === 'USD' && captured.amountCents === attempt.amountCents) return { ok: true };
  return { ok: false, why: `capture ${captured.captureId}: ${captured.captureStatus} ${captured.amountCents} ${captured.currency}`, refund: true };
};

/** How settling ended, for the kind to answer in its own words. */
export type Settled<Recorded> =
  | { kind: 'unknown' }
  | { kind: 'released'; refunded: boolean; afterOutage: boolean }
  | { kind: 'completed'; recorded: Recorded; captured: CapturedOrder }
  | { kind: 'nothing-to-record' }
  | { kind: 'lost'; attempt: PaymentAttempt | undefined; refunded: boolean };

/**
 * Why a purchase paid with a PayPal order the buyer approved (a package, a gift card) made
 * nothing, besides its own reasons. Only 'capture-failed' and 'payment-unavailable' may come after
 * a capture was tried; 'payment-unavailable' then means PayPal's answer was lost, and the attempt
 * stays open for the retry, the reconciler or the webhook.
 */
export type PurchaseRefusal =
  'order-unknown' | 'payment-unavailable' | 'order-for-another-purchase' | 'order-already-used' | 'order-not-approved' | 'capture-failed';

/** How each of the payment's own refusals is answered; `forAnother`: the kind's words for an order made for another purchase. */
export function purchaseRefusals(forAnother: string): Record<PurchaseRefusal, { status: 400 | 402 | 409 | 502; message: string }> {
  return {
    'order-unknown': { status: 400, message: PAYMENT_UNSUCCESSFUL },
    'payment-unavailable': { status: 502, message: PAYMENT_SERVICE_UNAVAILABLE },
    'order-for-another-purchase': { status: 400, message: forAnother },
    'order-already-used': { status: 409, message: PAYMENT_ALREADY_USED },
    'order-not-approved': { status: 400, message: PAYMENT_UNSUCCESSFUL },
    'capture-failed': { status: 402, message: PAYMENT_UNSUCCESSFUL },
  };
}

/** A refusal once the attempt is open, in the words the booking and the package share. */
export type PaidRefusal<K extends string> = { ok: false; kind: 'payment-unavailable' | 'capture-failed' | K };

/** What a kind that answers in those words says for itself: its success, and its refusal when nothing is left to record. */
export interface PaidAnswers<R, Ok, K extends string> {
  /** The refusal for a capture with nothing left to record it on (refunded). */
  nothingToRecord: K;
  /** The success for what this settling recorded. */
  recorded(recorded: R, payerFirstName: string): Ok;
  /** The success for an attempt completed by someone else, looked up; undefined when nothing is found for it. */
  recordedBefore(attempt: PaymentAttempt, payerFirstName: string): Promise<Ok | undefined>;
}

/**
 * How settling ended, answered as the booking and the package answer it: unknown or still open →
 * 'payment-unavailable'; released → 'capture-failed'; settled by someone else → what they
 * recorded. The payer's first name comes from the capture; PayPal may leave it out, then the
 * account's (`firstName`) stands in.
 */
export async function answerSettled<R, Ok, K extends string>(
  answers: PaidAnswers<R, Ok, K>,
  attempt: PaymentAttempt,
  settled: Settled<R>,
  firstName: string,
): Promise<Ok | PaidRefusal<K>> {
  switch (settled.kind) {
    case 'unknown':
      return { ok: false, kind: 'payment-unavailable' };
    case 'released':
      return { ok: false, kind: 'capture-failed' };
    case 'nothing-to-record':
      return { ok: false, kind: answers.nothingToRecord };
    case 'lost':
      return answerAttempt(answers, settled.attempt ?? attempt, firstName);
    case 'completed':
      return answers.recorded(settled.recorded, settled.captured.payer.firstName.trim() || firstName);
  }
}

/** The answer for an attempt someone settled: what it recorded, or the capture's failure (or still open). */
export async function answerAttempt<R, Ok, K extends string>(
  answers: PaidAnswers<R, Ok, K>,
  attempt: PaymentAttempt,
  firstName: string,
): Promise<Ok | PaidRefusal<K>> {
  if (attempt.state === 'completed') {
    const before = await answers.recordedBefore(attempt, attempt.payerFirstName?.trim() || firstName);
    if (before) return before;
  }
  if (attempt.state === 'claimed' || attempt.state === 'capturing') return { ok: false, kind: 'payment-unavailable' };
  return { ok: false, kind: 'capture-failed' };
}

export async function settlePayment<R>(
  deps: PaymentDeps,
  purchase: Purchase<R>,
  attempt: PaymentAttempt,
  outcome: CaptureOutcome,
  by: Settler,
): Promise<Settled<R>> {
  const { db, payments } = deps;
  const { paypalOrderId } = attempt;
  if (outcome.kind === 'unknown') {
    console.error(`${purchase.log} PayPal order ${paypalOrderId}: ${outcome.why}; the reconciler will settle it`);
    return { kind: 'unknown' };
  }
  const captured = outcome.kind === 'captured' ? outcome.captured : undefined;
  const verdict = captured
    ? purchase.accepts(attempt, captured)
    : ({ ok: false, why: outcome.kind === 'not-captured' ? outcome.why : '', refund: false } as const);

  if (!verdict.ok) {
    const refund = captured !== undefined && verdict.refund;
    console.warn(`${purchase.log} PayPal order ${paypalOrderId} not paid as approved: ${verdict.why}`);
    // Released first, refunded after the commit: PayPal is never called inside a transaction.
    const released =
      by.holder !== null &&
      (await db.transaction().execute(async (trx) => {
        if (!(await releaseAttempt(trx, attempt.id, by.holder!, { settledBy: by.settledBy, note: refund ? `refunded: ${verdict.why}` : verdict.why })))
          return false;
        await purchase.release(trx, attempt);
        return true;
      }));
    if (!released) return { kind: 'lost', attempt: await findAttempt(db, paypalOrderId), refunded: false };
    if (refund) await refundQuietly(payments, captured, verdict.why, purchase.log);
    return { kind: 'released', refunded: refund, afterOutage: outcome.kind === 'not-captured' && outcome.afterOutage === true };
  }

  const money = captured!;
  const note = by.settledBy === 'checkout' ? 'captured at checkout' : `captured at checkout; its answer was lost, recorded by the ${by.settledBy}`;
  // Of everyone holding this capture, one completes the attempt and records the purchase, with its mails.
  const done = await db.transaction().execute(async (trx) => {
    const completed = await completeAttempt(trx, attempt.id, {
      settledBy: by.settledBy,
      paypalCaptureId: money.captureId,
      payerFirstName: money.payer.firstName.trim(),
      note,
    });
    return completed ? { recorded: await purchase.record(trx, attempt, money, by) } : undefined;
  });
  if (!done) {
    const now = await findAttempt(db, paypalOrderId);
    // Released while PayPal was slow (taken for abandoned): the money goes back.
    const refunded = now?.state === 'released';
    if (refunded) await refundQuietly(payments, money, 'the payment attempt was released before its capture was recorded', purchase.log);
    return { kind: 'lost', attempt: now, refunded };
  }
  if (!done.recorded) {
    console.error(`${purchase.log} PayPal order ${paypalOrderId} captured with nothing left to record it on: refunding`);
    await refundQuietly(payments, money, 'nothing was recorded for it', purchase.log);
    return { kind: 'nothing-to-record' };
  }
  if (by.settledBy !== 'checkout') console.warn(`${purchase.log} PayPal order ${paypalOrderId}: recovered by the ${by.settledBy}`);
  // After the commit: a mail that fails stays in the outbox for the sender's next try.
  await sendQueued(deps, done.recorded.mails);
  await purchase.announce?.(deps, done.recorded.recorded);
  return { kind: 'completed', recorded: done.recorded.recorded, captured: money };
}

/** The checkout's capture of the attempt it just opened, with no transaction open, then its settling. */
export async function captureAndSettle<R>(deps: PaymentDeps, purchase: Purchase<R>, attempt: PaymentAttempt): Promise<Settled<R>> {
  await markCapturing(deps.db, attempt.id, PROCESS_ID);
  return settlePayment(deps, purchase, attempt, await captureAttempt(deps.payments, attempt), { settledBy: 'checkout', holder: PROCESS_ID });
}

/** The kinds of purchase paid through a payment attempt (the attempt's `kind`). */
export type PurchaseKind = PaymentAttempt['kind'];

/**
 * One purchase kind's settling, for the reconciler and PayPal's webhook, which meet attempts of
 * every kind: its adapter, made from the environment its mails need. Answers whether the
 * attempt is settled now.
 */
export interface PurchaseHandler {
  settle(deps: PaymentDeps, attempt: PaymentAttempt, outcome: CaptureOutcome, by: Settler): Promise<boolean>;
}

/**
 * Every kind's handler: the one table of kinds, built by api/boot.ts (the composition root,
 * which may import every wing) and handed to the reconciler and the webhook, so money/ imports
 * no wing and nothing depends on which module happened to be imported first. A Record, so a
 * kind the table leaves out does not compile.
 */
export type PurchaseKinds = Readonly<Record<PurchaseKind, PurchaseHandler>>;

/** A kind's handler from its adapter. */
export function purchaseHandler<R>(purchaseFor: (env: PaymentDeps['env']) => Purchase<R>): PurchaseHandler {
  return { settle: async (deps, attempt, outcome, by) => (await settlePayment(deps, purchaseFor(deps.env), attempt, outcome, by)).kind === 'completed' };
}

/** Settles an attempt of any kind through its kind's handler. */
export function settleAnyPayment(deps: PaymentDeps, kinds: PurchaseKinds, attempt: PaymentAttempt, outcome: CaptureOutcome, by: Settler): Promise<boolean> {
  // Read from data: a kind the database holds that this build does not know is an error, not a silent skip.
  const handler = (kinds as Partial<PurchaseKinds>)[attempt.kind];
  if (!handler) throw new Error(`no purchase kind for payment attempts of kind ${attempt.kind}`);
  return handler.settle(deps, attempt, outcome, by);
}

/**
 * A replay of a PayPal order whose attempt someone opened (a double click, a retry, a reload):
 * waits for the request that holds it, or records its capture if PayPal has it and nobody
 * settled it, and answers what was recorded in the kind's own words.
 */
export async function replayPurchase<R, Ok, K extends string>(
  deps: PaymentDeps,
  purchase: Purchase<R>,
  answers: PaidAnswers<R, Ok, K>,
  first: PaymentAttempt,
  firstName: string,
): Promise<Ok | PaidRefusal<K>> {
  const followed = await followAttempt(deps, first);
  if (followed.kind === 'timeout') return { ok: false, kind: 'payment-unavailable' };
  if (followed.kind === 'captured') {
    const settled = await settlePayment(deps, purchase, followed.attempt, followed.outcome, { settledBy: 'retry', holder: followed.holder });
    return answerSettled(answers, followed.attempt, settled, firstName);
  }
  return answerAttempt(answers, followed.attempt, firstName);
}
