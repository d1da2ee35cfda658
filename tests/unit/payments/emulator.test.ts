import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import vm from 'node:vm';
import {
  createPayPalEmulator,
  EMULATOR_CLIENT_ID,
  EMULATOR_CLIENT_SECRET,
  EMULATOR_WEBHOOK_ID,
  emulatorWebhookHeaders,
} from '../../../api/services/payments/emulator.ts';
import { createPayPalClient, PayPalError } from '../../../api/services/payments/paypal.ts';
import { itemAt } from '../../helpers/guards.ts';

/** Serves a Hono app over real HTTP on 127.0.0.1, port 0. */
async function serveOnFreePort(app: Hono): Promise<{ server: ServerType; url: string }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve({ server, url: `http://127.0.0.1:${info.port}` }),
    );
  });
}

const closeServer = (server: ServerType) =>
  new Promise<void>((resolve, reject) => {
    if ('closeAllConnections' in server) server.closeAllConnections();
    server.close((err) => (err ? reject(err) : resolve()));
  });

async function paypalErrorOf(promise: Promise<unknown>): Promise<PayPalError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PayPalError);
  return error as PayPalError;
}

describe('PayPal client against the emulator over HTTP', () => {
  let server: ServerType;
  let base: string;

  beforeAll(async () => {
    ({ server, url: base } = await serveOnFreePort(createPayPalEmulator()));
  });
  afterAll(async () => {
    await closeServer(server);
  });

  const client = () => createPayPalClient({ clientId: EMULATOR_CLIENT_ID, clientSecret: EMULATOR_CLIENT_SECRET, baseUrl: base }, 'emulator');

  /** A bearer token of the emulator's, for calling its REST endpoints by hand. */
  const tokenOf = async () => {
    const res = await fetch(`${base}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${EMULATOR_CLIENT_ID}:${EMULATOR_CLIENT_SECRET}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };

  const approve = (orderId: string, body: unknown = {}) =>
    fetch(`${base}/v2/checkout/orders/${encodeURIComponent(orderId)}/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('runs an order through create, approve, capture and refund with PayPal’s rules', async () => {
    const payments = client();

    const created = await payments.createOrder({ amountCents: 4500, description: 'Private session', referenceId: 'b-1' });
    expect(created.status).toBe('CREATED');
    expect(created.id).toMatch(/^[A-Z0-9]+$/);
    expect(await payments.getOrder(created.id)).toEqual({ id: created.id, status: 'CREATED', amountCents: 4500, currency: 'USD', referenceId: 'b-1' });

    // The buyer has not approved yet.
    const notApproved = await paypalErrorOf(payments.captureOrder(created.id));
    expect(notApproved.issue).toBe('ORDER_NOT_APPROVED');
    expect(notApproved.status).toBe(422);

    // The buyer approves in "PayPal's window".
    const approval = await approve(created.id, { givenName: 'Ana', surname: 'Lima', email: 'ana@example.com' });
    expect(approval.status).toBe(200);
    expect(((await approval.json()) as { status: string }).status).toBe('APPROVED');
    expect((await payments.getOrder(created.id)).status).toBe('APPROVED');

    // Approving twice is refused.
    const again = await approve(created.id);
    expect(again.status).toBe(422);
    expect(((await again.json()) as any).details[0].issue).toBe('ORDER_ALREADY_APPROVED');

    const captured = await payments.captureOrder(created.id);
    expect(captured).toMatchObject({
      orderId: created.id,
      status: 'COMPLETED',
      captureStatus: 'COMPLETED',
      amountCents: 4500,
      currency: 'USD',
      payer: { name: 'Ana Lima', firstName: 'Ana', email: 'ana@example.com' },
    });
    expect(captured.captureId).toMatch(/^[A-Z0-9]+$/);
    expect((await payments.getOrder(created.id)).status).toBe('COMPLETED');

    // The same PayPal-Request-Id is answered with the capture made (PayPal's idempotency);
    // another request id is a second capture, which PayPal refuses.
    expect(await payments.captureOrder(created.id)).toEqual(captured);
    const twice = await paypalErrorOf(payments.captureOrder(created.id, 'another-request-id'));
    expect(twice.issue).toBe('ORDER_ALREADY_CAPTURED');
    expect(twice.status).toBe(422);

    const refund = await payments.refundCapture(captured.captureId);
    expect(refund.status).toBe('COMPLETED');
    expect(refund.id).toMatch(/^[A-Z0-9]+$/);

    const refundTwice = await paypalErrorOf(payments.refundCapture(captured.captureId));
    expect(refundTwice.issue).toBe('CAPTURE_FULLY_REFUNDED');
    expect(refundTwice.status).toBe(422);
  });

  it('captures the exact amount in cents (12.34)', async () => {
    const payments = client();
    const { id } = await payments.createOrder({ amountCents: 1234 });
    expect((await approve(id)).ok).toBe(true);
    const captured = await payments.captureOrder(id);
    expect(captured.amountCents).toBe(1234);
    expect(captured.payer).toEqual({ name: 'Pat Buyer', firstName: 'Pat', email: 'buyer@example.com' });
  });

  it('refuses a zero amount and an unknown order', async () => {
    const payments = client();
    const zero = await paypalErrorOf(payments.createOrder({ amountCents: 0 }));
    expect(zero.status).toBe(422);
    expect(zero.issue).toBe('INVALID_PARAMETER_VALUE');

    const unknown = await paypalErrorOf(payments.captureOrder('NOSUCHORDER'));
    expect(unknown.status).toBe(404);
    expect(unknown.issue).toBe('INVALID_RESOURCE_ID');

    const unknownRefund = await paypalErrorOf(payments.refundCapture('NOSUCHCAPTURE'));
    expect(unknownRefund.status).toBe(404);
    expect((await approve('NOSUCHORDER')).status).toBe(404);
  });

  it('refuses wrong client credentials with 401', async () => {
    const wrongSecret = createPayPalClient({ clientId: EMULATOR_CLIENT_ID, clientSecret: 'not-the-secret', baseUrl: base });
    const e1 = await paypalErrorOf(wrongSecret.createOrder({ amountCents: 100 }));
    expect(e1.status).toBe(401);

    const wrongId = createPayPalClient({ clientId: 'someone-else', clientSecret: EMULATOR_CLIENT_SECRET, baseUrl: base });
    const e2 = await paypalErrorOf(wrongId.getOrder('ANY'));
    expect(e2.status).toBe(401);

    const raw = await fetch(`${base}/v1/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(raw.status).toBe(401);
    expect(((await raw.json()) as { error: string }).error).toBe('invalid_client');
  });

  it('refuses REST calls without a token it issued', async () => {
    const { id } = await client().createOrder({ amountCents: 100 });
    for (const authorization of [undefined, 'Bearer made-up-token']) {
      const res = await fetch(`${base}/v2/checkout/orders/${id}/capture`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: '{}',
      });
      expect(res.status).toBe(401);
      expect(((await res.json()) as any).details[0].issue).toBe('AUTHENTICATION_FAILURE');
    }
  });

  it('captures PENDING when the buyer’s approval asked for it, as PayPal does for an eCheck', async () => {
    const payments = client();
    const { id } = await payments.createOrder({ amountCents: 3000 });
    expect((await approve(id, { captureStatus: 'PENDING' })).ok).toBe(true);
    const captured = await payments.captureOrder(id);
    expect(captured).toMatchObject({ status: 'COMPLETED', captureStatus: 'PENDING', amountCents: 3000 });
    const order = (await (await fetch(`${base}/v2/checkout/orders/${id}`, { headers: { authorization: `Bearer ${await tokenOf()}` } })).json()) as any;
    expect(order.purchase_units[0].payments.captures[0]).toMatchObject({ id: captured.captureId, status: 'PENDING', status_details: { reason: 'ECHECK' } });
  });

  it('verifies webhook deliveries with PayPal’s request and answer: SUCCESS only for its test signature', async () => {
    const payments = createPayPalClient(
      { clientId: EMULATOR_CLIENT_ID, clientSecret: EMULATOR_CLIENT_SECRET, baseUrl: base, webhookId: EMULATOR_WEBHOOK_ID },
      'emulator',
    );
    const event = { id: 'WH-1', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: { id: 'CAPTURE1' } };
    expect(await payments.verifyWebhook(new Headers(emulatorWebhookHeaders()), event)).toBe(true);
    expect(await payments.verifyWebhook(new Headers({ ...emulatorWebhookHeaders(), 'paypal-transmission-sig': 'forged' }), event)).toBe(false);

    const verify = async (body: unknown, authorization?: string) =>
      fetch(`${base}/v1/notifications/verify-webhook-signature`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: authorization ?? `Bearer ${await tokenOf()}` },
        body: JSON.stringify(body),
      });
    const complete = {
      auth_algo: 'SHA256withRSA',
      cert_url: 'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-EMULATOR',
      transmission_id: 'T-1',
      transmission_sig: 'emulator-webhook-signature',
      transmission_time: '2030-01-01T00:00:00Z',
      webhook_id: EMULATOR_WEBHOOK_ID,
      webhook_event: event,
    };
    const ok = await verify(complete);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ verification_status: 'SUCCESS' });
    for (const missing of ['transmission_sig', 'webhook_id', 'webhook_event']) {
      const res = await verify({ ...complete, [missing]: undefined });
      expect(res.status, missing).toBe(400);
      expect(((await res.json()) as any).details[0].issue).toBe('MISSING_REQUIRED_PARAMETER');
    }
    expect((await verify(complete, 'Bearer made-up-token')).status).toBe(401);
  });

  it('serves the SDK script that defines window.paypal', async () => {
    const res = await fetch(`${base}/sdk/js?client-id=${EMULATOR_CLIENT_ID}&currency=USD`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    const js = await res.text();
    expect(js).toContain('window.paypal');
    expect(js).toContain('Pay with PayPal (emulator)');
    expect(js).toContain('Decline (emulator)');

    // It is valid JavaScript that really assigns window.paypal.Buttons.
    const window: any = {};
    vm.runInNewContext(js, {
      window,
      document: { currentScript: { src: `${base}/sdk/js` } },
      location: { href: `${base}/` },
      URL,
    });
    expect(typeof window.paypal?.Buttons).toBe('function');
    expect(window.paypal.version).toBe('emulator');
    expect(window.paypal.Buttons({}).isEligible()).toBe(true);
  });
});

/** Just enough DOM for the emulator's Buttons: elements with listeners and children. */
function fakeDocument(scriptSrc: string) {
  class El {
    children: El[] = [];
    listeners: Record<string, Array<() => unknown>> = {};
    style = { cssText: '' };
    textContent = '';
    className = '';
    type = '';
    disabled = false;
    readonly tag: string;
    constructor(tag: string) {
      this.tag = tag;
    }
    addEventListener(type: string, fn: () => unknown) {
      (this.listeners[type] ??= []).push(fn);
    }
    append(...els: El[]) {
      this.children.push(...els);
    }
    appendChild(el: El) {
      this.children.push(el);
      return el;
    }
    remove() {}
    querySelectorAll(tag: string): El[] {
      return this.children.flatMap((c) => [...(c.tag === tag ? [c] : []), ...c.querySelectorAll(tag)]);
    }
  }
  const document = {
    currentScript: { src: scriptSrc },
    createElement: (tag: string) => new El(tag),
    querySelector: () => null,
  };
  return { document, El };
}

describe('the emulator SDK buttons, mounted like the app mounts them (/dev/paypal)', () => {
  let server: ServerType;
  let base: string;

  beforeAll(async () => {
    const root = new Hono();
    root.route('/dev/paypal', createPayPalEmulator());
    ({ server, url: base } = await serveOnFreePort(root));
  });
  afterAll(async () => {
    await closeServer(server);
  });

  async function loadButtons() {
    const src = `${base}/dev/paypal/sdk/js?client-id=${EMULATOR_CLIENT_ID}&currency=USD`;
    const js = await (await fetch(src)).text();
    const { document, El } = fakeDocument(src);
    const window: any = {};
    vm.runInNewContext(js, { window, document, location: { href: base }, URL, fetch, Error, Promise, String });
    const container = new El('div');
    return { paypal: window.paypal, container };
  }

  it('"Pay" approves the order on the emulator, then the server captures it', async () => {
    const payments = createPayPalClient({ clientId: EMULATOR_CLIENT_ID, clientSecret: EMULATOR_CLIENT_SECRET, baseUrl: `${base}/dev/paypal` }, 'emulator');
    const { paypal, container } = await loadButtons();

    const approved = new Promise<{ orderID: string }>((resolve, reject) => {
      void paypal
        .Buttons({
          createOrder: async () => (await payments.createOrder({ amountCents: 2500 })).id,
          onApprove: async (data: { orderID: string }) => resolve(data),
          onError: (err: Error) => reject(err),
        })
        .render(container);
    });
    const buttons = container.querySelectorAll('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['Pay with PayPal (emulator)', 'Decline (emulator)']);
    for (const fn of itemAt(buttons, 0).listeners.click ?? []) void fn();

    const { orderID } = await approved;
    expect((await payments.getOrder(orderID)).status).toBe('APPROVED');
    const captured = await payments.captureOrder(orderID);
    expect(captured.amountCents).toBe(2500);
    expect(captured.payer.email).toBe('buyer@example.com');
  });

  it('"Decline" reports an error and approves nothing', async () => {
    const { paypal, container } = await loadButtons();
    let created = false;
    const declined = new Promise<Error>((resolve) => {
      void paypal
        .Buttons({
          createOrder: async () => {
            created = true;
            return 'X';
          },
          onError: (err: Error) => resolve(err),
        })
        .render(container);
    });
    const decline = container.querySelectorAll('button')[1]!;
    for (const fn of decline.listeners.click ?? []) void fn();
    expect((await declined).message).toMatch(/declined/);
    expect(created).toBe(false);
  });
});
