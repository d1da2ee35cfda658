import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { request } from '../../lib/http';
import { publicConfig } from '../../lib/config';
import { addDaysTo, dayLabel, dayOf, localTimeWithZone } from '../../lib/calendar';
import { SlotTimes } from './SlotTimes';
import { useToday } from '../useToday';
import { useFreeSlots } from './useFreeSlots';
import { useIntake } from './IntakeStatus';
import { useCredits } from './useCredits';
import { loadPayPalConfig, PayPalPayment, type PaymentFailure } from '../PayPalPayment';
import type { PageClock } from '../../../contract/content.ts';
import type { BookingOrderView } from '../../../contract/booking.ts';
import type { PayPalConfigView } from '../../../contract/config.ts';
import {
  amountLabel,
  amountRange,
  DEFAULT_SETTINGS,
  inRange,
  invalidPaymentAmount,
  SESSION_TYPE_KEYS,
  SESSION_TYPE_WORDS,
  type BookingAmounts,
  type SessionTypeKey,
} from '../../../contract/settings.ts';
import type { User } from '../../stores/user';
import { bookSlot } from './bookSlot';

const IntakeForm = lazy(() => import('./Intake'));

/** How far ahead the guided booking looks for free times, and how many days it lists at first. */
const DAYS_AHEAD = 62;
const DAYS_SHOWN = 4;

/**
 * /user/{id}/book/{type}: a first session in few taps (issue 30, decision 0034). The session type
 * is the one the newcomer set out to book; her intake, where she requires it for that type, is
 * the first step; then the soonest free times, day by day; the amount starts at her range's
 * lowest (a sliding scale asks nobody to justify it) and can be changed; the payment buttons
 * show as soon as a time is chosen, and PayPal's approval books it: no Continue, no Finalize,
 * no message to close. The spec's booking page (/user/{id}/book) keeps its own steps, coupons
 * included. The server decides the slot, the amount and the intake, as for that page.
 */
