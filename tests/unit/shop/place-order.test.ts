/**
 * The chocolate checkout's money flow called directly, with no HTTP in between: startCheckout
 * and placeOrder (api/shop/start-checkout.ts, api/shop/place-order.ts) on a migrated in-memory
 * PGlite, paying through the PayPal emulator. Every refusal stores no order, leaves the tins on
 * the shelf and keeps no money: a capture that went through but does not match is refunded.
 */
import { rowCount } from '../../helpers/database.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../../../db/client.ts';
import { openMemoryServices } from '../../helpers/services.ts';
import type { Services } from '../../../api/services/index.ts';
import { PayPalError, type Payments } from '../../../api/services/payments/paypal.ts';
import { listMailbox } from '../../../api/services/mail/mailbox.ts';
import { startCheckout } from '../../../api/shop/start-checkout.ts';
import { placeOrder, type PlaceOrderInput } from '../../../api/shop/place-order.ts';
import { quoteCart, type Cart } from '../../../api/shop/quote.ts';
import { claimStock } from '../../../api/shop/orders.repo.ts';
import { approveInEmulator } from '../../helpers/paypal-emulator.ts';
import { WELCOME10_CART_MONEY, WELCOME10_ORDER } from '../../helpers/orders.ts';
import { itemAt, must } from '../../helpers/guards.ts';

const TEACHER = 'teacher@example.com';

let database: DatabaseHandle;
let services: Services;

beforeAll(async () => {
  ({ database, services } = await openMemoryServices());
  await database.db
    .insertInto('coupons')
    .values([
      { code: 'WELCOME10', percentOff: 10, active: true },
      { code: 'RETIRED20', percentOff: 20, active: false },
    ])
    .execute();
});
afterAll(async () => {
  await database?.close();
});
beforeEach(() => {
  vi.restoreAllMocks();
});

let counter = 0;

