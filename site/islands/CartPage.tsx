import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $cart, clearCart, removeFromCart, setQuantity } from '../stores/cart';
import { request } from '../lib/http';
import { showAlert } from '../lib/alert';
import { toCents, toDollars, usd, usdFromCents } from '../lib/money';
// Zod-free modules of the contract only (pricing, sales-tax): the cart evaluates no schema before it is interactive (issue 36).
import { COUPON_MINIMUM, couponAllowed, INVALID_COUPON, normalizeCouponCode, priceCart, SHIPPING_CENTS } from '../../contract/pricing.ts';
import type { CouponView } from '../../contract/coupons.ts';
import type { ProductView } from '../../contract/chocolates.ts';
import { COTTAGE_PICKUP_ONLY, labelLines } from '../../contract/food-words.ts';
import type { PayPalConfigView } from '../../contract/config.ts';
import type { CheckoutView, OrderPlacedView } from '../../contract/orders.ts';
import type { TaxRatesView } from '../../contract/tax.ts';
import {
  addTax,
  placeTaxRate,
  SHIP_TO_STATE_REQUIRED,
  taxLabel,
  US_STATES,
  readZip,
  type PlaceRateAnswer,
  type PlaceRateView,
  SHIP_TO_ZIP_REQUIRED,
} from '../../contract/sales-tax.ts';
import { firstNameOf, loadPayPalConfig, PayPalPayment, paymentDialogs, type PaymentFailure } from './PayPalPayment';
import Picture from './Picture';
import { useHydrated } from './useHydrated';
import { publicConfig } from '../lib/config';
import { cardPart, GiftCardCode, lookUpGiftCard, type AppliedGiftCard } from './GiftCardCode';
import type { CardOnlyBuyer } from './CardOnlyOrder';

/**
 * The order a gift card pays whole checks its buyer's fields with the contract's schemas (zod): it
 * loads when it is shown, so the cart evaluates no schema before it is interactive (issue 36).
 */
const CardOnlyOrder = lazy(() => import('./CardOnlyOrder').then((m) => ({ default: m.CardOnlyOrder })));

/** The thumbnail's box (site/pages/cart.astro): the photo covers it, its landscape cut at this width. */
const THUMB_SIZES = '80px';

type Coupon = CouponView | null;

