/**
 * The chocolate checkout through the PayPal emulator (issue 6): POST /api/orders/paypal prices
 * the cart from the database, the buyer approves in the emulator, POST /api/orders places the
 * order. Whatever numbers the body carries, the stored order is the server's; a cart changed
 * after the PayPal order was made, a tampered PayPal order or a sold-out tin is refused and
 * never captured.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind, rowCount } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { LIMITS } from '../../../api/services/limits.ts';
import { WELCOME10_CART_MONEY, WELCOME10_ORDER } from '../../helpers/orders.ts';
import { itemAt, must, mustFind } from '../../helpers/guards.ts';

const server = useTestServer({ seedContent: true, resetRateLimits: true });
const ids: Record<'caramel' | 'lavender' | 'espresso' | 'raspberry' | 'matcha', string> = {
  caramel: '',
  lavender: '',
  espresso: '',
  raspberry: '',
  matcha: '',
};

beforeAll(async () => {
  const rows = await server.services.db.selectFrom('products').select(['id', 'name']).execute();
  const byName = (name: string) => mustFind(rows, (r) => r.name === name).id;
  ids.caramel = byName('Sea Salt Caramel Tin'); // $18, 24 left
  ids.lavender = byName('Lavender Honey Truffles'); // $20, 18 left
  ids.espresso = byName('Espresso Crunch Bar'); // $12, 30 left
  ids.raspberry = byName('Raspberry Rose Hearts'); // $22, 12 left
  ids.matcha = byName('Matcha Coconut Squares'); // $21, sold out
});
afterEach(() => vi.restoreAllMocks());

const TEACHER = 'teacher@example.com';
const SOLD_OUT_DURING_PAYMENT = 'Some items sold out before your payment went through. You have not been charged.';
const CART_CHANGED = 'Your cart or its prices changed after the payment was set up. You have not been charged. Please review your cart and pay again.';

const mailbox = (to?: string) => readMailbox(server, to);

type Line = { _id: string; quantity: number } & Record<string, unknown>;
// Issue 24: a shipped cart names its state; Oregon has no sales tax, so these totals are tax-free.
const withState = (json: unknown) => (json && typeof json === 'object' && !Array.isArray(json) ? { shipToState: 'OR', ...json } : json);
const checkout = (json: unknown) => server.api('/api/orders/paypal', { method: 'POST', json: withState(json) });
const approve = (orderID: string, payer: Record<string, unknown> = { givenName: 'Ana', surname: 'Lima', email: 'ana.lima@example.com' }) =>
  server.api(`/dev/paypal/v2/checkout/orders/${orderID}/approve`, { method: 'POST', json: payer });
const place = (json: unknown) => server.api('/api/orders', { method: 'POST', json: withState(json) });

/** Creates and approves a PayPal order for the cart; returns its id and the server's quote. */
async function paidFor(cart: { cartItems: Line[]; isLocalPickup?: boolean; couponCode?: string | null }) {
  const res = await checkout(cart);
  expect(res.status).toBe(200);
  const quote = await res.json();
  expect((await approve(quote.orderID)).status).toBe(200);
  return quote as { orderID: string; itemsTotal: number; discount: number; shipping: number; total: number; items: unknown[] };
}

const inventory = async (id: string) =>
  (await server.services.db.selectFrom('products').select('inventory').where('id', '=', id).executeTakeFirstOrThrow()).inventory;
const orderCount = () => rowCount(server.services.db, 'orders');
const paypalStatus = async (orderID: string) => (await server.services.payments.getOrder(orderID)).status;

