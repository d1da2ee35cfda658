import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { centsToValue, createPayPalClient, PayPalError, shipToOf, valueToCents } from '../../../api/services/payments/paypal.ts';
import { startFakeServer, type FakeServer, type RecordedRequest } from '../../helpers/fake-server.ts';
import { itemAt, must, mustFind } from '../../helpers/guards.ts';

describe('centsToValue / valueToCents', () => {
  it('formats cents as a two-decimal value', () => {
    expect(centsToValue(1234)).toBe('12.34');
    expect(centsToValue(0)).toBe('0.00');
    expect(centsToValue(5)).toBe('0.05');
    expect(centsToValue(50)).toBe('0.50');
    expect(centsToValue(100)).toBe('1.00');
    expect(centsToValue(123456789)).toBe('1234567.89');
  });

  it('parses values with zero, one or two decimals', () => {
    expect(valueToCents('12.34')).toBe(1234);
    expect(valueToCents('12')).toBe(1200);
    expect(valueToCents('12.3')).toBe(1230);
    expect(valueToCents('0.05')).toBe(5);
    expect(valueToCents('0.00')).toBe(0);
  });

  it('round-trips every amount', () => {
    for (const cents of [0, 1, 9, 10, 99, 100, 101, 999, 1000, 1234, 4500, 99999, 100000, 123456789]) {
      expect(valueToCents(centsToValue(cents))).toBe(cents);
    }
    for (const value of ['0.00', '0.01', '1.10', '12.34', '45.00', '1000.99']) {
      expect(centsToValue(valueToCents(value))).toBe(value);
    }
  });

  it('refuses negative and non-integer cents', () => {
    for (const bad of [-1, -100, 12.5, 0.1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => centsToValue(bad), String(bad)).toThrow(/Invalid amount/);
    }
  });

  it('refuses anything that is not a plain money value', () => {
    for (const bad of ['1.234', 'abc', '', '-1.00', '1.', '.50', '1,00', ' 1.00', '1.00 ', '1e3', '+1.00', '0x10']) {
      expect(() => valueToCents(bad), JSON.stringify(bad)).toThrow(/Invalid money value/);
    }
  });
});

const CLIENT_ID = 'client-abc';
const CLIENT_SECRET = 'secret-xyz';
const EXPECTED_BASIC = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;

