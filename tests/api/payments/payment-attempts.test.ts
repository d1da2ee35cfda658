/**
 * Payment attempts over HTTP (issue 12), on PGlite and PostgreSQL: a claim is visible while the
 * capture is under way and holds no transaction; PayPal's webhook settles an attempt whose
 * checkout has not recorded it; the booking coupon's cap per client, also under concurrency;
 * what the admin's lists show about coupon bookings and payments.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { freeSlotTime } from '../../helpers/slots.ts';
import { sql } from 'kysely';
import { zonedInstant } from '../../../api/lib/time.ts';
import { emulatorWebhookHeaders } from '../../../api/services/payments/emulator.ts';
import { couponLimitReached } from '../../../contract/booking.ts';
import { useTestServer } from '../../helpers/server.ts';
import { recordingRealtime } from '../../helpers/realtime.ts';
import { addTin } from '../../helpers/orders.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { until } from '../../helpers/until.ts';

const LIMIT = 3;
const YOGA = 'Individual Yoga Session (60 min)';
const TEACHER = 'teacher@example.com';

// Behind a trusted proxy each X-Forwarded-For is one client (the concurrent bookings).
const server = useTestServer({ env: { TRUST_PROXY: '1', BOOKING_COUPON_LIMIT: String(LIMIT) }, resetRateLimits: true });
beforeAll(async () => {
  server.services.realtime = recordingRealtime();
});

const db = () => server.services.db;
let counter = 0;

const addProduct = (inventory: number) => addTin(db(), inventory);
const inventory = async (id: string) => (await db().selectFrom('products').select('inventory').where('id', '=', id).executeTakeFirstOrThrow()).inventory;
const attemptOf = (paypalOrderId: string) => db().selectFrom('paymentAttempts').selectAll().where('paypalOrderId', '=', paypalOrderId).executeTakeFirst();

/** A PayPal order for `cart`, approved by `email`; `captureDelayMs` makes PayPal slow to answer the capture (after making it). */
async function paidFor(cart: unknown, email: string, captureDelayMs = 0) {
  const quote = await (await server.api('/api/orders/paypal', { method: 'POST', json: { shipToState: 'OR', ...(cart as object) } })).json();
  const approved = await server.api(`/dev/paypal/v2/checkout/orders/${quote.orderID}/approve`, {
    method: 'POST',
    json: { givenName: 'Ana', surname: 'Lima', email, captureDelayMs },
  });
  expect(approved.status).toBe(200);
  return quote.orderID as string;
}

describe(`a chocolate payment under way on ${testDbKind()}`, () => {
  it('holds the tins, not a transaction, while PayPal captures; PayPal’s webhook records it first, once', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const product = await addProduct(4);
    const cart = { cartItems: [{ _id: product, quantity: 3 }], isLocalPickup: true };
    const email = `webhook-${++counter}@example.com`;
    const paypalOrderId = await paidFor(cart, email, 1500);

    const placing = server.api('/api/orders', { method: 'POST', json: { shipToState: 'OR', orderId: paypalOrderId, ...cart } });
    // PayPal has captured; its answer is on its way. The claim is committed and visible.
    await until(async () => (await attemptOf(paypalOrderId))?.state === 'capturing');
    expect(await inventory(product)).toBe(1);
    const sold = await server.api('/api/orders/paypal', { method: 'POST', json: { cartItems: [{ _id: product, quantity: 2 }], isLocalPickup: true } });
    expect(sold.status).toBe(409);

    // PAYMENT.CAPTURE.COMPLETED names the PayPal order: the open attempt is completed from PayPal's record.
    const event = {
      id: `WH-${++counter}`,
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource: { id: 'CAPTUREFROMEVENT', status: 'COMPLETED', supplementary_data: { related_ids: { order_id: paypalOrderId } } },
    };
    const hook = await server.api('/api/paypal/webhook', { method: 'POST', json: event, headers: emulatorWebhookHeaders() });
    expect(hook.status).toBe(200);
    expect(await hook.json()).toEqual({ message: expect.stringMatching(/received/i) });
    expect(await attemptOf(paypalOrderId)).toMatchObject({ state: 'completed', settledBy: 'webhook' });

    // The buyer's own request then finds it recorded, and answers that order.
    const placed = await placing;
    expect(placed.status).toBe(200);
    const { order } = await placed.json();
    const rows = await db().selectFrom('orders').selectAll().where('paypalOrderId', '=', paypalOrderId).execute();
    expect(rows.map((r) => r.id)).toEqual([order._id]);
    expect(await inventory(product)).toBe(1);
    expect(await readMailbox(server, email)).toHaveLength(1);
    expect((await readMailbox(server, TEACHER)).filter((m) => m.text.includes(paypalOrderId))).toHaveLength(1);

    // A repeat of the event changes nothing; the admin's list says who recorded the payment.
    const again = await server.api('/api/paypal/webhook', { method: 'POST', json: { ...event, id: `WH-${++counter}` }, headers: emulatorWebhookHeaders() });
    expect(await again.json()).toEqual({ message: expect.stringMatching(/ignored/i) });
    const list = await (await server.api('/api/admin/orders', { headers: { cookie: await adminCookie(server) } })).json();
    expect(list.find((o: { _id: string }) => o._id === order._id).paymentNote).toMatch(/^Recovered by PayPal’s webhook/);
  });
});

