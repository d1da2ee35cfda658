/**
 * Checkout and orders (SPEC.md sections 3, 4, 7, 8; issue 6). Shared with the cart and admin
 * islands: no server-only imports. The browser sends product ids and quantities; every price,
 * discount, shipping fee and total is decided by the server from the database.
 */
import { z } from 'zod';
import { pageQuery } from './paging.ts';
import { id, isCleanText, isVisibleText } from './common.ts';
import { MAX_COUPON_LENGTH, normalizeCouponCode } from './coupons.ts';
import { INVALID_ZIP, SHIP_TO_STATE_REQUIRED, UNKNOWN_STATE, usState, zipCode } from './tax.ts';
import { payingGiftCardCode } from './gift-card-code.ts';

/** Messages the cart and the admin page show. */
export const ORDER_PLACED = 'Order placed successfully';
export const SOLD_OUT_DURING_PAYMENT = 'Some items sold out before your payment went through. You have not been charged.';
export const CART_CHANGED = 'Your cart or its prices changed after the payment was set up. You have not been charged. Please review your cart and pay again.';
export const PAYMENT_NOT_FOUND = 'We could not find that payment. You have not been charged.';
export const PAYMENT_NOT_APPROVED = 'The payment has not been approved yet. You have not been charged.';
export const PAYMENT_ALREADY_USED = 'This payment was already processed. Please contact us if you have not received a confirmation e-mail.';
export const PAYMENT_FAILED = 'Your payment could not be processed. Please check your payment details and try again.';
export const PAYMENT_REFUNDED = 'The amount paid did not match your order, so the payment was refunded. Please try again.';
export const PAYMENT_UNAVAILABLE = 'We couldn’t reach the payment provider. You have not been charged. Please try again later.';
export const UNKNOWN_PRODUCT = 'A chocolate in your cart is no longer sold. Please remove it and try again.';
export const NOTHING_TO_PAY = 'The order total must be more than $0.';
export const ORDER_TOO_LARGE = 'Orders above $10,000 can’t be paid online. Please contact us.';
export const ORDER_NOT_FOUND = 'Order not found';
/** Issue 24: the tax was figured for the cart's state, and PayPal's address is in another. */
export const SHIP_STATE_CHANGED =
  'The shipping address you chose in PayPal is in another state than the one in your cart, so the sales tax would be different. You have not been charged. Please choose that state in your cart and pay again.';
/** Issue 29: shipped to a state where she collects sales tax, and no ZIP to find the address's rate (the cart says it too). */
export { SHIP_TO_ZIP_REQUIRED } from './sales-tax.ts';
/** Issue 33: POST /api/orders without orderId while the gift card leaves something to pay. */
export const PAYMENT_STILL_DUE = 'Your gift card doesn’t cover the whole order. Please pay the rest with PayPal.';
/** Issue 33: an order the gift card pays in full names its payer, and for shipping its address. */
export const PAYER_REQUIRED = 'Please give your name and e-mail address (payerName, payerEmail).';
export const SHIP_TO_REQUIRED = 'Please give the address the order ships to (shipTo: name, line1, city, state, zip).';
export const SHIP_TO_STATE_MISMATCH =
  'The shipping address is in another state than the one the sales tax was figured for. Please choose that state in your cart.';
export const soldOut = (name: string) => `${name} is sold out`;
export const onlyLeft = (name: string, n: number) => `${name}: only ${n} left`;

export const MAX_CART_LINES = 50;
export const MAX_QUANTITY = 99;

/** One cart line: a product id and a quantity. Other fields the cart keeps (price, name) are dropped unread. */
export const cartItem = z.object({
  _id: id,
  quantity: z
    .number({ error: 'Quantity must be a whole number' })
    .int('Quantity must be a whole number')
    .min(1, 'Quantity must be at least 1')
    .max(MAX_QUANTITY, `Quantity must be at most ${MAX_QUANTITY}`),
});

export const cartItems = z
  .array(cartItem, { error: 'cartItems must be a list of {_id, quantity}' })
  .min(1, 'Your cart is empty.')
  .max(MAX_CART_LINES, `At most ${MAX_CART_LINES} different chocolates per order`);

