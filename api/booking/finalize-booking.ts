/**
 * The booking's money flow (SPEC.md sections 4, 5, 7, 8; issue 5), as two use-cases the routes
 * of api/booking/booking.routes.ts call and a unit test can call directly:
 *
 *   startBookingPayment: the PayPal order a booking must be paid with, made by the server for
 *     this slot and this client, for an amount the route has checked to be in range;
 *   finalizeBooking: claims the slot for the client, paid by the coupon or by that order once
 *     the buyer approved it, then tells the room and mails the confirmation.
 *
 * Each answers a result or a refusal: `{ ok: false, kind }`, a name for why, never an HTTP
 * status; the routes choose the status and the message (contract/booking.ts). Anything else
 * (the database down, a bug) is thrown.
 *
 * Money rule (decision 0012): claim the slot and record a payment attempt in one short
 * transaction, commit; capture with no transaction open; confirm the booking in a second short
 * transaction. A client who loses the race is never charged (the order stays APPROVED and
 * lapses); a failed capture frees the slot; a capture whose answer was lost (a crash) is found
 * again by the client's retry, the reconciler or PayPal's webhook, which confirm the same attempt.
 */
import type { Services } from '../services/index.ts';
import type { DB } from '../../db/client.ts';
import { amountRange, type DollarRange } from '../../contract/settings.ts';
import { readSettings } from '../settings/settings.repo.ts';
import { brandNames } from '../site/brand.ts';
import { recordBookingOrder } from './booking-orders.repo.ts';
import type { BookingAttemptDetails } from '../../db/schema.ts';
import { captureRequestId } from '../services/payments/paypal.ts';
import { bookingMails, type BookedSession } from './mails.ts';
import { queueMails, type QueuedMails } from '../mail/outbox.repo.ts';
import { sendQueued } from '../mail/outbox.ts';
import type { Transaction } from 'kysely';
import type { Database, LotMethod } from '../../db/schema.ts';
import { claimSlot, findBookedSlot, findSlotForBooking, freeSlot, lockAndCountCouponBookings, type BookedSlot, type Claim } from './booking.repo.ts';
import { findUserById } from '../accounts/users.repo.ts';
import { findAttempt, openAttempt, type PaymentAttempt } from '../money/attempts.repo.ts';
import { PROCESS_ID } from '../lib/process.ts';
import { followAttempt, readApprovedOrder, type CaptureOutcome } from '../money/capture.ts';
import { acceptsApprovedUsd, answerAttempt, answerSettled, captureAndSettle, settlePayment } from '../money/settle.ts';
import type { PaidAnswers, Purchase, Settler } from '../money/settle.ts';
import { intakeMissingForFirstBooking } from '../practice/gate.ts';
import { cardPartOfAttempt, giveBackCardPart, grantPackage, spendCard, spendCredit } from '../money/ledger.ts';
import { cardToSpend, type CardRefusal } from '../money/cards.ts';
import type { SaleMethod } from '../../contract/packages.ts';
import { zonedInstant, zonedNow } from '../lib/time.ts';
import { classWhen } from '../mail/layout.ts';
import { clearSlots, slotIsClear } from '../agenda/agenda.ts';
import { refreshBusyTimesIfStale } from '../agenda/calendar.ts';
import { nudgeWriteBack, prepareMeetLink, sessionLink } from '../agenda/write-back.ts';

/** A session's PayPal description: "Session on Monday, December 14, 2026 at 10:00 AM PST", on her clocks. */
const paypalSessionDescription = (startsAt: Date, zone: string) => {
  const when = classWhen(startsAt, zone);
  return `Session on ${when.date} at ${when.time}`;
};

/** SPEC.md section 5: compared ignoring case and surrounding spaces. */
export const isBookingCoupon = (code: string, coupon: string) => code.trim().toLowerCase() === coupon.trim().toLowerCase();

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
async function checkSlot(db: DB, zone: string, slotId: string): Promise<SlotCheck> {
  const slot = await findSlotForBooking(db, slotId);
  if (!slot) return { ok: false, kind: 'slot-not-found' };
  if (slot.bookedAt !== null) return { ok: false, kind: 'slot-taken' };
  if (new Date(slot.startsAt).getTime() <= Date.now()) return { ok: false, kind: 'slot-past' };
  if ((await clearSlots(db, zone, [slot])).length === 0) return { ok: false, kind: 'slot-busy' };
  return { ok: true, date: slot.date, time: slot.time };
}

