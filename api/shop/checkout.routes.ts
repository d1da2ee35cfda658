import { Hono, type MiddlewareHandler } from 'hono';
import type { AppEnv } from '../types.ts';
import { readSettings } from '../settings/settings.repo.ts';
import { rateLimit, takeLimit } from '../middleware/rate-limit.ts';
import { GIFT_CARD_CHANGED } from '../../contract/gift-cards.ts';
import { CARD_CODE_REFUSALS } from '../money/cards.ts';
import { validateJson } from '../validation.ts';
import { COUPON_MINIMUM, INVALID_COUPON } from '../../contract/coupons.ts';
import { COTTAGE_HAND_OVER_ONLY, handOverOnly } from '../../contract/food.ts';
import {
  CART_CHANGED,
  checkoutRequest,
  NOTHING_TO_PAY,
  onlyLeft,
  ORDER_PLACED,
  ORDER_TOO_LARGE,
  PAYMENT_ALREADY_USED,
  PAYMENT_FAILED,
  PAYMENT_NOT_APPROVED,
  PAYMENT_NOT_FOUND,
  PAYMENT_REFUNDED,
  PAYMENT_UNAVAILABLE,
  PAYER_REQUIRED,
  PAYMENT_STILL_DUE,
  placeOrderRequest,
  SHIP_TO_REQUIRED,
  SHIP_STATE_CHANGED,
  SHIP_TO_ZIP_REQUIRED,
  SOLD_OUT_DURING_PAYMENT,
  soldOut,
  UNKNOWN_PRODUCT,
  type OrderPlacedView,
} from '../../contract/orders.ts';
import type { QuoteRefusal } from './quote.ts';
import { startCheckout, type CheckoutRefusal } from './start-checkout.ts';
import { placeOrder, type PlaceOrderRefusal } from './place-order.ts';
import { LIMITS } from '../services/limits.ts';

/**
 * The chocolate checkout (SPEC.md sections 3, 4, 7, 8; issue 6), mounted on /api/orders:
 *
 *   POST /paypal   {cartItems, isLocalPickup, couponCode, shipToState, shipToZip, giftCardCode?} -> the priced cart (sales tax included),
 *                  giftCardCents and amountDueCents, and PayPal's orderID for what is due (null when the card pays it all) (startCheckout)
 *   POST /         {orderId, cartItems, …} -> the placed order, 201; 200 for a replay (placeOrder)
 *                  {cartItems, giftCardCode, payerName, payerEmail, shipTo?} without orderId: an order the card pays in full (issue 33)
 *
 * A request that names a gift card's code counts against LIMITS.giftCardCode as the balance look-up does.
 * In cottage mode (issue 48, her food licence) both refuse a cart that is not local pickup: 409, COTTAGE_HAND_OVER_ONLY.
 *
 * The browser names products and quantities, nothing more; the use-cases decide, and these
 * handlers only validate, call, and answer a refusal with its status and words.
 */

type Answer = { status: 400 | 402 | 409 | 502; message: string };

const quoteAnswers: Record<QuoteRefusal, Answer> = {
  'unknown-product': { status: 400, message: UNKNOWN_PRODUCT },
  'invalid-coupon': { status: 400, message: INVALID_COUPON },
  'below-coupon-minimum': { status: 400, message: COUPON_MINIMUM },
  'nothing-to-pay': { status: 400, message: NOTHING_TO_PAY },
  'too-large': { status: 400, message: ORDER_TOO_LARGE },
  'zip-required': { status: 400, message: SHIP_TO_ZIP_REQUIRED },
  // Issue 48: in cottage mode nothing ships; the cart offers pickup alone, and the server is the judge.
  'hand-over-only': { status: 409, message: COTTAGE_HAND_OVER_ONLY },
  // One message for every code that is no card's, the balance look-up's.
  ...CARD_CODE_REFUSALS,
};

