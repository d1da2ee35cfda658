/**
 * What a verified PayPal webhook event does to a chocolate order (paypal-webhooks.routes.ts reads
 * and verifies it): a pending payment completed or denied, a capture refunded or reversed in
 * PayPal. Each change is one conditional UPDATE on the status (order-status.ts), so a repeat
 * finds nothing left to change and sends no mail.
 */
import type { Services } from '../services/index.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { commitWithMails } from '../mail/commit.ts';
import type { DB } from '../../db/client.ts';
import { paymentCompletedMails, paymentDeniedMails, paymentReturnedMail, type OrderMail } from './mails.ts';
import { findOrderByCaptureId, itemsOfOrders, type OrderRow } from './orders.repo.ts';
import { orderMailView } from './order-views.ts';
import { withLabelLines } from './product-views.ts';
import { brandNames } from '../site/brand.ts';
import { failPendingPayment, markRefunded, settlePendingPayment } from './order-status.ts';
import { settleFromWebhook } from '../money/reconcile.ts';
import type { PurchaseKinds } from '../money/settle.ts';

/** An event that may change an order. */
export type PaymentEvent =
  | { kind: 'completed'; captureId: string; paypalOrderId: string | undefined }
  | { kind: 'denied'; captureId: string }
  | { kind: 'refunded' | 'reversed'; captureId: string; refundedCents: number | undefined };

/** An order as its mails want it. */
async function orderMailOf(db: DB, order: OrderRow): Promise<OrderMail> {
  return orderMailView(order, await withLabelLines(db, await itemsOfOrders(db, [order.id])));
}

/**
 * Applies a verified event; true when it changed an order. The change and its mails commit
 * together (the outbox); the mails leave after the commit, and one that fails is retried by the
 * outbox: PayPal must not deliver again (and change nothing) because a mail did not leave.
 */
export async function applyPaymentEvent(services: Services, purchases: PurchaseKinds, eventId: string, action: PaymentEvent): Promise<boolean> {
  const { db, env } = services;
  const { captureId } = action;

  if (action.kind === 'completed') {
    const { result: settled } = await commitWithMails(services, async (trx) => {
      const order = await settlePendingPayment(trx, captureId);
      if (!order) return { result: false, mails: [] };
      const mails = paymentCompletedMails(env, (await brandNames(trx)).chocolates, await orderMailOf(trx, order));
      return { result: true, mails: await queueMails(trx, 'payment-completed', mails) };
    });
    // No pending order: paid at checkout already (PayPal reports every capture), a repeat, or a
    // capture whose checkout crashed before recording it: its open payment attempt is settled now.
    if (!settled) return action.paypalOrderId ? settleFromWebhook(services, purchases, action.paypalOrderId) : false;
    return true;
  }

  if (action.kind === 'denied') {
    // The status change, the restock and the mails commit together, and only the delivery that made the change restocks.
    const { result: denied } = await commitWithMails(services, async (trx) => {
      const order = await failPendingPayment(trx, captureId);
      if (!order) return { result: false, mails: [] };
      const mails = paymentDeniedMails(env, (await brandNames(trx)).chocolates, await orderMailOf(trx, order));
      return { result: true, mails: await queueMails(trx, 'payment-denied', mails) };
    });
    if (!denied) {
      const known = await findOrderByCaptureId(db, captureId);
      if (known && known.status !== 'payment_failed') {
        // Marked paid by hand, or shipped since: only a person can sort this out.
        console.error(
          `[paypal-webhook] PayPal denied capture ${captureId} (event ${eventId}) of order ${known.id}, whose status is ${known.status}: check it in PayPal`,
        );
      }
      return false;
    }
    return true;
  }

  // Refunded or reversed: only in full, and without restocking (see markRefunded).
  const { result: returned } = await commitWithMails(services, async (trx) => {
    const order = await markRefunded(trx, captureId, action.refundedCents);
    if (!order) return { result: false, mails: [] };
    return { result: true, mails: await queueMails(trx, `payment-${action.kind}`, [paymentReturnedMail(env, await orderMailOf(trx, order), action.kind)]) };
  });
  return returned;
}
