/**
 * A paid class place (issue 34, decision 0043): the fifth purchase kind of the one payment
 * lifecycle (api/money/settle.ts), built as the gift card's (gift-cards/buy-gift-card.ts).
 *
 *   holdPlace: under the class's lock, a place held for the buyer (counted until its hold
 *     lapses: HOLD_MINUTES), then the PayPal order for the amount she chose on the scale, made
 *     by the server with no transaction open;
 *   payForPlace: the sign-up's form with that order: the waiver signed on the held place and the
 *     payment attempt opened (one transaction, under the class's lock, committed before any
 *     capture), captured with no transaction open, and in the completing transaction the place
 *     marked paid, its money recorded (event_payments) and the sign-up's mails queued;
 *   releaseLapsedHolds: the hold runner: a hold whose buyer went away is deleted under the
 *     class's lock and the place offered to the first in line, with a time to pay.
 *
 * A payment that fails releases its attempt and gives the held place up (the adapter's
 * release), so the capacity counts a paid place only once paid and a held one only while held.
 * A crash between the capture and the commit leaves the attempt open: the retry, the reconciler
 * or the webhook completes it through the adapter registered below.
 */
import type { Transaction } from 'kysely';
import type { Database, EventAttemptDetails } from '../../db/schema.ts';
import type { Services } from '../services/index.ts';
import type { Env } from '../env.ts';
import { acceptsAmount, HOLDS_PER_ADDRESS, isPaidEvent, type EventOrderRequest } from '../../contract/event-prices.ts';
import { canonicalMailbox } from '../services/limits.ts';
import { attemptFor, createPayPalOrder, readApprovedOrder } from '../money/capture.ts';
import { findAttempt, openAttempt, type PaymentAttempt } from '../money/attempts.repo.ts';
import { acceptsApprovedUsd, answerSettled, captureAndSettle, replayPurchase } from '../money/settle.ts';
import type { PaidAnswers, PaymentDeps, Purchase, PurchaseRefusal } from '../money/settle.ts';
import { zonedNow } from '../lib/time.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { commitWithMails } from '../mail/commit.ts';
import { brandNames } from '../site/brand.ts';
import { readSettings } from '../settings/settings.repo.ts';
import { classSeats, type ClassEvent } from './signups.repo.ts';
import { lockEventById } from './places.repo.ts';
import {
  deleteHeldPlace,
  deleteLapsedHold,
  insertEventPayment,
  insertHeldPlace,
  lapsedHolds,
  classById,
  holdOfOrder,
  lockHoldOfOrder,
  lockSignupOf,
  markPlacePaid,
  paymentOfOrder,
  holdAgain,
  chooseHoldAmount,
  liveHoldsOf,
  setHoldOrder,
  signHeldPlace,
} from './event-payments.repo.ts';
import { waiverNow, type Student } from './enrol.ts';
import { hasStarted, promoteFromWaitlist, queuePromotedMails } from './places.ts';
import { classMail, signupMails } from './mails.ts';

/** How long a place is held while its buyer is in PayPal's window. */
export const HOLD_MINUTES = 15;
/** While PayPal captures, the place is kept at least this long (the attempt keeps it after). */
const CAPTURE_HOLD_MINUTES = 10;

/** The PayPal order a place is paid with: made by us, for this event and amount. */
export const eventOrderReference = (eventId: string, amountCents: number) => `event:${eventId}:${amountCents}`;

const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);

/** Why a paid event takes no place now, whoever pays. */
export type EventRefusal = 'not-found' | 'cancelled' | 'external' | 'past' | 'free';

/**
 * Why no place is free (issue 47): 'full' when paid or free places fill the class; 'held' when
 * some of them are only held for payments that lapse unless paid, with how many and when the
 * first comes free. A buyer is told "This class is full." only for the first.
 */
export type NoPlace = { kind: 'full' } | { kind: 'held'; held: number; freeAt: Date };

