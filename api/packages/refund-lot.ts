/**
 * The teacher refunds a package sale (issue 32, decision 0038): the lot's unused sessions are
 * taken back in one 'refunded' ledger row (at most one per lot, the partial unique index), under
 * the client's row lock so no booking spends them meanwhile; sessions already used stay used.
 * A lot bought through PayPal then has its capture refunded in full, after the commit, with no
 * transaction open (as a cancelled session's refund, api/booking/cancel-booking.ts); a refund
 * PayPal refuses is logged and answered for her to make by hand. A lot recorded by hand (cash,
 * Venmo…) only gives its credits back: she returns the money the way it came. Either way the
 * books count its price among the refunds (api/books/income.repo.ts).
 */
import type { Services } from '../services/index.ts';
import { findAttempt } from '../payments/attempts.repo.ts';
import { insertEntry, lockAccount, lotOf } from './ledger.repo.ts';

export type RefundLotResult =
  { ok: true; sessionsTakenBack: number; paypalRefund: 'refunded' | 'failed' | 'none' } | { ok: false; kind: 'lot-not-found' | 'already-refunded' };

export async function refundLot(deps: Pick<Services, 'db' | 'payments'>, input: { userId: string; lotId: string }): Promise<RefundLotResult> {
  const { db, payments } = deps;
  const taken = await db.transaction().execute(async (trx) => {
    if (!(await lockAccount(trx, input.userId))) return undefined;
    const lot = await lotOf(trx, input.userId, input.lotId);
    if (!lot) return undefined;
    // A lot that lapsed gave up its rest already ('expired'): nothing is left to take then.
    const unused = Math.max(lot.remaining, 0);
    const written = await insertEntry(trx, {
      userId: input.userId,
      lotId: lot.id,
      change: -unused,
      reason: 'refunded',
      note: `${lot.quantity - unused} of ${lot.quantity} used before the refund`,
      createdBy: 'admin',
    });
    return { lot, unused, written };
  });
  if (!taken) return { ok: false, kind: 'lot-not-found' };
  if (!taken.written) return { ok: false, kind: 'already-refunded' };
  const { lot, unused } = taken;
  if (lot.method !== 'paypal' || !lot.paypalOrderId) return { ok: true, sessionsTakenBack: unused, paypalRefund: 'none' };

  const captureId = (await findAttempt(db, lot.paypalOrderId))?.paypalCaptureId;
  try {
    if (!captureId) throw new Error('no capture recorded for it');
    const r = await payments.refundCapture(captureId);
    console.warn(`[packages] refunded capture ${captureId} of PayPal order ${lot.paypalOrderId} (lot ${lot.id}): ${r.status}`);
    return { ok: true, sessionsTakenBack: unused, paypalRefund: 'refunded' };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    console.error(`[packages] REFUND NEEDED for PayPal order ${lot.paypalOrderId} (lot ${lot.id}, capture ${captureId ?? 'unknown'}): ${why}`);
    return { ok: true, sessionsTakenBack: unused, paypalRefund: 'failed' };
  }
}
