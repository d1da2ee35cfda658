/**
 * Starting a booking's payment (SPEC.md sections 4 and 5; issue 5): the PayPal order a booking
 * must be paid with, made by the server for this slot and this client, for an amount in the range
 * she accepts; and the checks a booking's claim repeats (finalize-booking.ts): the slot free, not
 * begun and clear in her agenda, the amount in range. Nothing here claims or takes anything; the
 * claim of each way to pay is booking-claims.ts.
 */
import type { Services } from '../services/index.ts';
import type { DB } from '../../db/client.ts';
import { amountRange, type DollarRange } from '../../contract/settings.ts';
import { readSettings } from '../settings/settings.repo.ts';
import { recordBookingOrder } from './booking-orders.repo.ts';
import { findSlotForBooking } from './booking.repo.ts';
import { intakeMissingForFirstBooking } from '../practice/gate.ts';
import { cardToSpend, type CardRefusal } from '../money/cards.ts';
import { zonedInstant } from '../lib/time.ts';
import { classWhen } from '../mail/layout.ts';
import { clearSlots } from '../agenda/agenda.ts';
import { refreshBusyTimesIfStale } from '../agenda/calendar.ts';

/** A session's PayPal description: "Session on Monday, December 14, 2026 at 10:00 AM PST", on her clocks. */
const paypalSessionDescription = (startsAt: Date, zone: string) => {
  const when = classWhen(startsAt, zone);
  return `Session on ${when.date} at ${when.time}`;
};

/** The PayPal order a booking must be paid with: made by us for this slot and this client. */
export const bookingOrderReference = (slotId: string, userId: string) => `slot:${slotId}:${userId}`;

/**
 * Why a slot can't be booked, found before PayPal is asked anything:
 * - 'slot-not-found': no slot with this id (never was, or the teacher deleted it);
 * - 'slot-taken': someone has booked it;
 * - 'slot-past': its time has come;
 * - 'slot-busy': her agenda took the time (a class, a gig, a busy time; issue 35).
 */
export type SlotRefusal = 'slot-not-found' | 'slot-taken' | 'slot-past' | 'slot-busy';

type SlotCheck = { ok: true; date: string; time: string } | { ok: false; kind: SlotRefusal };

/** The slot exists, is free, has not begun and her agenda leaves it clear. The claim checks all but the first again, atomically. */
export async function checkSlot(db: DB, zone: string, slotId: string): Promise<SlotCheck> {
  const slot = await findSlotForBooking(db, slotId);
  if (!slot) return { ok: false, kind: 'slot-not-found' };
  if (slot.bookedAt !== null) return { ok: false, kind: 'slot-taken' };
  if (new Date(slot.startsAt).getTime() <= Date.now()) return { ok: false, kind: 'slot-past' };
  if ((await clearSlots(db, zone, [slot])).length === 0) return { ok: false, kind: 'slot-busy' };
  return { ok: true, date: slot.date, time: slot.time };
}

export interface BookingPaymentInput {
  slotId: string;
  /** The signed-in client; the order is tied to them. */
  userId: string;
  /** Money, in cents (the route's schema checks the form; the range she set is checked here). */
  amountCents: number;
  sessionType: string;
  /** Issue 33: a gift card pays what it holds of the amount; the order is made for the rest. */
  giftCardCode?: string;
}

/**
 * The range of amounts she accepts for a session type (her settings, contract/settings.ts: one
 * range per type, the same the booking page shows and checks), in dollars, with the type's words.
 */
export async function acceptedAmounts(db: DB, sessionType: string): Promise<{ range: DollarRange; typeWords?: string }> {
  return amountRange((await readSettings(db)).bookingAmounts, sessionType);
}

/** Whether an amount in cents is in a range of dollars. */
export const centsInRange = (r: DollarRange, cents: number) => cents >= r.min * 100 && cents <= r.max * 100;

/** An amount outside what she accepts: the range that applies, for the refusal's words. */
export interface AmountRefusal {
  ok: false;
  kind: 'amount-out-of-range';
  range: DollarRange;
  typeWords?: string;
}

/**
 * Why startBookingPayment made no order. Besides the slot's: 'payment-unavailable', PayPal could
 * not make the order (down, or it refused our request); 'amount-out-of-range' (AmountRefusal).
 */
export type BookingPaymentRefusal = SlotRefusal | 'payment-unavailable' | 'intake-missing' | CardRefusal | 'gift-card-pays-all';

/** The answer of startBookingPayment: PayPal's order id, or a refusal. */
export type BookingPaymentResult = { ok: true; orderId: string } | { ok: false; kind: BookingPaymentRefusal } | AmountRefusal;

/**
 * Creates the PayPal order for a free, future slot, tied to it and to this client, for an amount
 * in the range she accepts for the session type. The order is recorded (booking_orders), so the
 * server can finish a booking whose client approved the payment and never finalized it
 * (api/booking/unfinalized.ts).
 */
export async function startBookingPayment(
  deps: Pick<Services, 'db' | 'env' | 'payments'> & Partial<Pick<Services, 'calendar' | 'clock'>>,
  input: BookingPaymentInput,
): Promise<BookingPaymentResult> {
  const accepted = await acceptedAmounts(deps.db, input.sessionType);
  if (!centsInRange(accepted.range, input.amountCents)) return { ok: false, kind: 'amount-out-of-range', ...accepted };
  // Her Google busy times read again first when stale (bounded; no transaction is open), so a busy time added there a minute ago wins.
  await refreshBusyTimesIfStale(deps);
  const slot = await checkSlot(deps.db, deps.env.SITE_TIMEZONE, input.slotId);
  if (!slot.ok) return slot;
  // Issue 23: her intake comes before a first session; nothing is asked of PayPal without it.
  if (await intakeMissingForFirstBooking(deps.db, input.userId, input.sessionType)) return { ok: false, kind: 'intake-missing' };
  // Issue 33: a gift card pays what it holds; PayPal is asked for the rest (none: book with the card alone).
  let chargeCents = input.amountCents;
  if (input.giftCardCode !== undefined) {
    const card = await cardToSpend(deps.db, input.giftCardCode);
    if (!card.ok) return card;
    if (card.balanceCents >= input.amountCents) return { ok: false, kind: 'gift-card-pays-all' };
    chargeCents = input.amountCents - card.balanceCents;
  }
  let orderId: string;
  try {
    const order = await deps.payments.createOrder({
      amountCents: chargeCents,
      referenceId: bookingOrderReference(input.slotId, input.userId),
      // What PayPal shows the payer and keeps: a session and its time in words, never its kind (a
      // therapy session is health data, which goes to no one beyond what she agreed to: issue 48).
      description: paypalSessionDescription(zonedInstant(slot.date, slot.time, deps.env.SITE_TIMEZONE), deps.env.SITE_TIMEZONE),
    });
    orderId = order.id;
  } catch (err) {
    console.error('[paypal] could not create a booking order:', err instanceof Error ? err.message : err);
    return { ok: false, kind: 'payment-unavailable' };
  }
  // Recorded for the server to finish a booking approved and never finalized; not one a card pays
  // part of: the server could not know the code, so that approval lapses uncharged instead.
  if (input.giftCardCode === undefined) {
    await recordBookingOrder(deps.db, {
      paypalOrderId: orderId,
      slotId: input.slotId,
      userId: input.userId,
      amountCents: input.amountCents,
      sessionType: input.sessionType,
    });
  }
  return { ok: true, orderId };
}
