import { Hono } from 'hono';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import type { DB } from '../../db/client.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { validateJson, validateParams } from '../validation.ts';
import { id } from '../schemas/common.ts';
import { centsToDollars } from '../schemas/chocolates.ts';
import { COUPON_MINIMUM, INVALID_COUPON } from '../schemas/coupons.ts';
import {
  CART_CHANGED,
  checkoutRequest,
  NOTHING_TO_PAY,
  onlyLeft,
  ORDER_NOT_FOUND,
  ORDER_PLACED,
  ORDER_STATUS_CHANGED,
  ORDER_TOO_LARGE,
  orderStatusRequest,
  PAYMENT_ALREADY_USED,
  PAYMENT_FAILED,
  PAYMENT_FAILED_FINAL,
  PAYMENT_NOT_APPROVED,
  PAYMENT_NOT_FOUND,
  PAYMENT_PENDING_NOT_DELIVERED,
  PAYMENT_REFUNDED,
  PAYMENT_UNAVAILABLE,
  PICKUP_NOT_SHIPPED,
  placeOrderRequest,
  REFUNDED_FINAL,
  SETTABLE_STATUSES,
  SHIPPED_NOT_PICKED_UP,
  SOLD_OUT_DURING_PAYMENT,
  soldOut,
  UNKNOWN_PRODUCT,
  type AdminOrderView,
  type CheckoutView,
  type OrderView,
} from '../schemas/orders.ts';
import { CURRENCY, MAX_ORDER_CENTS, priceCart, type Totals } from '../lib/pricing.ts';
import { PayPalError, type CapturedOrder, type Payments } from '../services/payments/paypal.ts';
import { orderMails } from '../services/mail/order-mails.ts';
import { deliver } from '../services/mail/templates.ts';
import { findActiveCoupon } from '../../db/queries/coupons.ts';
import {
  claimStock,
  findOrderById,
  findOrderByPaypalId,
  insertOrder,
  insertOrderItems,
  itemsOfOrders,
  listOrderItems,
  listOrders,
  productsForCart,
  recordCapture,
  shipToOfOrder,
  updateOrderStatus,
  type OrderItemRow,
  type OrderRow,
} from '../../db/queries/orders.ts';

/**
 * The chocolate checkout (SPEC.md sections 3, 4, 7, 8; issue 6) and the admin's orders.
 *
 * The browser names products and quantities, nothing more. POST /api/orders/paypal prices the
 * cart from the database and creates the PayPal order for that total, tagged with a hash of the
 * priced cart. POST /api/orders prices the same cart again, and captures only if PayPal's order
 * still carries that hash and amount, the buyer approved it, and the stock is claimed.
 */

// ---------------------------------------------------------------------------------------------
// Pricing a cart from the database

interface QuotedLine {
  productId: string;
  name: string;
  unitPriceCents: number;
  quantity: number;
  inventory: number;
}

interface Quote {
  lines: QuotedLine[];
  totals: Totals;
  couponCode: string | null;
  isLocalPickup: boolean;
  /** PayPal's reference_id: ties the PayPal order to exactly this priced cart. */
  reference: string;
}

type Refusal = { ok: false; status: 400 | 409; message: string };

/**
 * A short hash of what the buyer pays for: product ids, quantities and unit prices (in id
 * order), pickup, coupon and totals. A cart, price or coupon that changes after the PayPal
 * order was created changes it, so that order can no longer be captured.
 */
function cartReference(lines: QuotedLine[], totals: Totals, couponCode: string | null, isLocalPickup: boolean): string {
  const canonical = JSON.stringify({
    lines: [...lines].sort((a, b) => (a.productId < b.productId ? -1 : 1)).map((l) => [l.productId, l.quantity, l.unitPriceCents]),
    isLocalPickup,
    couponCode,
    totals: [totals.itemsTotalCents, totals.discountCents, totals.shippingCents, totals.totalCents],
  });
  return `cart-${createHash('sha256').update(canonical).digest('base64url').slice(0, 22)}`;
}

