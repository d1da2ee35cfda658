/**
 * The ways to pay for a session (SPEC.md sections 5 and 7; issues 5, 32 and 33), each in two
 * steps: its check before the claim (nothing taken: the coupon's word, PayPal's approved order,
 * the card's balance), then its claim in the claim's one short transaction (finalize-booking.ts),
 * which books the slot for one claimant only and takes what pays for it with it:
 *
 *   coupon       the booking coupon, within its limit per client (free)
 *   credit       one of the client's session credits (issue 32)
 *   recorded     she was paid by hand: a lot of one sold now and spent at once (issue 32)
 *   gift card    a card that holds the whole price: a lot of one (method 'gift_card') spent at
 *                once, and the card debited (issue 33, decision 0042)
 *   PayPal       the order the buyer approved: the payment attempt opened with the claim, and a
 *                gift card's part of the price debited with it when a card pays some (issue 33)
 *
 * A claim's refusal is thrown (ClaimRefused) to roll the transaction back, and answered after it.
 */
import type { Transaction } from 'kysely';
import type { Services } from '../services/index.ts';
import type { DB } from '../../db/client.ts';
import type { BookingAttemptDetails, Database, LotMethod } from '../../db/schema.ts';
import type { SaleMethod } from '../../contract/packages.ts';
import { captureRequestId } from '../services/payments/paypal.ts';
import { claimSlot, lockAndCountCouponBookings, type BookedSlot, type Claim } from './booking.repo.ts';
import { findAttempt, openAttempt, type PaymentAttempt } from '../money/attempts.repo.ts';
import { readApprovedOrder } from '../money/capture.ts';
import { grantPackage, spendCard, spendCredit } from '../money/ledger.ts';
import { cardToSpend, type CardRefusal } from '../money/cards.ts';
import { PROCESS_ID } from '../lib/process.ts';
import { slotIsClear } from '../agenda/agenda.ts';
import { sessionLink } from '../agenda/write-back.ts';
import { acceptedAmounts, bookingOrderReference, centsInRange, type AmountRefusal } from './start-booking-payment.ts';

/**
 * How a session is paid: the booking coupon, the id of the PayPal order startBookingPayment made
 * and the buyer approved, one of the client's session credits (issue 32), a payment she recorded,
 * or a gift card.
 */
export type BookingPayment =
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

/** Why a claim booked nothing, met inside its transaction (see BookingRefusal in finalize-booking.ts). */
export type ClaimRefusal = 'coupon-limit' | 'claim-lost' | 'slot-busy' | 'no-credit' | 'unknown-account' | 'gift-card-changed';

/** A refusal met inside the claim's transaction: thrown to roll it back, answered after. */
export class ClaimRefused extends Error {
  readonly kind: ClaimRefusal;
  constructor(kind: ClaimRefusal) {
    super(kind);
    this.kind = kind;
  }
}

/** The PayPal order has an attempt already (a concurrent or later replay): roll back, follow it. */
export class AttemptExists extends Error {}

/** What every claim is given: the claim's transaction, the slot, who books and who for, and her day. */
export interface ClaimOf {
  trx: Transaction<Database>;
  zone: string;
  slotId: string;
  userId: string;
  details: BookingAttemptDetails;
  today: string;
  by: 'client' | 'admin';
}

/** A way to pay, checked: its claim, and what the booking's answer and mails need of it. */
export interface PaidClaim {
  /** The PayPal order it pays with: a lost claim may be a concurrent request for the same order. */
  paypalOrderId?: string;
  /** What a gift card paid of a session it paid in full, for the confirmation's words. */
  cardCents?: number;
  /** The claim, in the claim's transaction; with PayPal, the attempt to capture after the commit. */
  claim(c: ClaimOf): Promise<{ row: BookedSlot; attempt?: PaymentAttempt }>;
}

/** A check's answer: the claim to make, a refusal, or a concurrent request's attempt for this order to follow. */
export type Checked =
  | { ok: true; paid: PaidClaim }
  | {
      ok: false;
      kind:
        | 'coupon-invalid'
        | 'order-unknown'
        | 'payment-unavailable'
        | 'order-for-another-booking'
        | 'order-already-used'
        | 'order-not-approved'
        | 'gift-card-changed'
        | CardRefusal;
    }
  | AmountRefusal
  | CardShortRefusal
  | { ok: 'follow'; attempt: PaymentAttempt };

