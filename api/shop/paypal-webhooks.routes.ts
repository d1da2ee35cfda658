import { Hono } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '../types.ts';
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
import type { PurchaseKinds } from '../money/settle.ts';
import { LIMITS } from '../services/limits.ts';
import { applyPaymentEvent, type PaymentEvent } from './payment-events.ts';

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

type Action = { kind: 'ignore' } | { kind: 'refuse'; message: string } | PaymentEvent;

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
      const changed = await applyPaymentEvent(c.var.services, purchases, event.id, action);
      return c.json({ message: changed ? WEBHOOK_RECEIVED : WEBHOOK_IGNORED });
    },
  );