/** Upper-cased and trimmed; empty or absent means no coupon (null). */
export const orderCouponCode = z
  .string({ error: 'Coupon code must be text' })
  .max(MAX_COUPON_LENGTH * 4, 'Invalid coupon code')
  // A NUL can't be looked up in PostgreSQL (the query fails): no code has one.
  .refine(isCleanText, 'Invalid coupon code')
  .nullish()
  .transform((s) => (s && normalizeCouponCode(s) !== '' ? normalizeCouponCode(s) : null));

const checkoutFields = {
  cartItems,
  isLocalPickup: z.boolean({ error: 'isLocalPickup must be true or false' }).optional().default(false),
  couponCode: orderCouponCode,
  /** Where a shipped order goes (issue 24): a US state's two letters, required unless local pickup; it decides the sales tax. */
  shipToState: z.unknown().optional(),
  /**
   * The destination's ZIP code (issue 29): 5 digits or ZIP+4, needed where she collects sales tax
   * (the server says so: SHIP_TO_ZIP_REQUIRED); dropped for pickup.
   */
  shipToZip: z.unknown().optional(),
  /** A gift card to pay with (issue 33): it pays what it can, PayPal the rest. */
  giftCardCode: payingGiftCardCode,
};

/**
 * shipToState: required and one of US_STATES for a shipped order; shipToZip: a ZIP code when
 * given (whether one is needed, the server's tax settings decide); both dropped (null) for pickup.
 */
const withShipToState = <T extends { isLocalPickup: boolean; shipToState?: unknown; shipToZip?: unknown }>(
  body: T,
  ctx: z.RefinementCtx,
): Omit<T, 'shipToState' | 'shipToZip'> & { shipToState: string | null; shipToZip: string | null } => {
  if (body.isLocalPickup) return { ...body, shipToState: null, shipToZip: null };
  // An order a gift card paid in full names its address (issue 33): its state and ZIP stand in for the cart's.
  const shipTo = (body as { shipTo?: { state: string; zip: string } }).shipTo;
  if (shipTo && (body.shipToState === undefined || body.shipToState === null || body.shipToState === '')) {
    body = { ...body, shipToState: shipTo.state, shipToZip: body.shipToZip || shipTo.zip };
  }
  let shipToZip: string | null = null;
  if (body.shipToZip !== undefined && body.shipToZip !== null && body.shipToZip !== '') {
    const zip = zipCode.safeParse(body.shipToZip);
    if (!zip.success) {
      ctx.addIssue({ code: 'custom', message: INVALID_ZIP, path: ['shipToZip'] });
      return z.NEVER;
    }
    shipToZip = zip.data;
  }
  if (body.shipToState === undefined || body.shipToState === null || body.shipToState === '') {
    ctx.addIssue({ code: 'custom', message: SHIP_TO_STATE_REQUIRED, path: ['shipToState'] });
    return z.NEVER;
  }
  const state = usState.safeParse(body.shipToState);
  if (!state.success) {
    ctx.addIssue({ code: 'custom', message: UNKNOWN_STATE, path: ['shipToState'] });
    return z.NEVER;
  }
  return { ...body, shipToState: state.data, shipToZip };
};

/** POST /api/orders/paypal: the cart to price and pay. */
export const checkoutRequest = z.object(checkoutFields).transform(withShipToState);
export type CheckoutRequest = z.input<typeof checkoutRequest>;

/** A PayPal order id as PayPal issues them. */
export const paypalOrderId = z
  .string({ error: 'orderId is required' })
  .trim()
  .min(1, 'orderId is required')
  .max(64, 'Invalid orderId')
  .regex(/^[A-Za-z0-9-]+$/, 'Invalid orderId');

/**
 * POST /api/orders: SPEC.md section 3's Order. Only orderId, cartItems (ids and quantities),
 * isLocalPickup and couponCode are read; transactionAmount and discount are accepted and
 * ignored, and payerName / payerEmail only stand in when PayPal doesn't give the payer's.
 */
/** Where an order a gift card paid in full ships (issue 33): what PayPal's window asks otherwise. */
const line = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine(isCleanText, `${label} contains characters that are not allowed`)
    .refine((v) => !/[\r\n]/.test(v), `${label} must be on one line`);
export const shipToAddress = z.object(
  {
    name: line('The recipient’s name', 200),
    line1: line('The street address', 200),
    line2: z.preprocess((v) => (v === '' ? undefined : v), line('The second address line', 200).optional()),
    city: line('The city', 100),
    state: usState,
    zip: zipCode,
  },
  { error: SHIP_TO_REQUIRED },
);
export type ShipToAddress = z.infer<typeof shipToAddress>;

