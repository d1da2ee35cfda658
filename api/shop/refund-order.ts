/**
 * She refunds a chocolate order from her orders page (issue 33, decision 0042), behind
 * POST /api/admin/orders/{id}/refund: what PayPal took is refunded through PayPal (no transaction
 * open), then in one transaction the order is marked refunded and a gift card's part goes back on
 * the card, and the buyer's mail is queued; sent after the commit. A refund PayPal's webhook
 * reports in between finds the order refunded already and gives the card's part back once
 * (the 'returned' row exists once per order).
 */
import type { Services } from '../services/index.ts';
import { commitWithMails } from '../mail/commit.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { brandNames } from '../site/brand.ts';
import { refundByAdmin } from './order-status.ts';
import { orderMailView } from './order-views.ts';
import { orderRefundedMail } from './mails.ts';
import { findOrderById, itemsOfOrders, type OrderRow } from './orders.repo.ts';
import { PayPalError } from '../services/payments/paypal.ts';

/**
 * Why nothing was refunded: 'order-not-found'; 'refunded-final' (refunded already);
 * 'payment-failed-final' (no money was taken); 'payment-pending' (PayPal still holds the payment:
 * refund it once it completes); 'payment-unavailable' (PayPal refused or could not be reached:
 * nothing changed, the card's part included).
 */
export type RefundRefusal = 'order-not-found' | 'refunded-final' | 'payment-failed-final' | 'payment-pending' | 'payment-unavailable';

export type RefundResult = { ok: true; order: OrderRow; cardCents: number; paypalCents: number } | { ok: false; kind: RefundRefusal };

export async function refundOrder(deps: Pick<Services, 'db' | 'env' | 'mailer' | 'payments'>, orderId: string): Promise<RefundResult> {
  const { db, env, payments } = deps;
  const order = await findOrderById(db, orderId);
  if (!order) return { ok: false, kind: 'order-not-found' };
  if (order.status === 'refunded') return { ok: false, kind: 'refunded-final' };
  if (order.status === 'payment_failed') return { ok: false, kind: 'payment-failed-final' };
  if (order.status === 'payment_pending') return { ok: false, kind: 'payment-pending' };

  const paypalCents = order.totalCents - order.giftCardCents;
  if (paypalCents > 0 && order.paypalCaptureId) {
    try {
      await payments.refundCapture(order.paypalCaptureId);
    } catch (err) {
      // Refunded already (her second tap racing the first, or a refund made in PayPal): the state
      // she asked for. The transaction below marks the order once and gives the card's part back once.
      if (!(err instanceof PayPalError && err.issue === 'CAPTURE_FULLY_REFUNDED')) {
        console.error(`[orders] PayPal refund of order ${order.id} failed:`, err instanceof Error ? err.message : err);
        return { ok: false, kind: 'payment-unavailable' };
      }
    }
  }

  const { result } = await commitWithMails(deps, async (trx) => {
    const refunded = await refundByAdmin(trx, orderId);
    // PayPal's webhook for this refund came first: it marked the order and gave the card's part back.
    if (!refunded) return { result: undefined, mails: [] };
    const back = { cardCents: refunded.giftCardCents, paypalCents };
    const mail = orderRefundedMail(env, (await brandNames(trx)).chocolates, orderMailView(refunded, await itemsOfOrders(trx, [orderId])), back);
    return { result: refunded, mails: await queueMails(trx, 'order-refunded', mail) };
  });
  const now = result ?? (await findOrderById(db, orderId))!;
  return { ok: true, order: now, cardCents: now.giftCardCents, paypalCents };
}