/** A gift card that holds less than the amount chosen (issue 33): what it holds, for the refusal's words. */
export interface CardShortRefusal {
  ok: false;
  kind: 'gift-card-short';
  balanceCents: number;
  amountCents: number;
}

/** SPEC.md section 5: compared ignoring case and surrounding spaces. */
export const isBookingCoupon = (code: string, coupon: string) => code.trim().toLowerCase() === coupon.trim().toLowerCase();

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
export async function liveAttemptFor(db: DB, orderId: string, slotId: string, userId: string): Promise<PaymentAttempt | undefined> {
  const a = await findAttempt(db, orderId);
  return a && a.state !== 'released' && a.kind === 'booking' && a.slotId === slotId && a.userId === userId ? a : undefined;
}

/** The slot claimed as `claim` says, or the claim's refusal thrown. */
async function claimOrRefuse(c: ClaimOf, paid: Pick<Claim, 'amountCents' | 'couponUsed' | 'paypalOrderId'>): Promise<BookedSlot> {
  const row = await claimIfClear(c.trx, c.zone, c.slotId, { userId: c.userId, ...c.details, ...paid });
  if (row === 'busy') throw new ClaimRefused('slot-busy');
  if (!row) throw new ClaimRefused('claim-lost');
  return row;
}

/** Spends a credit on the slot (of a lot just sold, when `lotId`), or throws the refusal. */
async function claimCredit(c: ClaimOf, lotId?: string): Promise<BookedSlot> {
  const booked = await claimWithCredit(c.trx, c.slotId, { ...c.details, userId: c.userId }, c.today, {
    zone: c.zone,
    by: c.by,
    ...(lotId ? { lotId } : {}),
  });
  if (!booked.ok) throw new ClaimRefused(booked.kind);
  return booked.row;
}

/** A session sold as a lot of one, spent at once (a payment she recorded, a gift card's): the books read lots. */
function soldAsLot(c: ClaimOf, sale: { method: LotMethod; amountCents: number; paidOn: string }): Promise<string> {
  return grantPackage(c.trx, {
    userId: c.userId,
    package: { id: null, name: c.details.sessionType, sessionTypes: [c.details.sessionType], sessions: 1, monthsValid: null },
    priceCents: sale.method === 'free' ? 0 : sale.amountCents,
    method: sale.method,
    paidOn: sale.paidOn,
    createdBy: c.by,
  });
}

/** The booking coupon: its word checked now; its limit per client counted under the client's row lock in the claim. */
export function checkCoupon(env: Services['env'], code: string): Checked {
  if (!isBookingCoupon(code, env.BOOKING_COUPON)) return { ok: false, kind: 'coupon-invalid' };
  return {
    ok: true,
    paid: {
      async claim(c) {
        // The coupon's cap, counted under the client's row lock: two coupon bookings at the limit queue here.
        if ((await lockAndCountCouponBookings(c.trx, c.userId)) >= env.BOOKING_COUPON_LIMIT) throw new ClaimRefused('coupon-limit');
        return { row: await claimOrRefuse(c, { amountCents: null, couponUsed: true, paypalOrderId: null }) };
      },
    },
  };
}

/**
 * A credit, taken under the client's row lock (issue 32): of bookings racing for the last one,
 * one finds it; the throw rolls the spend back with everything when the slot is lost.
 */
export const creditClaim: PaidClaim = {
  async claim(c) {
    return { row: await claimCredit(c) };
  },
};

/** A payment she recorded: a lot of one sold now and spent at once, as a credit is (no twin of the credit's path). */
export function recordedClaim(sale: { method: SaleMethod; amountCents: number; paidOn: string }): PaidClaim {
  return {
    async claim(c) {
      return { row: await claimCredit(c, await soldAsLot(c, sale)) };
    },
  };
}

/**
 * A gift card that pays the session in full (issue 33): the amount in her range and a card that
 * holds it all, checked now; in the claim, the session sold as a lot of one (its money the card's,
 * income when spent) and spent, and the card debited under its lot's lock.
 */
