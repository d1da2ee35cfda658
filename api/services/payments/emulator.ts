/**
 * The PayPal emulator: a local stand-in for PayPal, on only without PayPal keys and never in
 * production. It serves
 *  - the REST subset the server uses (OAuth token, create/get/capture order, refund), with
 *    PayPal's status rules: capture needs an APPROVED order and happens once;
 *  - an SDK script (/sdk/js, loaded through @paypal/paypal-js's `sdkBaseUrl`) whose Buttons
 *    render "Pay with PayPal (emulator)" and "Decline (emulator)" and call createOrder,
 *    onApprove, onError like the real SDK; "Pay" first approves the order, as the buyer would
 *    in PayPal's window (POST /v2/checkout/orders/{id}/approve, emulator only), with a sample
 *    shipping address when the order asked for one (shipping_preference other than NO_SHIPPING);
 *    the approve body's `captureStatus: 'PENDING'` makes the later capture PENDING, as PayPal
 *    answers for an eCheck or a payment under review, and `captureDelayMs` (tests) makes the
 *    capture answer wait after the capture is made; a capture repeated with the same
 *    PayPal-Request-Id is answered with the first one, as PayPal does (a refund repeated is
 *    refused CAPTURE_FULLY_REFUNDED, which callers take as made); POST
 *    /v2/emulator/refunds `{mode}` (tests) makes refunds fail or hang until set back to 'ok';
 *  - POST /v1/notifications/verify-webhook-signature, PayPal's request and answer, which says
 *    SUCCESS for a delivery whose paypal-transmission-sig is EMULATOR_WEBHOOK_SIGNATURE: the
 *    emulator sends no webhooks itself, tests post events with emulatorWebhookHeaders().
 * Orders live in memory: a restart forgets unpaid ones, which PayPal also expires.
 */
import { Hono } from 'hono';
import { randomBytes, randomUUID } from 'node:crypto';
import { valueToCents } from './paypal.ts';

export const EMULATOR_CLIENT_ID = 'emulator-client-id';
export const EMULATOR_CLIENT_SECRET = 'emulator-client-secret';
/** The webhook id the server verifies with while the emulator stands in and PAYPAL_WEBHOOK_ID is unset. */
export const EMULATOR_WEBHOOK_ID = 'EMULATORWEBHOOK';
/** The one transmission signature the emulator's verify endpoint accepts. */
export const EMULATOR_WEBHOOK_SIGNATURE = 'emulator-webhook-signature';

/** The paypal-* headers of a webhook delivery the emulator verifies as genuine. */
export function emulatorWebhookHeaders(): Record<string, string> {
  return {
    'paypal-auth-algo': 'SHA256withRSA',
    'paypal-cert-url': 'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-EMULATOR',
    'paypal-transmission-id': randomUUID(),
    'paypal-transmission-sig': EMULATOR_WEBHOOK_SIGNATURE,
    'paypal-transmission-time': new Date().toISOString(),
  };
}

interface EmulatedOrder {
  id: string;
  status: 'CREATED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';
  amount: { currency_code: string; value: string; breakdown?: Record<string, { currency_code: string; value: string }> };
  reference_id: string;
  description?: string;
  createdAt: number;
  capture?: { id: string; status: string; refunded: boolean; requestId: string | undefined; refund?: { id: string } };
  /** Tests only (approve body `captureDelayMs`): how long the capture answer waits after the capture is made, as a slow PayPal. */
  captureDelayMs: number;
  /** Tests only (approve body `refundDelayMs`): how long a refund's answer waits after the refund is made (a crash test kills the server then). */
  refundDelayMs?: number;
  /** What the capture will report: PENDING when the buyer's approval asked for it. */
  captureStatus: 'COMPLETED' | 'PENDING';
  payer?: { given_name: string; surname: string; email: string };
  /** False with shipping_preference NO_SHIPPING: then the buyer is never asked for an address. */
  collectsShipping: boolean;
  shipping?: { name: { full_name: string }; address: Record<string, string> };
}

/** The address the emulator's buyer "picks" in PayPal's window (overridable in the approve body). */
const SAMPLE_SHIPPING = {
  name: { full_name: 'Pat Buyer' },
  address: { address_line_1: '12 Cacao Lane', admin_area_2: 'Portland', admin_area_1: 'OR', postal_code: '97201', country_code: 'US' },
};

