import { useEffect, useState, type FormEvent } from 'react';
import { request } from '../../lib/http';
import { showAlert } from '../../lib/alert';
import { publicConfig } from '../../lib/config';
import { toCents, plainDollars, toDollars } from '../../lib/money';
import type { User } from '../../stores/user';
import type { PayPalConfigView } from '../../../contract/config.ts';
import type { BookingOrderView } from '../../../contract/booking.ts';
import { amountRange, DEFAULT_SETTINGS, type BookingAmounts } from '../../../contract/settings.ts';
import { packageAmountOutOfRange, packagePriceWords, packageSavingWords, type PackageBoughtView, type PackageView } from '../../../contract/packages.ts';
import { loadPayPalConfig, PayPalPayment, paymentDialogs } from '../PayPalPayment';
import { GiftCardCode, type AppliedGiftCard } from '../GiftCardCode';

/**
 * The packages she sells, offered on the booking page (issue 32, decision 0038): each active one
 * with its price on her scale and what it saves against single sessions (her per-session range,
 * the booking page's own), bought through PayPal as a session is paid. The client picks the
 * amount (the suggested price to start with); the server checks it lies on the package's scale,
 * makes the order, and grants the sessions once PayPal has captured. Then her dashboard shows them.
 */
export default function BuyPackage({ user }: { user: User }) {
  const [packages, setPackages] = useState<PackageView[] | null>(null);
  const [amounts, setAmounts] = useState<BookingAmounts>(DEFAULT_SETTINGS.bookingAmounts);
  const [chosen, setChosen] = useState<PackageView | null>(null);
  const [amount, setAmount] = useState('');
  const [error, setError] = useState('');
  const [paypal, setPaypal] = useState<PayPalConfigView | null>(null);
  const [buying, setBuying] = useState(false);
  // Issue 33: a gift card that pays the whole package (one that holds less says so; PayPal pays otherwise).
  const [card, setCard] = useState<AppliedGiftCard | null>(null);

  useEffect(() => {
    request<PackageView[]>('GET', '/api/packages')
      .then((r) => setPackages(r.ok ? r.data : []))
      .catch(() => setPackages([]));
    void publicConfig()
      .then((config) => config.booking && setAmounts(config.booking))
      .catch(() => {});
  }, []);

  if (!packages || packages.length === 0) return null;

  function choose(p: PackageView) {
    setChosen(p);
    setAmount(plainDollars(toDollars(p.suggestedPriceCents)));
    setError('');
    setPaypal(null);
  }

  async function toPayment(e: FormEvent) {
    e.preventDefault();
    if (!chosen) return;
    const cents = toCents(Number(amount));
    if (!Number.isFinite(cents) || cents < chosen.minPriceCents || cents > chosen.maxPriceCents) {
      setError(packageAmountOutOfRange(chosen));
      return;
    }
    setError('');
    // A card that holds the price pays it all at once; one that holds less pays its part, PayPal the rest.
    if (card && card.balanceCents >= cents) {
      const body = { giftCardCode: card.code, amountCents: cents };
      await record(() => request<PackageBoughtView>('POST', `${base(chosen)}/gift-card`, { body, session: 'user' }));
      return;
    }
    setPaypal(await loadPayPalConfig());
  }

  /** A card applied or taken off: the payment step starts again. */
  function changeCard(next: AppliedGiftCard | null) {
    setCard(next);
    setPaypal(null);
    setError('');
  }

  const base = (p: PackageView) => `/api/user/${encodeURIComponent(user.id)}/packages/${encodeURIComponent(p._id)}`;

  /** PayPal approved: the package bought with that order (and the card's part, when a card pays part). */
  const bought = (orderID: string) => {
    const amountCents = toCents(Number(amount));
    const [path, body] = card ? ['gift-card', { giftCardCode: card.code, amountCents, paypalOrderId: orderID }] : ['buy', { paypalOrderId: orderID }];
    return record(() => request<PackageBoughtView>('POST', `${base(chosen!)}/${path}`, { body, session: 'user' }), true);
  };
  /** The PayPal order: for the whole price, or for what the card does not hold of it. */
  const createOrder = (p: PackageView) => {
    const amountCents = toCents(Number(amount));
    return card
      ? request<BookingOrderView>('POST', `${base(p)}/gift-card/paypal-order`, { body: { giftCardCode: card.code, amountCents }, session: 'user' })
      : request<BookingOrderView>('POST', `${base(p)}/paypal-order`, { body: { amountCents }, session: 'user' });
  };

  /** Records the purchase (after PayPal's approval, or at once with a gift card) and says what was bought. */
  async function record(buy: () => ReturnType<typeof request<PackageBoughtView>>, throughPayPal = false) {
    if (!chosen) return;
    setBuying(true);
    try {
      const res = await buy();
      if (!res.ok) {
        await showAlert({ icon: 'error', title: 'Payment Unsuccessful', text: res.data.message || 'Your package could not be bought. Please try again.' });
        setPaypal(null);
        return;
      }
      if (throughPayPal) await paymentDialogs.successful(res.data.payerFirstName || user.firstName);
      const n = res.data.balance.credits.find((c) => c.lotId === res.data.lotId)?.remaining ?? chosen.sessions;
      await showAlert({
        icon: 'success',
        title: 'Package Bought!',
        text: `${chosen.name}: ${n} sessions are yours to book. Check your email for the details.`,
      });
      window.location.assign(`/user/${encodeURIComponent(user.id)}`);
    } finally {
      setBuying(false);
    }
  }

  return (
    <section aria-labelledby="packages-heading" className="packages-offer">
      <h2 id="packages-heading">Packages</h2>
      <p>Commit to several sessions at once and pay once; each session then books without paying.</p>
      <ul className="item-list">
        {packages.map((p) => (
          <li key={p._id} className="item" data-package={p.name}>
            <strong>{p.name}</strong>
            <div>
              {p.sessions} sessions ({p.sessionTypes.join(', ')}) · {packagePriceWords(p)} · valid {p.monthsValid} months
            </div>
            <div className="muted">{packageSavingWords(p, amountRange(amounts, p.sessionTypes[0] ?? '').range)}</div>
            {chosen?._id !== p._id && (
              <button type="button" className="button button-small" onClick={() => choose(p)} aria-label={`Buy ${p.name}`}>
                Buy
              </button>
            )}
            {chosen?._id === p._id && (
              <form className="form" onSubmit={toPayment} noValidate aria-label={`Buy ${p.name}`}>
                <div className="field">
                  <label htmlFor="package-amount">Amount ({packagePriceWords(p)})</label>
                  <input
                    id="package-amount"
                    inputMode="decimal"
                    value={amount}
                    onChange={(e) => {
                      setAmount(e.target.value);
                      setPaypal(null);
                    }}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? 'package-amount-error' : undefined}
                  />
                  {error && (
                    <span id="package-amount-error" className="field-error" role="alert">
                      {error}
                    </span>
                  )}
                </div>
                <GiftCardCode applied={card} onChange={changeCard} />
                {!paypal && (
                  <button type="submit" className="button">
                    {card && card.balanceCents >= toCents(Number(amount)) ? 'Pay with the gift card' : 'Continue to payment'}
                  </button>
                )}
              </form>
            )}
            {chosen?._id === p._id && paypal && !buying && (
              <PayPalPayment
                config={paypal}
                buttonsFailedTitle="Payment Button Not Found"
                createOrder={() => createOrder(p)}
                onApprove={bought}
                onFailed={() => setPaypal(null)}
              />
            )}
            {chosen?._id === p._id && buying && <p role="status">Recording your package…</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}
