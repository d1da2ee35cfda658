import { useEffect, useMemo, useRef, useState } from 'react';
import { request } from '../../lib/http';
import { showAlert } from '../../lib/alert';
import { publicConfig } from '../../lib/config';
import { useFreeSlots } from './useFreeSlots';
import { useCredits } from './useCredits';
import { WeeklySeries } from './WeeklySeries';
import { SlotTimes } from './SlotTimes';
import { addDaysTo, addMonths, dayLabel, dayOf, monthGrid, monthLabel, monthOfDay } from '../../lib/calendar';
import { useToday } from '../useToday';
import type { PageClock } from '../../../contract/content.ts';
import { MonthGrid, MonthHead } from '../MonthGrid';
import { ONE_STEP_REMAINS, SESSION_TYPES, type BookingCouponView, type BookingOrderView } from '../../../contract/booking.ts';
import {
  amountLabel,
  amountRange,
  continueBlockers,
  continueHint,
  DEFAULT_SETTINGS,
  inRange,
  invalidPaymentAmount,
  sessionTypeKeyOf,
  slidingScale,
  type BookingAmounts,
} from '../../../contract/settings.ts';
import type { PayPalConfigView } from '../../../contract/config.ts';
import type { SlotView } from '../../../contract/slots.ts';
import type { User } from '../../stores/user';
import { bookSlot } from './bookSlot';
import { loadPayPalConfig, PayPalPayment, paymentDialogs, type PaymentFailure } from '../PayPalPayment';
import { useIntake } from './IntakeStatus';
import { INTAKE_REQUIRED_MESSAGE } from '../../../contract/practice.ts';
import { GiftCardCode, lookUpGiftCard, type AppliedGiftCard } from '../GiftCardCode';
import { toCents, usd, usdFromCents } from '../../lib/money';

/**
 * The amount (issue 30, decision 0032): one range per session type, hers (contract/settings.ts,
 * read from GET /api/config/public). The chosen type's range is the label, the field's min and
 * max, what enables Continue and what the check on Continue lets through; the sliding-scale
 * sentence is written from the same ranges. The server checks the same range and decides.
 */

const emptyForm = { sessionType: '', message: '', coupon: '', amount: '' };

