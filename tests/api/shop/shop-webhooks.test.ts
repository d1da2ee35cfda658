/**
 * Chocolate orders whose PayPal payment is pending, and PayPal's webhooks that keep an order's
 * status true after the checkout (POST /api/paypal/webhook), through the PayPal emulator:
 *
 *  - a capture PayPal reports PENDING places the order as payment_pending (tins claimed), and
 *    the mails say nothing ships before PayPal confirms;
 *  - PAYMENT.CAPTURE.COMPLETED makes it paid and tells the buyer once; DENIED makes it
 *    payment_failed and puts the tins back exactly once, however often and however concurrently
 *    it is delivered; REFUNDED and REVERSED make any order refunded;
 *  - an event PayPal does not verify changes nothing (400), the endpoint is not there without a
 *    webhook id (404), unknown captures and event types are acknowledged and ignored (200), and
 *    malformed deliveries are refused (400);
 *  - the admin may mark a pending order paid by hand, never shipped or picked up, and a failed
 *    payment is final.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { emulatorWebhookHeaders } from '../../../api/services/payments/emulator.ts';
import { startTestServer, type TestServer, useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { startFakeServer, type FakeServer } from '../../helpers/fake-server.ts';
import type { CheckoutRequest } from '../../../contract/orders.ts';
import { itemAt, must, mustFind } from '../../helpers/guards.ts';

const server = useTestServer({ seedContent: true, resetRateLimits: true });
let admin: string;
const ids = { caramel: '', lavender: '', espresso: '', raspberry: '' };

beforeAll(async () => {
  admin = await adminCookie(server);
  const rows = await server.services.db.selectFrom('products').select(['id', 'name']).execute();
  const byName = (name: string) => mustFind(rows, (r) => r.name === name).id;
  ids.caramel = byName('Sea Salt Caramel Tin'); // $18
  ids.lavender = byName('Lavender Honey Truffles'); // $20
  ids.espresso = byName('Espresso Crunch Bar'); // $12
  ids.raspberry = byName('Raspberry Rose Hearts'); // $22
});
afterEach(() => vi.restoreAllMocks());

const TEACHER = 'teacher@example.com';

const mailbox = (to: string) => readMailbox(server, to);
const teacherMails = async (about: string) => (await mailbox(TEACHER)).filter((m) => m.text.includes(about));

type Cart = Pick<CheckoutRequest, 'cartItems' | 'isLocalPickup'>;

interface Bought {
  orderId: string;
  paypalOrderId: string;
  captureId: string;
  answer: { message: string; order: Record<string, unknown> };
}

/** Checkout, approval in the emulator (optionally with a PENDING capture), POST /api/orders. */
async function buy(cart: Cart, email: string, captureStatus?: 'PENDING'): Promise<Bought> {
  const quote = await (await server.api('/api/orders/paypal', { method: 'POST', json: { shipToState: 'OR', ...cart } })).json();
  const approved = await server.api(`/dev/paypal/v2/checkout/orders/${quote.orderID}/approve`, {
    method: 'POST',
    json: { givenName: 'Ana', surname: 'Lima', email, ...(captureStatus ? { captureStatus } : {}) },
  });
  expect(approved.status).toBe(200);
  const res = await server.api('/api/orders', { method: 'POST', json: { shipToState: 'OR', orderId: quote.orderID, ...cart } });
  expect(res.status).toBe(201);
  const answer = await res.json();
  const row = await server.services.db
    .selectFrom('orders')
    .select(['id', 'paypalCaptureId'])
    .where('paypalOrderId', '=', quote.orderID)
    .executeTakeFirstOrThrow();
  return { orderId: row.id, paypalOrderId: quote.orderID, captureId: row.paypalCaptureId!, answer };
}

const statusOf = async (orderId: string) =>
  (await server.services.db.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()).status;