async function quoteCart(
  db: DB,
  cart: { cartItems: { _id: string; quantity: number }[]; isLocalPickup: boolean; couponCode: string | null },
): Promise<({ ok: true } & Quote) | Refusal> {
  // A product listed twice is one line with the quantities added.
  const wanted = new Map<string, number>();
  for (const { _id, quantity } of cart.cartItems) wanted.set(_id, (wanted.get(_id) ?? 0) + quantity);

  const products = new Map((await productsForCart(db, [...wanted.keys()])).map((p) => [p.id, p]));
  const lines: QuotedLine[] = [];
  for (const [productId, quantity] of wanted) {
    const p = products.get(productId);
    if (!p) return { ok: false, status: 400, message: UNKNOWN_PRODUCT };
    lines.push({ productId, name: p.name, unitPriceCents: p.priceCents, quantity, inventory: p.inventory });
  }

  let percentOff: number | null = null;
  if (cart.couponCode) {
    const coupon = await findActiveCoupon(db, cart.couponCode);
    if (!coupon) return { ok: false, status: 400, message: INVALID_COUPON };
    percentOff = coupon.percentOff;
  }

  const priced = priceCart(lines, { percentOff, isLocalPickup: cart.isLocalPickup });
  if (!priced.ok) return { ok: false, status: 400, message: COUPON_MINIMUM };
  const { totals } = priced;
  if (totals.totalCents <= 0) return { ok: false, status: 400, message: NOTHING_TO_PAY };
  if (totals.totalCents > MAX_ORDER_CENTS) return { ok: false, status: 400, message: ORDER_TOO_LARGE };

  return {
    ok: true,
    lines,
    totals,
    couponCode: cart.couponCode,
    isLocalPickup: cart.isLocalPickup,
    reference: cartReference(lines, totals, cart.couponCode, cart.isLocalPickup),
  };
}

const money = (t: Totals) => ({
  itemsTotal: centsToDollars(t.itemsTotalCents),
  discount: centsToDollars(t.discountCents),
  shipping: centsToDollars(t.shippingCents),
  total: centsToDollars(t.totalCents),
});

const totalsOf = (o: OrderRow): Totals => ({
  itemsTotalCents: o.itemsTotalCents,
  discountCents: o.discountCents,
  shippingCents: o.shippingCents,
  totalCents: o.totalCents,
});

const orderView = (o: OrderRow, items: Pick<OrderItemRow, 'productId' | 'name' | 'unitPriceCents' | 'quantity'>[]): OrderView => ({
  _id: o.id,
  ...money(totalsOf(o)),
  isLocalPickup: o.isLocalPickup,
  couponCode: o.couponCode,
  payerName: o.payerName,
  items: items.map((i) => ({ _id: i.productId, name: i.name, price: centsToDollars(i.unitPriceCents), quantity: i.quantity })),
});

const adminView = (o: OrderRow, items: OrderItemRow[]): AdminOrderView => ({
  _id: o.id,
  createdAt: new Date(o.createdAt).toISOString(),
  payerName: o.payerName,
  payerEmail: o.payerEmail,
  items: items.map((i) => ({ name: i.name, price: centsToDollars(i.unitPriceCents), quantity: i.quantity })),
  ...money(totalsOf(o)),
  couponCode: o.couponCode,
  isLocalPickup: o.isLocalPickup,
  shipTo: shipToOfOrder(o),
  status: o.status,
});

// ---------------------------------------------------------------------------------------------
// Placing an order

/** A refusal raised inside the order transaction: it rolls back, then answers. */
class Refused extends Error {
  readonly status: 400 | 402 | 409;
  constructor(status: 400 | 402 | 409, message: string) {
    super(message);
    this.status = status;
  }
}

const isUniqueViolation = (err: unknown) => typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';

const validEmail = (s: string | undefined) => {
  const e = (s ?? '').trim().toLowerCase();
  return e.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e) ? e : '';
};