/**
 * The buyer picks an address in the state the order says it ships to ("…, shipped to WA" in its
 * description, issue 24), as a buyer who follows the cart would; else the sample's Oregon.
 */
function sampleShippingFor(o: EmulatedOrder): EmulatedOrder['shipping'] {
  const state = /shipped to ([A-Z]{2})$/.exec(o.description ?? '')?.[1];
  return state && state !== SAMPLE_SHIPPING.address.admin_area_1
    ? { ...SAMPLE_SHIPPING, address: { ...SAMPLE_SHIPPING.address, admin_area_1: state, admin_area_2: 'Sample City', postal_code: '00000' } }
    : SAMPLE_SHIPPING;
}

/**
 * PayPal's rule for amount.breakdown (issue 24): each part a money value in the order's currency,
 * and value = item_total − discount + shipping + tax_total (+ handling, insurance − shipping_discount).
 * The breakdown as accepted, or the issue PayPal names.
 */
function checkBreakdown(
  value: string,
  currency: string,
  raw: unknown,
): { ok: true; breakdown?: EmulatedOrder['amount']['breakdown'] } | { ok: false; issue: string } {
  if (raw === undefined) return { ok: true };
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, issue: 'INVALID_PARAMETER_SYNTAX' };
  const parts: Record<string, { currency_code: string; value: string }> = {};
  let sum = 0;
  for (const [key, sign] of Object.entries({ item_total: 1, shipping: 1, tax_total: 1, handling: 1, insurance: 1, discount: -1, shipping_discount: -1 })) {
    const part = (raw as Record<string, { value?: unknown; currency_code?: unknown } | undefined>)[key];
    if (part === undefined) continue;
    if (typeof part?.value !== 'string' || !/^\d+(\.\d{2})?$/.test(part.value)) return { ok: false, issue: 'INVALID_PARAMETER_VALUE' };
    if (part.currency_code !== currency) return { ok: false, issue: 'CURRENCY_MISMATCH' };
    parts[key] = { currency_code: currency, value: part.value };
    sum += sign * valueToCents(part.value);
  }
  if (sum !== valueToCents(value)) return { ok: false, issue: 'AMOUNT_MISMATCH' };
  return { ok: true, breakdown: parts };
}

/**
 * Tests only: how the emulator answers refunds (POST /v2/emulator/refunds `{mode}`): 'ok' as
 * PayPal does; 'fail' refuses each with a 503 and refunds nothing (PayPal down); 'hang' holds each
 * unanswered and unmade until the mode changes, then refuses it (a server killed meanwhile never
 * learns more: the refund was never made).
 */
export type RefundMode = 'ok' | 'fail' | 'hang';

type EmulatorState = { orders: Map<string, EmulatedOrder>; tokens: Set<string>; captures: number; refunds: number; refundMode?: RefundMode };
const state: EmulatorState = ((globalThis as { __paypalEmulator?: EmulatorState }).__paypalEmulator ??= {
  orders: new Map(),
  tokens: new Set(),
  captures: 0,
  refunds: 0,
});
state.captures ??= 0;
state.refunds ??= 0;

/** Tests: how many refunds the emulator made in this process (one refused as already made is not one). */
export const emulatorRefundCount = () => state.refunds;

/** Tests: how many captures the emulator made in this process (a repeat answered from PayPal-Request-Id is not one). */
export const emulatorCaptureCount = (orderId?: string) => (orderId === undefined ? state.captures : state.orders.get(orderId)?.capture ? 1 : 0);

// Request bodies as a client may send them: untrusted JSON, every part checked before use.
interface CreateOrderBody {
  intent?: unknown;
  purchase_units?: { amount?: { value?: unknown; currency_code?: unknown; breakdown?: unknown }; reference_id?: string; description?: string }[];
  payment_source?: { paypal?: { experience_context?: { shipping_preference?: unknown } } };
}
interface ApproveBody {
  givenName?: unknown;
  surname?: unknown;
  email?: unknown;
  /** Tests give their own address (any shape: PayPal's client must cope); else the sample one. */
  shipping?: EmulatedOrder['shipping'];
  captureStatus?: unknown;
  captureDelayMs?: unknown;
  refundDelayMs?: unknown;
}

const newId = (n = 17) =>
  randomBytes(n)
    .toString('base64url')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, n)
    .toUpperCase();

const issue = (status: number, name: string, code: string, description: string) =>
  Response.json({ name, message: description, details: [{ issue: code, description }] }, { status });

