import { useEffect, useRef, useState } from 'react';
import type { BookingOrderView } from '../../contract/booking.ts';
import type { PayPalConfigView } from '../../contract/config.ts';
import { TASTING_LINK_INVALID, type TastingPaidView, type TastingQuoteView } from '../../contract/tastings.ts';
import { showAlert } from '../lib/alert';
import { dayLabel, twelveHour } from '../lib/calendar';
import { request } from '../lib/http';
import { usdFromCents } from '../lib/money';
import { loadPayPalConfig, PayPalPayment, paymentDialogs } from './PayPalPayment';

/** The quote and token of the quote mail's link (`?quote=…&token=…`), read in the browser. */
function linkParams(): { id: string; token: string } {
  if (typeof location === 'undefined') return { id: '', token: '' };
  const params = new URLSearchParams(location.search);
  return { id: params.get('quote') ?? '', token: params.get('token') ?? '' };
}

const WHAT = { deposit: 'the deposit', balance: 'the balance' } as const;

/**
 * /tastings/pay?quote=…&token=… (issue 34): the client's link from the quote's mail. Shows the
 * tasting (what, when, where, the price, what is paid) and pays what is due now through the shared
 * PayPal step: the deposit, which holds the day, then the balance. The server decides the amount.
 */
export default function TastingPay() {
  const [{ id, token }] = useState(linkParams);
  const [quote, setQuote] = useState<TastingQuoteView | null>(null);
  const [failure, setFailure] = useState('');
  const [paypal, setPaypal] = useState<PayPalConfigView | null>(null);
  const [paying, setPaying] = useState(false);
  const stepRef = useRef<HTMLParagraphElement>(null);

  async function load() {
    if (!id || !token) return setFailure(TASTING_LINK_INVALID);
    try {
      const res = await request<TastingQuoteView>('GET', `/api/tastings/quotes/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`);
      if (res.ok) setQuote(res.data);
      else setFailure(res.data.message || TASTING_LINK_INVALID);
    } catch {
      setFailure('We couldn’t load your tasting. Please try again.');
    }
  }
  useEffect(() => void load(), []); // eslint-disable-line react-hooks/exhaustive-deps
  // "Pay" gives way to the payment step: focus (and the phone's screen) follows.
  useEffect(() => {
    if (paypal) stepRef.current?.focus();
  }, [paypal]);

  if (failure)
    return (
      <p className="field-error" role="alert">
        {failure}
      </p>
    );
  if (!quote) return <p aria-busy="true">Loading your tasting…</p>;
  const { due } = quote;

  async function paid(orderID: string) {
    if (!due) return;
    setPaypal(null);
    setPaying(true);
    try {
      const res = await request<TastingPaidView>('POST', `/api/tastings/quotes/${encodeURIComponent(id)}/pay`, {
        body: { token, part: due.part, paypalOrderId: orderID },
      });
      if (!res.ok) {
        await showAlert({ icon: 'error', title: 'Payment Unsuccessful', text: res.data.message || 'Your payment could not be processed. Please try again.' });
        return;
      }
      await paymentDialogs.successful(res.data.payerFirstName);
    } catch {
      await showAlert({
        icon: 'error',
        title: 'Payment Unsuccessful',
        text: 'We could not confirm your payment. Please look for its receipt in your mail before paying again.',
      });
    } finally {
      setPaying(false);
      await load();
    }
  }

  return (
    <div className="tasting-pay" data-tasting-quote>
      <h2>{quote.occasion}</h2>
      <dl className="tasting-facts">
        <div>
          <dt>When</dt>
          <dd>
            {dayLabel(quote.date)} at {twelveHour(quote.time)}
          </dd>
        </div>
        <div>
          <dt>Where</dt>
          <dd>{quote.place}</dd>
        </div>
        <div>
          <dt>Guests</dt>
          <dd>{quote.guests}</dd>
        </div>
        <div>
          <dt>Price</dt>
          <dd>{usdFromCents(quote.priceCents)}</dd>
        </div>
        <div>
          <dt>Deposit</dt>
          <dd>{usdFromCents(quote.depositCents)}</dd>
        </div>
        <div>
          <dt>Paid so far</dt>
          <dd data-paid>{usdFromCents(quote.paidCents)}</dd>
        </div>
      </dl>
      {!due ? (
        <p role="status" data-paid-in-full>
          Paid in full. Thank you, see you on the day!
        </p>
      ) : (
        <>
          <p role="status" data-due>
            {due.part === 'deposit'
              ? `Due now: the deposit, ${usdFromCents(due.amountCents)}. Your day is held once it is paid.`
              : `Your day is held. Still to pay: ${usdFromCents(due.amountCents)}, here or on the day.`}
          </p>
          {!paypal && (
            <button className="button" type="button" disabled={paying} onClick={() => void loadPayPalConfig().then((config) => setPaypal(config))}>
              {paying ? 'Confirming your payment…' : `Pay ${WHAT[due.part]} (${usdFromCents(due.amountCents)})`}
            </button>
          )}
          {paypal && !paying && (
            <div className="tasting-payment">
              <p ref={stepRef} tabIndex={-1}>
                Paying {WHAT[due.part]} of {usdFromCents(due.amountCents)} for your tasting.
              </p>
              <PayPalPayment
                config={paypal}
                buttonsFailedTitle="Payment Button Not Found"
                createOrder={() =>
                  request<BookingOrderView>('POST', `/api/tastings/quotes/${encodeURIComponent(id)}/paypal-order`, { body: { token, part: due.part } })
                }
                onApprove={paid}
                onFailed={() => setPaypal(null)}
              />
            </div>
          )}
        </>
      )}
    </div>
  );
}