/**
 * Captures once more when the first attempt's outcome is unknown (network failure, PayPal 5xx):
 * the client sends the same PayPal-Request-Id, so PayPal answers the capture it already made
 * instead of making a second one. A 4xx answer is definite and is not retried.
 */
async function capture(payments: Payments, orderId: string): Promise<CapturedOrder> {
  try {
    return await payments.captureOrder(orderId);
  } catch (err) {
    if (err instanceof PayPalError && err.status < 500) throw err;
    return payments.captureOrder(orderId);
  }
}

async function refundQuietly(payments: Payments, captured: CapturedOrder, why: string) {
  try {
    await payments.refundCapture(captured.captureId);
    console.error(`[orders] refunded capture ${captured.captureId} of PayPal order ${captured.orderId}: ${why}`);
  } catch (err) {
    // Money taken and no order stored: the teacher must refund by hand. Loud on purpose.
    console.error(`[orders] REFUND FAILED for capture ${captured.captureId} of PayPal order ${captured.orderId} (${why}):`, err);
  }
}

const paypalTrouble = (err: unknown) => {
  console.error('[orders] PayPal call failed:', err instanceof Error ? err.message : err);
};

export const orders = new Hono<AppEnv>()
  .post(
    '/paypal',
    rateLimit({ bucket: 'checkout', max: 20, windowMs: 10 * 60_000 }),
    validateJson(checkoutRequest),
    async (c) => {
      const { db, payments } = c.var.services;
      const quote = await quoteCart(db, c.req.valid('json'));
      if (!quote.ok) return c.json({ message: quote.message }, quote.status);

      for (const l of quote.lines) {
        if (l.inventory <= 0) return c.json({ message: soldOut(l.name) }, 409);
        if (l.inventory < l.quantity) return c.json({ message: onlyLeft(l.name, l.inventory) }, 409);
      }

      let created;
      try {
        created = await payments.createOrder({
          amountCents: quote.totals.totalCents,
          currency: CURRENCY,
          referenceId: quote.reference,
          description: 'Handmade chocolates',
          // The buyer picks the address in PayPal's window; pickup orders are never asked for one.
          shipping: quote.isLocalPickup ? 'none' : 'collect',
        });
      } catch (err) {
        paypalTrouble(err);
        return c.json({ message: PAYMENT_UNAVAILABLE }, 502);
      }

      return c.json({
        orderID: created.id,
        ...money(quote.totals),
        items: quote.lines.map((l) => ({ _id: l.productId, name: l.name, price: centsToDollars(l.unitPriceCents), quantity: l.quantity })),
      } satisfies CheckoutView);
    },
  )

  .post('/', rateLimit({ bucket: 'orders', max: 30, windowMs: 10 * 60_000 }), validateJson(placeOrderRequest), async (c) => {
    const { db, payments, env, mailer } = c.var.services;
    const body = c.req.valid('json');
    const paypalOrderId = body.orderId;

    // A replay of a placed order answers that order: never a second order, never a second capture.
    const answerExisting = async () => {
      const existing = await findOrderByPaypalId(db, paypalOrderId);
      if (!existing) return undefined;
      const items = await itemsOfOrders(db, [existing.id]);
      return c.json({ message: ORDER_PLACED, order: orderView(existing, items) }, 200);
    };
    const replayed = await answerExisting();
    if (replayed) return replayed;

    // The body's transactionAmount and discount are never read: the cart is priced again here.
    const quote = await quoteCart(db, body);
    if (!quote.ok) return c.json({ message: quote.message }, quote.status);
    const { totals } = quote;

    let paypal;
    try {
      paypal = await payments.getOrder(paypalOrderId);
    } catch (err) {
      if (err instanceof PayPalError && err.status === 404) return c.json({ message: PAYMENT_NOT_FOUND }, 400);
      paypalTrouble(err);
      return c.json({ message: PAYMENT_UNAVAILABLE }, 502);
    }
    if (paypal.referenceId !== quote.reference || paypal.amountCents !== totals.totalCents || paypal.currency !== CURRENCY) {
      return c.json({ message: CART_CHANGED }, 409);
    }
    // COMPLETED goes on: it may be a replay whose first request is committing right now; its
    // order row makes the insert below wait and then conflict, which answers that order.
    if (paypal.status !== 'APPROVED' && paypal.status !== 'COMPLETED') return c.json({ message: PAYMENT_NOT_APPROVED }, 400);

    const state: { captured?: CapturedOrder } = {};
    let placed;
    try {
      placed = await db.transaction().execute(async (trx) => {
        // First the order row: orders.paypal_order_id is unique, so a concurrent replay waits here.
        const order = await insertOrder(trx, {
          paypalOrderId,
          payerName: body.payerName ?? '',
          payerEmail: validEmail(body.payerEmail),
          itemsTotalCents: totals.itemsTotalCents,
          discountCents: totals.discountCents,
          shippingCents: totals.shippingCents,
          totalCents: totals.totalCents,
          couponCode: quote.couponCode,
          isLocalPickup: quote.isLocalPickup,
        });

        // Then the stock, one conditional UPDATE per line in product-id order (no deadlocks
        // between carts): a line without enough tins left rolls everything back.
        const byId = [...quote.lines].sort((a, b) => (a.productId < b.productId ? -1 : 1));
        for (const line of byId) {
          if (!(await claimStock(trx, line.productId, line.quantity))) throw new Refused(409, SOLD_OUT_DURING_PAYMENT);
        }
        await insertOrderItems(
          trx,
          quote.lines.map((l) => ({ orderId: order.id, productId: l.productId, name: l.name, unitPriceCents: l.unitPriceCents, quantity: l.quantity })),
        );

        // Capture after the stock claim: the buyer is charged only once the tins are theirs. Any
        // failure from here rolls the claim back, and a capture already made is refunded below.
        const captured = await capture(payments, paypalOrderId);
        state.captured = captured;
        if (captured.captureStatus !== 'COMPLETED' && captured.captureStatus !== 'PENDING') throw new Refused(402, PAYMENT_FAILED);
        if (captured.amountCents !== totals.totalCents || captured.currency !== CURRENCY) throw new Refused(409, PAYMENT_REFUNDED);

        const payer = {
          payerName: captured.payer.name || body.payerName || '',
          payerEmail: validEmail(captured.payer.email) || validEmail(body.payerEmail),
        };
        const shipTo = quote.isLocalPickup ? null : captured.shipTo;
        // PENDING: PayPal has not got the money yet (an eCheck, a review). The tins stay claimed
        // and the order waits for PayPal's webhook (api/routes/paypal-webhooks.ts) to say
        // completed or denied; the teacher ships nothing before.
        const paymentPending = captured.captureStatus === 'PENDING';
        await recordCapture(trx, order.id, {
          paypalCaptureId: captured.captureId,
          ...payer,
          shipToName: shipTo?.name ?? null,
          shipToAddress: shipTo?.address ?? null,
          status: paymentPending ? 'payment_pending' : 'paid',
        });
        return { ...order, ...payer, shipTo, captured, paymentPending };
      });
    } catch (err) {
      const captured = state.captured;
      if (captured && (captured.captureStatus === 'COMPLETED' || captured.captureStatus === 'PENDING')) {
        await refundQuietly(payments, captured, err instanceof Error ? err.message : String(err));
      }
      if (isUniqueViolation(err)) {
        const existing = await answerExisting();
        if (existing) return existing;
      }
      if (err instanceof Refused) return c.json({ message: err.message }, err.status);
      if (err instanceof PayPalError) {
        if (err.issue === 'ORDER_ALREADY_CAPTURED') return (await answerExisting()) ?? c.json({ message: PAYMENT_ALREADY_USED }, 409);
        paypalTrouble(err);
        if (err.status >= 500) return c.json({ message: PAYMENT_UNAVAILABLE }, 502);
        return c.json({ message: PAYMENT_FAILED }, 402);
      }
      throw err;
    }

    const items = quote.lines.map((l) => ({ productId: l.productId, name: l.name, unitPriceCents: l.unitPriceCents, quantity: l.quantity }));
    // After the commit: a mail that fails is logged and never undoes a paid order.
    await deliver(
      mailer,
      orderMails(env, {
        id: placed.id,
        paypalOrderId,
        paypalCaptureId: placed.captured.captureId,
        payerName: placed.payerName,
        payerEmail: placed.payerEmail,
        items,
        ...totals,
        couponCode: quote.couponCode,
        isLocalPickup: quote.isLocalPickup,
        shipTo: placed.shipTo,
        paymentPending: placed.paymentPending,
      }),
    );

    // A pending payment answers like a paid one: SPEC.md has words for the cart's success and
    // failure dialogs only, and the pending payment is not a failure (the order is placed, the
    // tins are the buyer's). So the cart keeps its success dialog, the answer keeps its shape
    // (no status: it would only matter to a dialog the spec does not have), and the buyer's mail
    // says the order ships once PayPal confirms the payment.
    const order: OrderView = {
      _id: placed.id,
      ...money(totals),
      isLocalPickup: quote.isLocalPickup,
      couponCode: quote.couponCode,
      payerName: placed.payerName,
      items: items.map((i) => ({ _id: i.productId, name: i.name, price: centsToDollars(i.unitPriceCents), quantity: i.quantity })),
    };
    return c.json({ message: ORDER_PLACED, order }, 201);
  });