export const placeOrderRequest = z
  .object({
    ...checkoutFields,
    /** Absent only when a gift card pays the whole order (issue 33). */
    orderId: paypalOrderId.optional(),
    shipTo: shipToAddress.optional(),
    // Dropped (not refused) when unusable, NUL and lone surrogates included: the database can't store those.
    payerName: z.string().trim().max(200).refine(isCleanText).refine(isVisibleText).optional().catch(undefined),
    payerEmail: z.string().trim().max(254).refine(isCleanText).optional().catch(undefined),
    transactionAmount: z.unknown().optional(),
    discount: z.unknown().optional(),
  })
  .transform(withShipToState);
export type PlaceOrderRequest = z.input<typeof placeOrderRequest>;

/**
 * What the admin may set (issue 6): paid, then shipped, or for a pickup ready for pickup (issue
 * 30: the buyer is mailed where and when) and picked up. The other statuses come
 * from PayPal only: 'payment_pending' (PayPal holds the capture), 'payment_failed' (PayPal
 * denied it) and 'refunded' (a refund or reversal made in PayPal).
 */
export const SETTABLE_STATUSES = ['paid', 'ready_for_pickup', 'shipped', 'picked_up'] as const;
export type OrderStatus = (typeof SETTABLE_STATUSES)[number] | 'payment_pending' | 'payment_failed' | 'refunded';

/** The carriers whose public tracking page the site links to (issue 20); any other carrier is shown as typed. */
export const KNOWN_CARRIERS = ['USPS', 'UPS', 'FedEx', 'DHL'] as const;

const TRACKING_PAGES: Record<(typeof KNOWN_CARRIERS)[number], (n: string) => string> = {
  USPS: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}`,
  UPS: (n) => `https://www.ups.com/track?tracknum=${n}`,
  FedEx: (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}`,
  DHL: (n) => `https://www.dhl.com/us-en/home/tracking/tracking-express.html?submit=1&tracking-id=${n}`,
};

/** The known carrier a name means ('usps', 'Fed Ex' → USPS, FedEx), if any. */
export function knownCarrier(carrier: string | null | undefined): (typeof KNOWN_CARRIERS)[number] | undefined {
  // Only spaces, dots and hyphens are ignored: a name with anything else in it is the carrier typed.
  const key = (carrier ?? '').replace(/[ .-]/g, '').toLowerCase();
  return KNOWN_CARRIERS.find((c) => c.toLowerCase() === key);
}

/** The carrier's public tracking page for a number, for a known carrier; null otherwise. */
export function trackingUrl(carrier: string | null | undefined, trackingNumber: string | null | undefined): string | null {
  const known = knownCarrier(carrier);
  const n = (trackingNumber ?? '').trim();
  return known && n ? TRACKING_PAGES[known](encodeURIComponent(n)) : null;
}

const blankToNull = (v: unknown) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? null : v);

export const TRACKING_ONLY_WHEN_SHIPPED = 'A tracking number or carrier goes with the status shipped.';

/** PUT /api/admin/orders/{id}/status: the status, and for shipped an optional tracking number and carrier (issue 20). */
export const orderStatusRequest = z
  .object({
    status: z.enum(SETTABLE_STATUSES, { error: 'Status must be paid, ready_for_pickup, shipped or picked_up' }),
    trackingNumber: z.preprocess(
      blankToNull,
      z
        .string({ error: 'Tracking number must be text' })
        .trim()
        .max(64, 'Tracking number must be at most 64 characters')
        .regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, 'Tracking number may hold only letters, digits, spaces and hyphens')
        .nullable()
        .default(null),
    ),
    carrier: z.preprocess(
      blankToNull,
      z
        .string({ error: 'Carrier must be text' })
        .trim()
        .max(40, 'Carrier must be at most 40 characters')
        .refine(isCleanText, 'Carrier contains characters that are not allowed')
        .refine((s) => !/[\r\n]/.test(s), 'Carrier must be on one line')
        // A carrier the site knows is stored under its own spelling: "usps" → USPS.
        .transform((s) => knownCarrier(s) ?? s)
        .nullable()
        .default(null),
    ),
  })
  .refine((b) => b.status === 'shipped' || (b.trackingNumber === null && b.carrier === null), {
    message: TRACKING_ONLY_WHEN_SHIPPED,
    path: ['trackingNumber'],
  });