/** /cart: items, quantities, local pickup, coupon, and checkout through the payment provider. */
export default function CartPage() {
  const items = useStore($cart);
  const [live, setLive] = useState<Map<string, ProductView> | null>(null);
  const [pickupChosen, setPickup] = useState(false);
  const [code, setCode] = useState('');
  const [coupon, setCoupon] = useState<Coupon>(null);
  const [couponError, setCouponError] = useState('');
  const [paypal, setPaypal] = useState<PayPalConfigView | null>(null);
  const [failed, setFailed] = useState(false);
  // Issue 33: a gift card pays what it holds, up to the total; PayPal the rest, if any.
  const [card, setCard] = useState<AppliedGiftCard | null>(null);
  // Issue 24: where a shipped order goes decides its sales tax. Issue 29: only the states where she
  // collects are taxed (`taxing`), at the rate of the address: the ZIP is asked for there, and the
  // server tells the rate at that ZIP (and a pickup's, at her shop).
  const [shipToState, setShipToState] = useState('');
  const [shipToZip, setShipToZip] = useState('');
  const [rates, setRates] = useState<TaxRatesView | null>(null);
  // Where and when pickups happen (her settings); Portland, as the site says, until they arrive.
  const [pickupInfo, setPickupInfo] = useState({ city: 'Portland', hours: '', handOverOnly: false });
  // Issue 48: under the cottage-food exemption she sells in person only, so pickup is the one way (the server refuses shipping).
  const pickup = pickupChosen || pickupInfo.handOverOnly;
  useEffect(() => {
    publicConfig()
      .then((c) => c.pickup && setPickupInfo(c.pickup))
      .catch(() => {});
  }, []);
  const [placeRate, setPlaceRate] = useState<PlaceRateView | null>(null);
  useEffect(() => {
    request<TaxRatesView>('GET', '/api/tax-rates')
      .then((r) => r.ok && setRates(r.data))
      .catch(() => {});
  }, []);
  const asksZip = !pickup && !!shipToState && (rates?.taxing ?? []).includes(shipToState);
  const zipReady = readZip(shipToZip);
  useEffect(() => {
    setPlaceRate(null);
    if (!asksZip || !zipReady) return;
    let current = true;
    request<PlaceRateAnswer>('GET', `/api/tax-rates/at?state=${shipToState}&zip=${encodeURIComponent(zipReady)}`)
      .then((r) => current && r.ok && setPlaceRate(r.data.rate))
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [asksZip, shipToState, zipReady]);
  // The cart is in this browser only: the page made ahead holds its place until the island knows it.
  const hydrated = useHydrated();

  // The server's numbers win: refresh prices and stock of what is in the cart (on opening, and
  // after the server refused a payment, whose reason is then shown per line).
  const refreshStock = () =>
    request<ProductView[]>('GET', '/api/chocolates')
      .then((r) => {
        if (!r.ok || !Array.isArray(r.data)) return;
        const map = new Map(r.data.map((p) => [p._id, p]));
        setLive(map);
        $cart.set(
          $cart.get().map((i) => {
            const p = map.get(i._id);
            if (!p) return i;
            // A cart from before issue 25 kept the 2560-px master's address: it takes the photo's sizes now.
            const photo = p.picture ? { picture: p.picture, image: undefined } : { image: p.image || undefined, picture: undefined };
            return { ...i, price: p.price, inventory: p.inventory, labelLines: labelLines(p), ...photo };
          }),
        );
      })
      .catch(() => {});
  useEffect(() => void refreshStock(), []);

  const status = (id: string): 'gone' | 'soldout' | 'short' | 'ok' => {
    if (!live) return 'ok';
    const p = live.get(id);
    if (!p) return 'gone';
    if (p.inventory <= 0) return 'soldout';
    const q = items.find((i) => i._id === id)?.quantity ?? 0;
    return q > p.inventory ? 'short' : 'ok';
  };
  const blocked = items.some((i) => status(i._id) !== 'ok');

  const totals = useMemo(() => {
    const lines = items.map((i) => ({ unitPriceCents: toCents(i.price), quantity: i.quantity }));
    const percent = coupon ? Math.round(coupon.discount * 100) : null;
    const priced = priceCart(lines, { percentOff: percent, isLocalPickup: pickup });
    // Below the coupon minimum: priced without the coupon (an effect then drops the coupon).
    const plain = priced.ok ? priced : priceCart(lines, { isLocalPickup: pickup });
    if (!plain.ok) throw new Error('unreachable: no coupon, no minimum');
    // The sales tax as the server will charge it: a pickup at her shop's rate where she collects
    // there; a shipped order at its ZIP's rate where she collects; none anywhere else.
    if (pickup) return rates?.pickup ? addTax(plain.totals, rates.pickup.state, placeTaxRate(rates.pickup)) : addTax(plain.totals, null, null);
    const rate = asksZip && placeRate && placeRate.state === shipToState ? placeTaxRate(placeRate) : null;
    return addTax(plain.totals, rate ? shipToState : null, rate);
  }, [items, coupon, pickup, shipToState, asksZip, placeRate, rates]);
  const cardCents = cardPart(card, totals.totalCents);
  const dueCents = totals.totalCents - cardCents;
  const needsState = !pickup && !shipToState;
  const needsZip = asksZip && !zipReady;

  // A coupon stops applying when the cart drops under the minimum.
  useEffect(() => {
    if (coupon && !couponAllowed(totals.itemsTotalCents)) {
      setCoupon(null);
      setCouponError(COUPON_MINIMUM);
    }
    // Only a change of the items' total re-judges the coupon: applying one must not drop it at once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [totals.itemsTotalCents]);

  async function applyCoupon() {
    const normalized = normalizeCouponCode(code);
    setCode(normalized);
    if (!normalized) return;
    if (coupon && coupon.code === normalized) {
      setCouponError('');
      await showAlert({ icon: 'info', title: 'Coupon already applied', text: `${normalized} is already applied to your order.` });
      return;
    }
    if (!couponAllowed(totals.itemsTotalCents)) {
      setCoupon(null);
      setCouponError(COUPON_MINIMUM);
      return;
    }
    try {
      const res = await request<CouponView>('POST', '/api/chocolates/validate-coupon', {
        body: { code: normalized, itemsTotal: toDollars(totals.itemsTotalCents) },
      });
      if (!res.ok || typeof res.data.discount !== 'number') {
        setCoupon(null);
        setCouponError(res.status === 404 ? INVALID_COUPON : res.data.message || 'Error applying coupon');
        return;
      }
      setCoupon({ code: res.data.code, discount: res.data.discount });
      setCouponError('');
    } catch {
      setCoupon(null);
      setCouponError('Error applying coupon');
    }
  }

  async function continueToPayment() {
    setFailed(false);
    setPaypal(await loadPayPalConfig());
  }

  const cartItems = () => $cart.get().map((i) => ({ _id: i._id, quantity: i.quantity }));
  /** Where it ships: the state, and the ZIP where she collects (issue 29); nothing for pickup. */
  const shipTo = () => (pickup ? {} : { shipToState, ...(asksZip ? { shipToZip: zipReady } : {}) });
  const paying = () => ({
    cartItems: cartItems(),
    isLocalPickup: pickup,
    couponCode: coupon?.code ?? '',
    ...shipTo(),
    ...(card ? { giftCardCode: card.code } : {}),
  });
  /** After a refusal: what the card holds now (another cart may have spent it), and the stock. */
  const refreshAfterRefusal = async () => {
    void refreshStock();
    if (!card) return;
    const found = await lookUpGiftCard(card.code);
    setCard('card' in found ? found.card : null);
  };

  /** The order's chocolates, each with its allergen line and net weight (issue 48), for the confirmation. */
  const boughtLines = (order: OrderPlacedView['order'] | undefined) =>
    (order?.items ?? []).map((item) => {
      const p = item._id ? live?.get(item._id) : undefined;
      return [`${item.quantity} × ${item.name}`, ...(p ? labelLines(p) : [])].join(' · ');
    });

  const createOrder = () =>
    request<CheckoutView>('POST', '/api/orders/paypal', {
      body: paying(),
    });

  /** PayPalPayment has opened the failure's dialog; this sets the cart's state. */
  function onPaymentFailed(failure: PaymentFailure) {
    if (failure === 'payment') {
      setFailed(true);
      return;
    }
    // Back to Continue to Payment. A refused order (sold out, only n left, prices changed) shows
    // its reason on the cart's lines once the stock is reloaded.
    setPaypal(null);
    if (failure === 'order') void refreshAfterRefusal();
  }

  async function onApprove(orderID: string) {
    try {
      const res = await request<OrderPlacedView>('POST', '/api/orders', {
        body: {
          orderId: orderID,
          payerName: '',
          payerEmail: '',
          transactionAmount: toDollars(totals.totalCents),
          discount: coupon?.discount ?? 0,
          ...paying(),
        },
      });
      // A 5xx leaves open whether the money was taken (the capture's outcome unknown, or a refund
      // that failed): that is SPEC.md's 'Order Submission Failed', like a network failure. The
      // other refusals charged nothing (or refunded): SPEC.md's 'Payment Unsuccessful' with its
      // own text; the server's reason, e.g. a tin sold out meanwhile, shows on the cart's lines
      // once the stock is reloaded.
      if (res.status >= 500) throw new Error(res.data.message || `order not placed (${res.status})`);
      if (!res.ok) {
        setFailed(true);
        setPaypal(null);
        void refreshAfterRefusal();
        await paymentDialogs.unsuccessful();
        return;
      }
      clearCart();
      setCoupon(null);
      setCard(null);
      setPaypal(null);
      // Also when PayPal holds the payment (pending): SPEC.md has no dialog for that, the order is
      // placed all the same, and the mail tells the buyer it ships once PayPal confirms the payment.
      // The name is the PayPal payer's (order.payerName, from the capture), as SPEC.md section 7 says.
      await paymentDialogs.successful(firstNameOf(res.data.order?.payerName), boughtLines(res.data.order));
    } catch {
      // No second payment from this page while the first one's fate is unknown: buttons hidden.
      setPaypal(null);
      await showAlert({
        icon: 'error',
        title: 'Order Submission Failed',
        text: 'We couldn’t confirm your order. If you were charged, please contact us and we will sort it out.',
      });
    }
  }

  /** The whole order on the gift card (issue 33): placed at once, nothing sent to PayPal. */
  async function placeOnCard(buyer: CardOnlyBuyer) {
    try {
      const res = await request<OrderPlacedView>('POST', '/api/orders', {
        body: { ...paying(), discount: coupon?.discount ?? 0, transactionAmount: toDollars(totals.totalCents), ...buyer },
      });
      if (res.status >= 500) throw new Error(res.data.message || `order not placed (${res.status})`);
      if (!res.ok) {
        void refreshAfterRefusal();
        await showAlert({ icon: 'error', title: 'Order Not Placed', text: res.data.message || 'Your order could not be placed. Please try again.' });
        return;
      }
      clearCart();
      setCoupon(null);
      setCard(null);
      await showAlert({
        icon: 'success',
        title: 'Order Placed',
        text: `Thank you, ${firstNameOf(buyer.payerName)}: your gift card paid for it all. Check your email for the confirmation.`,
        details: boughtLines(res.data.order),
      });
    } catch {
      await showAlert({
        icon: 'error',
        title: 'Order Submission Failed',
        text: 'We couldn’t confirm your order. If your gift card was used, please contact us and we will sort it out.',
      });
    }
  }

  if (!hydrated) return <div className="cart-pending" aria-busy="true" />;
  if (items.length === 0)
    return (
      <div className="cart-empty">
        <p>Your cart is empty.</p>
        <p>
          <a className="button" href="/chocolates#products">
            Browse the chocolates
          </a>
        </p>
      </div>
    );

  return (
    <div className="cart grid">
      <ul className="item-list cart-items" aria-label="Items in your cart">
        {items.map((i) => {
          const s = status(i._id);
          return (
            <li key={i._id} className="item cart-item" data-cart-item={i.name}>
              <div className="item-main">
                {(i.picture || i.image) && (
                  <span className="cart-thumb">
                    {i.picture ? (
                      <Picture picture={i.picture} alt="" sizes={THUMB_SIZES} box="landscape" />
                    ) : (
                      <img src={i.image} alt="" width="80" height="64" decoding="async" />
                    )}
                  </span>
                )}
                <div>
                  <strong>{i.name}</strong>
                  <div className="muted">{usd(i.price)} each</div>
                  {/* Issue 48: the product's allergen line and net weight, kept with the item (no shift when the server's arrive). */}
                  {(i.labelLines ?? []).map((line) => (
                    <div key={line} className="muted" data-label-line>
                      {line}
                    </div>
                  ))}
                  {s === 'gone' && <div className="field-error">No longer available — please remove it.</div>}
                  {s === 'soldout' && <div className="field-error">Sold out — please remove it.</div>}
                  {s === 'short' && <div className="field-error">Only {live?.get(i._id)?.inventory} left.</div>}
                </div>
              </div>
              <div className="item-main">
                <label htmlFor={`qty-${i._id}`}>Quantity</label>
                <input
                  id={`qty-${i._id}`}
                  className="qty"
                  type="number"
                  min={1}
                  step={1}
                  value={i.quantity}
                  onChange={(e) => setQuantity(i._id, Number(e.target.value))}
                />
                <span>{usdFromCents(toCents(i.price) * i.quantity)}</span>
                <button type="button" className="button button-quiet button-small" onClick={() => removeFromCart(i._id)}>
                  Remove<span className="sr-only"> {i.name}</span>
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      <p>
        <button
          type="button"
          className="button button-quiet button-small"
          onClick={() => {
            clearCart();
            setCoupon(null);
          }}
        >
          Clear cart
        </button>
      </p>
      <section className="admin-panel cart-summary" aria-labelledby="summary-heading">
        <h2 id="summary-heading">Order summary</h2>
        {pickupInfo.handOverOnly ? (
          <p data-hand-over-only>
            <strong>Local pickup in {pickupInfo.city} (no shipping fee)</strong>
            <br />
            {COTTAGE_PICKUP_ONLY}
          </p>
        ) : (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={pickup}
              onChange={(e) => {
                setPickup(e.target.checked);
                setPaypal(null);
              }}
            />{' '}
            Local pickup in {pickupInfo.city} (no shipping fee)
          </label>
        )}
        {!pickup && (
          <div className="field">
            <label htmlFor="ship-to-state">Ships to (state)</label>
            <select
              id="ship-to-state"
              value={shipToState}
              required
              aria-describedby="ship-to-state-help"
              onChange={(e) => {
                setShipToState(e.target.value);
                setPaypal(null);
              }}
            >
              <option value="">Choose a state</option>
              {Object.entries(US_STATES).map(([code, name]) => (
                <option key={code} value={code}>
                  {name} ({code})
                </option>
              ))}
            </select>
            <span id="ship-to-state-help" className="muted">
              {needsState ? SHIP_TO_STATE_REQUIRED : 'Choose the same state for the shipping address in PayPal.'}
            </span>
          </div>
        )}
        {asksZip && (
          <div className="field">
            <label htmlFor="ship-to-zip">ZIP code</label>
            <input
              id="ship-to-zip"
              inputMode="numeric"
              autoComplete="postal-code"
              maxLength={10}
              required
              aria-describedby="ship-to-zip-help"
              value={shipToZip}
              onChange={(e) => {
                setShipToZip(e.target.value);
                setPaypal(null);
              }}
            />
            <span id="ship-to-zip-help" className="muted">
              {needsZip
                ? SHIP_TO_ZIP_REQUIRED.replace(' (shipToZip)', '')
                : placeRate?.jurisdiction
                  ? `Sales tax at ${placeRate.rate} (${placeRate.jurisdiction}). Use the same ZIP for the shipping address in PayPal.`
                  : 'Use the same ZIP for the shipping address in PayPal.'}
            </span>
          </div>
        )}
        <div className="coupon field">
          <label htmlFor="coupon">Coupon code</label>
          <div className="newsletter-form">
            <input
              id="coupon"
              value={code}
              onChange={(e) => setCode(e.target.value.toUpperCase())}
              aria-describedby={couponError ? 'coupon-error' : undefined}
            />
            <button type="button" className="button button-small" onClick={() => void applyCoupon()}>
              Apply
            </button>
          </div>
          {couponError && (
            <span id="coupon-error" className="field-error" role="alert">
              {couponError}
            </span>
          )}
          {coupon && (
            <span role="status">
              Coupon {coupon.code} applied: {Math.round(coupon.discount * 100)}% off.
            </span>
          )}
        </div>
        <GiftCardCode
          applied={card}
          onChange={(next) => {
            setCard(next);
            setPaypal(null);
          }}
        />
        <dl className="totals">
          <div>
            <dt>Items</dt>
            <dd data-total="items">{usdFromCents(totals.itemsTotalCents)}</dd>
          </div>
          <div>
            <dt>Discount</dt>
            <dd data-total="discount">−{usdFromCents(totals.discountCents)}</dd>
          </div>
          <div>
            <dt>Shipping</dt>
            <dd data-total="shipping">{pickup ? 'Free (pickup)' : usdFromCents(SHIPPING_CENTS)}</dd>
          </div>
          {totals.taxState && totals.taxRateSource && (
            <div>
              <dt data-tax-label>{taxLabel(totals.taxState, totals.taxRatePpm)}</dt>
              <dd data-total="tax">{usdFromCents(totals.taxCents)}</dd>
            </div>
          )}
          <div className="grand">
            <dt>Total</dt>
            <dd data-total="total">{usdFromCents(totals.totalCents)}</dd>
          </div>
          {card && (
            <>
              <div>
                <dt>Gift card</dt>
                <dd data-total="gift-card">−{usdFromCents(cardCents)}</dd>
              </div>
              <div className="grand">
                <dt>To pay</dt>
                <dd data-total="due">{usdFromCents(dueCents)}</dd>
              </div>
            </>
          )}
        </dl>
        {/* The words follow the way chosen (issue 30): a pickup never "ships". */}
        <p className="muted" data-delivery-note>
          {pickup
            ? `Pick up in ${pickupInfo.city}${pickupInfo.hours ? `, ${pickupInfo.hours}` : ''}: I will write to you with the address when your chocolates are ready.`
            : 'Orders ship within 2–5 days, Monday to Wednesday.'}{' '}
          Final prices are confirmed at payment.
        </p>
        {failed && (
          <p className="field-error" role="alert">
            The payment did not go through.
          </p>
        )}
        {card && dueCents === 0 ? (
          <Suspense>
            <CardOnlyOrder
              pickup={pickup}
              state={shipToState}
              taxZip={asksZip ? zipReady : ''}
              disabled={blocked || needsState || needsZip}
              onPlace={placeOnCard}
            />
          </Suspense>
        ) : !paypal ? (
          <button type="button" className="button" disabled={blocked || needsState || needsZip} onClick={() => void continueToPayment()}>
            Continue to Payment
          </button>
        ) : (
          <div className="paypal-container" data-paypal>
            <PayPalPayment config={paypal} buttonsFailedTitle="Payment Error" createOrder={createOrder} onApprove={onApprove} onFailed={onPaymentFailed} />
          </div>
        )}
      </section>
    </div>
  );
}
