/**
 * The checkout's first step (SPEC.md sections 3 and 4; issue 6), behind POST /api/orders/paypal:
 * the cart priced from the database and the PayPal order the buyer approves, made for that
 * total and tagged with the quote's reference. placeOrder (place-order.ts) is the second step.
 */
import type { Services } from '../services/index.ts';
import type { CheckoutView } from '../../contract/orders.ts';
import { CURRENCY } from '../../contract/pricing.ts';
import { lineView, moneyView, taxView } from './order-views.ts';
import { quoteCart, type Cart, type QuoteRefusal } from './quote.ts';

/**
 * Why no PayPal order was made. Besides the quote's (QuoteRefusal):
 * - 'sold-out': no tin of `product` is left;
 * - 'not-enough-left': fewer than the cart asks, `left` of them;
 * - 'payment-unavailable': PayPal could not make the order (down, or it refused our request).
 * Nothing is claimed yet: the stock is claimed only when the order is placed.
 */
export type CheckoutRefusal =
  | { ok: false; kind: QuoteRefusal | 'payment-unavailable' }
  | { ok: false; kind: 'sold-out'; product: string }
  | { ok: false; kind: 'not-enough-left'; product: string; left: number };

export type CheckoutResult = { ok: true; checkout: CheckoutView } | CheckoutRefusal;

/** Prices `cart` and creates the PayPal order for it; the answer is what the cart shows the buyer. */
export async function startCheckout(deps: Pick<Services, 'db' | 'payments' | 'env' | 'taxRates'>, cart: Cart): Promise<CheckoutResult> {
  const quoted = await quoteCart(deps, cart, deps.env.SITE_TIMEZONE);
  if (!quoted.ok) return quoted;
  const { quote } = quoted;

  for (const l of quote.lines) {
    if (l.inventory <= 0) return { ok: false, kind: 'sold-out', product: l.name };
    if (l.inventory < l.quantity) return { ok: false, kind: 'not-enough-left', product: l.name, left: l.inventory };
  }

  const view = { ...moneyView(quote.totals), ...taxView(quote.totals), items: quote.lines.map(lineView) };
  const card = { giftCardCents: quote.giftCard?.cents ?? 0, amountDueCents: quote.amountDueCents };
  // The card pays it all (issue 33): nothing goes to PayPal; POST /api/orders places it without an orderId.
  if (quote.amountDueCents === 0) return { ok: true, checkout: { orderID: null, ...card, ...view } };

  let created;
  try {
    const { itemsTotalCents, discountCents, shippingCents, taxCents, taxState } = quote.totals;
    const what = taxState && !quote.isLocalPickup ? `Handmade chocolates, shipped to ${taxState}` : 'Handmade chocolates';
    created = await deps.payments.createOrder({
      amountCents: quote.amountDueCents,
      currency: CURRENCY,
      referenceId: quote.reference,
      // The state the tax was figured for, in the buyer's view in PayPal (issue 24); the card's part when one pays (issue 33).
      description: quote.giftCard ? `${what}, less a gift card of $${(quote.giftCard.cents / 100).toFixed(2)}` : what,
      // PayPal shows the buyer the items, discount, shipping and tax (tax_total) the total is made of.
      // With a card the amount is the rest, which no breakdown of PayPal's adds up to: none is sent.
      ...(quote.giftCard ? {} : { breakdown: { itemsCents: itemsTotalCents, discountCents, shippingCents, taxCents } }),
      // The buyer picks the address in PayPal's window; pickup orders are never asked for one.
      shipping: quote.isLocalPickup ? 'none' : 'collect',
    });
  } catch (err) {
    console.error('[orders] PayPal call failed:', err instanceof Error ? err.message : err);
    return { ok: false, kind: 'payment-unavailable' };
  }

  return { ok: true, checkout: { orderID: created.id, ...card, ...view } };
}
