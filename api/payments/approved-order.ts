/**
 * A purchase paid with one PayPal order the buyer approved, with nothing held before the capture:
 * a package (decision 0038) and a gift card (decision 0041). Written once here, each kind keeps
 * its own checks, its adapter and its words: the order read at PayPal, the capture's acceptance,
 * and how the checkout or a replay of the same order ended (what was recorded, or why not).
 */
import type { DB } from '../../db/client.ts';
import { PayPalError, type Payments } from '../services/payments/paypal.ts';
import type { PaymentAttempt } from './attempts.repo.ts';
import { followAttempt } from './capture.ts';
import { captureAndSettle, settlePayment, type PaymentDeps, type Purchase, type Settled } from './settle.ts';

type PayPalOrder = Awaited<ReturnType<Payments['getOrder']>>;

/** The order as PayPal has it; a 4xx (but 401) says there is no such order; else PayPal is unavailable. */
export async function readOrder(
  payments: Payments,
  paypalOrderId: string,
  what: string,
): Promise<{ ok: true; order: PayPalOrder } | { ok: false; kind: 'order-unknown' | 'payment-unavailable' }> {
  try {
    return { ok: true, order: await payments.getOrder(paypalOrderId) };
  } catch (err) {
    if (err instanceof PayPalError && err.status >= 400 && err.status < 500 && err.status !== 401) return { ok: false, kind: 'order-unknown' };
    console.error(`[paypal] could not read a ${what} order:`, err instanceof Error ? err.message : err);
    return { ok: false, kind: 'payment-unavailable' };
  }
}

/** The approved amount in USD, completed: a PENDING capture is not money yet and is refunded. */
export const acceptsApprovedAmount: Purchase<unknown>['accepts'] = (attempt, captured) => {
  if (captured.captureStatus === 'COMPLETED' && captured.currency === 'USD' && captured.amountCents === attempt.amountCents) return { ok: true };
  return { ok: false, why: `capture ${captured.captureId}: ${captured.captureStatus} ${captured.amountCents} ${captured.currency}`, refund: true };
};

/**
 * How the purchase ended: what was recorded and PayPal's first name of the payer ('' when not
 * known), or why nothing was. 'payment-unavailable' after a capture was tried means PayPal's
 * answer was lost: the attempt stays open for a retry, the reconciler or the webhook.
 */
export type Bought<R> = { ok: true; recorded: R; payerFirstName: string } | { ok: false; kind: 'payment-unavailable' | 'capture-failed' | 'nothing-to-record' };

/** What a completed attempt recorded, found again (by the PayPal order its row names). */
export type RecordedOf<R> = (db: DB, attempt: PaymentAttempt) => Promise<R | undefined>;

/** The checkout's capture of the attempt it just opened and committed, and how it ended. */
export async function captureBought<R>(deps: PaymentDeps, purchase: Purchase<R>, attempt: PaymentAttempt, recordedOf: RecordedOf<R>): Promise<Bought<R>> {
  return boughtOf(deps.db, attempt, await captureAndSettle(deps, purchase, attempt), recordedOf);
}

/** A replay of an order whose attempt is open or done: what it recorded, waited for, or after a crash completed. */
export async function replayBought<R>(deps: PaymentDeps, purchase: Purchase<R>, first: PaymentAttempt, recordedOf: RecordedOf<R>): Promise<Bought<R>> {
  const followed = await followAttempt(deps, first);
  if (followed.kind === 'timeout') return { ok: false, kind: 'payment-unavailable' };
  if (followed.kind === 'captured') {
    const settled = await settlePayment(deps, purchase, followed.attempt, followed.outcome, { settledBy: 'retry', holder: followed.holder });
    return boughtOf(deps.db, followed.attempt, settled, recordedOf);
  }
  return settledBought(deps.db, followed.attempt, recordedOf);
}

/** An attempt someone settled: what it recorded, or the capture's failure. */
async function settledBought<R>(db: DB, attempt: PaymentAttempt, recordedOf: RecordedOf<R>): Promise<Bought<R>> {
  if (attempt.state === 'completed') {
    const recorded = await recordedOf(db, attempt);
    if (recorded) return { ok: true, recorded, payerFirstName: attempt.payerFirstName?.trim() ?? '' };
  }
  if (attempt.state === 'claimed' || attempt.state === 'capturing') return { ok: false, kind: 'payment-unavailable' };
  return { ok: false, kind: 'capture-failed' };
}

async function boughtOf<R>(db: DB, attempt: PaymentAttempt, settled: Settled<R>, recordedOf: RecordedOf<R>): Promise<Bought<R>> {
  switch (settled.kind) {
    case 'unknown':
      return { ok: false, kind: 'payment-unavailable' };
    case 'released':
      return { ok: false, kind: 'capture-failed' };
    case 'nothing-to-record':
      return { ok: false, kind: 'nothing-to-record' };
    case 'lost':
      return settledBought(db, settled.attempt ?? attempt, recordedOf);
    case 'completed':
      return { ok: true, recorded: settled.recorded, payerFirstName: settled.captured.payer.firstName.trim() };
  }
}