/**
 * Claims the slot in the caller's transaction if her agenda still leaves it clear (checked under
 * the agenda's lock): the row, 'busy', or undefined when someone else got it or its time came.
 */
async function claimIfClear(trx: Transaction<Database>, zone: string, slotId: string, claim: Claim): Promise<BookedSlot | 'busy' | undefined> {
  if (!(await slotIsClear(trx, zone, slotId))) return 'busy';
  // An online slot's video link is set in the claim (issue 35), so every path's mails carry it:
  // the Meet link made for this booking, else her room.
  return claimSlot(trx, slotId, claim, await sessionLink(trx, slotId));
}

/** This client's open or completed attempt for this slot and PayPal order, made by a concurrent request. */
async function liveAttemptFor(db: DB, orderId: string, slotId: string, userId: string): Promise<PaymentAttempt | undefined> {
  const a = await findAttempt(db, orderId);
  return a && a.state !== 'released' && a.kind === 'booking' && a.slotId === slotId && a.userId === userId ? a : undefined;
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

const centsInRange = (r: DollarRange, cents: number) => cents >= r.min * 100 && cents <= r.max * 100;

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

export interface BookingInput {
  slotId: string;
  /**
   * The account booking, which the route has checked is the caller's. The confirmation goes to
   * its own address (proved by its login link or Google), never to one in the request, which
   * would let anyone send our mail to any address.
   */
  userId: string;
  firstName: string;
  lastName: string;
  sessionType: string;
  message: string;
  /**
   * The booking coupon, the id of the PayPal order startBookingPayment made and the buyer
   * approved, or one of the client's session credits (issue 32).
   */
  payment:
    | { kind: 'coupon'; code: string }
    /** `card`: a gift card pays what it holds of `amountCents` (the whole price); the order, the rest (issue 33). */
    | { kind: 'paypal'; orderId: string; card?: { code: string; amountCents: number } }
    | { kind: 'credit' }
    /**
     * The teacher was paid by hand (issue 32): the session is sold as a lot of one (its money,
     * method and day, which the books read) and spent on the booking at once, as a credit is.
     */
    | { kind: 'recorded'; method: SaleMethod; amountCents: number; paidOn: string }
    /**
     * A gift card pays `amountCents` in full (issue 33, decision 0042): the session is sold as a lot
     * of one (method 'gift_card') and spent at once, and the card debited, in the claim's transaction.
     */
    | { kind: 'gift-card'; code: string; amountCents: number };
  /**
   * The teacher books for the client (issue 32): she knows her client, so no intake gate; the
   * client's confirmation goes only when she asks, and she is not told of her own booking.
   */
  byAdmin?: { mailClient: boolean };
  /**
   * The server finalizes an approved payment its client never finalized (api/booking/unfinalized.ts):
   * the mails say so.
   */
  finalizedByServer?: boolean;
}

/**
 * Why finalizeBooking booked nothing. Besides the slot's (SlotRefusal):
 * - 'unknown-account': the account is gone (deleted since its session began);
 * - 'coupon-invalid': not the booking coupon;
 * - 'coupon-limit': the client has booked BOOKING_COUPON_LIMIT sessions with the coupon already;
 * - 'order-unknown': PayPal refuses to show the order (no such order, or not our app's);
 * - 'payment-unavailable': PayPal could not be asked (down, or our credentials refused);
 * - 'order-for-another-booking': the order was made for another slot or another client;
 * - 'order-already-used': the order was captured already;
 * - 'order-not-approved': the buyer has not approved it (or PayPal voided it);
 * - 'amount-out-of-range': not USD, or outside the booking range (an order not made by us);
 * - 'claim-lost': between the check and the claim someone else booked the slot, or its time came;
 * - 'capture-failed': PayPal declined the capture, or captured something else than was
 *   approved (refunded then); the slot is free again;
 * - 'no-credit': booking with a credit, the client holds none for this session type today.
 * Only 'capture-failed' and 'payment-unavailable' may come after a capture was tried; every
 * other refusal charged nothing. 'payment-unavailable' after a capture means PayPal's answer was
 * lost: the slot stays claimed until the retry or the reconciler learns from PayPal how it ended.
 */
export type BookingRefusal =
  | SlotRefusal
  | 'unknown-account'
  | 'coupon-invalid'
  | 'coupon-limit'
  | 'order-unknown'
  | 'payment-unavailable'
  | 'order-for-another-booking'
  | 'order-already-used'
  | 'order-not-approved'
  | 'amount-out-of-range'
  | 'claim-lost'
  | 'capture-failed'
  | 'intake-missing'
  | 'no-credit'
  | CardRefusal
  | 'gift-card-changed';

/** A gift card that holds less than the amount chosen (issue 33): what it holds, for the refusal's words. */
export interface CardShortRefusal {
  ok: false;
  kind: 'gift-card-short';
  balanceCents: number;
  amountCents: number;
}

/**
 * The answer of finalizeBooking: the booked slot, with (paid bookings only) the first name of
 * who paid, which SPEC.md section 7 puts in the success message; or a refusal.
 */
export type BookingResult =
  | { ok: true; booking: BookedSlot; payerFirstName?: string }
  | { ok: false; kind: Exclude<BookingRefusal, 'amount-out-of-range'> }
  | AmountRefusal
  | CardShortRefusal;

/** A refusal met inside the claim's transaction: thrown to roll it back, answered after. */
class BookingRefused extends Error {
  readonly kind: Exclude<BookingRefusal, 'amount-out-of-range'>;
  constructor(kind: Exclude<BookingRefusal, 'amount-out-of-range'>) {
    super(kind);
    this.kind = kind;
  }
}

/** The PayPal order has an attempt already (a concurrent or later replay): roll back, follow it. */
class AttemptExists extends Error {}

type BookingDeps = Pick<Services, 'db' | 'env' | 'payments' | 'mailer' | 'realtime' | 'clock'> & Partial<Pick<Services, 'calendar'>>;

/**
 * Books the slot: checks the account, the slot and the payment (nothing is captured yet), claims
 * the slot and records the payment attempt in one short transaction, captures with no
 * transaction open, then confirms the booking in a second one; after that commit, tells every
 * open booking page and mails the client and the teacher. A replay of the same PayPal order
 * answers the booking it made, waits for it, or after a crash completes it.
 */
export async function finalizeBooking(deps: BookingDeps, input: BookingInput): Promise<BookingResult> {
  const { db, env, payments } = deps;
  const { slotId } = input;
  const account = await findUserById(db, input.userId);
  if (!account) return { ok: false, kind: 'unknown-account' };

  if (input.payment.kind === 'paypal') {
    const existing = await findAttempt(db, input.payment.orderId);
    if (existing && existing.state !== 'released') {
      if (existing.kind !== 'booking' || existing.slotId !== slotId || existing.userId !== account.id) return { ok: false, kind: 'order-for-another-booking' };
      return replay(deps, existing, account.firstName);
    }
  }

  // Her Google busy times read again first when stale (bounded; before the claim's transaction).
  await refreshBusyTimesIfStale(deps);
  const slot = await checkSlot(db, env.SITE_TIMEZONE, slotId);
  if (!slot.ok) {
    // Taken by a concurrent request for this very order (a double click): answer that booking.
    if (slot.kind === 'slot-taken' && input.payment.kind === 'paypal') {
      const late = await liveAttemptFor(db, input.payment.orderId, slotId, account.id);
      if (late) return replay(deps, late, account.firstName);
    }
    return slot;
  }
  // Issue 23: without the intake she requires, a first session is not booked (nothing captured).
  if (!input.finalizedByServer && !input.byAdmin && (await intakeMissingForFirstBooking(db, account.id, input.sessionType)))
    return { ok: false, kind: 'intake-missing' };

  // The payment: the coupon, or an order that we made for this slot and this client, that
  // the buyer approved, in USD and in range. Nothing is captured yet.
  let payment: { orderId: string; amountCents: number } | undefined;
  // Issue 33: a gift card's part of a session PayPal pays the rest of; debited with the claim, keyed by its attempt.
  let cardWithPayPal: { lotId: string; cents: number } | undefined;
  if (input.payment.kind === 'coupon') {
    if (!isBookingCoupon(input.payment.code, env.BOOKING_COUPON)) return { ok: false, kind: 'coupon-invalid' };
  } else if (input.payment.kind === 'paypal') {
    const { orderId } = input.payment;
    const read = await readApprovedOrder(payments, orderId, 'a booking order');
    if (!read.ok) return read;
    const { order } = read;
    if (order.referenceId !== bookingOrderReference(slotId, account.id)) return { ok: false, kind: 'order-for-another-booking' };
    if (order.status === 'COMPLETED') {
      // A concurrent request for the same order may have captured since we looked: follow it.
      const late = await liveAttemptFor(db, orderId, slotId, account.id);
      if (late) return replay(deps, late, account.firstName);
      return { ok: false, kind: 'order-already-used' };
    }
    if (order.status !== 'APPROVED') return { ok: false, kind: 'order-not-approved' };
    // The range she accepts now for this session type (a change of hers since the order was made applies).
    const accepted = await acceptedAmounts(db, input.sessionType);
    const price = input.payment.card?.amountCents ?? order.amountCents;
    if (order.currency !== 'USD' || !centsInRange(accepted.range, price)) return { ok: false, kind: 'amount-out-of-range', ...accepted };
    if (input.payment.card) {
      // Issue 33: the card pays what it holds now; the order must be for exactly the rest, or the
      // card changed since it was made (nothing captured, nothing taken).
      const found = await cardToSpend(db, input.payment.card.code);
      if (!found.ok) return found;
      const part = Math.min(found.balanceCents, price);
      if (price - part !== order.amountCents) return { ok: false, kind: 'gift-card-changed' };
      cardWithPayPal = { lotId: found.lotId, cents: part };
    }
    payment = { orderId, amountCents: order.amountCents };
  }
  // A gift card (issue 33): the amount in her range, and a card that holds it all. Debited with the claim.
  let card: { lotId: string; cents: number } | undefined;
  if (input.payment.kind === 'gift-card') {
    const { amountCents } = input.payment;
    const accepted = await acceptedAmounts(db, input.sessionType);
    if (!centsInRange(accepted.range, amountCents)) return { ok: false, kind: 'amount-out-of-range', ...accepted };
    const found = await cardToSpend(db, input.payment.code);
    if (!found.ok) return found;
    if (found.balanceCents < amountCents) return { ok: false, kind: 'gift-card-short', balanceCents: found.balanceCents, amountCents };
    card = { lotId: found.lotId, cents: amountCents };
  }

  const details: BookingAttemptDetails = {
    firstName: input.firstName,
    lastName: input.lastName,
    email: account.email,
    sessionType: input.sessionType,
    message: input.message,
  };
  // A payment she recorded becomes a credit of its own, spent like one (no twin of the credit's path).
  // A session a gift card pays is sold the same way: a lot of one, its money the card's (income when spent).
  const today = zonedNow(env.SITE_TIMEZONE, deps.clock.now()).date;
  const recorded: { method: LotMethod; amountCents: number; paidOn: string } | undefined =
    input.payment.kind === 'recorded' ? input.payment : card ? { method: 'gift_card', amountCents: card.cents, paidOn: today } : undefined;
  const withCredit = input.payment.kind === 'credit' || recorded !== undefined;
  const claim = {
    userId: account.id,
    ...details,
    amountCents: payment?.amountCents ?? null,
    couponUsed: payment === undefined && !withCredit,
    paypalOrderId: payment?.orderId ?? null,
  };

  // An online session's Google Meet link, made before the claim when her calendar is connected (issue 35).
  await prepareMeetLink(deps, slotId);

  // The claim, in one short transaction with no PayPal call: the conditional UPDATE books the
  // slot for one claimant only; with PayPal, the attempt is recorded with it. The losers return
  // before any capture, and their approved orders lapse uncharged.
  let claimed: { row: BookedSlot; attempt: PaymentAttempt | undefined; mails: QueuedMails };
  try {
    claimed = await db.transaction().execute(async (trx) => {
      // The coupon's cap, counted under the client's row lock: two coupon bookings at the limit queue here.
      if (!payment && !withCredit && (await lockAndCountCouponBookings(trx, account.id)) >= env.BOOKING_COUPON_LIMIT) throw new BookingRefused('coupon-limit');
      // A credit, taken under the same row lock (issue 32): of bookings racing for the last one,
      // one finds it; the throw rolls the spend back with everything when the slot is lost. A
      // payment she records is a lot of one sold now and spent at once (the books read lots).
      const by = input.byAdmin ? 'admin' : 'client';
      const sold =
        withCredit && recorded
          ? await grantPackage(trx, {
              userId: account.id,
              package: { id: null, name: input.sessionType, sessionTypes: [input.sessionType], sessions: 1, monthsValid: null },
              priceCents: recorded.method === 'free' ? 0 : recorded.amountCents,
              method: recorded.method,
              paidOn: recorded.paidOn,
              createdBy: by,
            })
          : undefined;
      const booked = withCredit
        ? await claimWithCredit(trx, slotId, { ...details, userId: account.id }, today, {
            zone: env.SITE_TIMEZONE,
            by,
            ...(sold ? { lotId: sold } : {}),
          })
        : undefined;
      if (booked && !booked.ok) throw new BookingRefused(booked.kind);
      // The card's debit under its lot's lock: of two bookings spending one card, one finds it enough.
      if (card && !(await spendCard(trx, { lotId: card.lotId, cents: card.cents, slotId, by })).ok) throw new BookingRefused('gift-card-changed');
      // The slot first, the attempt after: the attempt's foreign key share-locks the slot row,
      // and taken the other way round two claims of one slot would deadlock on it.
      const row = booked?.ok ? booked.row : await claimIfClear(trx, env.SITE_TIMEZONE, slotId, claim);
      if (row === 'busy') throw new BookingRefused('slot-busy');
      if (!row) throw new BookingRefused('claim-lost');
      let attempt: PaymentAttempt | undefined;
      if (payment) {
        attempt = await openAttempt(trx, {
          kind: 'booking',
          paypalOrderId: payment.orderId,
          paypalRequestId: captureRequestId(payment.orderId),
          amountCents: payment.amountCents,
          currency: 'USD',
          slotId,
          userId: account.id,
          details,
          claimedBy: PROCESS_ID,
        });
        if (!attempt) throw new AttemptExists();
        // The card's part, under its lot's lock, with the attempt: a release gives it back (bookingPurchase).
        if (cardWithPayPal && !(await spendCard(trx, { ...cardWithPayPal, slotId, attemptId: attempt.id, by })).ok)
          throw new BookingRefused('gift-card-changed');
      }
      // Booked with the coupon or a credit: the booking is final now, its mails are written with it.
      const mails = attempt
        ? []
        : await queueBookingMails(trx, env, row, false, input.byAdmin ? (input.byAdmin.mailClient ? 'client' : 'none') : 'both', card?.cents);
      return { row, attempt, mails };
    });
  } catch (err) {
    if (err instanceof BookingRefused && err.kind === 'claim-lost' && payment) {
      // Lost to a concurrent request for this same PayPal order (a double click): follow it.
      const other = await findAttempt(db, payment.orderId);
      if (other && other.slotId === slotId && other.userId === account.id) return replay(deps, other, account.firstName);
    }
    if (err instanceof BookingRefused) return { ok: false, kind: err.kind };
    if (err instanceof AttemptExists && payment) {
      const other = await findAttempt(db, payment.orderId);
      if (other) return replay(deps, other, account.firstName);
    }
    throw err;
  }

  if (!claimed.attempt) {
    await announce(deps, claimed.row, claimed.mails);
    return { ok: true, booking: claimed.row };
  }
  // Capture after the claim, with no transaction open: the client is charged only once the slot is theirs.
  const purchase = bookingPurchase(env, input.finalizedByServer === true);
  return answerSettled(bookingAnswers(db), claimed.attempt, await captureAndSettle(deps, purchase, claimed.attempt), account.firstName);
}

/** Who a session booked with a credit is for, and its words (nothing is paid now). */
export type CreditClaim = Omit<Claim, 'amountCents' | 'couponUsed' | 'paypalOrderId' | 'creditLotId'>;

/** Why claimWithCredit booked nothing. */
export type CreditClaimRefusal = 'no-credit' | 'unknown-account' | 'claim-lost' | 'slot-busy';

/**
 * Books `slotId` with one of the client's credits in the caller's transaction (issue 32): the
 * credit lapsing first is spent under the client's row lock, then the slot is claimed. The one
 * credit path of a booking: finalizeBooking takes it for one session, a weekly series
 * (series.ts) once per week. A refusal after the spend ('claim-lost') leaves the spend written:
 * the caller rolls it back (the whole transaction, or the week's savepoint).
 */
export async function claimWithCredit(
  trx: Transaction<Database>,
  slotId: string,
  claim: CreditClaim,
  today: string,
  /** Her zone (the agenda's days); who books (her for a client), and the lot to spend when it is a given one (a payment she just recorded). */
  options: { zone: string; by?: 'client' | 'admin'; lotId?: string },
): Promise<{ ok: true; row: BookedSlot } | { ok: false; kind: CreditClaimRefusal }> {
  const { zone, ...spend } = options;
  const spent = await spendCredit(trx, { userId: claim.userId, sessionType: claim.sessionType, slotId, today, ...spend });
  if (!spent.ok) return spent;
  const row = await claimIfClear(trx, zone, slotId, { ...claim, amountCents: null, couponUsed: false, paypalOrderId: null, creditLotId: spent.lotId });
  if (row === 'busy') return { ok: false, kind: 'slot-busy' };
  return row ? { ok: true, row } : { ok: false, kind: 'claim-lost' };
}

/**
 * The client's and the teacher's mails about a confirmed booking, written to the outbox in the
 * transaction that confirms it (a crash after the commit never loses them; a rollback never sends them).
 */
async function queueBookingMails(
  trx: Transaction<Database>,
  env: BookingDeps['env'],
  booked: BookedSlot,
  finalizedByServer = false,
  to: 'both' | 'client' | 'none' = 'both',
  giftCardCents?: number,
): Promise<QueuedMails> {
  if (to === 'none') return [];
  const brand = (await brandNames(trx)).yoga;
  const session = { ...bookedSession(booked), finalizedByServer, ...(giftCardCents ? { giftCardCents } : {}) };
  return queueMails(trx, 'booking-confirmation', bookingMails(env, brand, session).slice(0, to === 'client' ? 1 : 2));
}

/** A booked slot as its mails read it. */
export function bookedSession(booked: BookedSlot): BookedSession {
  return {
    slotId: booked.id,
    startsAt: new Date(booked.startsAt),
    bookedAt: new Date(booked.bookedAt ?? Date.now()),
    duration: booked.duration,
    sessionType: booked.sessionType ?? '',
    firstName: booked.firstName ?? '',
    lastName: booked.lastName ?? '',
    email: booked.email ?? '',
    message: booked.message ?? '',
    userId: booked.bookedBy!,
    amountCents: booked.amountCents,
    couponUsed: booked.couponUsed,
    paypalOrderId: booked.paypalOrderId,
    place: booked.place,
    online: booked.online,
    link: booked.link,
  };
}

/** After the booking's commit, best effort: every open booking page drops the slot; its queued mails leave now. */
async function announce(deps: BookingDeps, booked: BookedSlot, mails: QueuedMails): Promise<void> {
  // A room that is down never fails the booking (notifySlotBooked logs and never throws).
  void deps.realtime.notifySlotBooked(booked.id).catch(() => {});
  // Her Google Calendar gets the session now, not at the next round (issue 35).
  nudgeWriteBack(deps);
  await sendQueued(deps, mails);
}

/** A replay of a PayPal order whose attempt is open or done (api/money/capture.ts followAttempt). */
async function replay(deps: BookingDeps, first: PaymentAttempt, accountFirstName: string): Promise<BookingResult> {
  const followed = await followAttempt(deps, first);
  if (followed.kind === 'timeout') return { ok: false, kind: 'payment-unavailable' };
  if (followed.kind === 'captured') {
    return settleBookingAttempt(deps, followed.attempt, followed.outcome, { settledBy: 'retry', holder: followed.holder }, accountFirstName);
  }
  return answerAttempt(bookingAnswers(deps.db), followed.attempt, accountFirstName);
}

/** The booking's words for how settling ended (api/money/settle.ts answerSettled). */
function bookingAnswers(db: DB): PaidAnswers<BookedSlot, BookingResult, 'claim-lost'> {
  return {
    nothingToRecord: 'claim-lost',
    recorded: (booking, payerFirstName) => ({ ok: true, booking, payerFirstName }),
    async recordedBefore(attempt, payerFirstName) {
      const booked = attempt.slotId ? await findBookedSlot(db, attempt.slotId, attempt.paypalOrderId) : undefined;
      return booked ? { ok: true, booking: booked, payerFirstName } : undefined;
    },
  };
}

/**
 * The booking's adapter of the payment lifecycle (api/money/settle.ts): the money it accepts
 * (the approved amount in USD, completed: a PENDING capture such as an eCheck is not money yet
 * and is refunded), the slot freed on a release, the confirmation's mails on completion, and
 * every open booking page told after the commit. `finalizedByServer`: the server finished a
 * booking its client approved and never finalized (the mails say so).
 */
export function bookingPurchase(env: BookingDeps['env'], finalizedByServer = false): Purchase<BookedSlot> {
  return {
    kind: 'booking',
    log: '[paypal]',
    accepts: acceptsApprovedUsd,
    async release(trx, attempt) {
      if (attempt.slotId) await freeSlot(trx, attempt.slotId, attempt.paypalOrderId);
      // A gift card's part of it goes back on the card (issue 33).
      await giveBackCardPart(trx, { attemptId: attempt.id, note: 'PayPal did not take the rest of a session' });
    },
    async record(trx, attempt) {
      // The teacher may have deleted the slot while it was being paid for: nothing to book (refunded).
      const booked = attempt.slotId ? await findBookedSlot(trx, attempt.slotId, attempt.paypalOrderId) : undefined;
      if (!booked) return null;
      const cardCents = await cardPartOfAttempt(trx, attempt.id);
      return { recorded: booked, mails: await queueBookingMails(trx, env, booked, finalizedByServer, 'both', cardCents || undefined) };
    },
    async announce(deps, booked) {
      // A room that is down never fails the booking (notifySlotBooked logs and never throws).
      void deps.realtime.notifySlotBooked(booked.id).catch(() => {});
      // Her Google Calendar gets the paid session now (issue 35).
      nudgeWriteBack(deps);
    },
  };
}

/**
 * Records how a booking's attempt ended, after the capture (or the look-up at PayPal), through the
 * shared lifecycle, and answers it in the booking's words. Shared by the checkout, the retry, the
 * reconciler and the webhook; the first to record an outcome wins.
 */
export async function settleBookingAttempt(
  deps: BookingDeps,
  attempt: PaymentAttempt,
  outcome: CaptureOutcome,
  by: Settler,
  accountFirstName = '',
  finalizedByServer = false,
): Promise<BookingResult> {
  const settled = await settlePayment(deps, bookingPurchase(deps.env, finalizedByServer), attempt, outcome, by);
  return answerSettled(bookingAnswers(deps.db), attempt, settled, accountFirstName);
}
