import { Hono } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '../types.ts';
import type { Services } from '../services/index.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { check } from '../../contract/check.ts';
import {
  CAPTURE_LINK,
  captureResource,
  refundResource,
  WEBHOOK_IGNORED,
  WEBHOOK_MALFORMED_JSON,
  WEBHOOK_NO_CAPTURE,
  WEBHOOK_NOT_CONFIGURED,
  WEBHOOK_NOT_JSON,
  WEBHOOK_RECEIVED,
  WEBHOOK_UNVERIFIED,
  WEBHOOK_VERIFY_UNAVAILABLE,
  webhookEvent,
  type WebhookEvent,
} from './paypal-webhooks.schema.ts';
import { valueToCents } from '../services/payments/paypal.ts';
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
import { LIMITS } from '../services/limits.ts';

/**
 * PayPal's webhooks (POST /api/paypal/webhook) keep a chocolate order's status true after the
 * checkout: a pending payment that completes or is denied, and refunds and reversals made in
 * PayPal. Every event is verified with PayPal before anything changes.
 *
 * PayPal delivers again, for days, whatever is not answered 2xx, and may deliver one event more
 * than once or several at a time. So: events the shop has no use for and captures that are no
 * order's (a booked session is paid through the same PayPal app) answer 200; each change is one
 * conditional UPDATE on the status (order-status.ts), so a repeat finds nothing left to change
 * and sends no mail; only what can never succeed (not JSON, fields missing, a signature PayPal
 * rejects) is a 4xx.
 */

type Action =
  | { kind: 'ignore' }
  | { kind: 'refuse'; message: string }
  | { kind: 'completed'; captureId: string; paypalOrderId: string | undefined }
  | { kind: 'denied'; captureId: string }
  | { kind: 'refunded' | 'reversed'; captureId: string; refundedCents: number | undefined };

const refused = (result: { message: string }): Action => ({ kind: 'refuse', message: `resource.${result.message}` });

/** What the event asks of the shop, read from its fields before PayPal is asked to verify it. */
function actionOf(event: WebhookEvent): Action {
  switch (event.event_type) {
    case 'PAYMENT.CAPTURE.COMPLETED':
    case 'PAYMENT.CAPTURE.DENIED':
    // Declined is how PayPal also words a capture that did not go through: for a pending one it means denied.
    case 'PAYMENT.CAPTURE.DECLINED': {
      const capture = check(captureResource, event.resource);
      if (!capture.ok) return refused(capture);
      return event.event_type === 'PAYMENT.CAPTURE.COMPLETED'
        ? { kind: 'completed', captureId: capture.data.id, paypalOrderId: capture.data.supplementary_data?.related_ids?.order_id }
        : { kind: 'denied', captureId: capture.data.id };
    }
    case 'PAYMENT.CAPTURE.REFUNDED':
    case 'PAYMENT.CAPTURE.REVERSED': {
      const refund = check(refundResource, event.resource);
      if (!refund.ok) return refused(refund);
      const captureId = capturedBy(refund.data);
      if (!captureId) return { kind: 'refuse', message: WEBHOOK_NO_CAPTURE };
      const total = refund.data.seller_payable_breakdown?.total_refunded_amount;
      return {
        kind: event.event_type === 'PAYMENT.CAPTURE.REFUNDED' ? 'refunded' : 'reversed',
        captureId,
        refundedCents: total ? valueToCents(total.value) : undefined,
      };
    }
    default:
      return { kind: 'ignore' };
  }
}

function capturedBy(refund: z.output<typeof refundResource>): string | undefined {
  const related = refund.supplementary_data?.related_ids?.capture_id;
  if (related) return related;
  const up = refund.links?.find((l) => l.rel === 'up' && typeof l.href === 'string');
  return up?.href ? CAPTURE_LINK.exec(up.href)?.[1] : undefined;
}

/** An order as its mails want it. */
async function orderMailOf(db: DB, order: OrderRow): Promise<OrderMail> {
  return orderMailView(order, await withLabelLines(db, await itemsOfOrders(db, [order.id])));
}

/**
 * Applies a verified event; true when it changed an order. The change and its mails commit
 * together (the outbox); the mails leave after the commit, and one that fails is retried by the
 * outbox: PayPal must not deliver again (and change nothing) because a mail did not leave.
 */
async function apply(services: Services, purchases: PurchaseKinds, eventId: string, action: Exclude<Action, { kind: 'ignore' | 'refuse' }>): Promise<boolean> {
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

/** The webhook's route, given the table of purchase kinds (api/boot.ts) an open attempt is settled through. */
export const paypalWebhooks = (purchases: PurchaseKinds) =>
  new Hono<AppEnv>().post(
    '/webhook',
    // PayPal sends from few addresses, sometimes many events at once: a generous limit.
    rateLimit(LIMITS.paypalWebhook),
    async (c) => {
      const { env, payments } = c.var.services;
      // No webhook id, nothing can be verified: as if the endpoint did not exist. The emulator
      // verifies its own test signature without one.
      if (!env.PAYPAL_WEBHOOK_ID && payments.kind !== 'emulator') return c.json({ message: WEBHOOK_NOT_CONFIGURED }, 404);
      if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) return c.json({ message: WEBHOOK_NOT_JSON }, 415);

      // The text as received: PayPal verifies its signature over these bytes, not over a re-encoding.
      const raw = await c.req.text();
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        return c.json({ message: WEBHOOK_MALFORMED_JSON }, 400);
      }
      const envelope = check(webhookEvent, body);
      if (!envelope.ok) return c.json({ message: envelope.message, issues: envelope.issues }, 400);
      const event = envelope.data;
      const action = actionOf(event);
      if (action.kind === 'refuse') return c.json({ message: action.message }, 400);

      let verified: boolean;
      try {
        verified = await payments.verifyWebhook(c.req.raw.headers, body, raw);
      } catch (err) {
        // Not a verdict: PayPal delivers again later, by which time it may answer.
        console.error(`[paypal-webhook] could not verify event ${event.id}:`, err instanceof Error ? err.message : err);
        return c.json({ message: WEBHOOK_VERIFY_UNAVAILABLE }, 503);
      }
      if (!verified) return c.json({ message: WEBHOOK_UNVERIFIED }, 400);

      if (action.kind === 'ignore') return c.json({ message: WEBHOOK_IGNORED });
      const changed = await apply(c.var.services, purchases, event.id, action);
      return c.json({ message: changed ? WEBHOOK_RECEIVED : WEBHOOK_IGNORED });
    },
  );
