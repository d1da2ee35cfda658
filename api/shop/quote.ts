/**
 * Pricing a cart from the database (SPEC.md sections 3, 5 and 9; issue 6). The browser names
 * products and quantities, nothing more: every price, discount, shipping fee and total is
 * decided here. startCheckout quotes to create the PayPal order, placeOrder quotes again to
 * place it, and the two quotes must carry the same reference.
 */
import { createHash } from 'node:crypto';
import { MAX_ORDER_CENTS, priceCart } from '../../contract/pricing.ts';
import type { TaxedTotals } from '../../contract/tax.ts';
import { zonedNow } from '../lib/time.ts';
import { findActiveCoupon } from './coupons.repo.ts';
import { productsForCart } from './orders.repo.ts';
import { salesTaxFor } from './sales-tax.ts';
import type { TaxDeps } from './tax-lookup.ts';
import { cardToSpend, type CardRefusal } from '../money/cards.ts';
import { handOverOnly } from '../../contract/food.ts';
import { readSettings } from '../settings/settings.repo.ts';

/** What the buyer asks for: checkoutRequest of contract/orders.ts, parsed. */
export interface Cart {
  cartItems: { _id: string; quantity: number }[];
  isLocalPickup: boolean;
  /** Upper-cased and trimmed (the schema does it); null for none. */
  couponCode: string | null;
  /**
   * The destination state (issue 24), two letters; null for local pickup. The API's schema
   * requires it for a shipped order; a use-case called without one charges no tax.
   */
  shipToState?: string | null;
  /**
   * The destination ZIP (issue 29), 5 digits or ZIP+4: required for a shipped order to a state
   * where she collects sales tax (the rate is the address's); null or absent otherwise.
   */
  shipToZip?: string | null;
  /** A gift card's code as typed (issue 33): it pays what it can of the total; null for none. */
  giftCardCode?: string | null;
}

export interface QuotedLine {
  productId: string;
  name: string;
  unitPriceCents: number;
  quantity: number;
  /** Tins left when the cart was quoted: startCheckout refuses more than that, placeOrder claims them. */
  inventory: number;
}

export interface Quote {
  /** One line per product, in the order the cart first names it. */
  lines: QuotedLine[];
  /** With the sales tax of the destination state (issue 24): totalCents includes it. */
  totals: TaxedTotals;
  couponCode: string | null;
  isLocalPickup: boolean;
  /**
   * The gift card that pays (issue 33): its lot and what it pays, all it holds up to the total;
   * null without one. The tax is figured on the goods, as without a card.
   */
  giftCard: { lotId: string; cents: number } | null;
  /** What is left to pay through PayPal: totals.totalCents less the card's part; 0 when the card pays it all. */
  amountDueCents: number;
  /** PayPal's reference_id: ties the PayPal order to exactly this priced cart. */
  reference: string;
}

/**
 * Why a cart can't be priced (each answered 400 with contract/orders.ts's or
 * contract/coupons.ts's words):
 * - 'unknown-product': a product id that is no product (deleted since it went in the cart);
 * - 'invalid-coupon': no active coupon has this code;
 * - 'below-coupon-minimum': a coupon on less than $15 of items;
 * - 'nothing-to-pay': a total of $0 or less (PayPal takes no such order);
 * - 'too-large': above MAX_ORDER_CENTS, more than is paid online;
 * - 'zip-required': shipped to a state where she collects sales tax, without a ZIP (issue 29);
 * - 'unknown-gift-card', 'gift-card-empty': a code that is no card's, a card that holds nothing (issue 33);
 * - 'hand-over-only': a shipped cart while she sells under the cottage-food exemption, which
 *   allows selling only in person (issue 48, decision 0057): answered 409 with COTTAGE_HAND_OVER_ONLY.
 */
export type QuoteRefusal =
  'unknown-product' | 'invalid-coupon' | 'below-coupon-minimum' | 'nothing-to-pay' | 'too-large' | 'zip-required' | 'hand-over-only' | CardRefusal;

export type QuoteResult = { ok: true; quote: Quote } | { ok: false; kind: QuoteRefusal };

/**
 * A short hash of what the buyer pays for: product ids, quantities and unit prices (in id
 * order), pickup, coupon and totals. A cart, price or coupon that changes after the PayPal
 * order was created changes it, so that order can no longer be captured.
 */