// ---------------------------------------------------------------------------------------------
// The admin's orders page (issue 6, beyond the spec)

const orderParams = z.object({ id });

export const adminOrders = new Hono<AppEnv>()
  .get('/', requireAdmin(), async (c) => {
    const { db } = c.var.services;
    // Two queries whatever the number of orders: the orders, then every item of them.
    const [rows, items] = await Promise.all([listOrders(db), listOrderItems(db)]);
    const byOrder = new Map<string, OrderItemRow[]>();
    for (const i of items) {
      const list = byOrder.get(i.orderId);
      if (list) list.push(i);
      else byOrder.set(i.orderId, [i]);
    }
    return c.json(rows.map((o) => adminView(o, byOrder.get(o.id) ?? [])));
  })

  .put('/:id/status', requireAdmin(), validateParams(orderParams), validateJson(orderStatusRequest), async (c) => {
    const { db } = c.var.services;
    const orderId = c.req.valid('param').id;
    const { status } = c.req.valid('json');
    // Twice at most: a PayPal webhook may change the status between the read and the write (the
    // write is conditional on what was read), and the new status is judged again.
    for (let attempt = 0; attempt < 2; attempt++) {
      const current = await findOrderById(db, orderId);
      if (!current) return c.json({ message: ORDER_NOT_FOUND }, 404);
      const refusal = statusRefusal(current, status);
      if (refusal) return c.json({ message: refusal.message }, refusal.status);
      const updated = await updateOrderStatus(db, orderId, status, current.status);
      if (updated) return c.json(adminView(updated, await itemsOfOrders(db, [orderId])));
    }
    return c.json({ message: ORDER_STATUS_CHANGED }, 409);
  });

/**
 * Why the admin may not set `status` on the order, if she may not. Refunded and payment_failed
 * are PayPal's last word. A pending payment may be marked paid by hand (after checking PayPal,
 * e.g. when its webhook never came) but never shipped or picked up: the money is not there yet.
 */
function statusRefusal(current: OrderRow, status: (typeof SETTABLE_STATUSES)[number]): { status: 400 | 409; message: string } | null {
  if (current.status === 'refunded') return { status: 409, message: REFUNDED_FINAL };
  if (current.status === 'payment_failed') return { status: 409, message: PAYMENT_FAILED_FINAL };
  if (current.status === 'payment_pending' && status !== 'paid') return { status: 409, message: PAYMENT_PENDING_NOT_DELIVERED };
  if (status === 'shipped' && current.isLocalPickup) return { status: 400, message: PICKUP_NOT_SHIPPED };
  if (status === 'picked_up' && !current.isLocalPickup) return { status: 400, message: SHIPPED_NOT_PICKED_UP };
  return null;
}
