/**
 * The admin's orders (issue 6): GET /api/admin/orders lists every order with its items, newest
 * first; PUT /api/admin/orders/{id}/status moves it to shipped or picked up. Both need the
 * admin's session: no session or a client's session is refused and changes nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { UNTAXED_OREGON } from '../../helpers/orders.ts';
import { must, mustFind } from '../../helpers/guards.ts';

const server = useTestServer({ seedContent: true, resetRateLimits: true });
let admin: string;
let client: string;
const placed: { shipped: string; pickup: string } = { shipped: '', pickup: '' };
let products: { caramel: string; espresso: string };

async function buy(cart: { cartItems: { _id: string; quantity: number }[]; isLocalPickup: boolean; couponCode?: string }, email: string) {
  const { orderID } = await (await server.api('/api/orders/paypal', { method: 'POST', json: { shipToState: 'OR', ...cart } })).json();
  await server.api(`/dev/paypal/v2/checkout/orders/${orderID}/approve`, { method: 'POST', json: { givenName: 'Ana', surname: 'Lima', email } });
  const res = await server.api('/api/orders', { method: 'POST', json: { shipToState: 'OR', orderId: orderID, ...cart } });
  expect(res.status).toBe(201);
  return (await res.json()).order._id as string;
}

beforeAll(async () => {
  admin = await adminCookie(server);
  client = (await createUser(server)).cookie;
  const rows = await server.services.db.selectFrom('products').select(['id', 'name']).execute();
  products = {
    caramel: mustFind(rows, (r) => r.name === 'Sea Salt Caramel Tin').id,
    espresso: mustFind(rows, (r) => r.name === 'Espresso Crunch Bar').id,
  };
  placed.shipped = await buy({ cartItems: [{ _id: products.caramel, quantity: 2 }], isLocalPickup: false, couponCode: 'TAGGED15' }, 'first@example.com');
  // Distinct created_at, so "newest first" is observable.
  await new Promise((r) => setTimeout(r, 20));
  placed.pickup = await buy(
    {
      cartItems: [
        { _id: products.espresso, quantity: 1 },
        { _id: products.caramel, quantity: 1 },
      ],
      isLocalPickup: true,
    },
    'second@example.com',
  );
});

const as = (cookie: string | undefined, path: string, init: RequestInit & { json?: unknown } = {}) =>
  server.api(path, { ...init, headers: cookie ? { cookie } : {} });
const statusOf = async (id: string) => (await server.services.db.selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

describe(`admin orders on ${testDbKind()}`, () => {
  it('is refused without a session and with a client’s session', async () => {
    for (const cookie of [undefined, client, 'admin_session=forged-token']) {
      const list = await as(cookie, '/api/admin/orders');
      expect(list.status).toBe(401);
      expect(await list.json()).toEqual({ message: 'Admin login required' });
      const put = await as(cookie, `/api/admin/orders/${placed.shipped}/status`, { method: 'PUT', json: { status: 'shipped' } });
      expect(put.status).toBe(401);
    }
    expect(await statusOf(placed.shipped)).toBe('paid');
  });

  it('lists orders newest first with buyer, items, totals, pickup and status', async () => {
    const res = await as(admin, '/api/admin/orders');
    expect(res.status).toBe(200);
    const list = await res.json();
    expect(list).toHaveLength(2);
    expect(list.map((o: { _id: string }) => o._id)).toEqual([placed.pickup, placed.shipped]);
    expect(list[1]).toEqual({
      _id: placed.shipped,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      payerName: 'Ana Lima',
      payerEmail: 'first@example.com',
      items: [{ name: 'Sea Salt Caramel Tin', price: 18, quantity: 2 }],
      itemsTotal: 36,
      discount: 5.4,
      shipping: 5,
      total: 35.6,
      giftCardCents: 0,
      couponCode: 'TAGGED15',
      isLocalPickup: false,
      // Oregon, untaxed (issues 24 and 29).
      ...UNTAXED_OREGON,
      // The address the buyer picked in (the emulator's) PayPal window.
      shipTo: { name: 'Pat Buyer', address: '12 Cacao Lane\nPortland, OR 97201\nUS' },
      status: 'paid',
      // Recorded by its own checkout: no recovery to tell the teacher about.
      paymentNote: null,
      // Not shipped yet (issue 20).
      trackingNumber: null,
      carrier: null,
      trackingUrl: null,
    });
    expect(list[0]).toMatchObject({
      payerEmail: 'second@example.com',
      itemsTotal: 30,
      discount: 0,
      shipping: 0,
      total: 30,
      couponCode: null,
      isLocalPickup: true,
      shipTo: null,
      status: 'paid',
    });
    expect(list[0].items).toHaveLength(2);
    expect(list[0].items).toEqual(
      expect.arrayContaining([
        { name: 'Espresso Crunch Bar', price: 12, quantity: 1 },
        { name: 'Sea Salt Caramel Tin', price: 18, quantity: 1 },
      ]),
    );
  });

  it('keeps the name and price as sold when the product changes later', async () => {
    await server.services.db.updateTable('products').set({ name: 'Renamed Tin', priceCents: 9900 }).where('id', '=', products.caramel).execute();
    const list = await (await as(admin, '/api/admin/orders')).json();
    expect(list[1].items).toEqual([{ name: 'Sea Salt Caramel Tin', price: 18, quantity: 2 }]);
    expect(list[1].total).toBe(35.6);
  });

  it('sets shipped on a shipped order and picked up on a pickup order', async () => {
    const shipped = await as(admin, `/api/admin/orders/${placed.shipped}/status`, { method: 'PUT', json: { status: 'shipped' } });
    expect(shipped.status).toBe(200);
    expect(await shipped.json()).toMatchObject({ _id: placed.shipped, status: 'shipped', items: [{ quantity: 2 }], total: 35.6 });
    expect(await statusOf(placed.shipped)).toBe('shipped');

    const picked = await as(admin, `/api/admin/orders/${placed.pickup}/status`, { method: 'PUT', json: { status: 'picked_up' } });
    expect(picked.status).toBe(200);
    expect((await picked.json()).status).toBe('picked_up');

    // Back to paid, e.g. after a wrong click.
    const back = await as(admin, `/api/admin/orders/${placed.shipped}/status`, { method: 'PUT', json: { status: 'paid' } });
    expect((await back.json()).status).toBe('paid');
  });

  it('a pickup order is made ready for pickup: the buyer is mailed her address and hours once; it still counts as paid (issue 30)', async () => {
    const put = (id: string, json: unknown) => as(admin, `/api/admin/orders/${id}/status`, { method: 'PUT', json });
    await as(admin, '/api/admin/settings', { method: 'PUT', json: { pickupHours: 'Saturdays, 10 am to 2 pm' } });
    const tax = await (await as(admin, '/api/admin/settings/tax')).json();
    await as(admin, '/api/admin/settings/tax', { method: 'PUT', json: { ...tax, shopAddress: { ...tax.shopAddress, line1: '12 Cacao Lane' } } });
    const email = `ready-${Date.now()}@example.com`;
    const order = await buy({ cartItems: [{ _id: products.espresso, quantity: 1 }], isLocalPickup: true }, email);
    const mailsOf = async () =>
      ((await (await server.api(`/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json()) as { subject: string; text: string }[]).filter((m) =>
        m.subject.includes('ready for pickup'),
      );

    const month = new Date().toISOString().slice(0, 7);
    const paidCount = async () => (await (await as(admin, `/api/admin/finances?from=${month}&to=${month}`)).json()).totals.ordersPaidCount as number;
    const paidBefore = await paidCount();

    const res = await put(order, { status: 'ready_for_pickup' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ status: 'ready_for_pickup', message: 'Marked ready for pickup. Ana was mailed where and when to collect it.' });
    const [mail, ...more] = await mailsOf();
    expect(more).toEqual([]);
    expect(must(mail, 'mail').text).toContain('Where: 12 Cacao Lane, Portland, OR 97201');
    expect(must(mail, 'mail').text).toContain('When: Saturdays, 10 am to 2 pm');

    // Once: the same status again mails nothing; the list shows it under its own status.
    expect((await (await put(order, { status: 'ready_for_pickup' })).json()).message).toContain('was mailed about it already');
    expect(await mailsOf()).toHaveLength(1);
    const listed = await (await as(admin, '/api/admin/orders?status=ready_for_pickup')).json();
    expect(listed.map((o: { _id: string }) => o._id)).toEqual([order]);
    // Still money she has: counted in the month's finances as before.
    expect(await paidCount()).toBe(paidBefore);
    expect((await put(order, { status: 'picked_up' })).status).toBe(200);
  });

  it('refuses statuses that do not fit the order, unknown statuses and unknown orders', async () => {
    const cases: [string, unknown, number, string | RegExp][] = [
      [placed.pickup, { status: 'shipped' }, 400, 'This order is for local pickup: mark it picked up, not shipped.'],
      [placed.shipped, { status: 'picked_up' }, 400, 'This order is shipped: mark it shipped, not picked up.'],
      [placed.shipped, { status: 'ready_for_pickup' }, 400, 'This order is shipped: it is never ready for pickup. Mark it shipped.'],
      [placed.shipped, { status: 'refunded' }, 400, /Status must be/],
      [placed.shipped, { status: 'lost' }, 400, /Status must be/],
      [placed.shipped, {}, 400, /Status must be/],
      ['no-such-order', { status: 'shipped' }, 404, 'Order not found'],
    ];
    const before = [await statusOf(placed.shipped), await statusOf(placed.pickup)];
    for (const [id, json, status, message] of cases) {
      const res = await as(admin, `/api/admin/orders/${id}/status`, { method: 'PUT', json });
      expect(res.status, JSON.stringify(json)).toBe(status);
      const body = await res.json();
      if (typeof message === 'string') expect(body.message).toBe(message);
      else expect(body.message).toMatch(message);
    }
    expect([await statusOf(placed.shipped), await statusOf(placed.pickup)]).toEqual(before);
  });
});
