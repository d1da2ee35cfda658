/**
 * The PayPal half of a payment attempt, shared by the shop and the booking: capture, or find out
 * how a capture ended. Called with no transaction open and no row lock held (decision 0012): a
 * slow PayPal holds a buyer's request, never a database connection.
 */
import { captureRequestId, PayPalError, type CapturedOrder, type Payments } from '../services/payments/paypal.ts';
import type { Services } from '../services/index.ts';
import { findAttempt, isOpen, markCapturing, takeStaleAttempt, type NewAttempt, type PaymentAttempt } from './attempts.repo.ts';
import { PROCESS_ID } from '../lib/process.ts';

/**
 * How a capture ended, as far as PayPal tells:
 * - 'captured': PayPal took the money (or holds it: a PENDING capture), here is the capture;
 * - 'not-captured': certainly no money taken (declined, not approved, voided, no such order);
 * - 'unknown': PayPal could not be asked; the attempt stays open for the reconciler.
 */
export type CaptureOutcome =
  | { kind: 'captured'; captured: CapturedOrder }
  | { kind: 'not-captured'; why: string; issue?: string | undefined; afterOutage?: boolean }
  | { kind: 'unknown'; why: string };

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Statuses of a PayPal order that will not turn into money without the buyer or us acting again. */
const UNCAPTURED = new Set(['CREATED', 'SAVED', 'APPROVED', 'VOIDED', 'PAYER_ACTION_REQUIRED']);

/**
 * Makes the PayPal order a buyer approves (the booking, a package, a gift card): its id, or
 * 'payment-unavailable' when PayPal could not make it (down, or it refused our request).
 */
export async function createPayPalOrder(
  payments: Payments,
  order: Parameters<Payments['createOrder']>[0],
  what: string,
): Promise<{ ok: true; orderId: string } | { ok: false; kind: 'payment-unavailable' }> {
  try {
    return { ok: true, orderId: (await payments.createOrder(order)).id };
  } catch (err) {
    console.error(`[paypal] could not create ${what}:`, message(err));
    return { ok: false, kind: 'payment-unavailable' };
  }
}

/** A PayPal order as PayPal reports it. */
export type PayPalOrder = Awaited<ReturnType<Payments['getOrder']>>;

/**
 * The PayPal order a buyer says she approved, before anything is opened or captured: PayPal's
 * answer, or 'order-unknown' (no such order: a 4xx but our own credentials') or
 * 'payment-unavailable' (PayPal could not be asked). The booking, a package and a gift card read it so.
 */
export async function readApprovedOrder(
  payments: Payments,
  paypalOrderId: string,
  what: string,
): Promise<{ ok: true; order: PayPalOrder } | { ok: false; kind: 'order-unknown' | 'payment-unavailable' }> {
  try {
    return { ok: true, order: await payments.getOrder(paypalOrderId) };
  } catch (err) {
    if (err instanceof PayPalError && err.status >= 400 && err.status < 500 && err.status !== 401) return { ok: false, kind: 'order-unknown' };
    console.error(`[paypal] could not read ${what}:`, message(err));
    return { ok: false, kind: 'payment-unavailable' };
  }
}

/** Asks PayPal whether the attempt's order was captured: the reconciler's and the retry's question. */
export async function lookUpCapture(payments: Payments, paypalOrderId: string): Promise<CaptureOutcome> {
  try {
    const order = await payments.getOrder(paypalOrderId);
    if (order.captured) return { kind: 'captured', captured: order.captured };
    if (UNCAPTURED.has(order.status)) return { kind: 'not-captured', why: `PayPal order ${order.status}` };
    return { kind: 'unknown', why: `PayPal order ${order.status} without a capture` };
  } catch (err) {
    if (err instanceof PayPalError && err.status === 404) return { kind: 'not-captured', why: 'PayPal knows no such order' };
    return { kind: 'unknown', why: message(err) };
  }
}

/**
 * Captures the attempt's order with its stable PayPal-Request-Id. An answer that never came
 * (network, timeout, 5xx) is asked once more with the same id, which PayPal answers with the
 * capture it made if it made one; still nothing, PayPal is asked how the order stands. A 4xx is
 * definite: no money was taken, except ORDER_ALREADY_CAPTURED, which is looked up.
 */
