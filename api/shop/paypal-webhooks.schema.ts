/**
 * PayPal's webhook deliveries to POST /api/paypal/webhook: the messages it answers with and the
 * envelope every event must have. Only what the handlers read is checked here; the rest of the
 * event is PayPal's and is passed on untouched to PayPal's signature check.
 */
import { z } from 'zod';

export const WEBHOOK_NOT_CONFIGURED = 'PayPal webhooks are not configured on this site (PAYPAL_WEBHOOK_ID is unset).';
export const WEBHOOK_NOT_JSON = 'Send the webhook event as JSON (Content-Type: application/json)';
export const WEBHOOK_MALFORMED_JSON = 'The webhook event is not valid JSON.';
export const WEBHOOK_UNVERIFIED = 'The webhook event could not be verified with PayPal.';
export const WEBHOOK_VERIFY_UNAVAILABLE = 'PayPal could not be asked to verify the webhook event. Please deliver it again later.';
export const WEBHOOK_NO_CAPTURE = 'resource: names no capture (links "up" or supplementary_data.related_ids.capture_id)';
export const WEBHOOK_RECEIVED = 'Received';
export const WEBHOOK_IGNORED = 'Received and ignored';

/** A PayPal id as PayPal issues them (captures, refunds: upper-case letters and digits). */
export const paypalResourceId = z
  .string({ error: 'A PayPal capture id is required' })
  .min(1, 'A PayPal capture id is required')
  .max(64, 'Not a PayPal capture id')
  .regex(/^[A-Za-z0-9-]+$/, 'Not a PayPal capture id');

/** The envelope of every event, e.g. {id: "WH-…", event_type: "PAYMENT.CAPTURE.COMPLETED", resource: {…}}. */
export const webhookEvent = z.object({
  id: z
    .string({ error: 'id is required' })
    .min(1, 'id is required')
    .max(128, 'id is not a PayPal event id')
    .regex(/^[A-Za-z0-9._-]+$/, 'id is not a PayPal event id'),
  event_type: z
    .string({ error: 'event_type is required' })
    .min(1, 'event_type is required')
    .max(100, 'event_type is not a PayPal event type')
    .regex(/^[A-Z][A-Z0-9_]*(\.[A-Z0-9_]+)*$/, 'event_type is not a PayPal event type'),
  resource: z.looseObject({}, { error: 'resource must be an object' }),
});
export type WebhookEvent = z.output<typeof webhookEvent>;

/**
 * PAYMENT.CAPTURE.COMPLETED and DENIED: the resource is the capture itself. It names the PayPal
 * order it captured in supplementary_data.related_ids.order_id: how a capture whose checkout
 * crashed before recording it finds its payment attempt.
 */
export const captureResource = z.object({
  id: paypalResourceId,
  supplementary_data: z
    .looseObject({ related_ids: z.looseObject({ order_id: paypalResourceId.optional() }).optional() })
    .optional()
    .catch(undefined),
});

/** A refund's link to the capture it returns, e.g. https://api.paypal.com/v2/payments/captures/{id}. */
export const CAPTURE_LINK = /\/v2\/payments\/captures\/([A-Za-z0-9-]{1,64})(?:[/?#]|$)/;

/**
 * PAYMENT.CAPTURE.REFUNDED and REVERSED: the resource is the refund. It names the capture it
 * returns in supplementary_data.related_ids.capture_id or in its link "up"; its
 * total_refunded_amount, when PayPal gives it, is what the capture has returned so far
 * (partial refunds add up).
 */
export const refundResource = z.object({
  supplementary_data: z.looseObject({ related_ids: z.looseObject({ capture_id: paypalResourceId.optional() }).optional() }).optional(),
  links: z.array(z.looseObject({ rel: z.string().optional(), href: z.string().optional() })).optional(),
  seller_payable_breakdown: z
    .looseObject({
      total_refunded_amount: z.looseObject({ value: z.string().regex(/^\d{1,9}(\.\d{1,2})?$/, 'Not a money amount') }).optional(),
    })
    .optional(),
});