const inventory = async (id: string) =>
  (await server.services.db.selectFrom('products').select('inventory').where('id', '=', id).executeTakeFirstOrThrow()).inventory;
const allStatuses = async () => server.services.db.selectFrom('orders').select(['id', 'status']).orderBy('id').execute();
const mailCount = async () => (await server.services.db.selectFrom('mails').select('id').execute()).length;

const newId = (prefix = '') => `${prefix}${randomBytes(9).toString('hex').toUpperCase()}`;

/** A capture event as PayPal sends it (Orders v2): the resource is the capture. */
function captureEvent(eventType: string, captureId: string, paypalOrderId = 'ORDER1') {
  return {
    id: newId('WH-'),
    event_version: '1.0',
    create_time: new Date().toISOString(),
    resource_type: 'capture',
    resource_version: '2.0',
    event_type: eventType,
    summary: `Payment ${itemAt(eventType.split('.'), -1).toLowerCase()}`,
    resource: {
      id: captureId,
      status: eventType === 'PAYMENT.CAPTURE.COMPLETED' ? 'COMPLETED' : 'DECLINED',
      amount: { currency_code: 'USD', value: '41.00' },
      final_capture: true,
      supplementary_data: { related_ids: { order_id: paypalOrderId } },
      links: [
        { href: `https://api.sandbox.paypal.com/v2/payments/captures/${captureId}`, rel: 'self', method: 'GET' },
        { href: `https://api.sandbox.paypal.com/v2/checkout/orders/${paypalOrderId}`, rel: 'up', method: 'GET' },
      ],
    },
    links: [{ href: 'https://api.sandbox.paypal.com/v1/notifications/webhooks-events/WH-1', rel: 'self', method: 'GET' }],
  };
}

/**
 * A refund (or reversal) event: the resource is the refund, naming its capture in its link
 * "up" or in supplementary_data; `totalRefunded` is what the capture has returned so far.
 */