function orderBody(o: EmulatedOrder) {
  return {
    id: o.id,
    intent: 'CAPTURE',
    status: o.status,
    purchase_units: [
      {
        reference_id: o.reference_id,
        ...(o.description ? { description: o.description } : {}),
        amount: o.amount,
        ...(o.shipping ? { shipping: o.shipping } : {}),
        ...(o.capture
          ? {
              payments: {
                captures: [
                  {
                    id: o.capture.id,
                    status: o.capture.status,
                    ...(o.capture.status === 'PENDING' ? { status_details: { reason: 'ECHECK' } } : {}),
                    amount: { currency_code: o.amount.currency_code, value: o.amount.value },
                    final_capture: true,
                  },
                ],
              },
            }
          : {}),
      },
    ],
    ...(o.payer
      ? {
          payer: {
            name: { given_name: o.payer.given_name, surname: o.payer.surname },
            email_address: o.payer.email,
            payer_id: 'EMULATORPAYER',
          },
        }
      : {}),
    links: [{ href: `/v2/checkout/orders/${o.id}`, rel: 'self', method: 'GET' }],
  };
}

export function createPayPalEmulator(): Hono {
  const app = new Hono();

  const authorized = (header: string | undefined) => !!header && state.tokens.has(header.replace(/^Bearer /, ''));

  app.post('/v1/oauth2/token', async (c) => {
    const expected = `Basic ${Buffer.from(`${EMULATOR_CLIENT_ID}:${EMULATOR_CLIENT_SECRET}`).toString('base64')}`;
    if (c.req.header('authorization') !== expected) {
      return c.json({ error: 'invalid_client', error_description: 'Client Authentication failed' }, 401);
    }
    const token = `A21AA${newId(40)}`;
    state.tokens.add(token);
    return c.json({ scope: 'emulator', access_token: token, token_type: 'Bearer', app_id: 'APP-EMULATOR', expires_in: 32400 });
  });

  app.post('/v2/checkout/orders', async (c) => {
    if (!authorized(c.req.header('authorization'))) return issue(401, 'AUTHENTICATION_FAILURE', 'AUTHENTICATION_FAILURE', 'Authentication failed');
    const body = (await c.req.json().catch(() => null)) as CreateOrderBody | null;
    const unit = body?.purchase_units?.[0];
    const value = unit?.amount?.value;
    if (body?.intent !== 'CAPTURE' || typeof value !== 'string' || !/^\d+(\.\d{2})?$/.test(value) || valueToCents(value) <= 0) {
      return issue(422, 'UNPROCESSABLE_ENTITY', 'INVALID_PARAMETER_VALUE', 'The amount is missing or invalid');
    }
    if (unit?.amount?.currency_code !== 'USD') return issue(422, 'UNPROCESSABLE_ENTITY', 'CURRENCY_NOT_SUPPORTED', 'Only USD here');
    const breakdown = checkBreakdown(value, 'USD', unit.amount.breakdown);
    if (!breakdown.ok) return issue(422, 'UNPROCESSABLE_ENTITY', breakdown.issue, 'The amount breakdown does not add up to the amount');
    const order: EmulatedOrder = {
      id: newId(),
      status: 'CREATED',
      amount: { currency_code: 'USD', value, ...(breakdown.breakdown ? { breakdown: breakdown.breakdown } : {}) },
      reference_id: unit.reference_id ?? 'default',
      description: unit.description,
      createdAt: Date.now(),
      captureStatus: 'COMPLETED',
      captureDelayMs: 0,
      collectsShipping: body?.payment_source?.paypal?.experience_context?.shipping_preference !== 'NO_SHIPPING',
    };
    state.orders.set(order.id, order);
    return c.json(orderBody(order), 201);
  });

  app.get('/v2/checkout/orders/:id', (c) => {
    if (!authorized(c.req.header('authorization'))) return issue(401, 'AUTHENTICATION_FAILURE', 'AUTHENTICATION_FAILURE', 'Authentication failed');
    const order = state.orders.get(c.req.param('id'));
    if (!order) return issue(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist.');
    return c.json(orderBody(order));
  });

  // What the buyer does in PayPal's window; the emulator's buttons call it.
  app.post('/v2/checkout/orders/:id/approve', async (c) => {
    const order = state.orders.get(c.req.param('id'));
    if (!order) return issue(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist.');
    if (order.status !== 'CREATED') return issue(422, 'UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_APPROVED', 'Order cannot be approved again');
    const body = (await c.req.json().catch(() => ({}))) as ApproveBody | null;
    order.status = 'APPROVED';
    order.payer = {
      given_name: String(body?.givenName ?? 'Pat').slice(0, 140),
      surname: String(body?.surname ?? 'Buyer').slice(0, 140),
      email: String(body?.email ?? 'buyer@example.com').slice(0, 254),
    };
    if (order.collectsShipping) order.shipping = body?.shipping && typeof body.shipping === 'object' ? body.shipping : sampleShippingFor(order);
    if (body?.captureStatus === 'PENDING') order.captureStatus = 'PENDING';
    if (typeof body?.captureDelayMs === 'number' && body.captureDelayMs > 0) order.captureDelayMs = Math.min(body.captureDelayMs, 120_000);
    if (typeof body?.refundDelayMs === 'number' && body.refundDelayMs > 0) order.refundDelayMs = Math.min(body.refundDelayMs, 120_000);
    return c.json(orderBody(order));
  });

  app.post('/v2/checkout/orders/:id/capture', async (c) => {
    if (!authorized(c.req.header('authorization'))) return issue(401, 'AUTHENTICATION_FAILURE', 'AUTHENTICATION_FAILURE', 'Authentication failed');
    const order = state.orders.get(c.req.param('id'));
    if (!order) return issue(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist.');
    const requestId = c.req.header('paypal-request-id');
    // PayPal's idempotency: the same PayPal-Request-Id is answered with the capture it made.
    if (order.status === 'COMPLETED' && order.capture && requestId && order.capture.requestId === requestId) return c.json(orderBody(order), 201);
    if (order.status === 'COMPLETED') return issue(422, 'UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_CAPTURED', 'Order already captured.');
    if (order.status !== 'APPROVED') return issue(422, 'UNPROCESSABLE_ENTITY', 'ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment.');
    order.status = 'COMPLETED';
    order.capture = { id: newId(), status: order.captureStatus, refunded: false, requestId };
    state.captures += 1;
    // The money is taken; only the answer is slow (what a crash test needs: captured, not yet told).
    if (order.captureDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, order.captureDelayMs));
    return c.json(orderBody(order), 201);
  });

  app.post('/v2/payments/captures/:id/refund', async (c) => {
    if (!authorized(c.req.header('authorization'))) return issue(401, 'AUTHENTICATION_FAILURE', 'AUTHENTICATION_FAILURE', 'Authentication failed');
    const order = [...state.orders.values()].find((o) => o.capture?.id === c.req.param('id'));
    if (!order?.capture) return issue(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist.');
    if (order.capture.refunded) return issue(422, 'UNPROCESSABLE_ENTITY', 'CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded');
    const mode = () => state.refundMode ?? 'ok';
    if (mode() === 'hang') {
      while (mode() === 'hang') await new Promise((resolve) => setTimeout(resolve, 20));
      return issue(503, 'SERVICE_UNAVAILABLE', 'SERVICE_UNAVAILABLE', 'Service Unavailable (emulator: the refund was held and not made)');
    }
    if (mode() === 'fail') return issue(503, 'SERVICE_UNAVAILABLE', 'SERVICE_UNAVAILABLE', 'Service Unavailable (emulator: refunds failing)');
    order.capture.refunded = true;
    order.capture.status = 'REFUNDED';
    order.capture.refund = { id: newId() };
    state.refunds += 1;
    // The money is back; only the answer is slow (what a crash test needs: refunded, not yet told).
    if (order.refundDelayMs) await new Promise((resolve) => setTimeout(resolve, order.refundDelayMs));
    return c.json({ id: order.capture.refund.id, status: 'COMPLETED' }, 201);
  });

  // Tests only: PayPal's refunds failing, hanging, or back (see RefundMode).
  app.post('/v2/emulator/refunds', async (c) => {
    const body = (await c.req.json().catch(() => null)) as { mode?: unknown } | null;
    if (body?.mode !== 'ok' && body?.mode !== 'fail' && body?.mode !== 'hang')
      return issue(400, 'INVALID_REQUEST', 'INVALID_PARAMETER_VALUE', "mode is 'ok', 'fail' or 'hang'");
    state.refundMode = body.mode;
    return c.json({ mode: state.refundMode });
  });

  // PayPal's answer to "is this delivery genuine?": here, genuine means signed with the emulator's signature.
  app.post('/v1/notifications/verify-webhook-signature', async (c) => {
    if (!authorized(c.req.header('authorization'))) return issue(401, 'AUTHENTICATION_FAILURE', 'AUTHENTICATION_FAILURE', 'Authentication failed');
    const body = ((await c.req.json().catch(() => null)) ?? {}) as Record<string, unknown>;
    for (const field of ['auth_algo', 'cert_url', 'transmission_id', 'transmission_sig', 'transmission_time', 'webhook_id']) {
      if (typeof body[field] !== 'string' || body[field] === '') {
        return issue(400, 'VALIDATION_ERROR', 'MISSING_REQUIRED_PARAMETER', `${field} is a required parameter`);
      }
    }
    if (!body.webhook_event || typeof body.webhook_event !== 'object' || Array.isArray(body.webhook_event)) {
      return issue(400, 'VALIDATION_ERROR', 'MISSING_REQUIRED_PARAMETER', 'webhook_event is a required parameter');
    }
    return c.json({ verification_status: body.transmission_sig === EMULATOR_WEBHOOK_SIGNATURE ? 'SUCCESS' : 'FAILURE' });
  });

  app.get('/sdk/js', (c) => c.body(sdkScript, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }));

  return app;
}

/** The browser half: window.paypal.Buttons as @paypal/react-paypal-js uses it. */
const sdkScript = String.raw`(() => {
  const script = document.currentScript;
  const base = new URL('..', script ? script.src : location.href).href.replace(/\/$/, '');
  function Buttons(props) {
    props = props || {};
    let root = null;
    let disabled = false;
    const actions = {
      enable: () => { disabled = false; sync(); return Promise.resolve(); },
      disable: () => { disabled = true; sync(); return Promise.resolve(); },
    };
    function sync() { if (root) root.querySelectorAll('button').forEach((b) => { b.disabled = disabled; }); }
    function fail(err) {
      if (typeof props.onError === 'function') props.onError(err instanceof Error ? err : new Error(String(err)));
    }
    async function pay() {
      try {
        if (typeof props.onClick === 'function') {
          const allowed = await props.onClick({ fundingSource: 'paypal' }, { resolve: () => Promise.resolve(), reject: () => Promise.reject() });
          if (allowed === false) return;
        }
        const orderID = await props.createOrder({ paymentSource: 'paypal' }, {});
        if (!orderID) throw new Error('createOrder returned no order id');
        const res = await fetch(base + '/v2/checkout/orders/' + encodeURIComponent(orderID) + '/approve', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ givenName: 'Pat', surname: 'Buyer', email: 'buyer@example.com' }),
        });
        if (!res.ok) throw new Error('The emulator could not approve order ' + orderID);
        if (typeof props.onApprove === 'function') {
          await props.onApprove({ orderID, payerID: 'EMULATORPAYER', paymentSource: 'paypal' }, { order: {}, restart: () => pay() });
        }
      } catch (err) { fail(err); }
    }
    return {
      isEligible: () => true,
      updateProps: () => Promise.resolve(),
      render(container) {
        const target = typeof container === 'string' ? document.querySelector(container) : container;
        if (!target) return Promise.reject(new Error('PayPal container not found'));
        root = document.createElement('div');
        root.className = 'paypal-emulator-buttons';
        root.style.cssText = 'display:grid;gap:8px';
        const payButton = document.createElement('button');
        payButton.type = 'button';
        payButton.textContent = 'Pay with PayPal (emulator)';
        payButton.style.cssText = 'padding:12px;border-radius:6px;border:0;background:#ffc439;color:#111;font-weight:600;cursor:pointer';
        payButton.addEventListener('click', pay);
        const declineButton = document.createElement('button');
        declineButton.type = 'button';
        declineButton.textContent = 'Decline (emulator)';
        declineButton.style.cssText = 'padding:12px;border-radius:6px;border:1px solid #999;background:#fff;color:#111;cursor:pointer';
        declineButton.addEventListener('click', () => fail(new Error('The payment was declined (emulator).')));
        root.append(payButton, declineButton);
        target.appendChild(root);
        sync();
        if (typeof props.onInit === 'function') props.onInit({}, actions);
        return Promise.resolve();
      },
      close() { if (root) root.remove(); root = null; return Promise.resolve(); },
    };
  }
  window.paypal = { Buttons, version: 'emulator', FUNDING: { PAYPAL: 'paypal' } };
})();
`;