/** The class's seats (classSeats) against its capacity: null while a place is free. */
export function noPlaceLeft(seats: { taken: number; held: number; firstFree: Date | null }, capacity: number): NoPlace | null {
  if (seats.taken < capacity) return null;
  if (seats.taken - seats.held >= capacity || !seats.firstFree) return { kind: 'full' };
  return { kind: 'held', held: seats.held, freeAt: seats.firstFree };
}

export type HoldRefusal = EventRefusal | 'amount' | 'already' | 'full' | 'held' | 'too-many-holds' | 'email-holds-one' | 'payment-unavailable';
export type HoldRefused =
  | { ok: false; kind: Exclude<HoldRefusal, 'held' | 'too-many-holds' | 'email-holds-one'> }
  | { ok: false; kind: 'held'; held: number; freeAt: Date }
  /** This address holds HOLDS_PER_ADDRESS unpaid places already; the first of them lapses at `freeAt`. */
  | { ok: false; kind: 'too-many-holds'; freeAt: Date }
  /** Another spelling of this mailbox holds a place until `freeAt`. */
  | { ok: false; kind: 'email-holds-one'; freeAt: Date };

type Held = { ok: true; signupId: string; event: ClassEvent } | { ok: true; orderId: string } | HoldRefused;

/**
 * Holds a place in the paid event for the buyer and makes the PayPal order for `amountCents`
 * (exactly the price, or anything on the scale). A place is held by a person, not a script
 * (issue 47, decision 0054): the route asked the sign-up's human check first; one hold per
 * mailbox (canonicalMailbox) and class; asking again answers the same hold and order (a new
 * order for a new amount) and never moves its expiry, so a hold lapses HOLD_MINUTES after it was
 * made (or when the waitlist's offer ends) whatever is asked meanwhile; and `client`, the address
 * asking, holds at most HOLDS_PER_ADDRESS unpaid places of the class at a time.
 */
export async function holdPlace(
  deps: Pick<Services, 'db' | 'payments'>,
  eventId: string,
  input: EventOrderRequest,
  client: string,
): Promise<{ ok: true; orderId: string } | HoldRefused> {
  const { db } = deps;
  const held = await db.transaction().execute(async (trx): Promise<Held> => {
    const event = await lockEventById(trx, eventId);
    const refused = event ? paidEventRefusal(event, new Date()) : 'not-found';
    if (refused) return { ok: false, kind: refused };
    if (!acceptsAmount(event!, input.amountCents)) return { ok: false, kind: 'amount' };
    const mine = await lockSignupOf(trx, event!.id, event!.title, event!.date, input.email);
    if (mine && mine.payment !== 'held') return { ok: false, kind: 'already' };
    const live = mine?.heldUntil && new Date(mine.heldUntil).getTime() > Date.now();
    if (mine && live) {
      // Her hold, asked again (a second tab, a retry, the waitlist's offer): the same order for
      // the same amount; a new amount gets a new order. Its expiry never moves.
      if (mine.holdOrderId && mine.holdAmountCents === input.amountCents) return { ok: true, orderId: mine.holdOrderId };
      await chooseHoldAmount(trx, mine.id, input.amountCents);
      return { ok: true, signupId: mine.id, event: event! };
    }
    const holds = await liveHoldsOf(trx, event!.id);
    const mailbox = canonicalMailbox(input.email);
    const twin = holds.find((h) => h.email !== input.email && canonicalMailbox(h.email) === mailbox);
    if (twin) return { ok: false, kind: 'email-holds-one', freeAt: new Date(twin.heldUntil!) };
    const fromHere = holds.filter((h) => h.holdClient === client);
    if (fromHere.length >= HOLDS_PER_ADDRESS) {
      return { ok: false, kind: 'too-many-holds', freeAt: new Date(Math.min(...fromHere.map((h) => new Date(h.heldUntil!).getTime()))) };
    }
    // A new place, or one whose hold lapsed (not counted): only if one is free.
    const none = noPlaceLeft(await classSeats(trx, event!, input.email), event!.capacity);
    if (none) return { ok: false, ...none };
    const place = { name: input.name, phone: input.phone, amountCents: input.amountCents, heldUntil: minutesFromNow(HOLD_MINUTES), holdClient: client };
    if (mine) {
      await holdAgain(trx, mine.id, place);
      return { ok: true, signupId: mine.id, event: event! };
    }
    const row = await insertHeldPlace(trx, { eventId: event!.id, classTitle: event!.title, date: event!.date, email: input.email, ...place });
    return row ? { ok: true, signupId: row.id, event: event! } : { ok: false, kind: 'already' };
  });
  if (!held.ok || 'orderId' in held) return held;
  const order = await createPayPalOrder(
    deps.payments,
    { amountCents: input.amountCents, referenceId: eventOrderReference(eventId, input.amountCents), description: `${held.event.title}, ${held.event.date}` },
    'an event order',
  );
  if (!order.ok) {
    // PayPal could not make the order: the place goes back at once rather than when the hold lapses.
    await db.transaction().execute((trx) => deleteHeldPlace(trx, held.signupId));
    return order;
  }
  await setHoldOrder(db, held.signupId, order.orderId, input.amountCents);
  return order;
}