export async function checkGiftCard(db: DB, sessionType: string, payment: { code: string; amountCents: number }): Promise<Checked> {
  const { amountCents } = payment;
  const accepted = await acceptedAmounts(db, sessionType);
  if (!centsInRange(accepted.range, amountCents)) return { ok: false, kind: 'amount-out-of-range', ...accepted };
  const found = await cardToSpend(db, payment.code);
  if (!found.ok) return found;
  if (found.balanceCents < amountCents) return { ok: false, kind: 'gift-card-short', balanceCents: found.balanceCents, amountCents };
  return {
    ok: true,
    paid: {
      cardCents: amountCents,
      async claim(c) {
        const row = await claimCredit(c, await soldAsLot(c, { method: 'gift_card', amountCents, paidOn: c.today }));
        // Of two bookings spending one card, one finds it enough.
        if (!(await spendCard(c.trx, { lotId: found.lotId, cents: amountCents, slotId: c.slotId, by: c.by })).ok) throw new ClaimRefused('gift-card-changed');
        return { row };
      },
    },
  };
}

/**
 * The PayPal order the buyer approved: made by us for this slot and this client, APPROVED, in USD
 * and in the range she accepts now (a change of hers since the order was made applies). With a
 * gift card, the card pays what it holds now and the order must be for exactly the rest, or the
 * card changed since it was made. Nothing is captured yet. In the claim: the slot first, then the
 * attempt (its foreign key share-locks the slot row; taken the other way round, two claims of one
 * slot would deadlock on it), then the card's part, keyed by the attempt (a release gives it back).
 */
export async function checkPayPal(
  deps: Pick<Services, 'db' | 'payments'>,
  input: { slotId: string; userId: string; sessionType: string },
  payment: { orderId: string; card?: { code: string; amountCents: number } },
): Promise<Checked> {
  const { db } = deps;
  const { orderId } = payment;
  const read = await readApprovedOrder(deps.payments, orderId, 'a booking order');
  if (!read.ok) return read;
  const { order } = read;
  if (order.referenceId !== bookingOrderReference(input.slotId, input.userId)) return { ok: false, kind: 'order-for-another-booking' };
  if (order.status === 'COMPLETED') {
    // A concurrent request for the same order may have captured since we looked: follow it.
    const late = await liveAttemptFor(db, orderId, input.slotId, input.userId);
    if (late) return { ok: 'follow', attempt: late };
    return { ok: false, kind: 'order-already-used' };
  }
  if (order.status !== 'APPROVED') return { ok: false, kind: 'order-not-approved' };
  const accepted = await acceptedAmounts(db, input.sessionType);
  const price = payment.card?.amountCents ?? order.amountCents;
  if (order.currency !== 'USD' || !centsInRange(accepted.range, price)) return { ok: false, kind: 'amount-out-of-range', ...accepted };
  let cardPart: { lotId: string; cents: number } | undefined;
  if (payment.card) {
    const found = await cardToSpend(db, payment.card.code);
    if (!found.ok) return found;
    const part = Math.min(found.balanceCents, price);
    if (price - part !== order.amountCents) return { ok: false, kind: 'gift-card-changed' };
    cardPart = { lotId: found.lotId, cents: part };
  }
  const amountCents = order.amountCents;
  return {
    ok: true,
    paid: {
      paypalOrderId: orderId,
      async claim(c) {
        const row = await claimOrRefuse(c, { amountCents, couponUsed: false, paypalOrderId: orderId });
        const attempt = await openAttempt(c.trx, {
          kind: 'booking',
          paypalOrderId: orderId,
          paypalRequestId: captureRequestId(orderId),
          amountCents,
          currency: 'USD',
          slotId: c.slotId,
          userId: c.userId,
          details: c.details,
          claimedBy: PROCESS_ID,
        });
        if (!attempt) throw new AttemptExists();
        if (cardPart && !(await spendCard(c.trx, { ...cardPart, slotId: c.slotId, attemptId: attempt.id, by: c.by })).ok)
          throw new ClaimRefused('gift-card-changed');
        return { row, attempt };
      },
    },
  };
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
