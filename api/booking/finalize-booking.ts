/**
 * Finishing a booking (SPEC.md sections 4, 5, 7, 8; issue 5), the use-case the routes of
 * api/booking/booking.routes.ts call and a unit test can call directly: finalizeBooking claims
 * the slot for the client, paid in one of the ways booking-claims.ts checks and claims (the
 * coupon, a credit, a payment she recorded, a gift card, a PayPal order the buyer approved,
 * with a card's part or not), then tells the room and mails the confirmation. Starting a
 * payment (the PayPal order made for the slot) is start-booking-payment.ts.
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
import { brandNames } from '../site/brand.ts';
import type { BookingAttemptDetails } from '../../db/schema.ts';
import { bookingMails, type BookedSession } from './mails.ts';
import { queueMails, type QueuedMails } from '../mail/outbox.repo.ts';
import { sendQueued } from '../mail/outbox.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { findBookedSlot, freeSlot, type BookedSlot } from './booking.repo.ts';
import { findUserById } from '../accounts/users.repo.ts';
import { findAttempt, type PaymentAttempt } from '../money/attempts.repo.ts';
import { followAttempt, type CaptureOutcome } from '../money/capture.ts';
import { acceptsApprovedUsd, answerAttempt, answerSettled, captureAndSettle, settlePayment } from '../money/settle.ts';
import type { PaidAnswers, Purchase, Settler } from '../money/settle.ts';
import { intakeMissingForFirstBooking } from '../practice/gate.ts';
import { cardPartOfAttempt, giveBackCardPart } from '../money/ledger.ts';
import type { CardRefusal } from '../money/cards.ts';
import { zonedNow } from '../lib/time.ts';
import { refreshBusyTimesIfStale } from '../agenda/calendar.ts';
import { nudgeWriteBack, prepareMeetLink } from '../agenda/write-back.ts';
import { checkSlot, type AmountRefusal, type SlotRefusal } from './start-booking-payment.ts';
import {
  AttemptExists,
  checkCoupon,
  checkGiftCard,
  checkPayPal,
  ClaimRefused,
  creditClaim,
  liveAttemptFor,
  recordedClaim,
  type BookingPayment,
  type CardShortRefusal,
  type Checked,
} from './booking-claims.ts';

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
  /** How it is paid (booking-claims.ts). */
  payment: BookingPayment;
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

/**
 * The answer of finalizeBooking: the booked slot, with (paid bookings only) the first name of
 * who paid, which SPEC.md section 7 puts in the success message; or a refusal.
 */
export type BookingResult =
  | { ok: true; booking: BookedSlot; payerFirstName?: string }
  | { ok: false; kind: Exclude<BookingRefusal, 'amount-out-of-range'> }
  | AmountRefusal
  | CardShortRefusal;

type BookingDeps = Pick<Services, 'db' | 'env' | 'payments' | 'mailer' | 'realtime' | 'clock'> & Partial<Pick<Services, 'calendar'>>;

/**
 * Books the slot: checks the account, the slot and the payment (nothing is captured yet), claims
 * the slot and records the payment attempt in one short transaction, captures with no
 * transaction open, then confirms the booking in a second one; after that commit, tells every
 * open booking page and mails the client and the teacher. A replay of the same PayPal order
 * answers the booking it made, waits for it, or after a crash completes it.
 */
export async function finalizeBooking(deps: BookingDeps, input: BookingInput): Promise<BookingResult> {
  const { db, env } = deps;
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

  // The payment checked, nothing taken yet.
  const checked = await checkPayment(deps, { slotId, userId: account.id, sessionType: input.sessionType }, input.payment);
  if (checked.ok === 'follow') return replay(deps, checked.attempt, account.firstName);
  if (!checked.ok) return checked;
  const { paid } = checked;

  const details: BookingAttemptDetails = {
    firstName: input.firstName,
    lastName: input.lastName,
    email: account.email,
    sessionType: input.sessionType,
    message: input.message,
  };
  const today = zonedNow(env.SITE_TIMEZONE, deps.clock.now()).date;
  const by = input.byAdmin ? 'admin' : 'client';

  // An online session's Google Meet link, made before the claim when her calendar is connected (issue 35).
  await prepareMeetLink(deps, slotId);

  // The claim, in one short transaction with no PayPal call: the conditional UPDATE books the
  // slot for one claimant only, with what pays for it; with PayPal, the attempt is recorded with
  // it. The losers return before any capture, and their approved orders lapse uncharged.
  let claimed: { row: BookedSlot; attempt?: PaymentAttempt; mails: QueuedMails };
  try {
    claimed = await db.transaction().execute(async (trx) => {
      const { row, attempt } = await paid.claim({ trx, zone: env.SITE_TIMEZONE, slotId, userId: account.id, details, today, by });
      // Booked with the coupon, a credit or a card: the booking is final now, its mails are written with it.
      const mails = attempt
        ? []
        : await queueBookingMails(trx, env, row, false, input.byAdmin ? (input.byAdmin.mailClient ? 'client' : 'none') : 'both', paid.cardCents);
      return { row, attempt, mails };
    });
  } catch (err) {
    if (err instanceof ClaimRefused && err.kind === 'claim-lost' && paid.paypalOrderId) {
      // Lost to a concurrent request for this same PayPal order (a double click): follow it.
      const other = await findAttempt(db, paid.paypalOrderId);
      if (other && other.slotId === slotId && other.userId === account.id) return replay(deps, other, account.firstName);
    }
    if (err instanceof ClaimRefused) return { ok: false, kind: err.kind };
    if (err instanceof AttemptExists && paid.paypalOrderId) {
      const other = await findAttempt(db, paid.paypalOrderId);
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

/** The check of the way the booking is paid (booking-claims.ts), before anything is claimed or taken. */
function checkPayment(
  deps: BookingDeps,
  booking: { slotId: string; userId: string; sessionType: string },
  payment: BookingPayment,
): Promise<Checked> | Checked {
  switch (payment.kind) {
    case 'coupon':
      return checkCoupon(deps.env, payment.code);
    case 'credit':
      return { ok: true, paid: creditClaim };
    case 'recorded':
      return { ok: true, paid: recordedClaim(payment) };
    case 'gift-card':
      return checkGiftCard(deps.db, booking.sessionType, payment);
    case 'paypal':
      return checkPayPal(deps, booking, payment);
  }
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