/** Why a paid event takes no payment now; null when it does. */
export function paidEventRefusal(event: ClassEvent, now: Date): EventRefusal | null {
  if (event.private) return 'not-found';
  if (event.cancelledAt) return 'cancelled';
  if (event.isExternal) return 'external';
  if (hasStarted(event, now)) return 'past';
  if (!isPaidEvent(event)) return 'free';
  return null;
}

/** Why payForPlace signed nothing up (PurchaseRefusal: the payment's reasons). */
export type PayForPlaceRefusal = 'hold-lapsed' | 'cancelled' | 'past' | PurchaseRefusal;

export type PayForPlaceResult = { ok: true; id: string } | { ok: false; kind: PayForPlaceRefusal };

type PayDeps = PaymentDeps & Pick<Services, 'clock'>;

/**
 * Signs `student` up for the place held for `paypalOrderId`: the order must be ours, for that
 * event and the amount held, approved and in USD. A replay of the same order answers the place
 * it paid for, waits for it, or after a crash completes it.
 */
export async function payForPlace(deps: PayDeps, paypalOrderId: string, student: Student): Promise<PayForPlaceResult> {
  const { db, payments } = deps;
  const mine = (a: PaymentAttempt) => a.kind === 'event' && (a.details as EventAttemptDetails).email === student.email;
  const existing = await findAttempt(db, paypalOrderId);
  if (existing && existing.state !== 'released') return mine(existing) ? replay(deps, existing) : { ok: false, kind: 'order-for-another-purchase' };

  const read = await readApprovedOrder(payments, paypalOrderId, 'an event order');
  if (!read.ok) return read;
  const { order } = read;
  if (order.status === 'COMPLETED') {
    const late = await findAttempt(db, paypalOrderId);
    return late && mine(late) ? replay(deps, late) : { ok: false, kind: 'order-already-used' };
  }
  if (order.status !== 'APPROVED') return { ok: false, kind: 'order-not-approved' };

  const paidOn = zonedNow(deps.env.SITE_TIMEZONE, deps.clock.now()).date;
  let opened: { ok: true; attempt: PaymentAttempt | undefined } | { ok: false; kind: PayForPlaceRefusal };
  try {
    // The attempt opened first, then the waiver signed on the held place under the class's lock,
    // committed before the capture. Locks in the order the settling takes them (the attempt,
    // then the class, then the place), so a payment being recorded never waits on this in a circle.
    opened = await db.transaction().execute(async (trx) => {
      const pre = await holdOfOrder(trx, order.id);
      if (!pre?.eventId || pre.email !== student.email) return { ok: false, kind: pre ? 'order-for-another-purchase' : 'hold-lapsed' } as const;
      const details: EventAttemptDetails = { signupId: pre.id, eventId: pre.eventId, name: student.name, email: student.email, phone: student.phone, paidOn };
      const attempt = await openAttempt(trx, attemptFor('event', order, details));
      // Opened by a concurrent request for this same order (a double click): nothing written here.
      if (!attempt) return { ok: true, attempt: undefined } as const;
      const event = await lockEventById(trx, pre.eventId);
      const hold = await lockHoldOfOrder(trx, order.id);
      const refusal = claimRefusal(order, event, hold, student);
      if (refusal) throw new ClaimRefused(refusal);
      // A hold that lapsed while the buyer was in PayPal's window is still hers if the place is.
      const counted = await lockSignupOf(trx, event!.id, event!.title, event!.date, student.email);
      const lapsed = counted?.heldUntil && new Date(counted.heldUntil).getTime() <= Date.now();
      if (lapsed && (await classSeats(trx, event!, '')).taken >= event!.capacity) throw new ClaimRefused('hold-lapsed');
      await signHeldPlace(trx, hold!.id, {
        name: student.name,
        phone: student.phone,
        signaturePng: student.signaturePng,
        ...(student.waiver ?? (await waiverNow(trx))),
        heldUntil: minutesFromNow(CAPTURE_HOLD_MINUTES),
      });
      return { ok: true, attempt } as const;
    });
  } catch (err) {
    // Refused after the attempt was opened: thrown to roll it back with the rest.
    if (!(err instanceof ClaimRefused)) throw err;
    opened = { ok: false, kind: err.kind };
  }
  if (!opened.ok) return opened;
  if (!opened.attempt) {
    // A concurrent request for this same order opened it first (a double click): follow it.
    const other = await findAttempt(db, order.id);
    return other && mine(other) ? replay(deps, other) : { ok: false, kind: 'order-for-another-purchase' };
  }
  return answerSettled(placeAnswers(deps), opened.attempt, await captureAndSettle(deps, placePurchase(deps.env), opened.attempt), '');
}