function checkoutAnswer(r: CheckoutRefusal): Answer {
  switch (r.kind) {
    case 'sold-out':
      return { status: 409, message: soldOut(r.product) };
    case 'not-enough-left':
      return { status: 409, message: onlyLeft(r.product, r.left) };
    case 'payment-unavailable':
      return { status: 502, message: PAYMENT_UNAVAILABLE };
    default:
      return quoteAnswers[r.kind];
  }
}

const placeOrderAnswers: Record<PlaceOrderRefusal, Answer> = {
  ...quoteAnswers,
  'payment-not-found': { status: 400, message: PAYMENT_NOT_FOUND },
  'payment-unavailable': { status: 502, message: PAYMENT_UNAVAILABLE },
  'cart-changed': { status: 409, message: CART_CHANGED },
  'payment-not-approved': { status: 400, message: PAYMENT_NOT_APPROVED },
  'sold-out-during-payment': { status: 409, message: SOLD_OUT_DURING_PAYMENT },
  'payment-failed': { status: 402, message: PAYMENT_FAILED },
  'payment-refunded': { status: 409, message: PAYMENT_REFUNDED },
  'payment-already-used': { status: 409, message: PAYMENT_ALREADY_USED },
  'ship-state-changed': { status: 409, message: SHIP_STATE_CHANGED },
  'gift-card-changed': { status: 409, message: GIFT_CARD_CHANGED },
  'payment-still-due': { status: 402, message: PAYMENT_STILL_DUE },
  'payer-required': { status: 400, message: PAYER_REQUIRED },
  'ship-to-required': { status: 400, message: SHIP_TO_REQUIRED },
};

/**
 * Cottage mode (issue 48): a cart that is not local pickup is refused before its fields are
 * checked (a shipped cart without its state is still a shipped cart: choosing pickup is the one
 * fix, so that is what it is told). The use-case refuses it again (quoteCart), the judge for
 * every path: placing the order too (where a replay of an order paid before must still find it,
 * so nothing answers before the use-case there).
 */
const handOverOnlyFirst: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (/^application\/json\b/i.test(c.req.header('content-type') ?? '')) {
    const body: unknown = await c.req.json().catch(() => null);
    const shipped = !!body && typeof body === 'object' && !Array.isArray(body) && (body as { isLocalPickup?: unknown }).isLocalPickup !== true;
    if (shipped && handOverOnly((await readSettings(c.var.services.db)).foodLicence)) return c.json({ message: COTTAGE_HAND_OVER_ONLY }, 409);
  }
  await next();
};

export const checkout = new Hono<AppEnv>()
  .post('/paypal', rateLimit(LIMITS.checkout), handOverOnlyFirst, validateJson(checkoutRequest), async (c) => {
    const body = c.req.valid('json');
    const limited = body.giftCardCode ? await takeLimit(c, LIMITS.giftCardCode) : undefined;
    if (limited) return limited;
    const result = await startCheckout(c.var.services, body);
    if (!result.ok) {
      const { status, message } = checkoutAnswer(result);
      return c.json({ message }, status);
    }
    return c.json(result.checkout);
  })

  .post('/', rateLimit(LIMITS.placeOrder), validateJson(placeOrderRequest), async (c) => {
    const body = c.req.valid('json');
    const limited = body.giftCardCode ? await takeLimit(c, LIMITS.giftCardCode) : undefined;
    if (limited) return limited;
    // transactionAmount and discount are accepted and never read: the server prices the cart.
    const result = await placeOrder(c.var.services, {
      paypalOrderId: body.orderId,
      cartItems: body.cartItems,
      isLocalPickup: body.isLocalPickup,
      couponCode: body.couponCode,
      shipToState: body.shipToState,
      shipToZip: body.shipToZip,
      giftCardCode: body.giftCardCode,
      shipTo: body.shipTo,
      payerName: body.payerName,
      payerEmail: body.payerEmail,
    });
    if (!result.ok) {
      const { status, message } = placeOrderAnswers[result.kind];
      return c.json({ message }, status);
    }
    return c.json({ message: ORDER_PLACED, order: result.order } satisfies OrderPlacedView, result.replayed ? 200 : 201);
  });