function refundEvent(eventType: string, captureId: string, options: { via?: 'link' | 'related'; totalRefunded?: string } = {}) {
  const refundId = newId();
  return {
    id: newId('WH-'),
    event_version: '1.0',
    create_time: new Date().toISOString(),
    resource_type: 'refund',
    resource_version: '2.0',
    event_type: eventType,
    summary: 'A payment was returned',
    resource: {
      id: refundId,
      status: 'COMPLETED',
      amount: { currency_code: 'USD', value: options.totalRefunded ?? '41.00' },
      ...(options.totalRefunded
        ? {
            seller_payable_breakdown: {
              gross_amount: { currency_code: 'USD', value: options.totalRefunded },
              total_refunded_amount: { currency_code: 'USD', value: options.totalRefunded },
            },
          }
        : {}),
      ...(options.via === 'related' ? { supplementary_data: { related_ids: { capture_id: captureId } } } : {}),
      links: [
        { href: `https://api.sandbox.paypal.com/v2/payments/refunds/${refundId}`, rel: 'self', method: 'GET' },
        ...(options.via === 'related' ? [] : [{ href: `https://api.sandbox.paypal.com/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' }]),
      ],
    },
  };
}

const deliver = (event: unknown, headers: Record<string, string> = emulatorWebhookHeaders()) =>
  server.api('/api/paypal/webhook', { method: 'POST', json: event, headers });

// ---------------------------------------------------------------------------------------------

describe(`a payment PayPal holds (PENDING capture) on ${testDbKind()}`, () => {
  it('places the order as payment_pending with its tins claimed; the mails say nothing ships before PayPal confirms', async () => {
    const before = await inventory(ids.caramel);
    const cart = { cartItems: [{ _id: ids.caramel, quantity: 2 }], isLocalPickup: false };
    const bought = await buy(cart, 'pending.ship@example.com', 'PENDING');

    // The answer keeps the shape and words of a paid order (the cart shows its success dialog).
    expect(bought.answer.message).toBe('Order placed successfully');
    expect(Object.keys(bought.answer.order).sort()).toEqual(
      [
        ...['_id', 'couponCode', 'discount', 'isLocalPickup', 'items', 'itemsTotal', 'payerName', 'shipping', 'total'],
        // Issue 33: what a gift card paid (none here) and what PayPal took.
        ...['giftCardCents', 'amountDueCents'],
        // Issue 24: the sales tax (none to Oregon).
        ...['tax', 'taxCents', 'taxState', 'taxRatePercent', 'taxLabel', 'taxOnShipping'],
        // Issue 29: the place of the rate and its source (none: she does not collect there).
        ...['taxZip', 'taxLocationCode', 'taxJurisdiction', 'taxRateSource'],
      ].sort(),
    );
    expect(await statusOf(bought.orderId)).toBe('payment_pending');
    expect(bought.captureId).toMatch(/^[A-Z0-9]+$/);
    expect(await inventory(ids.caramel)).toBe(before - 2);

    const [buyer, ...more] = await mailbox('pending.ship@example.com');
    expect(more).toHaveLength(0);
    expect(must(buyer, 'buyer').subject).toMatch(/^Your chocolate order [0-9A-F]{8} is received$/);
    expect(must(buyer, 'buyer').text).toContain('Your order of handmade chocolates is received. PayPal has not confirmed your payment yet');
    expect(must(buyer, 'buyer').text).toContain('Your chocolates will ship once PayPal confirms the payment, and I will write to you when it does.');
    expect(must(buyer, 'buyer').text).toContain('Total: $41.00 USD, payment pending at PayPal');
    expect(must(buyer, 'buyer').text).not.toContain('paid and confirmed');
    expect(must(buyer, 'buyer').text).not.toContain('Total paid');

    const teacher = itemAt(await teacherMails(bought.paypalOrderId), 0);
    expect(teacher.subject).toMatch(/^New chocolate order [0-9A-F]{8} from Ana Lima: \$41\.00, payment pending$/);
    expect(teacher.text).toContain('Payment pending at PayPal: do not ship until it completes.');
    expect(teacher.text).toContain('Delivery: shipping. Once the payment completes, ship within 2-5 days, Monday to Wednesday, to:');
    expect(teacher.text).not.toContain('Delivery: shipping. Ship within');

    // A replay answers the same order and leaves it pending.
    const again = await server.api('/api/orders', { method: 'POST', json: { shipToState: 'OR', orderId: bought.paypalOrderId, ...cart } });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(bought.answer);
    expect(await statusOf(bought.orderId)).toBe('payment_pending');
  });

  it('tells a pickup buyer the order will be ready once PayPal confirms', async () => {
    const bought = await buy({ cartItems: [{ _id: ids.espresso, quantity: 1 }], isLocalPickup: true }, 'pending.pickup@example.com', 'PENDING');
    expect(await statusOf(bought.orderId)).toBe('payment_pending');
    const buyer = itemAt(await mailbox('pending.pickup@example.com'), 0);
    expect(buyer.text).toContain('Your chocolates will be ready for pickup once PayPal confirms the payment');
    const teacher = itemAt(await teacherMails(bought.paypalOrderId), 0);
    expect(teacher.text).toContain('Payment pending at PayPal: do not ship until it completes.');
    expect(teacher.text).toContain('Delivery: local pickup. Once the payment completes, write to the buyer when the order is ready.');

    const list = await (await server.api('/api/admin/orders', { headers: { cookie: admin } })).json();
    expect(list.find((o: { _id: string }) => o._id === bought.orderId).status).toBe('payment_pending');
  });
});

describe(`PayPal webhooks on ${testDbKind()}`, () => {
  it('PAYMENT.CAPTURE.COMPLETED makes a pending order paid and tells the buyer once, however often it comes', async () => {
    const bought = await buy({ cartItems: [{ _id: ids.raspberry, quantity: 1 }], isLocalPickup: false }, 'completed@example.com', 'PENDING');
    const event = captureEvent('PAYMENT.CAPTURE.COMPLETED', bought.captureId, bought.paypalOrderId);

    const res = await deliver(event);
    expect(res.status).toBe(200);
    expect(await statusOf(bought.orderId)).toBe('paid');
    const buyerMails = (await mailbox('completed@example.com')).filter((m) => m.subject.includes('went through'));
    expect(buyerMails).toHaveLength(1);
    expect(itemAt(buyerMails, 0).subject).toMatch(/^Your payment for chocolate order [0-9A-F]{8} went through$/);
    expect(itemAt(buyerMails, 0).text).toContain('PayPal has confirmed your payment: your order of handmade chocolates is paid and confirmed.');
    expect(itemAt(buyerMails, 0).text).toContain('Total paid: $27.00 USD');
    const teacher = (await teacherMails(bought.paypalOrderId)).filter((m) => m.subject.startsWith('Payment completed'));
    expect(teacher).toHaveLength(1);
    expect(itemAt(teacher, 0).subject).toMatch(/: ready to ship$/);
    expect(itemAt(teacher, 0).text).toContain('Delivery: shipping. Ship within 2-5 days');

    // The same delivery again, and the same news in a second event: nothing more happens.
    const mails = await mailCount();
    for (const again of [event, captureEvent('PAYMENT.CAPTURE.COMPLETED', bought.captureId, bought.paypalOrderId)]) {
      const replay = await deliver(again);
      expect(replay.status).toBe(200);
    }
    expect(await statusOf(bought.orderId)).toBe('paid');
    expect(await mailCount()).toBe(mails);
  });

  it('PAYMENT.CAPTURE.COMPLETED for an order paid at checkout changes nothing and mails no one', async () => {
    const bought = await buy({ cartItems: [{ _id: ids.espresso, quantity: 1 }], isLocalPickup: true }, 'paid.at.checkout@example.com');
    expect(await statusOf(bought.orderId)).toBe('paid');
    await server.api(`/api/admin/orders/${bought.orderId}/status`, { method: 'PUT', json: { status: 'picked_up' }, headers: { cookie: admin } });
    const mails = await mailCount();
    const res = await deliver(captureEvent('PAYMENT.CAPTURE.COMPLETED', bought.captureId, bought.paypalOrderId));
    expect(res.status).toBe(200);
    expect(await statusOf(bought.orderId)).toBe('picked_up');
    expect(await mailCount()).toBe(mails);
  });

  it('PAYMENT.CAPTURE.DENIED fails a pending order and puts its tins back exactly once, even delivered 5 times at once', async () => {
    const before = await inventory(ids.lavender);
    const bought = await buy({ cartItems: [{ _id: ids.lavender, quantity: 3 }], isLocalPickup: false }, 'denied@example.com', 'PENDING');
    expect(await inventory(ids.lavender)).toBe(before - 3);

    const event = captureEvent('PAYMENT.CAPTURE.DENIED', bought.captureId, bought.paypalOrderId);
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(event)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await statusOf(bought.orderId)).toBe('payment_failed');
    expect(await inventory(ids.lavender)).toBe(before);

    const buyer = (await mailbox('denied@example.com')).filter((m) => m.subject.includes('cancelled'));
    expect(buyer).toHaveLength(1);
    expect(itemAt(buyer, 0).text).toContain('PayPal could not complete your payment, so your order of handmade chocolates is cancelled');
    const teacher = (await teacherMails(bought.paypalOrderId)).filter((m) => m.subject.startsWith('Payment denied'));
    expect(teacher).toHaveLength(1);
    expect(itemAt(teacher, 0).subject).toMatch(/: do not ship$/);
    expect(itemAt(teacher, 0).text).toContain('Do not ship it or hand it over; its tins are back in stock.');

    // A denied payment is final: a late COMPLETED, a refund or a reversal changes nothing.
    const mails = await mailCount();
    for (const late of [
      captureEvent('PAYMENT.CAPTURE.COMPLETED', bought.captureId, bought.paypalOrderId),
      event,
      refundEvent('PAYMENT.CAPTURE.REFUNDED', bought.captureId),
      refundEvent('PAYMENT.CAPTURE.REVERSED', bought.captureId, { via: 'related' }),
    ]) {
      expect((await deliver(late)).status).toBe(200);
    }
    expect(await statusOf(bought.orderId)).toBe('payment_failed');
    expect(await inventory(ids.lavender)).toBe(before);
    expect(await mailCount()).toBe(mails);
  });

  it('PAYMENT.CAPTURE.DENIED for an order that is not pending changes nothing', async () => {
    const bought = await buy({ cartItems: [{ _id: ids.espresso, quantity: 1 }], isLocalPickup: true }, 'denied.late@example.com');
    const stock = await inventory(ids.espresso);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect((await deliver(captureEvent('PAYMENT.CAPTURE.DENIED', bought.captureId))).status).toBe(200);
    expect(await statusOf(bought.orderId)).toBe('paid');
    expect(await inventory(ids.espresso)).toBe(stock);
    // Loud: a paid order whose payment PayPal denies needs a person.
    expect(errors).toHaveBeenCalledWith(expect.stringMatching(/PayPal denied capture .* whose status is paid/));
  });

  it('PAYMENT.CAPTURE.REFUNDED and REVERSED make an order refunded, without restocking, once', async () => {
    const paid = await buy({ cartItems: [{ _id: ids.caramel, quantity: 1 }], isLocalPickup: false }, 'refunded@example.com');
    const stock = await inventory(ids.caramel);
    const refund = refundEvent('PAYMENT.CAPTURE.REFUNDED', paid.captureId, { via: 'link' });
    expect((await deliver(refund)).status).toBe(200);
    expect(await statusOf(paid.orderId)).toBe('refunded');
    // The tins may have shipped: the teacher puts back by hand what is still here.
    expect(await inventory(ids.caramel)).toBe(stock);
    const teacher = (await teacherMails(paid.paypalOrderId)).filter((m) => m.subject.endsWith('was refunded in PayPal'));
    expect(teacher).toHaveLength(1);
    expect(itemAt(teacher, 0).text).toContain('Its tins were not put back in stock');
    const mails = await mailCount();
    expect((await deliver(refund)).status).toBe(200);
    expect(await mailCount()).toBe(mails);

    // A reversal (a dispute) of an order already shipped, named through supplementary_data.
    const shipped = await buy({ cartItems: [{ _id: ids.espresso, quantity: 2 }], isLocalPickup: false }, 'reversed@example.com');
    const put = await server.api(`/api/admin/orders/${shipped.orderId}/status`, { method: 'PUT', json: { status: 'shipped' }, headers: { cookie: admin } });
    expect(put.status).toBe(200);
    expect((await deliver(refundEvent('PAYMENT.CAPTURE.REVERSED', shipped.captureId, { via: 'related' }))).status).toBe(200);
    expect(await statusOf(shipped.orderId)).toBe('refunded');
    expect((await teacherMails(shipped.paypalOrderId)).filter((m) => m.subject.endsWith('was reversed in PayPal'))).toHaveLength(1);

    // A pending order refunded in PayPal is refunded too.
    const pending = await buy({ cartItems: [{ _id: ids.espresso, quantity: 1 }], isLocalPickup: true }, 'pending.refunded@example.com', 'PENDING');
    expect((await deliver(refundEvent('PAYMENT.CAPTURE.REFUNDED', pending.captureId))).status).toBe(200);
    expect(await statusOf(pending.orderId)).toBe('refunded');
  });

  it('keeps the status on a partial refund, and marks the order refunded once the refunds reach its total', async () => {
    // $18 + $5 shipping = $23.00.
    const bought = await buy({ cartItems: [{ _id: ids.caramel, quantity: 1 }], isLocalPickup: false }, 'partial@example.com');
    const mails = await mailCount();
    expect((await deliver(refundEvent('PAYMENT.CAPTURE.REFUNDED', bought.captureId, { totalRefunded: '5.00' }))).status).toBe(200);
    expect(await statusOf(bought.orderId)).toBe('paid');
    expect(await mailCount()).toBe(mails);
    expect((await deliver(refundEvent('PAYMENT.CAPTURE.REFUNDED', bought.captureId, { totalRefunded: '23.00' }))).status).toBe(200);
    expect(await statusOf(bought.orderId)).toBe('refunded');
  });

  it('refuses an event PayPal does not verify with 400, and changes nothing', async () => {
    const bought = await buy({ cartItems: [{ _id: ids.espresso, quantity: 1 }], isLocalPickup: true }, 'forged@example.com', 'PENDING');
    const stock = await inventory(ids.espresso);
    const mails = await mailCount();
    const forged = { ...emulatorWebhookHeaders(), 'paypal-transmission-sig': 'forged-signature' };
    const unsigned = Object.fromEntries(Object.entries(emulatorWebhookHeaders()).filter(([k]) => k !== 'paypal-transmission-sig'));
    for (const [headers, event] of [
      [forged, captureEvent('PAYMENT.CAPTURE.DENIED', bought.captureId)],
      [forged, captureEvent('PAYMENT.CAPTURE.COMPLETED', bought.captureId)],
      [unsigned, refundEvent('PAYMENT.CAPTURE.REFUNDED', bought.captureId)],
      [{}, captureEvent('PAYMENT.CAPTURE.DENIED', bought.captureId)],
    ] as const) {
      const res = await deliver(event, headers);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ message: 'The webhook event could not be verified with PayPal.' });
    }
    expect(await statusOf(bought.orderId)).toBe('payment_pending');
    expect(await inventory(ids.espresso)).toBe(stock);
    expect(await mailCount()).toBe(mails);
  });

  it('acknowledges a capture that is no order (a booked session, another shop) and event types it has no use for', async () => {
    const before = await allStatuses();
    const mails = await mailCount();
    for (const event of [
      captureEvent('PAYMENT.CAPTURE.COMPLETED', 'NOSUCHCAPTURE1'),
      captureEvent('PAYMENT.CAPTURE.DENIED', 'NOSUCHCAPTURE2'),
      refundEvent('PAYMENT.CAPTURE.REFUNDED', 'NOSUCHCAPTURE3'),
      { ...captureEvent('CHECKOUT.ORDER.APPROVED', 'IRRELEVANT'), resource_type: 'checkout-order' },
      { ...captureEvent('PAYMENT.CAPTURE.PENDING', 'IRRELEVANT') },
    ]) {
      const res = await deliver(event);
      expect(res.status, event.event_type).toBe(200);
    }
    expect(await allStatuses()).toEqual(before);
    expect(await mailCount()).toBe(mails);
  });

  it('refuses malformed deliveries with 400 and a message, and a body that is not JSON with 415', async () => {
    const bought = await buy({ cartItems: [{ _id: ids.espresso, quantity: 1 }], isLocalPickup: true }, 'malformed@example.com', 'PENDING');
    const good = captureEvent('PAYMENT.CAPTURE.COMPLETED', bought.captureId);
    const { id: _resourceId, ...resourceWithoutId } = good.resource;
    const noCapture = refundEvent('PAYMENT.CAPTURE.REFUNDED', bought.captureId);
    noCapture.resource.links = noCapture.resource.links.filter((l) => l.rel !== 'up');
    const cases: [string | unknown, RegExp][] = [
      ['{"id":"WH-1","event_type":', /not valid JSON/],
      ['[]', /expected object|Invalid input/i],
      [{ ...good, event_type: undefined }, /^event_type: /],
      [{ ...good, event_type: 'payment capture completed' }, /^event_type: event_type is not a PayPal event type$/],
      [{ ...good, id: undefined }, /^id: /],
      [{ ...good, resource: undefined }, /^resource: /],
      [{ ...good, resource: 'CAPTURE' }, /^resource: /],
      [{ ...good, resource: resourceWithoutId }, /^resource\.id: A PayPal capture id is required$/],
      [{ ...good, resource: { ...good.resource, id: "1' OR 1=1" } }, /^resource\.id: Not a PayPal capture id$/],
      [noCapture, /names no capture/],
      [
        refundEvent('PAYMENT.CAPTURE.REFUNDED', bought.captureId, { totalRefunded: 'lots' }),
        /^resource\.seller_payable_breakdown\.total_refunded_amount\.value: /,
      ],
    ];
    const mails = await mailCount();
    for (const [body, message] of cases) {
      const res = await server.api('/api/paypal/webhook', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...emulatorWebhookHeaders() },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect((await res.json()).message).toMatch(message);
    }
    const text = await server.api('/api/paypal/webhook', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', ...emulatorWebhookHeaders() },
      body: JSON.stringify(good),
    });
    expect(text.status).toBe(415);
    expect(await statusOf(bought.orderId)).toBe('payment_pending');
    expect(await mailCount()).toBe(mails);
    // The well-formed event still goes through.
    expect((await deliver(good)).status).toBe(200);
    expect(await statusOf(bought.orderId)).toBe('paid');
  });
});

describe(`the admin and orders PayPal has not paid on ${testDbKind()}`, () => {
  const setStatus = (orderId: string, status: string) =>
    server.api(`/api/admin/orders/${orderId}/status`, { method: 'PUT', json: { status }, headers: { cookie: admin } });

  it('may mark a pending order paid by hand, but never shipped or picked up', async () => {
    const shipped = await buy({ cartItems: [{ _id: ids.espresso, quantity: 1 }], isLocalPickup: false }, 'admin.pending@example.com', 'PENDING');
    const pickup = await buy({ cartItems: [{ _id: ids.espresso, quantity: 1 }], isLocalPickup: true }, 'admin.pending.pickup@example.com', 'PENDING');
    for (const [orderId, status] of [
      [shipped.orderId, 'shipped'],
      [pickup.orderId, 'picked_up'],
    ] as const) {
      const res = await setStatus(orderId, status);
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({
        message:
          'The payment of this order is still pending at PayPal: do not ship it or hand it over yet. Once PayPal shows the payment completed, mark it paid.',
      });
      expect(await statusOf(orderId)).toBe('payment_pending');
    }

    const paid = await setStatus(shipped.orderId, 'paid');
    expect(paid.status).toBe(200);
    expect((await paid.json()).status).toBe('paid');
    expect((await setStatus(shipped.orderId, 'shipped')).status).toBe(200);
    expect(await statusOf(shipped.orderId)).toBe('shipped');
  });

  it('keeps a failed payment final', async () => {
    const bought = await buy({ cartItems: [{ _id: ids.espresso, quantity: 1 }], isLocalPickup: false }, 'admin.failed@example.com', 'PENDING');
    expect((await deliver(captureEvent('PAYMENT.CAPTURE.DENIED', bought.captureId))).status).toBe(200);
    for (const status of ['paid', 'shipped', 'picked_up']) {
      const res = await setStatus(bought.orderId, status);
      expect(res.status, status).toBe(409);
      expect(await res.json()).toEqual({ message: 'PayPal denied the payment of this order and its tins are back in stock: it keeps its status.' });
    }
    expect(await statusOf(bought.orderId)).toBe('payment_failed');
    const list = await (await server.api('/api/admin/orders', { headers: { cookie: admin } })).json();
    expect(list.find((o: { _id: string }) => o._id === bought.orderId).status).toBe('payment_failed');
  });
});

describe(`webhooks with the real PayPal client on ${testDbKind()}`, () => {
  let paypal: FakeServer;
  let verdict: { status: number; body: unknown };

  beforeAll(async () => {
    paypal = await startFakeServer((req) => {
      if (req.url === '/v1/oauth2/token') return { body: { access_token: 'live-token', token_type: 'Bearer', expires_in: 32400 } };
      if (req.url === '/v1/notifications/verify-webhook-signature') return verdict;
      return { status: 404, body: { name: 'RESOURCE_NOT_FOUND' } };
    });
  });
  afterAll(async () => {
    await paypal?.close();
  });

  const live = { PAYPAL_CLIENT_ID: 'live-client-id', PAYPAL_CLIENT_SECRET: 'live-client-secret' };
  const post = (s: TestServer, event: unknown, headers: Record<string, string>) => s.api('/api/paypal/webhook', { method: 'POST', json: event, headers });
  const delivery = {
    'paypal-auth-algo': 'SHA256withRSA',
    'paypal-cert-url': 'https://api.paypal.com/v1/notifications/certs/CERT-1',
    'paypal-transmission-id': 'b2384410-f8d2-11ea-8c3c-55f9ac5b8b3f',
    'paypal-transmission-sig': 'c2lnbmF0dXJl',
    'paypal-transmission-time': '2030-01-01T00:00:00Z',
  };

  it('answers 404 without PAYPAL_WEBHOOK_ID, and asks PayPal nothing', async () => {
    const unconfigured = await startTestServer({ env: { ...live, PAYPAL_API_BASE: paypal.url } });
    try {
      paypal.requests.length = 0;
      const res = await post(unconfigured, captureEvent('PAYMENT.CAPTURE.COMPLETED', 'CAPTURE1'), delivery);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: 'PayPal webhooks are not configured on this site (PAYPAL_WEBHOOK_ID is unset).' });
      expect(paypal.requests).toHaveLength(0);
    } finally {
      await unconfigured.close();
    }
  });

  it('verifies with PAYPAL_WEBHOOK_ID: SUCCESS is acknowledged, FAILURE refused, an outage answered 503 for a later delivery', async () => {
    const configured = await startTestServer({ env: { ...live, PAYPAL_API_BASE: paypal.url, PAYPAL_WEBHOOK_ID: '1JE4291016473214C' } });
    try {
      const event = captureEvent('PAYMENT.CAPTURE.COMPLETED', 'CAPTURE1');
      paypal.requests.length = 0;
      verdict = { status: 200, body: { verification_status: 'SUCCESS' } };
      expect((await post(configured, event, delivery)).status).toBe(200);
      const asked = paypal.requests.find((r) => r.url === '/v1/notifications/verify-webhook-signature')!;
      expect(asked.headers.authorization).toBe('Bearer live-token');
      expect(JSON.parse(asked.body)).toEqual({
        auth_algo: 'SHA256withRSA',
        cert_url: 'https://api.paypal.com/v1/notifications/certs/CERT-1',
        transmission_id: 'b2384410-f8d2-11ea-8c3c-55f9ac5b8b3f',
        transmission_sig: 'c2lnbmF0dXJl',
        transmission_time: '2030-01-01T00:00:00Z',
        webhook_id: '1JE4291016473214C',
        webhook_event: event,
      });

      verdict = { status: 200, body: { verification_status: 'FAILURE' } };
      expect((await post(configured, event, delivery)).status).toBe(400);

      verdict = { status: 503, body: { name: 'SERVICE_UNAVAILABLE' } };
      const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
      const res = await post(configured, event, delivery);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ message: 'PayPal could not be asked to verify the webhook event. Please deliver it again later.' });
      expect(errors).toHaveBeenCalledWith(expect.stringMatching(/could not verify event WH-/), expect.stringContaining('503'));
    } finally {
      await configured.close();
    }
  });
});