/** A product of its own for each test, so no test sees another's stock. */
async function addProduct(priceCents: number, inventory: number, name = `Tin ${++counter}`) {
  const row = await database.db.insertInto('products').values({ name, priceCents, inventory }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** A buyer of its own for each test, so the mailbox shows only this test's mails. */
const buyer = () => {
  const email = `buyer-${++counter}@example.com`;
  return { email, approval: { givenName: 'Ana', surname: 'Lima', email } };
};

const db = () => database.db;
const inventory = async (id: string) => (await db().selectFrom('products').select('inventory').where('id', '=', id).executeTakeFirstOrThrow()).inventory;
const orderCount = () => rowCount(db(), 'orders');
const paypalStatus = async (orderId: string) => (await services.payments.getOrder(orderId)).status;
const mailsTo = (to: string) => listMailbox(db(), { to });

const cartOf = (lines: [string, number][], more: Partial<Cart> = {}): Cart => ({
  cartItems: lines.map(([_id, quantity]) => ({ _id, quantity })),
  isLocalPickup: false,
  couponCode: null,
  // Issue 24: a shipped cart names its state; Oregon has no sales tax.
  shipToState: 'OR',
  ...more,
});

/** `services` with some of its PayPal calls replaced (the emulator never declines). */
const withPayments = (changes: Partial<Payments>): Services => ({ ...services, payments: { ...services.payments, ...changes } });

/** The PayPal order startCheckout made for `cart`, approved by the buyer unless told not to. */
async function paidFor(cart: Cart, approval: Record<string, unknown> | false = buyer().approval): Promise<string> {
  const started = await startCheckout(services, cart);
  if (!started.ok) throw new Error(`no PayPal order: ${started.kind}`);
  if (approval) await approveInEmulator(services, started.checkout.orderID!, approval);
  return started.checkout.orderID!;
}

const placing = (paypalOrderId: string, cart: Cart, more: Partial<PlaceOrderInput> = {}): PlaceOrderInput => ({ paypalOrderId, ...cart, ...more });

describe('startCheckout', () => {
  it('prices the cart from the database and makes the PayPal order for that total, tagged with the cart’s reference', async () => {
    const caramel = await addProduct(1800, 24, 'Sea Salt Caramel');
    const lavender = await addProduct(2000, 18, 'Lavender Honey');
    const cart = cartOf(
      [
        [caramel, 1],
        [lavender, 1],
        [caramel, 1],
      ],
      { couponCode: 'WELCOME10' },
    );

    const started = await startCheckout(services, cart);
    // 2 × $18 + $20 = $56; 10% off = $5.60; + $5 shipping.
    expect(started).toEqual({
      ok: true,
      checkout: {
        orderID: expect.any(String),
        ...WELCOME10_CART_MONEY,
        items: [
          { _id: caramel, name: 'Sea Salt Caramel', price: 18, quantity: 2 },
          { _id: lavender, name: 'Lavender Honey', price: 20, quantity: 1 },
        ],
      },
    });
    const orderId = (started as { checkout: { orderID: string } }).checkout.orderID;
    const quoted = await quoteCart({ ...services, db: db() }, cart, services.env.SITE_TIMEZONE);
    expect(quoted.ok).toBe(true);
    expect(await services.payments.getOrder(orderId)).toMatchObject({
      status: 'CREATED',
      amountCents: 5540,
      currency: 'USD',
      referenceId: (quoted as { quote: { reference: string } }).quote.reference,
    });
    // Nothing is claimed before the order is placed.
    expect(await inventory(caramel)).toBe(24);
  });

  it('refuses what cannot be sold, and asks PayPal for nothing', async () => {
    const cheap = await addProduct(1200, 30);
    const free = await addProduct(0, 5);
    const dear = await addProduct(20000, 99);
    const soldOut = await addProduct(2100, 0, 'Matcha Squares');
    const lastFew = await addProduct(2200, 3, 'Raspberry Hearts');
    const createOrder = vi.fn(services.payments.createOrder);
    const deps = withPayments({ createOrder });

    const cases: [Cart, unknown][] = [
      [cartOf([['no-such-tin', 1]]), { ok: false, kind: 'unknown-product' }],
      [cartOf([[cheap, 2]], { couponCode: 'NOSUCH' }), { ok: false, kind: 'invalid-coupon' }],
      [cartOf([[cheap, 2]], { couponCode: 'RETIRED20' }), { ok: false, kind: 'invalid-coupon' }],
      // $12 of items: a coupon needs $15, shipping does not count.
      [cartOf([[cheap, 1]], { couponCode: 'WELCOME10' }), { ok: false, kind: 'below-coupon-minimum' }],
      [cartOf([[free, 1]], { isLocalPickup: true }), { ok: false, kind: 'nothing-to-pay' }],
      [cartOf([[dear, 51]]), { ok: false, kind: 'too-large' }],
      [cartOf([[soldOut, 1]]), { ok: false, kind: 'sold-out', product: 'Matcha Squares' }],
      [
        cartOf([
          [lastFew, 2],
          [lastFew, 2],
        ]),
        { ok: false, kind: 'not-enough-left', product: 'Raspberry Hearts', left: 3 },
      ],
    ];
    for (const [cart, refusal] of cases) {
      expect(await startCheckout(deps, cart), JSON.stringify(cart)).toEqual(refusal);
    }
    expect(createOrder).not.toHaveBeenCalled();
  });

  it('answers payment-unavailable when PayPal cannot make the order', async () => {
    const id = await addProduct(1200, 5);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const deps = withPayments({ createOrder: async () => Promise.reject(new PayPalError('PayPal is down', 503)) });
    expect(await startCheckout(deps, cartOf([[id, 1]]))).toEqual({ ok: false, kind: 'payment-unavailable' });
    expect(errors).toHaveBeenCalledWith('[orders] PayPal call failed:', 'PayPal is down');
  });
});

describe('placeOrder', () => {
  it('captures, stores the order as priced with its items, takes the tins, and mails buyer and teacher', async () => {
    const caramel = await addProduct(1800, 24, 'Sea Salt Caramel');
    const lavender = await addProduct(2000, 18, 'Lavender Honey');
    const cart = cartOf(
      [
        [caramel, 2],
        [lavender, 1],
      ],
      { couponCode: 'WELCOME10' },
    );
    const { email, approval } = buyer();
    const paypalOrderId = await paidFor(cart, approval);

    const placed = await placeOrder(services, placing(paypalOrderId, cart, { payerName: 'Someone Else', payerEmail: 'someone@example.com' }));
    expect(placed).toEqual({
      ok: true,
      replayed: false,
      order: {
        _id: expect.any(String),
        // The payer PayPal reports (Ana Lima) wins over the one the browser sent.
        ...WELCOME10_ORDER,
        items: [
          { _id: caramel, name: 'Sea Salt Caramel', price: 18, quantity: 2 },
          { _id: lavender, name: 'Lavender Honey', price: 20, quantity: 1 },
        ],
      },
    });
    const orderId = (placed as { order: { _id: string } }).order._id;
    const row = await db().selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      paypalOrderId,
      paypalCaptureId: expect.any(String),
      payerEmail: email,
      itemsTotalCents: 5600,
      discountCents: 560,
      shippingCents: 500,
      totalCents: 5540,
      status: 'paid',
      // The emulator's buyer picks its sample address for a shipped order.
      shipToName: 'Pat Buyer',
    });
    const items = await db()
      .selectFrom('orderItems')
      .select(['productId', 'unitPriceCents', 'quantity'])
      .where('orderId', '=', orderId)
      .orderBy('unitPriceCents')
      .execute();
    expect(items).toEqual([
      { productId: caramel, unitPriceCents: 1800, quantity: 2 },
      { productId: lavender, unitPriceCents: 2000, quantity: 1 },
    ]);
    expect([await inventory(caramel), await inventory(lavender)]).toEqual([22, 17]);
    expect(await paypalStatus(paypalOrderId)).toBe('COMPLETED');
    const [confirmation, ...more] = await mailsTo(email);
    expect(more).toHaveLength(0);
    expect(must(confirmation, 'confirmation').text).toContain('Total paid: $55.40 USD');
    expect((await mailsTo(TEACHER)).filter((m) => m.text.includes(paypalOrderId))).toHaveLength(1);
    expect(await mailsTo('someone@example.com')).toHaveLength(0);
  });

  it('places a payment PayPal holds as payment_pending, with its tins claimed', async () => {
    const id = await addProduct(1200, 10);
    const cart = cartOf([[id, 2]], { isLocalPickup: true });
    const { email, approval } = buyer();
    const paypalOrderId = await paidFor(cart, { ...approval, captureStatus: 'PENDING' });

    const placed = await placeOrder(services, placing(paypalOrderId, cart));
    expect(placed).toMatchObject({ ok: true, replayed: false, order: { total: 24, isLocalPickup: true } });
    const row = await db().selectFrom('orders').select(['status', 'shipToAddress']).where('paypalOrderId', '=', paypalOrderId).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'payment_pending', shipToAddress: null });
    expect(await inventory(id)).toBe(8);
    const mail = itemAt(await mailsTo(email), 0);
    expect(mail.text).toContain('Total: $24.00 USD, payment pending at PayPal');
  });

  it('answers a replay with the same order: no second capture, no second claim, no second mail, whatever cart it names', async () => {
    const id = await addProduct(1200, 10);
    const cart = cartOf([[id, 1]], { isLocalPickup: true });
    const { email, approval } = buyer();
    const paypalOrderId = await paidFor(cart, approval);
    const captureOrder = vi.fn(services.payments.captureOrder);
    const deps = withPayments({ captureOrder });

    const first = await placeOrder(deps, placing(paypalOrderId, cart));
    expect(first).toMatchObject({ ok: true, replayed: false });
    for (const again of [cart, cartOf([[id, 5]])]) {
      expect(await placeOrder(deps, placing(paypalOrderId, again))).toEqual({ ...first, replayed: true });
    }
    expect(captureOrder).toHaveBeenCalledTimes(1);
    expect(await inventory(id)).toBe(9);
    expect(await mailsTo(email)).toHaveLength(1);
    expect(await db().selectFrom('orders').select('id').where('paypalOrderId', '=', paypalOrderId).execute()).toHaveLength(1);
  });

  it('refuses a cart that no longer prices (a product gone, a coupon retired) before asking PayPal', async () => {
    const id = await addProduct(1800, 10);
    const gone = await addProduct(1800, 10);
    await db().insertInto('coupons').values({ code: 'SUMMER5', percentOff: 5, active: true }).execute();
    const withGone = cartOf([
      [id, 1],
      [gone, 1],
    ]);
    const withCoupon = cartOf([[id, 1]], { couponCode: 'SUMMER5' });
    const goneOrder = await paidFor(withGone);
    const couponOrder = await paidFor(withCoupon);
    await db().deleteFrom('products').where('id', '=', gone).execute();
    await db().updateTable('coupons').set({ active: false }).where('code', '=', 'SUMMER5').execute();
    const getOrder = vi.fn(services.payments.getOrder);
    const deps = withPayments({ getOrder });
    const ordersBefore = await orderCount();

    expect(await placeOrder(deps, placing(goneOrder, withGone))).toEqual({ ok: false, kind: 'unknown-product' });
    expect(await placeOrder(deps, placing(couponOrder, withCoupon))).toEqual({ ok: false, kind: 'invalid-coupon' });
    expect(getOrder).not.toHaveBeenCalled();
    expect(await orderCount()).toBe(ordersBefore);
    expect(await inventory(id)).toBe(10);
  });

  it('refuses a PayPal order PayPal does not know, and one the buyer has not approved', async () => {
    const id = await addProduct(1200, 10);
    const cart = cartOf([[id, 2]]);
    const unapproved = await paidFor(cart, false);
    const captureOrder = vi.fn(services.payments.captureOrder);
    const deps = withPayments({ captureOrder });

    expect(await placeOrder(deps, placing('NOSUCHORDER12345', cart))).toEqual({ ok: false, kind: 'payment-not-found' });
    expect(await placeOrder(deps, placing(unapproved, cart))).toEqual({ ok: false, kind: 'payment-not-approved' });
    expect(captureOrder).not.toHaveBeenCalled();
    expect(await paypalStatus(unapproved)).toBe('CREATED');
    expect(await inventory(id)).toBe(10);
  });

  it('refuses a cart, price or pickup changed since the PayPal order was made, capturing nothing', async () => {
    const id = await addProduct(2000, 10);
    const other = await addProduct(1200, 10);
    // Same price: a cart of it costs the same, only the reference tells the carts apart.
    const twin = await addProduct(2000, 10);
    const cart = cartOf([[id, 2]]);
    const paypalOrderId = await paidFor(cart);
    const captureOrder = vi.fn(services.payments.captureOrder);
    const deps = withPayments({ captureOrder });
    const ordersBefore = await orderCount();

    const changes = [
      cartOf([[id, 3]]),
      cartOf([
        [id, 2],
        [other, 1],
      ]),
      cartOf([[twin, 2]]),
      cartOf([
        [id, 1],
        [twin, 1],
      ]),
      cartOf([[id, 2]], { isLocalPickup: true }),
      cartOf([[id, 2]], { couponCode: 'WELCOME10' }),
    ];
    for (const changed of changes) {
      expect(await placeOrder(deps, placing(paypalOrderId, changed)), JSON.stringify(changed)).toEqual({ ok: false, kind: 'cart-changed' });
    }
    await db().updateTable('products').set({ priceCents: 2500 }).where('id', '=', id).execute();
    expect(await placeOrder(deps, placing(paypalOrderId, cart))).toEqual({ ok: false, kind: 'cart-changed' });
    expect(captureOrder).not.toHaveBeenCalled();
    expect(await paypalStatus(paypalOrderId)).toBe('APPROVED');
    expect(await orderCount()).toBe(ordersBefore);
    expect(await inventory(id)).toBe(10);

    // The price back as it was, the unchanged cart goes through.
    await db().updateTable('products').set({ priceCents: 2000 }).where('id', '=', id).execute();
    expect(await placeOrder(deps, placing(paypalOrderId, cart))).toMatchObject({ ok: true });
  });

  it('refuses when the tins sold out while the buyer was paying: nothing stored, nothing taken, nothing charged', async () => {
    const lastTwo = await addProduct(1600, 2);
    const plenty = await addProduct(1200, 30);
    const cart = cartOf([
      [plenty, 1],
      [lastTwo, 2],
    ]);
    const paypalOrderId = await paidFor(cart);
    // Someone else bought one meanwhile.
    await db().updateTable('products').set({ inventory: 1 }).where('id', '=', lastTwo).execute();
    const captureOrder = vi.fn(services.payments.captureOrder);
    const ordersBefore = await orderCount();

    expect(await placeOrder(withPayments({ captureOrder }), placing(paypalOrderId, cart))).toEqual({ ok: false, kind: 'sold-out-during-payment' });
    expect(captureOrder).not.toHaveBeenCalled();
    expect(await paypalStatus(paypalOrderId)).toBe('APPROVED');
    expect([await inventory(plenty), await inventory(lastTwo)]).toEqual([30, 1]);
    expect(await orderCount()).toBe(ordersBefore);
  });

  it('releases the tins when PayPal declines the capture, and the buyer may pay again', async () => {
    const id = await addProduct(1800, 5);
    const cart = cartOf([[id, 2]]);
    const paypalOrderId = await paidFor(cart);
    const ordersBefore = await orderCount();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const declined = withPayments({
      captureOrder: () => Promise.reject(new PayPalError('PayPal POST capture failed (422 INSTRUMENT_DECLINED)', 422, 'INSTRUMENT_DECLINED')),
    });

    expect(await placeOrder(declined, placing(paypalOrderId, cart))).toEqual({ ok: false, kind: 'payment-failed' });
    expect(await inventory(id)).toBe(5);
    expect(await orderCount()).toBe(ordersBefore);

    // A capture PayPal answers but does not complete (DECLINED) is no payment either, and nothing was taken to refund.
    const refundCapture = vi.fn(services.payments.refundCapture);
    const notCompleted = withPayments({
      captureOrder: async (orderId) => ({ ...(await services.payments.captureOrder(orderId)), captureStatus: 'DECLINED' }),
      refundCapture,
    });
    const second = await paidFor(cart);
    expect(await placeOrder(notCompleted, placing(second, cart))).toEqual({ ok: false, kind: 'payment-failed' });
    expect(refundCapture).not.toHaveBeenCalled();
    expect(await inventory(id)).toBe(5);

    expect(await placeOrder(services, placing(paypalOrderId, cart))).toMatchObject({ ok: true, replayed: false });
    expect(await inventory(id)).toBe(3);
  });

  it('captures once more when PayPal’s first answer is unknown, and answers payment-unavailable if it stays down', async () => {
    const id = await addProduct(1800, 5);
    const cart = cartOf([[id, 1]]);
    const paypalOrderId = await paidFor(cart);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const captureOrder = vi.fn(() => Promise.reject(new PayPalError('PayPal POST capture failed (503)', 503)));

    expect(await placeOrder(withPayments({ captureOrder }), placing(paypalOrderId, cart))).toEqual({ ok: false, kind: 'payment-unavailable' });
    expect(captureOrder).toHaveBeenCalledTimes(2);
    expect(await inventory(id)).toBe(5);
    expect(await paypalStatus(paypalOrderId)).toBe('APPROVED');
  });

  it('refunds a capture whose amount does not match the order, and stores nothing', async () => {
    const id = await addProduct(1200, 10);
    const cart = cartOf([[id, 2]]);
    const paypalOrderId = await paidFor(cart);
    const ordersBefore = await orderCount();
    const refundCapture = vi.fn(services.payments.refundCapture);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    let captureId = '';
    const deps = withPayments({
      captureOrder: async (orderId) => {
        const captured = await services.payments.captureOrder(orderId);
        captureId = captured.captureId;
        return { ...captured, amountCents: 1 };
      },
      refundCapture,
    });

    expect(await placeOrder(deps, placing(paypalOrderId, cart))).toEqual({ ok: false, kind: 'payment-refunded' });
    expect(refundCapture).toHaveBeenCalledWith(captureId);
    expect(errors).toHaveBeenCalledWith(expect.stringMatching(/^\[orders\] refunded capture /));
    // The emulator refunded it for real: a second refund finds nothing left.
    await expect(services.payments.refundCapture(captureId)).rejects.toMatchObject({ issue: 'CAPTURE_FULLY_REFUNDED' });
    expect(await inventory(id)).toBe(10);
    expect(await orderCount()).toBe(ordersBefore);
  });

  it('refuses a PayPal order captured outside the shop, and takes no tins for it', async () => {
    const id = await addProduct(1200, 10);
    const cart = cartOf([[id, 1]]);
    const paypalOrderId = await paidFor(cart);
    await services.payments.captureOrder(paypalOrderId);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const ordersBefore = await orderCount();

    expect(await placeOrder(services, placing(paypalOrderId, cart))).toEqual({ ok: false, kind: 'payment-already-used' });
    expect(await inventory(id)).toBe(10);
    expect(await orderCount()).toBe(ordersBefore);
  });
});

describe('claimStock', () => {
  it('claims in a transaction only, every line or none', async () => {
    const a = await addProduct(1000, 3);
    const b = await addProduct(1000, 1);
    // @ts-expect-error a plain handle is no transaction: its row locks would end with the statement
    void (() => claimStock(db(), []));

    const claimed = await db()
      .transaction()
      .execute((trx) => claimStock(trx, [{ productId: a, quantity: 2 }]));
    expect(claimed).toBe(true);
    const short = db()
      .transaction()
      .execute(async (trx) => {
        if (
          !(await claimStock(trx, [
            { productId: a, quantity: 1 },
            { productId: b, quantity: 2 },
          ]))
        )
          throw new Error('not enough left');
      });
    await expect(short).rejects.toThrow('not enough left');
    expect([await inventory(a), await inventory(b)]).toEqual([1, 1]);
  });
});