export type OrderStatusRequest = z.input<typeof orderStatusRequest>;

/** GET /api/admin/orders[?status=]: every order, or those with one status (the Today panel's links, issue 20). */
/**
 * GET /api/admin/orders (issue 36): a page of orders, newest first (contract/paging.ts), with one
 * status, or the pickups still to hand over (`pickup=coming`, the Today panel's link), and `q`:
 * the buyer's name or e-mail, the ship-to name, or the order's number.
 */
export const adminOrdersQuery = pageQuery(['instant', 'id']).extend({
  pickup: z.literal('coming', { error: 'Pickup must be coming' }).optional(),
  status: z
    .enum(['payment_pending', 'payment_failed', 'paid', 'ready_for_pickup', 'shipped', 'picked_up', 'refunded'], {
      error: 'Status must be one of payment_pending, payment_failed, paid, ready_for_pickup, shipped, picked_up, refunded',
    })
    .optional(),
});

/**
 * The confirmation PUT /api/admin/orders/{id}/status answers for the screen (issue 20): what was
 * set, and whether (and what) the buyer was mailed. `who` is the buyer's first name or "The buyer".
 */
export const statusConfirmation = (
  to: (typeof SETTABLE_STATUSES)[number],
  who: string,
  mail: 'sent' | 'failed' | 'already' | 'no-address' | 'none',
  withTracking: boolean,
): string => {
  const did = { shipped: 'Marked shipped.', picked_up: 'Marked picked up.', ready_for_pickup: 'Marked ready for pickup.', paid: 'Marked paid.' }[to];
  if (mail === 'none') return did;
  if (mail === 'no-address') return `${did} The buyer left no e-mail address, so nobody was mailed.`;
  if (mail === 'already') return `${did} ${who} was mailed about it already, so no new mail went out.`;
  // The mail waits in the outbox (issue 21): retried, and listed under Mail if it never leaves.
  if (mail === 'failed')
    return `${did} The mail to ${who === 'The buyer' ? 'the buyer' : who} could not be sent yet: it will be tried again, and Mail in the admin shows it if it never leaves.`;
  if (to === 'picked_up') return `${did} ${who} was mailed a thank-you.`;
  if (to === 'ready_for_pickup') return `${did} ${who} was mailed where and when to collect it.`;
  return withTracking ? `${did} ${who} was mailed the tracking number.` : `${did} ${who} was mailed that the order is on its way.`;
};
export const PICKUP_NOT_SHIPPED = 'This order is for local pickup: mark it picked up, not shipped.';
export const SHIPPED_NOT_PICKED_UP = 'This order is shipped: mark it shipped, not picked up.';
export const SHIPPED_NOT_READY = 'This order is shipped: it is never ready for pickup. Mark it shipped.';
export const REFUNDED_FINAL = 'A refunded order keeps its status.';
/** Issue 33: her refund button. */
export const ALREADY_REFUNDED = 'This order is refunded already.';
export const NOTHING_TO_REFUND = 'PayPal denied the payment of this order: no money was taken, so there is nothing to refund.';
export const REFUND_WHILE_PENDING = 'PayPal still holds the payment of this order. Refund it once the payment completes.';
export const REFUND_UNAVAILABLE = 'PayPal could not make the refund just now. Nothing was changed. Please try again later.';
export const orderRefunded = (cardCents: number, paypalCents: number) =>
  [
    'Order refunded.',
    cardCents > 0 ? `$${(cardCents / 100).toFixed(2)} is back on the gift card.` : '',
    paypalCents > 0 ? `$${(paypalCents / 100).toFixed(2)} is refunded through PayPal.` : '',
    'The buyer was mailed. Its tins were not put back in stock.',
  ]
    .filter(Boolean)
    .join(' ');
export const PAYMENT_FAILED_FINAL = 'PayPal denied the payment of this order and its tins are back in stock: it keeps its status.';
export const PAYMENT_PENDING_NOT_DELIVERED =
  'The payment of this order is still pending at PayPal: do not ship it or hand it over yet. Once PayPal shows the payment completed, mark it paid.';
export const ORDER_STATUS_CHANGED = 'The order’s status changed meanwhile. Please reload the page and try again.';