/** A refusal met once the attempt is opened: thrown to roll the claim back, answered after. */
class ClaimRefused extends Error {
  readonly kind: PayForPlaceRefusal;
  constructor(kind: PayForPlaceRefusal) {
    super(kind);
    this.kind = kind;
  }
}

/**
 * Why the held place cannot be paid for with this order now; null when it can. The order pays
 * only for the event the sign-up names (issue 47: a $10 order held for one event answered 201 for
 * a $100 one), for the amount held, which the event still accepts, in USD, under our reference.
 */
function claimRefusal(
  order: { id: string; referenceId: string | undefined; currency: string; amountCents: number },
  event: ClassEvent | undefined,
  hold: { id: string; email: string; payment: string | null; holdAmountCents: number | null } | undefined,
  student: Pick<Student, 'email' | 'classTitle' | 'date'>,
): PayForPlaceRefusal | null {
  if (!hold || hold.email !== student.email) return hold ? 'order-for-another-purchase' : 'hold-lapsed';
  if (!event || event.cancelledAt) return 'cancelled';
  if (event.title !== student.classTitle || event.date !== student.date) return 'order-for-another-purchase';
  if (hasStarted(event, new Date())) return 'past';
  if (hold.payment !== 'held') return 'order-already-used';
  const expected = eventOrderReference(event.id, hold.holdAmountCents ?? -1);
  if (order.referenceId !== expected || order.currency !== 'USD' || order.amountCents !== hold.holdAmountCents) return 'order-for-another-purchase';
  if (!acceptsAmount(event, order.amountCents)) return 'order-for-another-purchase';
  return null;
}

function replay(deps: PayDeps, first: PaymentAttempt): Promise<PayForPlaceResult> {
  return replayPurchase(deps, placePurchase(deps.env), placeAnswers(deps), first, '');
}

