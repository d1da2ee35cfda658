import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CLASS_FULL, classSignup, type ClassSignup } from '../../contract/signups.ts';
import { JOIN_WAITLIST, type WaitlistJoinedView } from '../../contract/class-places.ts';
import { CaptchaError, getCaptchaToken } from '../lib/captcha';
import { classFromQuery } from '../lib/query';
import { confirmDialog, showAlert } from '../lib/alert';
import { EmailInput, PhoneInput, TextInput, describedBy } from './Field';
import SignaturePad from './SignaturePad';
import { useForm } from './useForm';
import type { EventView } from '../../contract/events.ts';
import type { PayPalConfigView } from '../../contract/config.ts';
import type { PageClock } from '../../contract/content.ts';
import { acceptsAmount, EVENT_AMOUNT_INVALID } from '../../contract/event-prices.ts';
import { loadPayPalConfig, paymentDialogs } from './PayPalPayment';
import { chosenCents, PayForPlace, PriceChoice } from './PaidPlace';
import { paidEventOf } from '../lib/event-price';
import { GiftCardCode, type AppliedGiftCard } from './GiftCardCode';
import { giftCardShort } from '../../contract/booking.ts';

interface Waiver {
  heading: string;
  paragraphs: string[];
  agreement: string;
}

const blank = { name: '', email: '', phone: '', classTitle: '', date: '' };

/** The human check's token for `action`, or null once the visitor has been told why not. */
async function humanToken(action: string): Promise<string | null> {
  try {
    return await getCaptchaToken(action);
  } catch (err) {
    if (err instanceof CaptchaError && err.loadFailed) await showAlert({ icon: 'error', title: 'reCAPTCHA Failed to Load', text: err.message });
    else await showAlert({ icon: 'warning', title: 'Verification Not Ready', text: 'Please wait a moment and try again.' });
    return null;
  }
}

/**
 * /signup: the new student's class sign-up with the waiver and a drawn signature (SPEC.md
 * sections 4, 5, 8). The same form joins a full class's waitlist (issue 15): opened with
 * `waitlist=1` from the calendar's Class Full, or offered when the sign-up answers that the
 * class is full.
 */