/** /user/{id}/book: 'Book a New Session'. */
export default function BookSession({ user, clock }: { user: User; clock: PageClock }) {
  // Days and times are hers (slots are dated on her clocks), with her zone's abbreviation.
  const zone = clock.zone;
  const today = useToday(clock);
  const [cursor, setCursor] = useState(() => monthOfDay(today));
  const [day, setDay] = useState<string | null>(null);
  const [slotId, setSlotId] = useState<string | null>(null);
  const [form, setForm] = useState(emptyForm);
  const [couponState, setCouponState] = useState<'none' | 'valid' | 'invalid'>('none');
  const [paid, setPaid] = useState<
    { kind: 'coupon' } | { kind: 'credit' } | { kind: 'gift-card'; code: string } | { kind: 'paypal'; orderID: string; card?: string } | null
  >(null);
  // Issue 33: a gift card pays the chosen amount, or what it holds of it with PayPal for the rest.
  const [card, setCard] = useState<AppliedGiftCard | null>(null);
  // Issue 32: a session credit that fits the chosen type, used instead of paying (on by default when there is one).
  const creditFor = useCredits(user.id);
  const [skipCredit, setSkipCredit] = useState(false);
  // Issue 32: the weekly series booked from this page, kept on screen with its result.
  const [seriesKey, setSeriesKey] = useState<string | null>(null);
  const [paypal, setPaypal] = useState<PayPalConfigView | null>(null);
  const [payFailed, setPayFailed] = useState(false);
  const [sending, setSending] = useState(false);
  // The chosen slot was booked by someone else while this visitor was deciding or paying.
  const [takenNotice, setTakenNotice] = useState(false);
  // Her range per session type and her note; the seeded ones until hers arrive.
  const [amounts, setAmounts] = useState<BookingAmounts>(DEFAULT_SETTINGS.bookingAmounts);
  useEffect(() => {
    void publicConfig()
      .then((config) => config.booking && setAmounts(config.booking))
      .catch(() => {});
  }, []);
  // Whether she requires the intake before this client's first session of each type.
  const intake = useIntake(user.id, false);
  const [intakeFirst, setIntakeFirst] = useState(false);
  // Read by the realtime handler, which is set up once.
  const slotRef = useRef<string | null>(null);
  const finalizingRef = useRef(false);
  useEffect(() => {
    slotRef.current = slotId;
  }, [slotId]);

  /**
   * The chosen slot can no longer be had: unselect it with any payment under way (nobody was
   * charged: an approved PayPal order is only captured on Finalize). Only setters, so the
   * realtime handler, set up once, may call it too.
   */
  function dropChosenSlot() {
    setSlotId(null);
    setPaid(null);
    setPaypal(null);
    setPayFailed(false);
  }

  // The days the month on screen shows, a day either side: only those slots are asked for
  // (issue 25: a year of them was 133 KB).
  const gridDays = monthGrid(cursor.year, cursor.month);
  const shownRange = `&from=${addDaysTo(gridDays[0]!, -1)}&to=${addDaysTo(gridDays[gridDays.length - 1]!, 1)}`;
  // A slot booked by someone else while this visitor was deciding or paying: the visitor's own
  // Finalize announces the slot too, and that one is not news.
  const { slots, load } = useFreeSlots(user.id, shownRange, (taken) => {
    if (slotRef.current === taken && !finalizingRef.current) {
      dropChosenSlot();
      setTakenNotice(true);
    }
  });

  const byDay = useMemo(() => {
    const map = new Map<string, SlotView[]>();
    for (const s of slots ?? []) {
      const key = dayOf(s.startsAt, zone);
      map.set(key, [...(map.get(key) ?? []), s]);
    }
    for (const list of map.values()) list.sort((a, b) => a.startsAt.localeCompare(b.startsAt));
    return map;
  }, [slots, zone]);

  function chooseDay(key: string) {
    // Changing the day resets slot, type, message, coupon, amount and payment.
    setDay(key);
    setSlotId(null);
    setSeriesKey(null);
    setTakenNotice(false);
    setForm(emptyForm);
    setCouponState('none');
    setPaid(null);
    setPaypal(null);
    setPayFailed(false);
  }

  const credit = form.sessionType ? creditFor(form.sessionType) : null;
  const withCredit = !!credit && !skipCredit;
  const amount = Number(form.amount);
  const amountRangeNow = amountRange(amounts, form.sessionType).range;
  // What a disabled Continue lacks, said under it (issue 20).
  const blockers = continueBlockers(amounts, {
    slotChosen: !!slotId,
    sessionType: form.sessionType,
    couponValid: couponState === 'valid' || withCredit,
    amount: form.amount,
  });
  const canContinue = blockers.length === 0;

  async function checkCoupon(code: string) {
    if (!code.trim()) {
      setCouponState('none');
      return;
    }
    const res = await request<BookingCouponView>('POST', '/api/bookings/validate-coupon', { body: { code }, session: 'user' });
    setCouponState(res.ok && res.data.valid ? 'valid' : 'invalid');
  }

  async function onContinue() {
    // Issue 30: a first session of a type that waits for her intake says so, and where; it never
    // reaches the payment step to fail there.
    const key = sessionTypeKeyOf(form.sessionType);
    if (key && intake.view?.missingFor.includes(key)) {
      setIntakeFirst(true);
      await showAlert({ icon: 'info', title: 'Your intake form first', text: INTAKE_REQUIRED_MESSAGE });
      return;
    }
    setIntakeFirst(false);
    if (withCredit) {
      setPaid({ kind: 'credit' });
      return;
    }
    if (couponState === 'valid') {
      setPaid({ kind: 'coupon' });
      await showAlert({ icon: 'success', title: 'Coupon Applied' });
      return;
    }
    if (Number.isNaN(amount) || !inRange(amountRangeNow, amount)) {
      await showAlert({ icon: 'warning', title: 'Invalid Payment Amount', text: invalidPaymentAmount(amountRangeNow, amount) });
      return;
    }
    // A card that holds the amount pays it all; one that holds less pays what it holds, PayPal the rest.
    if (card && card.balanceCents >= toCents(amount)) {
      setPaid({ kind: 'gift-card', code: card.code });
      return;
    }
    const config = await loadPayPalConfig();
    setPayFailed(!config);
    setPaypal(config);
  }

  const createOrder = () =>
    request<BookingOrderView>('POST', `/api/bookings/${encodeURIComponent(slotId!)}/paypal-order`, {
      body: { amount, sessionType: form.sessionType, ...(card ? { giftCardCode: card.code } : {}) },
      session: 'user',
    });

  /** PayPalPayment has opened the failure's dialog; this sets the page's state (SPEC.md section 4). */
  function onPaymentFailed(failure: PaymentFailure) {
    setPayFailed(true);
    if (failure === 'sdk' || failure === 'buttons') setPaypal(null);
    if (failure === 'order') {
      // The server's reason (the slot was taken, has passed or is gone) shows in the page: the
      // list is reloaded, and a slot no longer offered is dropped, back to Continue (no failure
      // flag: nothing failed to load, the slot went).
      const chosen = slotId;
      void load().then((list) => {
        if (list && !list.some((s) => s._id === chosen) && slotRef.current === chosen) dropChosenSlot();
      });
    }
  }

  async function finalize() {
    if (!slotId) {
      await showAlert({ icon: 'warning', title: 'Time Slot Required', text: 'Please select a time slot before proceeding with your booking.' });
      return;
    }
    if (!paid || !form.sessionType) {
      await showAlert({
        icon: 'warning',
        title: 'Missing Information or Payment',
        text: 'Please choose time, session type and/or complete payment before finalizing your appointment.',
      });
      return;
    }
    setSending(true);
    finalizingRef.current = true;
    try {
      const res = await bookSlot(
        user,
        slotId,
        { sessionType: form.sessionType, message: form.message },
        paid.kind === 'coupon'
          ? { couponCode: form.coupon }
          : paid.kind === 'credit'
            ? { useCredit: true }
            : paid.kind === 'gift-card'
              ? { giftCardCode: paid.code, amount }
              : paid.card
                ? { paypalOrderId: paid.orderID, giftCardCode: paid.card, amount }
                : { paypalOrderId: paid.orderID },
      );
      if (!res.ok) {
        // A gift card's refusal says what happened to the card (its balance changed, it holds less); the rest, the spec's words.
        const cardRefused = paid.kind === 'gift-card' && res.status !== 409 ? res.data.message : '';
        await showAlert({
          icon: 'error',
          title: 'Booking Failed',
          text: cardRefused || 'We couldn’t confirm your booking. Please try again or contact support if the issue persists.',
        });
        if (card) {
          const found = await lookUpGiftCard(card.code);
          setCard('card' in found ? found.card : null);
        }
        await load();
        chooseDay(day ?? '');
        return;
      }
      // The payment is captured here, on finalizing, not when the buyer approves in PayPal's
      // window: only now is the transaction complete and the payer's name known (the server
      // answers PayPal's first name for the payer, who may not be the account holder).
      if (paid.kind === 'paypal') await paymentDialogs.successful(res.data.payerFirstName || user.firstName);
      await showAlert({ icon: 'success', title: 'Booking Confirmed!', text: 'Booking successful. Check your email for confirmation and details.' });
      chooseDay(day ?? '');
      window.location.assign(`/user/${encodeURIComponent(user.id)}`);
    } catch {
      await showAlert({
        icon: 'error',
        title: 'Booking Failed',
        text: 'We couldn’t confirm your booking. Please try again or contact support if the issue persists.',
      });
    } finally {
      finalizingRef.current = false;
      setSending(false);
    }
  }

  const grid = monthGrid(cursor.year, cursor.month);
  const daySlots = day ? (byDay.get(day) ?? []) : [];
  const move = (delta: number) => setCursor((c) => addMonths(c, delta));

  return (
    <div className="book grid grid-2">
      <section aria-labelledby="pick-heading">
        <h2 id="pick-heading">Pick a day and time</h2>
        <MonthHead label={monthLabel(cursor.year, cursor.month)} onMove={move} />
        <MonthGrid
          label={monthLabel(cursor.year, cursor.month)}
          grid={grid}
          month={cursor.month}
          today={today}
          selected={day}
          countOf={(key) => byDay.get(key)?.length ?? 0}
          noun={['free slot', 'free slots']}
          onChoose={chooseDay}
        />
        {day && (
          <div className="day-slots">
            <h3>{dayLabel(day)}</h3>
            <p role="status" className="field-error" data-slot-taken>
              {takenNotice ? 'That time was just booked by someone else. Please choose another.' : ''}
            </p>
            {daySlots.length === 0 ? (
              <p>No available slots this day.</p>
            ) : (
              <SlotTimes
                label="Available times"
                slots={daySlots}
                chosen={slotId}
                zone={zone}
                onChoose={(id) => {
                  setSlotId(id);
                  setTakenNotice(false);
                }}
              />
            )}
          </div>
        )}
      </section>

      <section aria-labelledby="details-heading">
        <h2 id="details-heading">Your session</h2>
        <div className="form">
          <div className="field">
            <label htmlFor="bk-type">Session type</label>
            <select id="bk-type" required value={form.sessionType} onChange={(e) => setForm((f) => ({ ...f, sessionType: e.target.value }))}>
              <option value="">Choose a session type…</option>
              {SESSION_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="bk-message">Message (optional)</label>
            <textarea id="bk-message" value={form.message} onChange={(e) => setForm((f) => ({ ...f, message: e.target.value }))} />
          </div>
          <div className="field">
            <label htmlFor="bk-coupon">Coupon code</label>
            <input
              id="bk-coupon"
              value={form.coupon}
              onChange={(e) => {
                setForm((f) => ({ ...f, coupon: e.target.value }));
                setCouponState('none');
              }}
              onBlur={(e) => void checkCoupon(e.target.value)}
              aria-describedby="bk-coupon-status"
            />
            <span id="bk-coupon-status" role="status" className={couponState === 'invalid' ? 'field-error' : 'muted'}>
              {couponState === 'valid'
                ? 'Coupon valid. Click Continue to apply.'
                : couponState === 'invalid'
                  ? 'Invalid code. Double-check or continue without one.'
                  : ''}
            </span>
          </div>
          {credit && (
            <label className="check credit-offer" data-credit-offer>
              <input
                type="checkbox"
                checked={withCredit}
                onChange={(e) => {
                  setSkipCredit(!e.target.checked);
                  setPaid(null);
                }}
              />
              {credit.offer}
            </label>
          )}
          {/* Issue 32: the same time every week, a credit each. */}
          {(seriesKey || (withCredit && slotId && credit)) && (
            <WeeklySeries
              key={seriesKey ?? `${slotId} ${form.sessionType}`}
              user={user}
              slotId={slotId ?? ''}
              sessionType={form.sessionType}
              message={form.message}
              credits={credit?.remaining ?? 0}
              zone={zone}
              onStart={() => {
                // Its own booking of the chosen slot is no news to this page (as Finalize's is not).
                finalizingRef.current = true;
                setSeriesKey(`${slotId} ${form.sessionType}`);
              }}
              onDone={(booked) => {
                finalizingRef.current = false;
                if (!booked) return setSeriesKey(null);
                // The chosen time is booked now: the result stays on screen, the free times reload.
                dropChosenSlot();
                void load();
              }}
              onSingle={() => void load()}
            />
          )}
          {couponState !== 'valid' && !withCredit && (
            <GiftCardCode
              applied={card}
              onChange={(next) => {
                setCard(next);
                setPaid(null);
                setPaypal(null);
              }}
            />
          )}
          {couponState !== 'valid' && !withCredit && (
            <div className="field">
              <label htmlFor="bk-amount">{amountLabel(amounts, form.sessionType)}</label>
              <input
                id="bk-amount"
                type="number"
                min={amountRangeNow.min}
                max={amountRangeNow.max}
                step="1"
                inputMode="decimal"
                value={form.amount}
                onChange={(e) => setForm((f) => ({ ...f, amount: e.target.value }))}
              />
            </div>
          )}
          <p className="muted" data-sliding-scale>
            {slidingScale(amounts)}
          </p>
          {!paid && !paypal && (
            <div>
              <button
                type="button"
                className="button"
                disabled={!canContinue}
                aria-describedby={canContinue ? undefined : 'bk-continue-hint'}
                onClick={() => void onContinue()}
              >
                Continue
              </button>
              {!canContinue && (
                <p id="bk-continue-hint" className="muted" data-continue-hint>
                  {continueHint(blockers)}
                </p>
              )}
            </div>
          )}
          {!paid && paypal && card && (
            <p role="status" data-card-part>
              Your gift card pays {usdFromCents(card.balanceCents)}; PayPal the rest, {usdFromCents(toCents(amount) - card.balanceCents)}.
            </p>
          )}
          {!paid && paypal && (
            <div className="paypal-container" data-paypal>
              <PayPalPayment
                config={paypal}
                buttonsFailedTitle="Payment Button Not Found"
                createOrder={createOrder}
                onApprove={async (orderID) => setPaid({ kind: 'paypal', orderID, ...(card ? { card: card.code } : {}) })}
                onFailed={onPaymentFailed}
              />
            </div>
          )}
          {intakeFirst && (
            <p className="field-error" role="alert" data-intake-first>
              {INTAKE_REQUIRED_MESSAGE} <a href={`/user/${encodeURIComponent(user.id)}/intake`}>Open the intake form</a>.
            </p>
          )}
          {payFailed && (
            <p className="field-error" role="alert">
              Failed to load the payment provider. Please try again later.
            </p>
          )}
          {paid && (
            <div>
              {paid.kind === 'paypal' && (
                <p role="status" data-one-step>
                  {ONE_STEP_REMAINS}
                </p>
              )}
              {paid.kind === 'gift-card' && (
                <p role="status" data-one-step>
                  Your gift card pays {usd(amount)} for this session. Press Finalize Booking to book it.
                </p>
              )}
              <button type="button" className="button" disabled={sending} onClick={() => void finalize()}>
                {sending ? 'Finalizing…' : 'Finalize Booking'}
              </button>
            </div>
          )}
        </div>
      </section>
    </div>
  );
}
