/**
 * The shop's arithmetic (SPEC.md sections 5 and 9), pure and in integer cents: what a cart of
 * database prices costs with a coupon and shipping, and the words the cart shows about them. No
 * imports, so an island may show the same numbers the server will charge (and the cart evaluates
 * no schema before it is interactive: issue 36); the server's numbers always win.
 */

/** Flat shipping fee; local pickup makes it 0. */
export const SHIPPING_CENTS = 500;
/** Coupons apply only when the items total is at least this much ($15). */
export const COUPON_MINIMUM_CENTS = 1500;
/** Largest total paid online: a guard for PayPal's limits and for int4 columns, not a business rule. */
export const MAX_ORDER_CENTS = 1_000_000;
export const CURRENCY = 'USD';

/** SPEC.md section 8 and section 5: the messages the cart shows about coupons. */
export const INVALID_COUPON = 'Invalid coupon code';
export const COUPON_MINIMUM = 'Coupons valid only on orders $15 or more';

/** Longest code looked up; anything longer can't be a code. */
export const MAX_COUPON_LENGTH = 64;

/** Codes are compared upper-cased and trimmed (SPEC.md section 5). */
export const normalizeCouponCode = (code: string): string => code.trim().toUpperCase();

/** A gift card that holds nothing (spent, or voided): the cart says so before asking the server to use it. */
export const GIFT_CARD_EMPTY = 'This gift card has nothing left on it.';

export interface PricedLine {
  unitPriceCents: number;
  quantity: number;
}

export interface Totals {
  itemsTotalCents: number;
  discountCents: number;
  shippingCents: number;
  totalCents: number;
}

export type Priced = { ok: true; totals: Totals } | { ok: false; reason: 'coupon_minimum' };

/** Σ unit price × quantity. */
export function itemsTotalCents(lines: readonly PricedLine[]): number {
  let sum = 0;
  for (const { unitPriceCents, quantity } of lines) {
    if (!Number.isSafeInteger(unitPriceCents) || unitPriceCents < 0) throw new RangeError(`Invalid unit price: ${unitPriceCents}`);
    if (!Number.isSafeInteger(quantity) || quantity < 1) throw new RangeError(`Invalid quantity: ${quantity}`);
    sum += unitPriceCents * quantity;
  }
  return sum;
}

/** round(itemsTotal × percent / 100), half a cent rounding up; integer arithmetic only. */
export function discountCents(itemsTotal: number, percentOff: number): number {
  if (!Number.isInteger(percentOff) || percentOff < 0 || percentOff > 100) throw new RangeError(`Invalid percent: ${percentOff}`);
  return Math.floor((itemsTotal * percentOff + 50) / 100);
}

/** Whether a coupon may apply to this items total ($15 or more). */
export const couponAllowed = (itemsTotal: number): boolean => itemsTotal >= COUPON_MINIMUM_CENTS;

/**
 * Totals of a cart: items − discount + shipping. With a coupon (`percentOff`) below the $15
 * minimum the cart is refused rather than silently priced without the discount.
 */
export function priceCart(lines: readonly PricedLine[], options: { percentOff?: number | null; isLocalPickup: boolean }): Priced {
  const items = itemsTotalCents(lines);
  let discount = 0;
  if (options.percentOff != null) {
    if (!couponAllowed(items)) return { ok: false, reason: 'coupon_minimum' };
    discount = discountCents(items, options.percentOff);
  }
  const shipping = options.isLocalPickup ? 0 : SHIPPING_CENTS;
  return { ok: true, totals: { itemsTotalCents: items, discountCents: discount, shippingCents: shipping, totalCents: items - discount + shipping } };
}