export function cartReference(
  lines: QuotedLine[],
  totals: TaxedTotals,
  couponCode: string | null,
  isLocalPickup: boolean,
  giftCard: Quote['giftCard'] = null,
): string {
  const canonical = JSON.stringify({
    lines: [...lines].sort((a, b) => (a.productId < b.productId ? -1 : 1)).map((l) => [l.productId, l.quantity, l.unitPriceCents]),
    isLocalPickup,
    couponCode,
    totals: [totals.itemsTotalCents, totals.discountCents, totals.shippingCents, totals.totalCents],
    // The state and its tax (issue 24): a rate changed between the two quotes changes the reference.
    tax: [totals.taxState, totals.taxRatePpm, totals.taxCents, totals.taxOnShipping],
    // The place of the rate and its source (issue 29): a lookup that fell back since the first quote changes it.
    place: [totals.taxZip, totals.taxLocationCode, totals.taxRateSource],
    // The card and its part (issue 33): a card spent elsewhere since the first quote changes what PayPal is owed.
    ...(giftCard ? { card: [giftCard.lotId, giftCard.cents] } : {}),
  });
  return `cart-${createHash('sha256').update(canonical).digest('base64url').slice(0, 22)}`;
}

/**
 * Prices `cart` from today's products, coupons and the sales tax of its place of sale today in
 * `zone` (SITE_TIMEZONE): where she collects, the rate at the address (sales-tax.ts); reads only,
 * claims nothing. No transaction is open while the rate service is asked. A shipped cart is
 * refused while her licence allows hand-over only.
 */
export async function quoteCart(deps: TaxDeps, cart: Cart, zone: string): Promise<QuoteResult> {
  const { db } = deps;
  // Her licence decides whether anything ships (issue 48): every checkout path quotes here first,
  // the PayPal order's, its placing and an order a gift card pays in full, so none makes a shipped order in cottage mode.
  if (!cart.isLocalPickup && handOverOnly((await readSettings(db)).foodLicence)) return { ok: false, kind: 'hand-over-only' };
  // A product listed twice is one line with the quantities added.
  const wanted = new Map<string, number>();
  for (const { _id, quantity } of cart.cartItems) wanted.set(_id, (wanted.get(_id) ?? 0) + quantity);

  const products = new Map((await productsForCart(db, [...wanted.keys()])).map((p) => [p.id, p]));
  const lines: QuotedLine[] = [];
  for (const [productId, quantity] of wanted) {
    const p = products.get(productId);
    if (!p) return { ok: false, kind: 'unknown-product' };
    lines.push({ productId, name: p.name, unitPriceCents: p.priceCents, quantity, inventory: p.inventory });
  }

  let percentOff: number | null = null;
  if (cart.couponCode) {
    const coupon = await findActiveCoupon(db, cart.couponCode);
    if (!coupon) return { ok: false, kind: 'invalid-coupon' };
    percentOff = coupon.percentOff;
  }

  const priced = priceCart(lines, { percentOff, isLocalPickup: cart.isLocalPickup });
  if (!priced.ok) return { ok: false, kind: 'below-coupon-minimum' };
  const place = { pickup: cart.isLocalPickup, state: cart.isLocalPickup ? null : (cart.shipToState ?? null), zip: cart.shipToZip ?? null };
  const taxed = await salesTaxFor(deps, priced.totals, place, zonedNow(zone).date);
  if (!taxed.ok) return taxed;
  const { totals } = taxed;
  if (totals.totalCents <= 0) return { ok: false, kind: 'nothing-to-pay' };
  if (totals.totalCents > MAX_ORDER_CENTS) return { ok: false, kind: 'too-large' };

  let giftCard: Quote['giftCard'] = null;
  if (cart.giftCardCode) {
    const card = await cardToSpend(db, cart.giftCardCode);
    if (!card.ok) return card;
    giftCard = { lotId: card.lotId, cents: Math.min(card.balanceCents, totals.totalCents) };
  }

  return {
    ok: true,
    quote: {
      lines,
      totals,
      couponCode: cart.couponCode,
      isLocalPickup: cart.isLocalPickup,
      giftCard,
      amountDueCents: totals.totalCents - (giftCard?.cents ?? 0),
      reference: cartReference(lines, totals, cart.couponCode, cart.isLocalPickup, giftCard),
    },
  };
}