/** A small fake of PayPal's REST API; tests change `tokenLifetime` and `failNext`. */
function fakePayPal(server: FakeServer, options: { tokenLifetime: () => number; failNext: () => unknown; issued: string[] }) {
  let tokens = 0;
  server.handle((req: RecordedRequest) => {
    if (req.method === 'POST' && req.url === '/v1/oauth2/token') {
      if (req.headers.authorization !== EXPECTED_BASIC || req.body !== 'grant_type=client_credentials') {
        return { status: 401, body: { error: 'invalid_client', error_description: 'Client Authentication failed' } };
      }
      tokens += 1;
      options.issued.push(`token-${tokens}`);
      return { body: { access_token: `token-${tokens}`, token_type: 'Bearer', expires_in: options.tokenLifetime() } };
    }
    if (!options.issued.some((t) => req.headers.authorization === `Bearer ${t}`)) {
      return { status: 401, body: { name: 'AUTHENTICATION_FAILURE', details: [{ issue: 'AUTHENTICATION_FAILURE' }] } };
    }
    const failure = options.failNext();
    if (failure) return failure as { status: number; body: unknown };
    if (req.method === 'POST' && req.url === '/v2/checkout/orders') {
      return { status: 201, body: { id: 'ORDER-1', status: 'CREATED', links: [] } };
    }
    if (req.method === 'GET' && req.url === '/v2/checkout/orders/ORDER-1') {
      return {
        body: {
          id: 'ORDER-1',
          status: 'APPROVED',
          purchase_units: [{ amount: { currency_code: 'USD', value: '12.34' } }],
        },
      };
    }
    if (req.method === 'POST' && req.url === '/v2/checkout/orders/ORDER-1/capture') {
      return {
        status: 201,
        body: {
          id: 'ORDER-1',
          status: 'COMPLETED',
          payer: { name: { given_name: 'Ana', surname: 'Lima' }, email_address: 'ana@example.com', payer_id: 'P1' },
          purchase_units: [
            {
              shipping: {
                name: { full_name: 'Ana Lima' },
                address: {
                  address_line_1: '5 Elm St',
                  address_line_2: 'Apt 2',
                  admin_area_2: 'Salem',
                  admin_area_1: 'OR',
                  postal_code: '97301',
                  country_code: 'US',
                },
              },
              payments: {
                captures: [{ id: 'CAPTURE-9', status: 'COMPLETED', amount: { currency_code: 'USD', value: '12.34' } }],
              },
            },
          ],
        },
      };
    }
    if (req.method === 'POST' && req.url === '/v2/checkout/orders/EMPTY/capture') {
      return { status: 201, body: { id: 'EMPTY', status: 'COMPLETED', purchase_units: [{}] } };
    }
    if (req.method === 'POST' && req.url === '/v2/payments/captures/CAPTURE-9/refund') {
      return { status: 201, body: { id: 'REFUND-1', status: 'COMPLETED' } };
    }
    if (req.method === 'POST' && req.url === '/v1/notifications/verify-webhook-signature') {
      // The signature decides the verdict here; PayPal's real check is over cert, id and bytes.
      const sig = (JSON.parse(req.body) as { transmission_sig?: string }).transmission_sig;
      if (sig === 'MALFORMED') return { status: 400, body: { name: 'VALIDATION_ERROR', details: [{ issue: 'INVALID_PARAMETER_SYNTAX' }] } };
      if (sig === 'OUTAGE') return { status: 503, body: { name: 'SERVICE_UNAVAILABLE' } };
      return { body: { verification_status: sig === 'GOOD-SIG' ? 'SUCCESS' : 'FAILURE' } };
    }
    return { status: 404, body: { name: 'RESOURCE_NOT_FOUND', details: [{ issue: 'INVALID_RESOURCE_ID' }] } };
  });
}

describe('shipToOf', () => {
  it('is null without a street line', () => {
    expect(shipToOf(undefined)).toBeNull();
    expect(shipToOf({ name: { full_name: 'A' }, address: { admin_area_2: 'Salem', country_code: 'US' } })).toBeNull();
  });

  it('keeps printable text only, of a sane length', () => {
    const ship = shipToOf({
      name: { full_name: 'Ana\u0000 <b>Lima</b>' },
      address: { address_line_1: `1 Main\nSt\u0007 ${'x'.repeat(500)}`, admin_area_2: 'Salem\uD800', country_code: 'USA-LONG' },
    })!;
    expect(ship.name).toBe('Ana <b>Lima</b>'); // escaped where it is shown, not here
    const [street, city, country] = ship.address.split('\n');
    expect(street).toMatch(/^1 Main St x+$/);
    expect(must(street, 'street').length).toBe(300);
    expect(city).toBe('Salem\uFFFD');
    expect(country).toBe('US');
  });
});

