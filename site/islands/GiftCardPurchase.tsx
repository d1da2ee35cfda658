import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import type { z } from 'zod';
import type { PageClock } from '../../contract/content.ts';
import type { BookingOrderView } from '../../contract/booking.ts';
import type { PayPalConfigView } from '../../contract/config.ts';
import {
  GIFT_CARD_SEND_ON_PAST,
  GIFT_CARD_SEND_ON_TOO_LATE,
  giftCardPurchaseRequest,
  type GiftCardBoughtView,
  type GiftCardDesignKey,
} from '../../contract/gift-cards.ts';
import { showAlert } from '../lib/alert';
import { addMonthsToDay, dayLabel, zoneWords } from '../lib/calendar';
import { publicConfig } from '../lib/config';
import { request } from '../lib/http';
import { typedCents, usdFromCents } from '../lib/money';
import { EmailInput, MoneyInput, SubmitButton, TextArea, TextInput, describedBy } from './Field';
import { firstNameOf, loadPayPalConfig, PayPalPayment, paymentDialogs } from './PayPalPayment';
import { useForm } from './useForm';
import { useToday } from './useToday';

/** The amounts offered at a tap, in dollars; any other whole amount from $10 to $500 is typed. */
const PRESETS = ['25', '50', '100', '150'] as const;
const OTHER = 'other';

const empty = {
  amount: '50',
  otherAmount: '',
  design: '',
  buyerName: '',
  buyerEmail: '',
  recipientName: '',
  recipientEmail: '',
  message: '',
  sendOn: '',
};

/**
 * What is checked before PayPal is asked: the purchase as the server checks it, less the order
 * PayPal gives, and its delivery day between her today and a year on (the route's own check).
 */
const beforePayment = (today: string, lastDay: string) =>
  giftCardPurchaseRequest.omit({ paypalOrderId: true }).superRefine((d, ctx) => {
    const day = d.sendOn ?? today;
    const late = day < today ? GIFT_CARD_SEND_ON_PAST : day > lastDay ? GIFT_CARD_SEND_ON_TOO_LATE : null;
    if (late) ctx.addIssue({ code: 'custom', path: ['sendOn'], message: late });
  });
type Purchase = z.output<ReturnType<typeof beforePayment>>;

/**
 * A gift card bought on /gift-cards (issue 33, decision 0041): the amount, its design (one per
 * brand), who gives it and who receives it, a message and the day her outbox mails it (her day:
 * today to a year ahead, on her clocks whatever the browser's zone). Checked with the server's
 * schema, then paid through the shared PayPal step; the server captures and makes the card.
 */