describe(`pricing a cart for PayPal on ${testDbKind()}`, () => {
  it('prices from the database, with coupon and shipping, ignoring prices the cart carries', async () => {
    const create = vi.spyOn(server.services.payments, 'createOrder');
    const res = await checkout({
      cartItems: [
        { _id: ids.caramel, quantity: 2, price: 0.01, name: 'Free Tin' },
        { _id: ids.lavender, quantity: 1, price: 0 },
      ],
      isLocalPickup: false,
      couponCode: ' welcome10 ',
      total: 0.01,
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    // 2 × $18 + $20 = $56; 10% off = $5.60; + $5 shipping.
    expect(body).toEqual({
      orderID: expect.any(String),
      ...WELCOME10_CART_MONEY,
      items: [
        { _id: ids.caramel, name: 'Sea Salt Caramel Tin', price: 18, quantity: 2 },
        { _id: ids.lavender, name: 'Lavender Honey Truffles', price: 20, quantity: 1 },
      ],
    });
    expect(create).toHaveBeenCalledTimes(1);
    expect(itemAt(create.mock.calls, 0)[0]).toMatchObject({ amountCents: 5540 });
    const paypal = await server.services.payments.getOrder(body.orderID);
    expect(paypal).toMatchObject({ status: 'CREATED', amountCents: 5540, currency: 'USD' });
    expect(paypal.referenceId).toMatch(/^cart-[A-Za-z0-9_-]{22}$/);
  });

  it('charges no shipping with local pickup, and adds up a product listed twice', async () => {
    const res = await checkout({
      cartItems: [
        { _id: ids.espresso, quantity: 1 },
        { _id: ids.espresso, quantity: 2 },
      ],
      isLocalPickup: true,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      itemsTotal: 36,
      discount: 0,
      shipping: 0,
      total: 36,
      items: [{ _id: ids.espresso, price: 12, quantity: 3 }],
    });
  });

  it('refuses what cannot be sold, and creates no PayPal order for it', async () => {
    const create = vi.spyOn(server.services.payments, 'createOrder');
    const cases: [unknown, number, string | RegExp][] = [
      [{ cartItems: [{ _id: ids.matcha, quantity: 1 }] }, 409, 'Matcha Coconut Squares is sold out'],
      [{ cartItems: [{ _id: ids.raspberry, quantity: 13 }] }, 409, 'Raspberry Rose Hearts: only 12 left'],
      [
        {
          cartItems: [
            { _id: ids.raspberry, quantity: 7 },
            { _id: ids.raspberry, quantity: 6 },
          ],
        },
        409,
        'Raspberry Rose Hearts: only 12 left',
      ],
      [{ cartItems: [{ _id: 'no-such-tin', quantity: 1 }] }, 400, 'A chocolate in your cart is no longer sold. Please remove it and try again.'],
      [{ cartItems: [{ _id: ids.caramel, quantity: 2 }], couponCode: 'FREECHOC' }, 400, 'Invalid coupon code'],
      // $12 of items: the coupon needs $15, shipping does not count.
      [{ cartItems: [{ _id: ids.espresso, quantity: 1 }], couponCode: 'TAGGED15' }, 400, 'Coupons valid only on orders $15 or more'],
      [{ cartItems: [] }, 400, /empty/],
      [{ cartItems: [{ _id: ids.caramel, quantity: 0 }] }, 400, /at least 1/],
      [{ cartItems: [{ _id: ids.caramel, quantity: 100 }] }, 400, /at most 99/],
      [{ cartItems: [{ _id: ids.caramel, quantity: 1.5 }] }, 400, /whole number/],
      [{ cartItems: [{ _id: ids.caramel, quantity: '2' }] }, 400, /whole number/],
      [{ cartItems: Array.from({ length: 51 }, () => ({ _id: ids.caramel, quantity: 1 })) }, 400, /At most 50/],
      [{ cartItems: [{ _id: ids.caramel, quantity: 1 }], isLocalPickup: 'yes' }, 400, /isLocalPickup/],
      [{}, 400, /cartItems/],
    ];
    for (const [body, status, message] of cases) {
      const res = await checkout(body);
      expect(res.status, JSON.stringify(body).slice(0, 100)).toBe(status);
      const { message: got } = await res.json();
      if (typeof message === 'string') expect(got).toBe(message);
      else expect(got).toMatch(message);
    }
    expect(create).not.toHaveBeenCalled();
  });

  it('applies an inactive coupon nowhere', async () => {
    await server.services.db.insertInto('coupons').values({ code: 'RETIRED20', percentOff: 20, active: false }).execute();
    const res = await checkout({ cartItems: [{ _id: ids.caramel, quantity: 2 }], couponCode: 'retired20' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'Invalid coupon code' });
  });
});

describe(`placing an order on ${testDbKind()}`, () => {
  it('captures, stores the order and its items as sold, takes the tins and mails buyer and teacher', async () => {
    const caramelBefore = await inventory(ids.caramel);
    const lavenderBefore = await inventory(ids.lavender);
    const cart = {
      cartItems: [
        { _id: ids.caramel, quantity: 2 },
        { _id: ids.lavender, quantity: 1 },
      ],
      isLocalPickup: false,
      couponCode: 'welcome10',
    };
    const create = vi.spyOn(server.services.payments, 'createOrder');
    const created = await checkout(cart);
    expect(created.status).toBe(200);
    const quote = await created.json();
    // A shipped order lets the buyer pick the address in PayPal's window.
    expect(itemAt(create.mock.calls, 0)[0]).toMatchObject({ shipping: 'collect' });
    const approved = await approve(quote.orderID, {
      givenName: 'Ana',
      surname: 'Lima',
      email: 'ana.lima@example.com',
      shipping: {
        name: { full_name: 'Ana <i>Lima</i>' },
        address: { address_line_1: '5 Elm St', address_line_2: 'Apt 2', admin_area_2: 'Salem', admin_area_1: 'OR', postal_code: '97301', country_code: 'US' },
      },
    });
    expect(approved.status).toBe(200);

    const res = await place({
      orderId: quote.orderID,
      payerName: 'Someone Else',
      payerEmail: 'someone@example.com',
      transactionAmount: 55.4,
      ...cart,
      discount: 0.1,
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({
      message: 'Order placed successfully',
      order: {
        _id: expect.any(String),
        ...WELCOME10_ORDER,
        items: [
          { _id: ids.caramel, name: 'Sea Salt Caramel Tin', price: 18, quantity: 2 },
          { _id: ids.lavender, name: 'Lavender Honey Truffles', price: 20, quantity: 1 },
        ],
      },
    });

    const order = await server.services.db.selectFrom('orders').selectAll().where('id', '=', body.order._id).executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      paypalOrderId: quote.orderID,
      paypalCaptureId: expect.any(String),
      // The payer PayPal reports wins over the body's.
      payerName: 'Ana Lima',
      payerEmail: 'ana.lima@example.com',
      itemsTotalCents: 5600,
      discountCents: 560,
      shippingCents: 500,
      totalCents: 5540,
      couponCode: 'WELCOME10',
      isLocalPickup: false,
      shipToName: 'Ana <i>Lima</i>',
      shipToAddress: '5 Elm St\nApt 2\nSalem, OR 97301\nUS',
      status: 'paid',
    });
    const items = await server.services.db.selectFrom('orderItems').selectAll().where('orderId', '=', order.id).orderBy('name').execute();
    expect(items.map((i) => [i.productId, i.name, i.unitPriceCents, i.quantity])).toEqual([
      [ids.lavender, 'Lavender Honey Truffles', 2000, 1],
      [ids.caramel, 'Sea Salt Caramel Tin', 1800, 2],
    ]);
    expect(await inventory(ids.caramel)).toBe(caramelBefore - 2);
    expect(await inventory(ids.lavender)).toBe(lavenderBefore - 1);
    expect(await paypalStatus(quote.orderID)).toBe('COMPLETED');

    const [buyer, ...moreToBuyer] = await mailbox('ana.lima@example.com');
    expect(moreToBuyer).toHaveLength(0);
    expect(must(buyer, 'buyer').subject).toMatch(/^Your chocolate order [0-9A-F]{8} is confirmed$/);
    for (const part of [
      'Thank you, Ana!',
      '2 × Sea Salt Caramel Tin at $18.00 = $36.00',
      '1 × Lavender Honey Truffles at $20.00 = $20.00',
      'Items: $56.00',
      'Discount (WELCOME10): −$5.60',
      'Shipping: $5.00',
      'Total paid: $55.40 USD',
      'ship within 2-5 days, Monday to Wednesday',
      'Shipping to:\nAna <i>Lima</i>\n5 Elm St\nApt 2\nSalem, OR 97301\nUS',
    ]) {
      expect(must(buyer, 'buyer').text).toContain(part);
    }
    expect(must(buyer, 'buyer').html).toContain('Ana &lt;i&gt;Lima&lt;/i&gt;');
    expect(must(buyer, 'buyer').html).not.toContain('<i>Lima</i>');
    expect(await mailbox('someone@example.com')).toHaveLength(0);

    const teacher = (await mailbox(TEACHER)).find((m) => m.text.includes(quote.orderID));
    expect(teacher).toBeDefined();
    expect(must(teacher, 'teacher').subject).toMatch(/^New chocolate order [0-9A-F]{8} from Ana Lima: \$55\.40$/);
    expect(must(teacher, 'teacher').headers['Reply-To']).toBe('ana.lima@example.com');
    for (const part of ['ana.lima@example.com', '2 × Sea Salt Caramel Tin', 'Total paid: $55.40 USD', order.paypalCaptureId!]) {
      expect(must(teacher, 'teacher').text).toContain(part);
    }
    expect(must(teacher, 'teacher').text).toContain(
      'Delivery: shipping. Ship within 2-5 days, Monday to Wednesday, to:\nAna <i>Lima</i>\n5 Elm St\nApt 2\nSalem, OR 97301\nUS',
    );
    expect(must(teacher, 'teacher').html).not.toContain('<i>Lima</i>');
  });

  it('with local pickup: no shipping charged, the mail says pickup, and payer text is escaped', async () => {
    const cart = { cartItems: [{ _id: ids.espresso, quantity: 2 }], isLocalPickup: true };
    const create = vi.spyOn(server.services.payments, 'createOrder');
    const res = await checkout(cart);
    const quote = await res.json();
    expect(quote.total).toBe(24);
    // Pickup: PayPal must not ask for an address at all.
    expect(itemAt(create.mock.calls, 0)[0]).toMatchObject({ shipping: 'none' });
    await approve(quote.orderID, { givenName: '<b>Bo</b>', surname: 'Ng', email: 'bo.ng@example.com' });
    const placed = await place({ orderId: quote.orderID, ...cart });
    expect(placed.status).toBe(201);
    const placedOrder = (await placed.json()).order;
    expect(placedOrder).toMatchObject({ shipping: 0, total: 24, isLocalPickup: true });
    const stored = await server.services.db
      .selectFrom('orders')
      .select(['shipToName', 'shipToAddress'])
      .where('id', '=', placedOrder._id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ shipToName: null, shipToAddress: null });

    const buyer = itemAt(await mailbox('bo.ng@example.com'), 0);
    expect(buyer.text).toContain('local pickup');
    expect(buyer.text).toContain('Shipping: $0.00 (local pickup)');
    expect(buyer.text).not.toContain('ship within');
    expect(buyer.text).not.toContain('Shipping to:');
    expect(buyer.html).toContain('&lt;b&gt;Bo&lt;/b&gt;');
    expect(buyer.html).not.toContain('<b>Bo</b>');
    const teacher = must(
      (await mailbox(TEACHER)).find((m) => m.text.includes(quote.orderID)),
      'teacher',
    );
    expect(teacher.text).toContain('Delivery: local pickup');
    expect(teacher.html).not.toContain('<b>Bo</b>');
  });

  it('ignores tampered totals, discounts and prices in the body: the stored order is the server’s', async () => {
    const cart = { cartItems: [{ _id: ids.raspberry, quantity: 1, price: 0.01 }], isLocalPickup: false, couponCode: null };
    const quote = await paidFor(cart);
    expect(quote.total).toBe(27);
    const res = await place({ orderId: quote.orderID, ...cart, transactionAmount: 0.01, discount: 0.99, payerName: 'X', payerEmail: 'x@example.com' });
    expect(res.status).toBe(201);
    const { order } = await res.json();
    expect(order).toMatchObject({ itemsTotal: 22, discount: 0, shipping: 5, total: 27, items: [{ price: 22, quantity: 1 }] });
    const row = await server.services.db.selectFrom('orders').selectAll().where('id', '=', order._id).executeTakeFirstOrThrow();
    expect([row.itemsTotalCents, row.discountCents, row.shippingCents, row.totalCents]).toEqual([2200, 0, 500, 2700]);
  });

  it('refuses a cart changed after the PayPal order was made, and does not capture it', async () => {
    const capture = vi.spyOn(server.services.payments, 'captureOrder');
    const cart = { cartItems: [{ _id: ids.caramel, quantity: 2 }], isLocalPickup: false, couponCode: 'TAGGED15' };
    const quote = await paidFor(cart);
    const ordersBefore = await orderCount();
    const caramelBefore = await inventory(ids.caramel);

    const changed = [
      { ...cart, cartItems: [{ _id: ids.caramel, quantity: 3 }] },
      { ...cart, cartItems: [{ _id: ids.caramel, quantity: 1 }] },
      {
        ...cart,
        cartItems: [
          { _id: ids.caramel, quantity: 2 },
          { _id: ids.espresso, quantity: 1 },
        ],
      },
      { ...cart, cartItems: [{ _id: ids.lavender, quantity: 2 }] },
      { ...cart, isLocalPickup: true },
      { ...cart, couponCode: null },
      { ...cart, couponCode: 'WELCOME10' },
    ];
    for (const body of changed) {
      const res = await place({ orderId: quote.orderID, ...body });
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(await res.json()).toEqual({ message: CART_CHANGED });
    }
    expect(capture).not.toHaveBeenCalled();
    expect(await paypalStatus(quote.orderID)).toBe('APPROVED');
    expect(await orderCount()).toBe(ordersBefore);
    expect(await inventory(ids.caramel)).toBe(caramelBefore);

    // The unchanged cart still goes through.
    expect((await place({ orderId: quote.orderID, ...cart })).status).toBe(201);
  });

  it('refuses a PayPal order whose price changed in the shop since it was made', async () => {
    const capture = vi.spyOn(server.services.payments, 'captureOrder');
    const cart = { cartItems: [{ _id: ids.lavender, quantity: 1 }] };
    const quote = await paidFor(cart);
    await server.services.db.updateTable('products').set({ priceCents: 2500 }).where('id', '=', ids.lavender).execute();
    try {
      const res = await place({ orderId: quote.orderID, ...cart });
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ message: CART_CHANGED });
      expect(capture).not.toHaveBeenCalled();
      expect(await paypalStatus(quote.orderID)).toBe('APPROVED');
    } finally {
      await server.services.db.updateTable('products').set({ priceCents: 2000 }).where('id', '=', ids.lavender).execute();
    }
  });

  it('refuses a PayPal order made outside the shop for a lower amount, even with the right reference', async () => {
    const capture = vi.spyOn(server.services.payments, 'captureOrder');
    const cart = { cartItems: [{ _id: ids.caramel, quantity: 1 }], isLocalPickup: true };
    const genuine = await (await checkout(cart)).json();
    const { referenceId } = await server.services.payments.getOrder(genuine.orderID);
    // What a buyer could do with the public client id: their own order, their own amount.
    const forged = await server.services.payments.createOrder({ amountCents: 100, referenceId: referenceId! });
    await approve(forged.id);
    const res = await place({ orderId: forged.id, ...cart, transactionAmount: 1 });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: CART_CHANGED });
    expect(capture).not.toHaveBeenCalled();
    expect(await paypalStatus(forged.id)).toBe('APPROVED');
  });

  it('refuses an order the buyer has not approved, and one PayPal does not know', async () => {
    const capture = vi.spyOn(server.services.payments, 'captureOrder');
    const cart = { cartItems: [{ _id: ids.espresso, quantity: 2 }] };
    const { orderID } = await (await checkout(cart)).json();
    const unapproved = await place({ orderId: orderID, ...cart });
    expect(unapproved.status).toBe(400);
    expect(await unapproved.json()).toEqual({ message: 'The payment has not been approved yet. You have not been charged.' });

    const unknown = await place({ orderId: 'NOSUCHORDER12345', ...cart });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ message: 'We could not find that payment. You have not been charged.' });

    const bad = await place({ orderId: '../../v1/oauth2/token', ...cart });
    expect(bad.status).toBe(400);
    expect(capture).not.toHaveBeenCalled();
    expect(await paypalStatus(orderID)).toBe('CREATED');
  });

  it('refuses when the tins sold out while the buyer was paying: nothing stored, nothing charged', async () => {
    const product = await server.services.db
      .insertInto('products')
      .values({ name: 'Last Two Tins', priceCents: 1600, inventory: 2 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const cart = {
      cartItems: [
        { _id: product.id, quantity: 2 },
        { _id: ids.espresso, quantity: 1 },
      ],
    };
    const quote = await paidFor(cart);
    // Someone else bought one meanwhile.
    await server.services.db.updateTable('products').set({ inventory: 1 }).where('id', '=', product.id).execute();
    const espressoBefore = await inventory(ids.espresso);
    const ordersBefore = await orderCount();
    const capture = vi.spyOn(server.services.payments, 'captureOrder');

    const res = await place({ orderId: quote.orderID, ...cart });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: SOLD_OUT_DURING_PAYMENT });
    expect(capture).not.toHaveBeenCalled();
    expect(await paypalStatus(quote.orderID)).toBe('APPROVED');
    expect(await inventory(product.id)).toBe(1);
    expect(await inventory(ids.espresso)).toBe(espressoBefore);
    expect(await orderCount()).toBe(ordersBefore);
  });

  it('answers a replayed order with the same order: one order, one capture (sequential)', async () => {
    const capture = vi.spyOn(server.services.payments, 'captureOrder');
    const cart = { cartItems: [{ _id: ids.espresso, quantity: 1 }], isLocalPickup: true };
    const quote = await paidFor(cart);
    const before = await inventory(ids.espresso);
    const first = await place({ orderId: quote.orderID, ...cart });
    expect(first.status).toBe(201);
    const { order } = await first.json();
    const mailsAfterFirst = (await mailbox()).length;

    for (const body of [
      { orderId: quote.orderID, ...cart },
      { orderId: quote.orderID, ...cart, cartItems: [{ _id: ids.espresso, quantity: 5 }] },
    ]) {
      const again = await place(body);
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ message: 'Order placed successfully', order });
    }
    expect(capture).toHaveBeenCalledTimes(1);
    expect(await inventory(ids.espresso)).toBe(before - 1);
    const rows = await server.services.db.selectFrom('orders').select('id').where('paypalOrderId', '=', quote.orderID).execute();
    expect(rows).toHaveLength(1);
    expect((await mailbox()).length).toBe(mailsAfterFirst);
  });

  it('answers 10 concurrent posts of one order with one order and one capture', async () => {
    const capture = vi.spyOn(server.services.payments, 'captureOrder');
    const cart = {
      cartItems: [
        { _id: ids.caramel, quantity: 1 },
        { _id: ids.lavender, quantity: 1 },
      ],
    };
    const quote = await paidFor(cart);
    const caramelBefore = await inventory(ids.caramel);
    const lavenderBefore = await inventory(ids.lavender);

    const answers = await Promise.all(Array.from({ length: 10 }, () => place({ orderId: quote.orderID, ...cart })));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const bodies = await Promise.all(answers.map((r) => r.json()));
    const orderIds = new Set(bodies.map((b) => b.order._id));
    expect(orderIds.size).toBe(1);

    expect(capture).toHaveBeenCalledTimes(1);
    const rows = await server.services.db.selectFrom('orders').select('id').where('paypalOrderId', '=', quote.orderID).execute();
    expect(rows).toHaveLength(1);
    const items = await server.services.db.selectFrom('orderItems').select('id').where('orderId', '=', itemAt(rows, 0).id).execute();
    expect(items).toHaveLength(2);
    expect(await inventory(ids.caramel)).toBe(caramelBefore - 1);
    expect(await inventory(ids.lavender)).toBe(lavenderBefore - 1);
    const teacherMails = (await mailbox(TEACHER)).filter((m) => m.text.includes(quote.orderID));
    expect(teacherMails).toHaveLength(1);
  });

  it('answers the order to a replay that finds it captured at PayPal before its attempt is seen', async () => {
    const cart = { cartItems: [{ _id: ids.caramel, quantity: 1 }] };
    const quote = await paidFor(cart);
    const { payments } = server.services;
    const getOrder = payments.getOrder;
    let first: Response | undefined;
    // The second request reads PayPal only after the first placed the order: it sees COMPLETED.
    payments.getOrder = async (id) => {
      if (!first) {
        payments.getOrder = getOrder;
        first = await place({ orderId: quote.orderID, ...cart });
      }
      return getOrder.call(payments, id);
    };
    try {
      const second = await place({ orderId: quote.orderID, ...cart });
      expect(first?.status).toBe(201);
      expect(second.status).toBe(200);
      expect((await second.json()).order).toEqual((await must(first, 'first').json()).order);
    } finally {
      payments.getOrder = getOrder;
    }
  });

  it('leaves no order and takes no tins when PayPal declines the capture', async () => {
    const { PayPalError } = await import('../../../api/services/payments/paypal.ts');
    const cart = { cartItems: [{ _id: ids.caramel, quantity: 1 }] };
    const quote = await paidFor(cart);
    const before = await inventory(ids.caramel);
    const ordersBefore = await orderCount();
    vi.spyOn(server.services.payments, 'captureOrder').mockRejectedValueOnce(
      new PayPalError('PayPal POST capture failed (422 INSTRUMENT_DECLINED)', 422, 'INSTRUMENT_DECLINED'),
    );
    const res = await place({ orderId: quote.orderID, ...cart });
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({ message: 'Your payment could not be processed. Please check your payment details and try again.' });
    expect(await inventory(ids.caramel)).toBe(before);
    expect(await orderCount()).toBe(ordersBefore);
    // The buyer may try again with the same approval once PayPal accepts it.
    expect((await place({ orderId: quote.orderID, ...cart })).status).toBe(201);
  });

  it('refunds a capture whose amount does not match the order, and stores nothing', async () => {
    const payments = server.services.payments;
    const realCapture = payments.captureOrder.bind(payments);
    vi.spyOn(payments, 'captureOrder').mockImplementationOnce(async (id) => ({ ...(await realCapture(id)), amountCents: 1 }));
    const refund = vi.spyOn(payments, 'refundCapture');
    const cart = { cartItems: [{ _id: ids.espresso, quantity: 2 }] };
    const quote = await paidFor(cart);
    const before = await inventory(ids.espresso);
    const ordersBefore = await orderCount();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});

    const res = await place({ orderId: quote.orderID, ...cart });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: 'The amount paid did not match your order, so the payment was refunded. Please try again.' });
    expect(refund).toHaveBeenCalledTimes(1);
    expect(errors).toHaveBeenCalledWith(expect.stringMatching(/refunded capture/));
    expect(await inventory(ids.espresso)).toBe(before);
    expect(await orderCount()).toBe(ordersBefore);
  });

  it('limits checkouts per address', async () => {
    const cart = { cartItems: [{ _id: ids.espresso, quantity: 1 }] };
    for (let i = 0; i < LIMITS.checkout.max; i++) expect((await checkout(cart)).status).toBe(200);
    const limited = await checkout(cart);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    for (let i = 0; i < LIMITS.placeOrder.max; i++) await place({});
    expect((await place({})).status).toBe(429);
  });

  it('refuses bodies that are not an order, storing nothing', async () => {
    const before = await orderCount();
    const cases: unknown[] = [
      {},
      { orderId: '', cartItems: [{ _id: ids.caramel, quantity: 1 }] },
      { orderId: 'ABC', cartItems: [] },
      { orderId: 'ABC', cartItems: [{ _id: ids.caramel, quantity: -1 }] },
      { orderId: 'ABC DEF', cartItems: [{ _id: ids.caramel, quantity: 1 }] },
    ];
    for (const body of cases) {
      const res = await place(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof (await res.json()).message).toBe('string');
    }
    expect(await orderCount()).toBe(before);
  });
});