describe('createPayPalClient against a fake PayPal server', () => {
  let paypal: FakeServer;
  let tokenLifetime = 32400;
  let nextFailure: unknown;
  const issued: string[] = [];

  beforeAll(async () => {
    paypal = await startFakeServer();
    fakePayPal(paypal, {
      tokenLifetime: () => tokenLifetime,
      failNext: () => {
        const f = nextFailure;
        nextFailure = undefined;
        return f;
      },
      issued,
    });
  });
  afterAll(async () => {
    await paypal.close();
  });
  beforeEach(() => {
    paypal.requests.length = 0;
    tokenLifetime = 32400;
    nextFailure = undefined;
    issued.length = 0;
  });

  const client = () => createPayPalClient({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, baseUrl: paypal.url });
  const tokenRequests = () => paypal.requests.filter((r) => r.url === '/v1/oauth2/token');

  it('authenticates with basic auth and grant_type=client_credentials', async () => {
    await client().createOrder({ amountCents: 1234 });
    const [tokenReq] = tokenRequests();
    expect(tokenReq).toBeDefined();
    expect(must(tokenReq, 'tokenReq').method).toBe('POST');
    expect(must(tokenReq, 'tokenReq').headers.authorization).toBe(EXPECTED_BASIC);
    expect(must(tokenReq, 'tokenReq').headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(new URLSearchParams(must(tokenReq, 'tokenReq').body).get('grant_type')).toBe('client_credentials');
  });

  it('reuses the access token: two calls make one token request, both with the bearer header', async () => {
    const payments = client();
    await payments.createOrder({ amountCents: 1234 });
    await payments.getOrder('ORDER-1');

    expect(tokenRequests()).toHaveLength(1);
    const apiCalls = paypal.requests.filter((r) => r.url.startsWith('/v2/'));
    expect(apiCalls.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v2/checkout/orders', 'GET /v2/checkout/orders/ORDER-1']);
    expect(issued).toHaveLength(1);
    for (const call of apiCalls) expect(call.headers.authorization).toBe(`Bearer ${issued[0]}`);
  });

  it('asks for a new token when the current one is about to expire', async () => {
    tokenLifetime = 30; // under the client's one-minute margin
    const payments = client();
    await payments.createOrder({ amountCents: 100 });
    await payments.createOrder({ amountCents: 200 });
    expect(tokenRequests()).toHaveLength(2);
    const orderCalls = paypal.requests.filter((r) => r.url === '/v2/checkout/orders');
    expect(issued).toHaveLength(2);
    expect(orderCalls.map((r) => r.headers.authorization)).toEqual(issued.map((t) => `Bearer ${t}`));
  });

  it('creates a CAPTURE order with the amount as a decimal string', async () => {
    const created = await client().createOrder({ amountCents: 1234, description: 'Private session', referenceId: 'booking-7' });
    expect(created).toEqual({ id: 'ORDER-1', status: 'CREATED' });

    const req = paypal.requests.find((r) => r.url === '/v2/checkout/orders')!;
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(req.body);
    expect(body.intent).toBe('CAPTURE');
    expect(body.purchase_units).toHaveLength(1);
    expect(body.purchase_units[0]).toEqual({
      reference_id: 'booking-7',
      description: 'Private session',
      amount: { currency_code: 'USD', value: '12.34' },
    });
    // A session ships nothing: PayPal must not ask the buyer for an address.
    expect(body.payment_source.paypal.experience_context.shipping_preference).toBe('NO_SHIPPING');
  });

  it('lets the buyer choose a shipping address when the order collects one', async () => {
    await client().createOrder({ amountCents: 1234, shipping: 'collect' });
    const body = JSON.parse(mustFind(paypal.requests, (r) => r.url === '/v2/checkout/orders').body);
    expect(body.payment_source.paypal.experience_context.shipping_preference).toBe('GET_FROM_FILE');
  });

  it('cuts the description to PayPal’s 127 characters', async () => {
    await client().createOrder({ amountCents: 500, description: 'x'.repeat(300) });
    const body = JSON.parse(mustFind(paypal.requests, (r) => r.url === '/v2/checkout/orders').body);
    expect(body.purchase_units[0].description).toHaveLength(127);
    expect(body.purchase_units[0].reference_id).toBeUndefined();
  });

  it('refuses an invalid amount before talking to PayPal about the order', async () => {
    await expect(client().createOrder({ amountCents: 12.5 })).rejects.toThrow(/Invalid amount/);
    expect(paypal.requests.filter((r) => r.url === '/v2/checkout/orders')).toHaveLength(0);
  });

  it('reads an order back with its amount in cents', async () => {
    expect(await client().getOrder('ORDER-1')).toEqual({ id: 'ORDER-1', status: 'APPROVED', amountCents: 1234, currency: 'USD' });
  });

  it('captures with a paypal-request-id and parses amount, capture id and payer', async () => {
    const captured = await client().captureOrder('ORDER-1');
    expect(captured).toEqual({
      orderId: 'ORDER-1',
      status: 'COMPLETED',
      captureId: 'CAPTURE-9',
      captureStatus: 'COMPLETED',
      amountCents: 1234,
      currency: 'USD',
      payer: { name: 'Ana Lima', firstName: 'Ana', email: 'ana@example.com' },
      shipTo: { name: 'Ana Lima', address: '5 Elm St\nApt 2\nSalem, OR 97301\nUS' },
    });

    const req = paypal.requests.find((r) => r.url === '/v2/checkout/orders/ORDER-1/capture')!;
    expect(req.method).toBe('POST');
    expect(req.headers.authorization).toBe(`Bearer ${issued[0]}`);
    expect(req.headers['paypal-request-id']).toBe('capture-ORDER-1');
  });

  it('fails a capture answer that holds no capture', async () => {
    const error = await client()
      .captureOrder('EMPTY')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayPalError);
    expect((error as PayPalError).status).toBe(502);
  });

  it('fails a call PayPal does not answer in time as a 504, which callers treat as an outage', async () => {
    nextFailure = new Promise((r) => setTimeout(() => r({ status: 201, body: { id: 'LATE', status: 'CREATED' } }), 2000));
    const slow = createPayPalClient({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, baseUrl: paypal.url, timeoutMs: 100 });
    const started = Date.now();
    // The token call answers at once; the order call is the slow one.
    const error = await slow.createOrder({ amountCents: 100 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(error).toBeInstanceOf(PayPalError);
    expect((error as PayPalError).status).toBe(504);
  });

  it('refunds a capture with its own paypal-request-id', async () => {
    expect(await client().refundCapture('CAPTURE-9')).toEqual({ id: 'REFUND-1', status: 'COMPLETED' });
    const req = paypal.requests.find((r) => r.url === '/v2/payments/captures/CAPTURE-9/refund')!;
    expect(req.method).toBe('POST');
    expect(req.headers['paypal-request-id']).toBe('refund-CAPTURE-9');
    expect(req.headers.authorization).toBe(`Bearer ${issued[0]}`);
  });

  it('turns an error answer into a PayPalError with the issue and status', async () => {
    nextFailure = {
      status: 422,
      body: {
        name: 'UNPROCESSABLE_ENTITY',
        message: 'The requested action could not be performed.',
        details: [{ issue: 'ORDER_NOT_APPROVED', description: 'Payer has not yet approved the Order for payment.' }],
      },
    };
    const error = await client()
      .captureOrder('ORDER-1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayPalError);
    expect((error as PayPalError).name).toBe('PayPalError');
    expect((error as PayPalError).status).toBe(422);
    expect((error as PayPalError).issue).toBe('ORDER_NOT_APPROVED');
    expect((error as PayPalError).message).toContain('ORDER_NOT_APPROVED');
  });

  it('gives an error without details an undefined issue', async () => {
    nextFailure = { status: 500, body: { name: 'INTERNAL_SERVER_ERROR' } };
    const error = await client()
      .getOrder('ORDER-1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayPalError);
    expect((error as PayPalError).status).toBe(500);
    expect((error as PayPalError).issue).toBeUndefined();
  });

  it('encodes order ids in the path', async () => {
    const error = await client()
      .getOrder('../../v1/oauth2/token')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayPalError);
    expect((error as PayPalError).issue).toBe('INVALID_RESOURCE_ID');
    expect(itemAt(paypal.requests, -1).url).toBe('/v2/checkout/orders/..%2F..%2Fv1%2Foauth2%2Ftoken');
  });

  it('fails with a 401 PayPalError when the credentials are refused', async () => {
    const payments = createPayPalClient({ clientId: CLIENT_ID, clientSecret: 'wrong', baseUrl: paypal.url });
    const error = await payments.createOrder({ amountCents: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayPalError);
    expect((error as PayPalError).status).toBe(401);
    expect(paypal.requests.filter((r) => r.url.startsWith('/v2/'))).toHaveLength(0);
  });

  describe('verifyWebhook', () => {
    const WEBHOOK_ID = '8PT597110X687430L';
    const webhookClient = () => createPayPalClient({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, baseUrl: paypal.url, webhookId: WEBHOOK_ID });
    // As PayPal sends them; Headers matches names in any case.
    const delivery = (sig: string) =>
      new Headers({
        'PAYPAL-AUTH-ALGO': 'SHA256withRSA',
        'PAYPAL-CERT-URL': 'https://api.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77',
        'PAYPAL-TRANSMISSION-ID': '69cd13f0-d67a-11e5-baa3-778b53f4ae55',
        'PAYPAL-TRANSMISSION-SIG': sig,
        'PAYPAL-TRANSMISSION-TIME': '2016-02-18T20:01:35Z',
      });
    // A number written 1.0 and an escaped character: a re-encoding would write them differently.
    const raw = '{"id":"WH-1","event_type":"PAYMENT.CAPTURE.COMPLETED","resource":{"id":"CAPTURE-9","quantity":1.0,"note":"caf\\u00e9"}}';
    const event = JSON.parse(raw);
    const verifyRequests = () => paypal.requests.filter((r) => r.url === '/v1/notifications/verify-webhook-signature');

    it('asks PayPal with the five paypal-* headers, the webhook id and the event exactly as received', async () => {
      expect(await webhookClient().verifyWebhook(delivery('GOOD-SIG'), event, raw)).toBe(true);
      const [req] = verifyRequests();
      expect(req).toBeDefined();
      expect(must(req, 'req').method).toBe('POST');
      expect(must(req, 'req').headers.authorization).toBe(`Bearer ${issued[0]}`);
      expect(must(req, 'req').headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(must(req, 'req').body)).toEqual({
        auth_algo: 'SHA256withRSA',
        cert_url: 'https://api.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77',
        transmission_id: '69cd13f0-d67a-11e5-baa3-778b53f4ae55',
        transmission_sig: 'GOOD-SIG',
        transmission_time: '2016-02-18T20:01:35Z',
        webhook_id: WEBHOOK_ID,
        webhook_event: event,
      });
      // The signature covers the bytes PayPal sent: they go back unchanged, not re-encoded.
      expect(must(req, 'req').body).toContain(`"webhook_event":${raw}`);
    });

    it('writes the parsed event when no raw body is given', async () => {
      expect(await webhookClient().verifyWebhook(delivery('GOOD-SIG'), event)).toBe(true);
      expect(JSON.parse(itemAt(verifyRequests(), 0).body).webhook_event).toEqual(event);
    });

    it('is false when PayPal answers FAILURE or refuses the inputs, and throws when PayPal is down', async () => {
      expect(await webhookClient().verifyWebhook(delivery('FORGED'), event, raw)).toBe(false);
      expect(await webhookClient().verifyWebhook(delivery('MALFORMED'), event, raw)).toBe(false);
      const error = await webhookClient()
        .verifyWebhook(delivery('OUTAGE'), event, raw)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PayPalError);
      expect((error as PayPalError).status).toBe(503);
    });

    it('is false without asking PayPal when a header is missing or no webhook id is configured', async () => {
      const headers = delivery('GOOD-SIG');
      headers.delete('paypal-cert-url');
      expect(await webhookClient().verifyWebhook(headers, event, raw)).toBe(false);
      expect(await client().verifyWebhook(delivery('GOOD-SIG'), event, raw)).toBe(false);
      expect(verifyRequests()).toHaveLength(0);
    });
  });

  it('reports its kind and public client id', () => {
    expect(client().kind).toBe('paypal');
    expect(client().clientId).toBe(CLIENT_ID);
    expect(createPayPalClient({ clientId: 'e', clientSecret: 's', baseUrl: paypal.url }, 'emulator').kind).toBe('emulator');
  });
});