export default function GuidedBooking({ user, clock, typeKey }: { user: User; clock: PageClock; typeKey: SessionTypeKey }) {
  const sessionType = SESSION_TYPE_KEYS[typeKey];
  const zone = clock.zone;
  const today = useToday(clock);
  const intake = useIntake(user.id, false);
  const [intakeDone, setIntakeDone] = useState(false);
  const [amounts, setAmounts] = useState<BookingAmounts>(DEFAULT_SETTINGS.bookingAmounts);
  const [amount, setAmount] = useState('');
  const [message, setMessage] = useState('');
  const [slotId, setSlotId] = useState<string | null>(null);
  const [daysShown, setDaysShown] = useState(DAYS_SHOWN);
  const [paypal, setPaypal] = useState<PayPalConfigView | null>(null);
  const [problem, setProblem] = useState('');
  const [takenNotice, setTakenNotice] = useState(false);
  const [booked, setBooked] = useState<{ startsAt: string; payer: string } | null>(null);
  const [booking, setBooking] = useState(false);
  // Issue 32: a session credit for this type books it without paying.
  const credit = useCredits(user.id)(sessionType);
  const slotRef = useRef<string | null>(null);
  const bookingRef = useRef(false);
  useEffect(() => {
    slotRef.current = slotId;
  }, [slotId]);

  useEffect(() => {
    void publicConfig()
      .then((config) => config.booking && setAmounts(config.booking))
      .catch(() => {});
  }, []);
  const range = amountRange(amounts, sessionType).range;
  // Her lowest until the client types another amount.
  const shownAmount = amount === '' ? String(range.min) : amount;
  const amountValue = Number(shownAmount);
  const amountOk = shownAmount.trim() !== '' && !Number.isNaN(amountValue) && inRange(range, amountValue);

  const { slots, load } = useFreeSlots(user.id, `&from=${today}&to=${addDaysTo(today, DAYS_AHEAD)}`, (taken) => {
    if (slotRef.current === taken && !bookingRef.current) {
      setSlotId(null);
      setTakenNotice(true);
    }
  });
  const days = useMemo(() => {
    const map = new Map<string, typeof slots & object>();
    for (const s of [...(slots ?? [])].sort((a, b) => a.startsAt.localeCompare(b.startsAt))) {
      const key = dayOf(s.startsAt, zone);
      map.set(key, [...(map.get(key) ?? []), s]);
    }
    return [...map.entries()];
  }, [slots, zone]);

  // The payment buttons load once, when there is something to pay.
  const ready = !!slotId && amountOk && !credit;
  useEffect(() => {
    if (!ready || paypal) return;
    let gone = false;
    void loadPayPalConfig().then((config) => {
      if (!gone && config) setPaypal(config);
      if (!config) setProblem('Failed to load the payment provider. Please try again later.');
    });
    return () => {
      gone = true;
    };
  }, [ready, paypal]);

  const missing = intake.view?.missingFor.includes(typeKey) && !intakeDone;
  const words = SESSION_TYPE_WORDS[typeKey];

  if (booked) {
    return (
      <section className="card guided-done" aria-labelledby="booked-heading" data-booked>
        <h2 id="booked-heading">Booking Confirmed!</h2>
        <p role="status">
          Your {words} session is on {dayLabel(dayOf(booked.startsAt, zone))} at {localTimeWithZone(booked.startsAt, zone)}.{' '}
          {booked.payer ? `Transaction completed by ${booked.payer}. ` : ''}Booking successful. Check your email for confirmation and details.
        </p>
        <p>
          <a className="button" href={`/user/${encodeURIComponent(user.id)}`}>
            My Bookings
          </a>
        </p>
      </section>
    );
  }
  if (intake.failed) return <p role="alert">We couldn’t load your booking. Please refresh the page and try again.</p>;
  if (!intake.view) return <p role="status">Loading…</p>;

  const steps = intake.view.missingFor.includes(typeKey) ? ['Your health form', 'Time and payment'] : ['Time and payment'];
  const stepNow = missing ? 1 : steps.length;

  async function book(payment: { paypalOrderId: string } | { useCredit: true }) {
    if (!slotId) return;
    bookingRef.current = true;
    setBooking(true);
    setProblem('');
    try {
      const res = await bookSlot(user, slotId, { sessionType, message }, payment);
      if (!res.ok) {
        setProblem('We couldn’t confirm your booking. Please try again or contact support if the issue persists.');
        setSlotId(null);
        setPaypal(null);
        await load();
        return;
      }
      const startsAt = slots?.find((s) => s._id === slotId)?.startsAt ?? new Date().toISOString();
      setBooked({ startsAt, payer: res.data.payerFirstName || '' });
    } finally {
      bookingRef.current = false;
      setBooking(false);
    }
  }

  function onPaymentFailed(failure: PaymentFailure) {
    if (failure === 'sdk' || failure === 'buttons') setPaypal(null);
    // The server's reason (the slot was taken or has passed) is in its dialog: the list is read again.
    if (failure === 'order') void load().then((list) => list && !list.some((s) => s._id === slotRef.current) && setSlotId(null));
  }

  return (
    <div className="guided">
      {steps.length > 1 && (
        <p className="muted" data-step>
          Step {stepNow} of {steps.length}: {steps[stepNow - 1]}
        </p>
      )}
      {missing ? (
        <Suspense fallback={<p role="status">Loading…</p>}>
          <IntakeForm user={user} onDone={() => setIntakeDone(true)} />
        </Suspense>
      ) : (
        <>
          <section aria-labelledby="times-heading">
            <h2 id="times-heading">Choose a time</h2>
            <p role="status" className="field-error" data-slot-taken>
              {takenNotice ? 'That time was just booked by someone else. Please choose another.' : ''}
            </p>
            {slots === null ? (
              <p role="status">Loading…</p>
            ) : days.length === 0 ? (
              <p>
                No free times in the next two months. Please <a href="/contact">write to me</a> and we will find one.
              </p>
            ) : (
              <>
                {days.slice(0, daysShown).map(([day, list]) => (
                  <div key={day} className="guided-day">
                    <h3>{dayLabel(day)}</h3>
                    <SlotTimes
                      label={`Free times on ${dayLabel(day)}`}
                      slots={list}
                      chosen={slotId}
                      zone={zone}
                      onChoose={(id) => {
                        setSlotId(id);
                        setTakenNotice(false);
                        setProblem('');
                      }}
                    />
                  </div>
                ))}
                {days.length > daysShown && (
                  <button type="button" className="button button-quiet button-small" onClick={() => setDaysShown((n) => n + DAYS_SHOWN)}>
                    Later days
                  </button>
                )}
              </>
            )}
          </section>
          <section aria-labelledby="pay-heading" className="form">
            <h2 id="pay-heading">{credit ? 'Your session credit' : 'Your amount'}</h2>
            {!credit && (
              <div className="field">
                <label htmlFor="gb-amount">{amountLabel(amounts, sessionType)}</label>
                <input
                  id="gb-amount"
                  type="number"
                  min={range.min}
                  max={range.max}
                  step="1"
                  inputMode="decimal"
                  value={shownAmount}
                  aria-describedby="gb-amount-help"
                  onChange={(e) => setAmount(e.target.value)}
                />
                <span id="gb-amount-help" className={amountOk ? 'muted' : 'field-error'}>
                  {amountOk ? 'Pay what is sustainable for you.' : invalidPaymentAmount(range, amountValue)}
                </span>
              </div>
            )}
            <div className="field">
              <label htmlFor="gb-message">Message (optional)</label>
              <textarea id="gb-message" value={message} onChange={(e) => setMessage(e.target.value)} />
            </div>
            {!slotId && <p className="muted">Choose a time above, then {credit ? 'book it here' : 'pay here'}.</p>}
            {slotId && credit && (
              <p>
                <button type="button" className="button" data-use-credit disabled={booking} onClick={() => void book({ useCredit: true })}>
                  {credit.offer}
                </button>
              </p>
            )}
            {ready && paypal && (
              <div className="paypal-container" data-paypal>
                <PayPalPayment
                  config={paypal}
                  buttonsFailedTitle="Payment Button Not Found"
                  createOrder={() =>
                    request<BookingOrderView>('POST', `/api/bookings/${encodeURIComponent(slotId)}/paypal-order`, {
                      body: { amount: amountValue, sessionType },
                      session: 'user',
                    })
                  }
                  onApprove={(orderID) => book({ paypalOrderId: orderID })}
                  onFailed={onPaymentFailed}
                />
              </div>
            )}
            {problem && (
              <p className="field-error" role="alert">
                {problem}
              </p>
            )}
            <p className="muted">
              Have a coupon? Use the <a href={`/user/${encodeURIComponent(user.id)}/book`}>booking page</a>.
            </p>
          </section>
        </>
      )}
    </div>
  );
}