export default function GiftCardPurchase({ clock, brands }: { clock: PageClock; brands: Record<GiftCardDesignKey, string> }) {
  const { values, setValues, set, errors, hydrated, formRef, validate, serverIssues } = useForm(empty);
  // The page is built ahead of time: her zone as the server has it now, the build's until it answers.
  const [zone, setZone] = useState(clock.zone);
  useEffect(() => {
    void publicConfig()
      .then((config) => config.timezone && setZone(config.timezone))
      .catch(() => {});
  }, []);
  const today = useToday({ now: clock.now, zone });
  const lastDay = addMonthsToDay(today, 12);
  // The payment step, for the purchase as it was checked.
  const [paypal, setPaypal] = useState<{ config: PayPalConfigView; purchase: Purchase } | null>(null);
  const [buying, setBuying] = useState(false);
  // "Continue to payment" gives way to the payment step: focus (and the phone's screen) follows.
  const summaryRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (paypal) summaryRef.current?.focus();
  }, [paypal]);
  // Until chosen, the card goes today: her today as it is now (a page left open past midnight moves on).
  const sendOn = values.sendOn || today;
  const amountCents = values.amount === OTHER ? typedCents(values.otherAmount) : typedCents(values.amount);

  /** Any change after "Continue to payment" takes the payment step away: it was for the card as it was. */
  const change = (k: keyof typeof empty) => (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    set(k)(e);
    setPaypal(null);
  };
  /** What each text field of the form takes: its id, name, value, error and change. */
  const field = (k: keyof typeof empty) => ({
    id: `gift-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
    name: k,
    value: values[k],
    error: errors[k],
    onChange: change(k),
  });
  const typeAmount = (e: ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, amount: OTHER, otherAmount: e.target.value }));
    setPaypal(null);
  };

  async function toPayment(e: FormEvent) {
    e.preventDefault();
    const purchase = validate(beforePayment(today, lastDay), {
      amountCents,
      design: values.design || undefined,
      buyerName: values.buyerName,
      buyerEmail: values.buyerEmail,
      recipientName: values.recipientName,
      recipientEmail: values.recipientEmail,
      message: values.message,
      sendOn,
    });
    if (!purchase) return;
    const config = await loadPayPalConfig();
    setPaypal(config && { config, purchase });
  }

  async function bought(data: Purchase, orderID: string) {
    // The payment step is done with, whatever the answer: a second payment starts from Continue.
    setPaypal(null);
    setBuying(true);
    try {
      const res = await request<GiftCardBoughtView>('POST', '/api/gift-cards', { body: { ...data, paypalOrderId: orderID } });
      if (!res.ok) {
        if (serverIssues(res.data)) return;
        await showAlert({ icon: 'error', title: 'Payment Unsuccessful', text: res.data.message || 'Your gift card could not be bought. Please try again.' });
        return;
      }
      await paymentDialogs.successful(firstNameOf(data.buyerName));
      setValues(empty);
      const when = !data.sendOn || data.sendOn === today ? 'today' : `on ${dayLabel(data.sendOn)}`;
      await showAlert({
        icon: 'success',
        title: 'Gift Card Bought!',
        text: `Your ${usdFromCents(data.amountCents)} gift card goes to ${data.recipientName} ${when}. Your receipt is in your mail (${data.buyerEmail}).`,
      });
    } catch {
      await showAlert({
        icon: 'error',
        title: 'Payment Unsuccessful',
        text: 'We could not confirm your gift card. Please look for its receipt in your mail before paying again.',
      });
    } finally {
      setBuying(false);
    }
  }

  const amountError = errors.amountCents;
  const designError = errors.design;
  return (
    <div className="gift-card-purchase">
      {/* POST: should a press reach the browser's own submission, the buyer's details stay out of the address. */}
      <form ref={formRef} className="form" method="post" onSubmit={toPayment} noValidate aria-label="Buy a gift card">
        <fieldset className="choices" {...(amountError ? { 'aria-describedby': 'gift-amount-error' } : {})}>
          <legend>Amount</legend>
          {PRESETS.map((dollars) => (
            <label key={dollars} className="choice">
              <input type="radio" name="amount" value={dollars} checked={values.amount === dollars} onChange={change('amount')} /> ${dollars}
            </label>
          ))}
          <label className="choice">
            <input type="radio" name="amount" value={OTHER} checked={values.amount === OTHER} onChange={change('amount')} /> Another amount
          </label>
        </fieldset>
        <MoneyInput
          whole
          id="gift-other-amount"
          name="otherAmount"
          label="Any whole amount from $10 to $500"
          value={values.otherAmount}
          onChange={typeAmount}
          {...describedBy('gift-amount', amountError)}
        />
        {amountError && (
          <span className="field-error" id="gift-amount-error" role="alert">
            {amountError}
          </span>
        )}

        <fieldset className="choices">
          <legend>Design</legend>
          {(['chocolates', 'yoga'] as const).map((design) => (
            <label key={design} className="choice">
              <input
                type="radio"
                name="design"
                value={design}
                checked={values.design === design}
                onChange={change('design')}
                {...describedBy('gift-design', designError)}
              />{' '}
              {brands[design]}
            </label>
          ))}
          {designError && (
            <span className="field-error" id="gift-design-error" role="alert">
              {designError}
            </span>
          )}
        </fieldset>

        <TextInput label="Your name" autoComplete="name" required {...field('buyerName')} />
        <EmailInput label="Your email" hint="Your receipt goes here." {...field('buyerEmail')} />
        <TextInput label="Recipient’s name" autoComplete="off" required {...field('recipientName')} />
        <EmailInput label="Recipient’s email" autoComplete="off" hint="The card and its code are mailed here." {...field('recipientEmail')} />
        <TextArea label="Message (optional)" maxLength={500} {...field('message')} />
        <TextInput
          label="Delivery day"
          type="date"
          hint={`Today or any day up to a year ahead, by the calendar in ${zoneWords(zone)}: the card is mailed that day.`}
          required
          min={today}
          max={lastDay}
          {...field('sendOn')}
          // Empty until the island is alive: the page was drawn ahead and its day may be past.
          value={hydrated ? sendOn : ''}
        />
        {/* Disabled until alive (client:visible): a press before would be the browser's own submission. */}
        {!paypal && (
          <SubmitButton busy={buying} busyLabel="Making your gift card…" disabled={!hydrated}>
            Continue to payment
          </SubmitButton>
        )}
      </form>
      {paypal && !buying && (
        <div className="gift-card-payment">
          <p ref={summaryRef} tabIndex={-1}>
            A {usdFromCents(paypal.purchase.amountCents)} gift card for {paypal.purchase.recipientName}, no sales tax.
          </p>
          <PayPalPayment
            config={paypal.config}
            buttonsFailedTitle="Payment Button Not Found"
            createOrder={() => request<BookingOrderView>('POST', '/api/gift-cards/paypal-order', { body: { amountCents: paypal.purchase.amountCents } })}
            onApprove={(orderID) => bought(paypal.purchase, orderID)}
            onFailed={() => setPaypal(null)}
          />
        </div>
      )}
    </div>
  );
}