describe(`the booking coupon’s cap on ${testDbKind()}`, () => {
  const zone = () => server.env.SITE_TIMEZONE;
  async function addSlot() {
    const { date, time } = freeSlotTime(zone(), 3);
    return db()
      .insertInto('slots')
      .values({ date, time, startsAt: zonedInstant(date, time, zone()) })
      .onConflict((oc) => oc.columns(['date', 'time']).doNothing())
      .returning('id')
      .executeTakeFirstOrThrow();
  }
  const book = (client: { id: string; cookie: string }, slotId: string, i = 0) =>
    server.api(`/api/bookings/${slotId}/book`, {
      method: 'PUT',
      headers: { cookie: client.cookie, 'x-forwarded-for': `198.51.100.${i}` },
      json: { userId: client.id, firstName: 'Ana', lastName: 'Lima', email: 'ana@example.com', sessionType: YOGA, message: '', couponCode: 'journey' },
    });
  const couponBookings = async (userId: string) =>
    (
      await db()
        .selectFrom('slots')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('bookedBy', '=', userId)
        .where('couponUsed', '=', true)
        .executeTakeFirstOrThrow()
    ).n;

  it(`books ${LIMIT} sessions with the coupon, then refuses with a clear message and books nothing`, async () => {
    const client = await createUser(server);
    for (let i = 0; i < LIMIT; i++) expect((await book(client, (await addSlot()).id)).status).toBe(200);
    const over = await addSlot();
    const refused = await book(client, over.id);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ message: couponLimitReached(LIMIT) });
    expect(await couponBookings(client.id)).toBe(LIMIT);
    expect(await db().selectFrom('slots').select('bookedAt').where('id', '=', over.id).executeTakeFirstOrThrow()).toEqual({ bookedAt: null });
    // Another client has a cap of their own.
    expect((await book(await createUser(server), over.id)).status).toBe(200);

    // The admin's list shows which sessions were booked with the coupon.
    const lists = await (await server.api('/api/bookings', { headers: { cookie: await adminCookie(server) } })).json();
    const mine = lists.bookedSlots.filter((s: { userId: string }) => s.userId === client.id);
    expect(mine).toHaveLength(LIMIT);
    for (const s of mine) expect(s).toMatchObject({ couponUsed: true, amount: null, paymentNote: null });
  });

  it('lets only one of several concurrent coupon bookings through at the limit', async () => {
    const client = await createUser(server);
    for (let i = 0; i < LIMIT - 1; i++) expect((await book(client, (await addSlot()).id)).status).toBe(200);
    const slots = await Promise.all(Array.from({ length: 6 }, () => addSlot()));
    const answers = await Promise.all(slots.map((s, i) => book(client, s.id, i + 1)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect(await couponBookings(client.id)).toBe(LIMIT);
  });
});