/** The place's words for how settling ended: the sign-up it paid for. */
function placeAnswers(deps: Pick<Services, 'db'>): PaidAnswers<{ id: string }, PayForPlaceResult, 'hold-lapsed'> {
  return {
    // Nothing recorded: the held place was gone when the money came (refunded).
    nothingToRecord: 'hold-lapsed',
    recorded: (paid) => ({ ok: true, id: paid.id }),
    async recordedBefore(attempt) {
      return (await paymentOfOrder(deps.db, attempt.paypalOrderId)) ? { ok: true, id: (attempt.details as EventAttemptDetails).signupId } : undefined;
    },
  };
}

/**
 * The place's adapter of the payment lifecycle: the approved amount in USD, completed; a release
 * gives the held place up (the next in line may have it); on completion the place is paid, its
 * money recorded and the sign-up's mails queued. A place no longer held (deleted meanwhile) has
 * nothing to record on: the capture is refunded.
 */
export function placePurchase(env: Env): Purchase<{ id: string }> {
  return {
    kind: 'event',
    log: '[events]',
    accepts: acceptsApprovedUsd,
    async release(trx, attempt) {
      const d = attempt.details as EventAttemptDetails;
      const event = await lockEventById(trx, d.eventId);
      if (!(await deleteHeldPlace(trx, d.signupId)) || !event) return;
      const promoted = await promoteFromWaitlist(trx, event, new Date());
      // The offers' mails leave with the release's commit (the outbox sender takes them).
      await queuePromotedMails(trx, env, event, promoted);
    },
    async record(trx, attempt, captured) {
      const d = attempt.details as EventAttemptDetails;
      // Read, not locked: the attempt's row is held here, and a claim holds the class's lock
      // while it waits on that row; marking the held place paid is conditional on its own.
      const event = await classById(trx, d.eventId);
      if (!event) return null;
      const paymentId = await insertEventPayment(trx, {
        eventId: event.id,
        eventTitle: event.title,
        eventDate: event.date,
        name: d.name,
        email: d.email,
        amountCents: attempt.amountCents,
        method: 'paypal',
        paypalOrderId: attempt.paypalOrderId,
        paypalCaptureId: captured.captureId,
        paidOn: d.paidOn,
      });
      if (!(await markPlacePaid(trx, d.signupId, paymentId))) return null;
      const mails = await queuePaidSignupMails(trx, env, event, { id: d.signupId, name: d.name, email: d.email, phone: d.phone }, attempt.amountCents);
      return { recorded: { id: d.signupId }, mails };
    },
  };
}

/** The sign-up's mails for a paid place: what she paid, and until when a cancellation is refunded. */
export async function queuePaidSignupMails(
  trx: Transaction<Database>,
  env: Env,
  event: ClassEvent,
  s: { id: string; name: string; email: string; phone: string },
  amountCents: number,
  credit = false,
) {
  const [{ yoga }, { cancelNoticeHours }] = await Promise.all([brandNames(trx), readSettings(trx)]);
  const paid = { amountCents, noticeHours: cancelNoticeHours, credit };
  return queueMails(trx, 'class-signup', signupMails(env, yoga, { ...s, returning: false }, classMail(event), paid));
}

/**
 * The hold runner: deletes the held places whose buyers went away (no payment being captured
 * for them) under their class's lock, and offers each freed place to the first in line.
 */
export async function releaseLapsedHolds(deps: Pick<Services, 'db' | 'env' | 'mailer'>): Promise<number> {
  let released = 0;
  for (const hold of await lapsedHolds(deps.db)) {
    await commitWithMails(deps, async (trx) => {
      const event = hold.eventId ? await lockEventById(trx, hold.eventId) : undefined;
      if (!(await deleteLapsedHold(trx, hold.id))) return { result: undefined, mails: [] };
      released += 1;
      if (!event) return { result: undefined, mails: [] };
      return { result: undefined, mails: await queuePromotedMails(trx, deps.env, event, await promoteFromWaitlist(trx, event, new Date())) };
    });
  }
  return released;
}
