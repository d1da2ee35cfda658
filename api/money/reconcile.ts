/**
 * The reconciler (issue 12, decision 0012): finishes or releases payment attempts that a crash,
 * a lost answer or an abandoned browser left open. Every server process runs it at start and
 * every RECONCILE_INTERVAL_MS; an attempt silent for PAYMENT_ATTEMPT_STALE_MS is taken over with
 * one conditional UPDATE (api/money/attempts.repo.ts), so one replica settles each, and asked
 * about at PayPal:
 *   captured              → completed: the order stored or the booking confirmed, mailed once;
 *   approved or never     → released: tins back in stock or the slot free, the PayPal order left
 *   approved, voided,       uncaptured (PayPal lets it lapse);
 *   unknown at PayPal
 *   PayPal unreachable    → left open, asked again next time.
 * PayPal's webhook (PAYMENT.CAPTURE.COMPLETED) settles an open attempt the same way, without
 * waiting: settleFromWebhook. Both go through the lifecycle written once in settle.ts, with each
 * kind's handler from the table of purchase kinds they are handed (PURCHASE_KINDS, api/boot.ts).
 */
import { settleAnyPayment, type PaymentDeps, type PurchaseKinds } from './settle.ts';
import { findAttempt, isOpen, staleAttemptIds, takeStaleAttempt } from './attempts.repo.ts';
import { PROCESS_ID } from '../lib/process.ts';
import { lookUpCapture } from './capture.ts';

type Deps = PaymentDeps;

export interface ReconcileReport {
  completed: number;
  released: number;
  /** PayPal could not say; asked again next time. */
  leftOpen: number;
}

/**
 * One pass: every attempt silent for `staleMs` that this process manages to take over. Returns
 * what it did (the attempts other replicas took are not counted).
 */
export async function reconcilePayments(deps: Deps, kinds: PurchaseKinds, options: { staleMs?: number; holder?: string } = {}): Promise<ReconcileReport> {
  const staleMs = options.staleMs ?? deps.env.PAYMENT_ATTEMPT_STALE_MS;
  const holder = options.holder ?? PROCESS_ID;
  const report: ReconcileReport = { completed: 0, released: 0, leftOpen: 0 };
  for (const id of await staleAttemptIds(deps.db, staleMs)) {
    const attempt = await takeStaleAttempt(deps.db, id, holder, staleMs);
    if (!attempt) continue; // another replica (or the buyer's retry) took it first
    // Looked up, never captured here: an approved order whose buyer went away is left to lapse.
    const outcome = await lookUpCapture(deps.payments, attempt.paypalOrderId);
    if (outcome.kind === 'unknown') {
      console.error(`[payments] could not learn how PayPal order ${attempt.paypalOrderId} ended (${outcome.why}); trying again later`);
      report.leftOpen += 1;
      continue;
    }
    await settleAnyPayment(deps, kinds, attempt, outcome, { settledBy: 'reconciler', holder });
    // Counted only when this pass made the move (the attempt still names this holder).
    const now = await findAttempt(deps.db, attempt.paypalOrderId);
    const mine = now?.claimedBy === holder && now.settledBy === 'reconciler';
    if (mine && now.state === 'completed') report.completed += 1;
    else if (mine && now.state === 'released') report.released += 1;
    else if (now && isOpen(now)) report.leftOpen += 1;
    console.warn(`[payments] reconciled PayPal order ${attempt.paypalOrderId} (${attempt.kind}): ${now?.state ?? 'gone'}`);
  }
  return report;
}

/**
 * PAYMENT.CAPTURE.COMPLETED for a PayPal order whose attempt is still open: PayPal says the money
 * is taken, so it is completed now, by whoever holds it. Asks PayPal for the capture (the event
 * alone is not trusted for amounts or the payer). True when this call completed it.
 */
export async function settleFromWebhook(deps: Deps, kinds: PurchaseKinds, paypalOrderId: string): Promise<boolean> {
  const attempt = await findAttempt(deps.db, paypalOrderId);
  if (!attempt || !isOpen(attempt)) return false;
  const outcome = await lookUpCapture(deps.payments, paypalOrderId);
  // Only a capture settles it here: releasing is for the attempt's holder, who may be capturing right now.
  if (outcome.kind !== 'captured') return false;
  return settleAnyPayment(deps, kinds, attempt, outcome, { settledBy: 'webhook', holder: null });
}