export default function SignupForm({ waiver, clock }: { waiver: Waiver; clock?: PageClock }) {
  const { values, setValues, set, errors, hydrated, formRef, sending, send, submitting, validate, serverIssues } = useForm(blank);
  // A paid event (issue 34): its price, the amount she chooses, and the PayPal step once the form is filled.
  const [paidEvent, setPaidEvent] = useState<EventView | null>(null);
  const [amount, setAmount] = useState('');
  const [amountError, setAmountError] = useState<string | undefined>(undefined);
  const [paypal, setPaypal] = useState<PayPalConfigView | null>(null);
  const [card, setCard] = useState<AppliedGiftCard | null>(null);
  const filled = useRef<Omit<ClassSignup, 'recaptchaToken'> | null>(null);
  const [waitlist, setWaitlist] = useState(false);
  const [accepted, setAccepted] = useState(false);
  const [signature, setSignature] = useState<string | null>(null);
  const [padKey, setPadKey] = useState(0);

  // Prefill class title and date from the query.
  useEffect(() => {
    const c = classFromQuery();
    setValues((v) => ({ ...v, classTitle: v.classTitle || c.title, date: v.date || c.date }));
    setWaitlist(new URLSearchParams(location.search).get('waitlist') === '1');
    void paidEventOf(c.title, c.date).then((event) => {
      setPaidEvent(event);
      if (event?.suggestedPriceCents) setAmount((event.suggestedPriceCents / 100).toFixed(2));
    });
    // setValues is useState's setter (through useForm): the same on every render, so this runs once.
  }, [setValues]);

  const reset = () => {
    setValues((v) => ({ ...blank, classTitle: v.classTitle, date: v.date }));
    setAccepted(false);
    setSignature(null);
    setPadKey((k) => k + 1);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    // Busy from the first click: the human check below takes a moment, and a second click must not send twice.
    await submitting(checkAndSend);
  }

  async function checkAndSend() {
    if (!signature) {
      await showAlert({ icon: 'warning', title: 'Signature Required', text: 'Please sign your name and save your signature before submitting the form.' });
      return;
    }
    const data = validate(classSignup, { ...values, waiver: accepted, signature });
    if (!data) return;
    if (waitlist) {
      await joinWaitlist(data);
      return;
    }
    if (paidEvent) {
      // Paid: the amount checked here as the server will, then the PayPal step; the sign-up follows its approval.
      if (!acceptsAmount(paidEvent, chosenCents(paidEvent, amount))) {
        setAmountError(EVENT_AMOUNT_INVALID);
        return;
      }
      setAmountError(undefined);
      const cents = chosenCents(paidEvent, amount);
      if (card) {
        // A gift card pays the whole place, or she chooses an amount it covers, or takes it off to pay with PayPal.
        if (card.balanceCents < cents) return setAmountError(giftCardShort(card.balanceCents, cents));
        await signUp(data, { giftCardCode: card.code, amountCents: cents });
        return;
      }
      filled.current = data;
      setPaypal(await loadPayPalConfig());
      return;
    }
    await signUp(data);
  }

  /** Signs up, with the approved PayPal order of a paid place. */
  /** Signs up; a paid place with the approved PayPal order, or with the gift card that pays it all. */
  async function signUp(
    data: Omit<ClassSignup, 'recaptchaToken'>,
    paid: { paypalOrderId: string } | { giftCardCode: string; amountCents: number } | null = null,
  ) {
    const recaptchaToken = await humanToken('signup_form_submit');
    if (!recaptchaToken) return;
    let full = false;
    await send(
      '/api/signup',
      { ...data, recaptchaToken, ...paid },
      async (res) => {
        const message = res.data.message ?? '';
        if (res.ok) {
          if (paid && 'paypalOrderId' in paid) await paymentDialogs.successful(data.name.split(/\s+/)[0] ?? '');
          await showAlert({ icon: 'success', title: 'Sign up successful', text: 'A confirmation e-mail is on its way. See you on the mat!' });
          window.location.assign('/calendar');
        } else if (serverIssues(res.data)) {
          return;
        } else if (message.includes('already')) {
          await showAlert({ icon: 'info', title: 'Already Signed Up', text: message });
          reset();
        } else if (message.includes("email doesn't exist")) {
          await showAlert({ icon: 'info', title: 'Student Not Found', text: message });
        } else if (message === CLASS_FULL) {
          full = true;
        } else {
          await showAlert({ icon: 'error', title: 'Sign-Up Failed', text: message || 'Please try again later.' });
        }
      },
      () => showAlert({ icon: 'error', title: 'Sign-Up Failed', text: 'Server error. Please try again.' }),
    );
    if (!full) return;
    // Filled while the last place went: the same answers put the student in line, if they want.
    const join = await confirmDialog({
      title: 'Class Full',
      text: `${CLASS_FULL} Join its waitlist instead? When a place comes free, the first in line gets it and an e-mail.`,
      confirmText: JOIN_WAITLIST,
      cancelText: 'Not now',
    });
    if (!join) return;
    setWaitlist(true);
    await joinWaitlist(data);
  }

  async function joinWaitlist(data: Omit<ClassSignup, 'recaptchaToken'>) {
    const recaptchaToken = await humanToken('waitlist_form_submit');
    if (!recaptchaToken) return;
    await send<WaitlistJoinedView>(
      '/api/waitlist',
      { ...data, recaptchaToken },
      async (res) => {
        const message = res.data.message ?? '';
        if (res.ok && res.data.status === 'waiting') {
          await showAlert({
            icon: 'success',
            title: "You're on the waitlist",
            text: `You are number ${res.data.position ?? 1} in line. If a place comes free, it's yours at once and an e-mail tells you. The e-mail on its way has a link to leave the line.`,
          });
          window.location.assign('/calendar');
        } else if (res.ok) {
          await showAlert({ icon: 'success', title: 'Sign up successful', text: 'A place was free after all: a confirmation e-mail is on its way.' });
          window.location.assign('/calendar');
        } else if (serverIssues(res.data)) {
          return;
        } else if (message.includes('already')) {
          await showAlert({ icon: 'info', title: 'Already Signed Up', text: message });
        } else {
          await showAlert({ icon: 'error', title: 'Waitlist Failed', text: message || 'Please try again later.' });
        }
      },
      () => showAlert({ icon: 'error', title: 'Waitlist Failed', text: 'Server error. Please try again.' }),
    );
  }

  const form = (
    <form ref={formRef} className="form signup-form" onSubmit={submit} noValidate aria-label={waitlist ? 'Join the waitlist' : 'Class sign-up'}>
      {waitlist && (
        <p className="card" data-waitlist-note>
          This class is full: this form puts you on its waitlist. When a place comes free, the first in line gets it at once and an e-mail with the calendar
          file.
        </p>
      )}
      <TextInput id="su-name" label="Full name" error={errors.name} name="name" autoComplete="name" required value={values.name} onChange={set('name')} />
      <EmailInput id="su-email" error={errors.email} value={values.email} onChange={set('email')} />
      <PhoneInput id="su-phone" hint="e.g. 123-456-7890" error={errors.phone} value={values.phone} onChange={set('phone')} />
      <TextInput id="su-class" label="Class" error={errors.classTitle} name="classTitle" required value={values.classTitle} onChange={set('classTitle')} />
      <TextInput id="su-date" label="Date" error={errors.date} name="date" type="date" required value={values.date} onChange={set('date')} />
      <fieldset className="waiver">
        <legend>{waiver.heading}</legend>
        {waiver.paragraphs.map((p) => (
          <p key={p}>{p}</p>
        ))}
        <label className="checkbox">
          <input type="checkbox" required checked={accepted} onChange={(e) => setAccepted(e.target.checked)} {...describedBy('su-waiver', errors.waiver)} />{' '}
          {waiver.agreement}
        </label>
        {errors.waiver && (
          <span className="field-error" id="su-waiver-error" role="alert">
            {errors.waiver}
          </span>
        )}
      </fieldset>
      <fieldset>
        <legend>Signature</legend>
        <SignaturePad key={padKey} saved={signature !== null} onSave={setSignature} />
      </fieldset>
      {paidEvent && !waitlist && (
        <>
          <PriceChoice event={paidEvent} zone={clock?.zone} amount={amount} onAmount={setAmount} error={amountError} />
          <GiftCardCode applied={card} onChange={setCard} />
        </>
      )}
      {!paypal && (
        <div>
          <button className="button" type="submit" disabled={!hydrated || sending}>
            {sending ? 'Submitting...' : waitlist ? JOIN_WAITLIST : paidEvent && !card ? 'Continue to payment' : 'Sign Up'}
          </button>
        </div>
      )}
    </form>
  );
  // The PayPal step outside the form: its buttons must never submit it.
  const payment =
    paypal && paidEvent && filled.current ? (
      <PayForPlace
        event={paidEvent}
        config={paypal}
        amountCents={chosenCents(paidEvent, amount)}
        buyer={{ name: filled.current.name, email: filled.current.email, phone: filled.current.phone }}
        onApproved={async (orderID) => {
          setPaypal(null);
          await submitting(() => signUp(filled.current!, { paypalOrderId: orderID }));
        }}
        onFailed={(message) => {
          setPaypal(null);
          // The server's reason stays by the price after the dialog closes: the places held and when one frees (issue 47).
          if (message) setAmountError(message);
        }}
      />
    ) : null;
  return (
    <>
      {form}
      {payment}
    </>
  );
}