export async function captureAttempt(payments: Payments, attempt: Pick<PaymentAttempt, 'paypalOrderId' | 'paypalRequestId'>): Promise<CaptureOutcome> {
  const once = () => payments.captureOrder(attempt.paypalOrderId, attempt.paypalRequestId);
  let lastError: unknown;
  for (let tries = 0; tries < 2; tries++) {
    try {
      return { kind: 'captured', captured: await once() };
    } catch (err) {
      lastError = err;
      if (err instanceof PayPalError && err.status < 500) {
        if (err.issue === 'ORDER_ALREADY_CAPTURED') return lookUpCapture(payments, attempt.paypalOrderId);
        return { kind: 'not-captured', why: message(err), issue: err.issue };
      }
    }
  }
  const looked = await lookUpCapture(payments, attempt.paypalOrderId);
  if (looked.kind === 'unknown') return { kind: 'unknown', why: `${message(lastError)}; then ${looked.why}` };
  // Not captured, but only because PayPal was down: the buyer is told so, not that they were declined.
  return looked.kind === 'not-captured' ? { ...looked, afterOutage: true } : looked;
}

/** Waits between looks at an attempt another request is settling. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Gives back money taken for nothing (a capture no order or booking could be recorded for).
 * Never throws: a refund that fails is logged loudly, for the teacher to refund by hand.
 */
export async function refundQuietly(payments: Payments, captured: CapturedOrder, why: string, log = '[paypal]'): Promise<void> {
  try {
    await payments.refundCapture(captured.captureId);
    console.error(`${log} refunded capture ${captured.captureId} of PayPal order ${captured.orderId}: ${why}`);
  } catch (err) {
    console.error(`${log} REFUND NEEDED for capture ${captured.captureId} of PayPal order ${captured.orderId} (${why}):`, message(err));
  }
}

/** How long a replay waits for the request that is capturing the same PayPal order. */
const FOLLOW_TIMEOUT_MS = 35_000;
const FOLLOW_POLL_MS = 100;

/**
 * Where a replay of a PayPal order stands, once `followAttempt` knows:
 * - 'settled': someone recorded the outcome (completed or released): answer it;
 * - 'captured': PayPal has the money; record it, as `holder` (this process after taking over an
 *   abandoned attempt, or nobody while a live request still holds it);
 * - 'timeout': the request that holds it took too long to say.
 */
export type Followed =
  | { kind: 'settled'; attempt: PaymentAttempt }
  | { kind: 'captured'; attempt: PaymentAttempt; outcome: CaptureOutcome; holder: string | null }
  | { kind: 'timeout' };

/**
 * A replay of a PayPal order whose attempt is open or done, for the shop and the booking alike:
 * a done one is answered; an open one held by a live request is waited for; one its holder
 * abandoned (a crash) is taken over and captured with the same PayPal-Request-Id, so PayPal
 * answers with the capture it already made, or makes the one the crash prevented.
 */
export async function followAttempt(deps: Pick<Services, 'db' | 'payments' | 'env'>, first: PaymentAttempt): Promise<Followed> {
  const { db, payments, env } = deps;
  const deadline = Date.now() + FOLLOW_TIMEOUT_MS;
  let attempt: PaymentAttempt | undefined = first;
  let lookedUp = false;
  while (attempt) {
    if (!isOpen(attempt)) return { kind: 'settled', attempt };
    const taken = await takeStaleAttempt(db, attempt.id, PROCESS_ID, env.PAYMENT_ATTEMPT_STALE_MS);
    if (taken) {
      await markCapturing(db, taken.id, PROCESS_ID);
      return { kind: 'captured', attempt: taken, outcome: await captureAttempt(payments, taken), holder: PROCESS_ID };
    }
    if (!lookedUp) {
      // Held by someone else: if PayPal has captured (its holder crashed after the capture, or
      // is about to record it), anyone holding the capture may record it. Asked once per replay.
      lookedUp = true;
      const outcome = await lookUpCapture(payments, attempt.paypalOrderId);
      if (outcome.kind === 'captured') return { kind: 'captured', attempt, outcome, holder: null };
    }
    if (Date.now() > deadline) return { kind: 'timeout' };
    await sleep(FOLLOW_POLL_MS);
    attempt = await findAttempt(db, attempt.paypalOrderId);
  }
  return { kind: 'timeout' };
}

/**
 * The attempt a PayPal order the buyer approved opens (a package, a gift card, a class place, a
 * tasting): in USD, claimed by this process, captured with its order's stable PayPal-Request-Id.
 */
export const attemptFor = (
  kind: NewAttempt['kind'],
  order: { id: string; amountCents: number },
  details: NewAttempt['details'],
  userId: string | null = null,
): NewAttempt => ({
  kind,
  paypalOrderId: order.id,
  paypalRequestId: captureRequestId(order.id),
  amountCents: order.amountCents,
  currency: 'USD',
  slotId: null,
  userId,
  details,
  claimedBy: PROCESS_ID,
});