// ---------------------------------------------------------------------------------------------
// Answers. Money in dollars (18.5), like the rest of the API.

export interface OrderLineView {
  /** The product's id; null when the product was deleted since. */
  _id: string | null;
  name: string;
  /** Unit price in dollars, as priced by the server (as sold, for stored orders). */
  price: number;
  quantity: number;
}

/** The sales tax of a quote or an order (issue 24): none for local pickup. */
export interface TaxView {
  /** Dollars, like the other amounts. */
  tax: number;
  taxCents: number;
  /** The destination state; null for local pickup. */
  taxState: string | null;
  /** The rate as a percent (6.5), and its label: "Tax (WA 6.5%)" ('' for pickup). */
  taxRatePercent: number;
  taxLabel: string;
  /** Shipping was part of the taxable amount. */
  taxOnShipping: boolean;
  /**
   * Issue 29: the place the rate is of (the buyer's ZIP, her shop's for a pickup), the state's
   * location code and the jurisdiction, and where the rate came from ('service', 'table', or
   * 'fallback': the rate service failed and her table stood in); null where no tax is collected.
   */
  taxZip: string | null;
  taxLocationCode: string | null;
  taxJurisdiction: string | null;
  taxRateSource: 'service' | 'table' | 'fallback' | null;
}

/** 200 answer of POST /api/orders/paypal. */
export interface CheckoutView extends TaxView {
  /** Null when a gift card pays the whole order: nothing goes to PayPal (issue 33). */
  orderID: string | null;
  /** What the gift card pays, and what is left to pay through PayPal (issue 33). */
  giftCardCents: number;
  amountDueCents: number;
  itemsTotal: number;
  discount: number;
  shipping: number;
  total: number;
  items: OrderLineView[];
}

/** `order` of POST /api/orders (201 placed, 200 when the same orderId was already placed). */
export interface OrderView extends TaxView {
  _id: string;
  total: number;
  /** What a gift card paid, and what was paid through PayPal (issue 33). */
  giftCardCents: number;
  amountDueCents: number;
  itemsTotal: number;
  discount: number;
  shipping: number;
  isLocalPickup: boolean;
  couponCode: string | null;
  payerName: string;
  items: OrderLineView[];
}

/** The answer of POST /api/orders: 201 placed, 200 when the same orderId was already placed. */
export interface OrderPlacedView {
  message: string;
  order: OrderView;
}

/** One row of GET /api/admin/orders, and the answer of PUT /api/admin/orders/{id}/status. */
export interface AdminOrderView extends TaxView {
  _id: string;
  createdAt: string;
  payerName: string;
  payerEmail: string;
  items: { name: string; price: number; quantity: number }[];
  itemsTotal: number;
  discount: number;
  shipping: number;
  total: number;
  /** What a gift card paid of the total (issue 33); PayPal took the rest. */
  giftCardCents: number;
  couponCode: string | null;
  isLocalPickup: boolean;
  /** Where to send a shipped order, as the buyer chose it in PayPal; null for pickup or when PayPal gave none. */
  shipTo: { name: string; address: string } | null;
  status: OrderStatus;
  /**
   * Set when the checkout's own request did not record the payment (it crashed, or PayPal's
   * answer was lost) and the buyer's retry, the reconciler or PayPal's webhook did: who, and that
   * PayPal captured once. Null for an order recorded by its checkout. docs/DEPLOY.md, "Payment lifecycle".
   */
  paymentNote: string | null;
  /** What the teacher typed when she marked it shipped (issue 20); null until then. */
  trackingNumber: string | null;
  carrier: string | null;
  /** The carrier's public tracking page (a known carrier with a number), else null. */
  trackingUrl: string | null;
}

/** The answer of PUT /api/admin/orders/{id}/status: the order as changed, and the screen's confirmation (issue 20). */
export interface AdminOrderStatusView extends AdminOrderView {
  message: string;
  /** The buyer was mailed by this change (shipped or picked up, once). */
  buyerMailed: boolean;
}

/**
 * The order's number as the buyer's mails give it ("Order 1A2B3C4D"): the id's first eight hex
 * digits. The admin's orders list shows it and finds an order by it (issue 20).
 */
export const orderReference = (id: string): string => id.replace(/-/g, '').slice(0, 8).toUpperCase();
