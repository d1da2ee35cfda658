/**
 * The teacher refunds a package sale (issue 32, decision 0038): the lot's unused sessions are
 * taken back in one 'refunded' ledger row (at most one per lot, the partial unique index), under
 * the client's row lock so no booking spends them meanwhile; sessions already used stay used.
 * A lot bought through PayPal has its refund owed in the same transaction (issue 47, decision
 * 0055: api/money/refunds-owed.ts), then its capture refunded in full after the commit, with no
 * transaction open; a refund PayPal refuses stays owed and the refund runner tries it again until
 * PayPal answers (her Today and the client's page show it owed). A lot recorded by hand (cash,
 * Venmo…) only gives its credits back: she returns the money the way it came. Either way the
 * books count its price among the refunds (api/books/income.repo.ts).
 */
import type { Services } from '../services/index.ts';
import { makeOwedRefund, oweRefund } from '../money/refunds-owed.ts';
import { insertEntry, lockAccount, lotOf } from '../money/ledger.repo.ts';

export type RefundLotRefusal = 'lot-not-found' | 'already-refunded';

export type RefundLotResult = { ok: true; sessionsTakenBack: number; paypalRefund: 'refunded' | 'owed' | 'none' } | { ok: false; kind: RefundLotRefusal };

export async function refundLot(
  deps: Pick<Services, 'db' | 'env' | 'payments' | 'mailer'>,
  input: { userId: string; lotId: string },
): Promise<RefundLotResult> {
  const { db } = deps;
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
    // The PayPal refund is owed with the ledger's row (issue 47): a crash after this commit leaves it owed, not forgotten.
    const owed =
      written && lot.method === 'paypal' && lot.paypalOrderId
        ? await oweRefund(trx, {
            kind: 'package',
            subjectId: lot.id,
            what: lot.name,
            userId: input.userId,
            paypalOrderId: lot.paypalOrderId,
            amountCents: lot.priceCents,
          })
        : undefined;
    return { lot, unused, written, owed };
  });
  if (!taken) return { ok: false, kind: 'lot-not-found' };
  if (!taken.written) return { ok: false, kind: 'already-refunded' };
  const { unused, owed } = taken;
  if (!owed) return { ok: true, sessionsTakenBack: unused, paypalRefund: 'none' };
  return { ok: true, sessionsTakenBack: unused, paypalRefund: await makeOwedRefund(deps, owed) };
}
