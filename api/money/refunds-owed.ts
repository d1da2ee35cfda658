/**
 * Refunds owed are never forgotten (issue 47, decision 0055). A refund made after its commit (a
 * package's PayPal sale, a gift card voided before delivery) is first owed: `oweRefund` writes its
 * row in the transaction that takes the money back on the ledger. After the commit, with no
 * transaction open, `makeOwedRefund` tries it; a refusal leaves it owed with a growing wait
 * (REFUND_RETRY_BASE_MS, doubling, at most six hours) and the refund runner (`makeDueRefunds`,
 * at start and every RECONCILE_INTERVAL_MS) tries again until PayPal answers. Its first failure is
 * mailed to her once, through the outbox, in the transaction that records it.
 *
 * Refunded once: the call is keyed by its capture (PayPal-Request-Id `refund-<capture>`, as the
 * class refunds' are, api/classes/refunds.ts) and a capture refunded already counts as done, so a
 * try repeated after a crash between PayPal's refund and our record refunds nothing more.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Services } from '../services/index.ts';
import { PayPalError, type Payments } from '../services/payments/paypal.ts';
import { commitWithMails } from '../mail/commit.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { mail, money, oneLine, siteFooter } from '../mail/layout.ts';
import { brandNames } from '../site/brand.ts';
import { findAttempt } from './attempts.repo.ts';
import {
  claimDueRefunds,
  claimRefundOwed,
  insertRefundOwed,
  markRefundDone,
  markRefundFailed,
  type NewRefundOwed,
  type RefundOwed,
} from './refunds-owed.repo.ts';

type Deps = Pick<Services, 'db' | 'env' | 'payments' | 'mailer'>;

/**
 * How long a try holds its row before another runner may take it: the first wait, as after a
 * failure (a try cut short by a crash is tried again then). Two tries overlapping would still
 * refund once (keyed by the capture), so the lease only spares PayPal a second call.
 */
const leaseMs = (deps: Deps) => deps.env.REFUND_RETRY_BASE_MS;
const MAX_WAIT_MS = 6 * 3_600_000;
const BATCH = 20;

/** The wait after `attempts` failed tries: the base, doubling, at most six hours. */
export const refundRetryWaitMs = (attempts: number, baseMs: number) => Math.min(MAX_WAIT_MS, baseMs * 2 ** Math.max(0, attempts - 1));

/** What a try came to: refunded (now or before), or still owed and to be tried again. */
export type RefundOutcome = 'refunded' | 'owed';

/**
 * Refunds a capture in full, once: PayPal's answer that it is refunded already (a try before a
 * crash, a runner racing this one, her refund in PayPal) counts as done. The class places' refund
 * runner makes its refunds through it too.
 */
export async function refundCaptureOnce(payments: Pick<Payments, 'refundCapture'>, captureId: string): Promise<{ ok: true } | { ok: false; why: string }> {
  try {
    await payments.refundCapture(captureId);
    return { ok: true };
  } catch (err) {
    if (err instanceof PayPalError && err.issue === 'CAPTURE_FULLY_REFUNDED') return { ok: true };
    return { ok: false, why: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Owes the refund of a PayPal payment, in the transaction that takes its value back on the
 * ledger: the capture and the amount PayPal took are read from the order's payment attempt (the
 * runner asks PayPal for the capture when none was recorded). Its id, or undefined when this subject's refund was owed already.
 */
export async function oweRefund(
  trx: Transaction<Database>,
  owed: Omit<NewRefundOwed, 'paypalCaptureId'> & { paypalOrderId: string },
): Promise<string | undefined> {
  const attempt = await findAttempt(trx, owed.paypalOrderId);
  // What PayPal took (a gift card may have paid the rest of the price).
  return insertRefundOwed(trx, { ...owed, amountCents: attempt?.amountCents ?? owed.amountCents, paypalCaptureId: attempt?.paypalCaptureId ?? null });
}

/** Tries the refund `id` now (after the commit that owed it), unless another try holds it. */
export async function makeOwedRefund(deps: Deps, id: string): Promise<RefundOutcome> {
  const row = await claimRefundOwed(deps.db, id, leaseMs(deps));
  if (!row) return 'owed';
  return tryRefund(deps, row);
}

/** The refund runner: every refund owed whose wait is over, tried once each. How many were made. */
export async function makeDueRefunds(deps: Deps): Promise<number> {
  let made = 0;
  for (const row of await claimDueRefunds(deps.db, leaseMs(deps), BATCH)) if ((await tryRefund(deps, row)) === 'refunded') made += 1;
  return made;
}

/** The capture of a PayPal order, asked of PayPal when no attempt recorded it; null when PayPal can't say. */
async function captureOf(payments: Payments, row: RefundOwed): Promise<string | null> {
  if (row.paypalCaptureId) return row.paypalCaptureId;
  if (!row.paypalOrderId) return null;
  try {
    return (await payments.getOrder(row.paypalOrderId)).captured?.captureId ?? null;
  } catch {
    return null;
  }
}

async function tryRefund(deps: Deps, row: RefundOwed): Promise<RefundOutcome> {
  const captureId = await captureOf(deps.payments, row);
  const made = captureId ? await refundCaptureOnce(deps.payments, captureId) : { ok: false as const, why: 'PayPal could not name the capture to refund' };
  if (made.ok) {
    await markRefundDone(deps.db, row.id, captureId!);
    console.warn(`[refunds] refunded capture ${captureId} of PayPal order ${row.paypalOrderId} (${row.kind} ${row.subjectId}, ${money(row.amountCents)})`);
    return 'refunded';
  }
  console.error(`[refunds] refund of PayPal order ${row.paypalOrderId} (${row.kind} ${row.subjectId}) failed; owed and tried again: ${made.why}`);
  await commitWithMails(deps, async (trx) => {
    const failed = await markRefundFailed(trx, row.id, {
      error: made.why,
      waitMs: (attempts) => refundRetryWaitMs(attempts, deps.env.REFUND_RETRY_BASE_MS),
      paypalCaptureId: captureId,
    });
    if (!failed?.firstFailure) return { result: undefined, mails: [] };
    const brand = (await brandNames(trx)).yoga;
    return { result: undefined, mails: await queueMails(trx, 'refund-owed', [refundOwedMail(deps.env, brand, row, made.why)]) };
  });
  return 'owed';
}

/** Her mail when a refund owed first fails: what, how much, that it is retried (nothing for her to do unless it lasts). */
function refundOwedMail(env: Deps['env'], brand: string, row: RefundOwed, why: string) {
  return mail(env.TEACHER_EMAIL, `Refund owed: ${oneLine(row.what)} (${money(row.amountCents)})`, {
    heading: 'A refund is owed',
    paragraphs: [
      `PayPal could not refund ${money(row.amountCents)} for ${row.what} (PayPal order ${row.paypalOrderId ?? 'unknown'}): ${why}`,
      'The site tries again by itself, waiting longer each time, until PayPal answers; it is shown on Today and on the client’s page as a refund owed until it is made.',
    ],
    action: { label: 'Today', url: `${env.SITE_URL}/admin/dashboard` },
    footer: siteFooter(env, brand),
  });
}
