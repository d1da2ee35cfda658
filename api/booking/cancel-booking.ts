/**
 * A client cancels their own booked session (issue 15, decision 0016), up to her notice period
 * (the setting cancelNoticeHours, issue 30) before it starts.
 *
 * Money rule (decision 0012): the slot is freed and the cancellation recorded in one short
 * transaction holding the slot's row lock; PayPal's refund comes after the commit, with no
 * transaction open; its outcome is written on the cancellation record. A refund PayPal refuses
 * is logged loudly, the record says 'failed' (the admin's bookings list it) and the teacher's
 * mail says to refund by hand: the client's session is cancelled either way. The mails say how
 * the refund went, so they are written to the outbox with the refund's outcome (or with the
 * cancellation, when nothing was paid).
 */
import type { Services } from '../services/index.ts';
import type { Payments } from '../services/payments/paypal.ts';
import { queueMails, type QueuedMails } from '../mail/outbox.repo.ts';
import { commitAnswer, commitWithMails } from '../mail/commit.ts';
import { brandNames } from '../site/brand.ts';
import { findAttempt } from '../money/attempts.repo.ts';
import { refundCaptureOnce } from '../money/refunds-owed.ts';
import { lockSlots, owedCancellationRefunds, recordCancellation, releaseBookedSlot, settleCancellationRefund, type LockedSlot } from './booking.repo.ts';
import { bookingCalendar, clientCancelledMails, type ChangedSession } from './mails.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { readSettings } from '../settings/settings.repo.ts';
import { giveBackCardPart, settleSessionOnCancel } from '../money/ledger.ts';
import { changeableAt } from '../lib/time.ts';
import { nudgeWriteBack } from '../agenda/write-back.ts';

/**
 * Why a session can't be changed online:
 * - 'not-found': no such session booked by this client (someone else's reads the same: nothing is revealed);
 * - 'too-late': it starts within her notice period (or has begun);
 * - 'payment-processing': its PayPal capture is still under way (the booking is not confirmed yet).
 */
export type ChangeRefusal = 'not-found' | 'too-late' | 'payment-processing';

/** A refusal met inside the transaction: thrown to roll it back, answered after. */
export class ChangeRefused extends Error {
  readonly kind: string;
  constructor(kind: string) {
    super(kind);
    this.kind = kind;
  }
}

/**
 * The client's own booked session, locked (with the other slots of `alsoLock`, all in id order),
 * checked changeable at `now` under her notice period (read in the same transaction): else
 * ChangeRefused. The capture id of its payment, when it was paid.
 */
export async function lockOwnSession(
  trx: Transaction<Database>,
  now: Date,
  slotId: string,
  userId: string,
  alsoLock: string[] = [],
  /** Issue 32: a session booked with a credit may be cancelled late (the credit is forfeited). */
  lateWithCredit = false,
) {
  const locked = await lockSlots(trx, [slotId, ...alsoLock]);
  const slot = locked.get(slotId);
  if (!slot || slot.bookedAt === null || slot.bookedBy !== userId) throw new ChangeRefused('not-found');
  const { cancelNoticeHours } = await readSettings(trx);
  const late = !changeableAt(cancelNoticeHours, slot.startsAt, now.getTime());
  if (late && !(lateWithCredit && slot.creditLotId !== null && new Date(slot.startsAt).getTime() > now.getTime())) throw new ChangeRefused('too-late');
  let captureId: string | null = null;
  if (slot.paypalOrderId) {
    const attempt = await findAttempt(trx, slot.paypalOrderId);
    // Claimed but not yet captured (or its answer lost): not the client's to cancel until it settles.
    if (attempt && attempt.state !== 'completed') throw new ChangeRefused('payment-processing');
    // No attempt: a booking paid before payment attempts were recorded (0005); PayPal is asked after the commit.
    captureId = attempt?.paypalCaptureId ?? null;
  }
  return { slot, locked, captureId, late };
}

/** Who booked a slot and what she paid for it, as the mails and the cancellation's record both copy them. */
const bookingOf = (slot: LockedSlot) => ({
  sessionType: slot.sessionType ?? '',
  firstName: slot.firstName ?? '',
  lastName: slot.lastName ?? '',
  email: slot.email ?? '',
  amountCents: slot.amountCents,
  couponUsed: slot.couponUsed,
  paypalOrderId: slot.paypalOrderId,
});

/** The mails' view of a booked slot row, with the calendar revision being sent. */
export const changedSession = (slot: LockedSlot, calendar: { uid: string; sequence: number }, startsAt = slot.startsAt): ChangedSession => ({
  startsAt: new Date(startsAt),
  duration: slot.duration,
  ...bookingOf(slot),
  userId: slot.bookedBy ?? '',
  withCredit: slot.creditLotId !== null,
  place: slot.place,
  online: slot.online,
  link: slot.link,
  calendar,
});

/** The capture of a PayPal order, asked of PayPal (a booking with no recorded attempt); null when PayPal can't say. */
async function captureOfOrder(payments: Payments, orderId: string): Promise<string | null> {
  try {
    return (await payments.getOrder(orderId)).captured?.captureId ?? null;
  } catch {
    return null;
  }
}

/** How a cancelled session's money went: nothing was paid, refunded through PayPal, or to refund by hand. */
export type CancelRefund = 'none' | 'refunded' | 'failed';

/**
 * Records a booked session's cancellation, with what happens to its payment ('pending': refunded
 * after the commit). A gift card's part of a paid session (issue 33) goes back on the card here,
 * in the cancellation's transaction: found by the session's PayPal order's attempt, so a moved
 * session keeps it, and given back once (the give-back lets go of the attempt).
 */
export async function recordSessionCancellation(
  trx: Transaction<Database>,
  slot: LockedSlot,
  captureId: string | null,
  paid: boolean,
  by: 'client' | 'teacher',
): Promise<{ id: string; cardBackCents: number }> {
  const attempt = paid && slot.paypalOrderId ? await findAttempt(trx, slot.paypalOrderId) : undefined;
  const cardBackCents = attempt ? await giveBackCardPart(trx, { attemptId: attempt.id, note: 'Session cancelled' }) : 0;
  const id = await recordCancellation(trx, {
    slotId: slot.id,
    userId: slot.bookedBy,
    startsAt: slot.startsAt,
    ...bookingOf(slot),
    paypalCaptureId: captureId,
    refundState: paid ? 'pending' : 'none',
    cancelledBy: by,
    // The books count the session's money in the month it was paid, kept or refunded (decision 0031).
    bookedAt: slot.bookedAt,
  });
  return { id, cardBackCents };
}

/**
 * Refunds a cancelled paid session in full, after the commit that cancelled it (no transaction
 * open while PayPal answers), then records the outcome on the cancellation and writes the mails
 * that tell it (`mailsFor`) in one transaction, and sends them. A refund PayPal refuses is
 * logged loudly and recorded 'failed' for the teacher to make by hand. Shared by the client's
 * cancel and the teacher's deletion of a booked slot.
 */
export async function refundCancelled(
  deps: Pick<Services, 'db' | 'env' | 'payments' | 'mailer'>,
  done: { slot: LockedSlot; cancellationId: string; captureId: string | null; by: string },
  mailsFor: (trx: Transaction<Database>, slot: LockedSlot, refund: 'refunded' | 'failed') => Promise<QueuedMails>,
): Promise<'refunded' | 'failed'> {
  const { payments } = deps;
  const { slot, cancellationId } = done;
  let outcome: { state: 'refunded' | 'failed'; refundId?: string; note: string };
  const found = done.captureId ?? (await captureOfOrder(payments, slot.paypalOrderId!));
  if (!found) {
    console.error(`[paypal] REFUND NEEDED: cancelled session ${slot.id} (PayPal order ${slot.paypalOrderId}) has no capture PayPal could name`);
    outcome = { state: 'failed', note: 'no capture recorded, and PayPal could not name one' };
  } else {
    try {
      const r = await payments.refundCapture(found);
      outcome = { state: 'refunded', refundId: r.id, note: `refunded capture ${found}: ${r.status}` };
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      console.error(`[paypal] REFUND NEEDED for capture ${found} of PayPal order ${slot.paypalOrderId} (session ${slot.id} cancelled by ${done.by}): ${why}`);
      outcome = { state: 'failed', note: `refund of capture ${found} failed: ${why}` };
    }
  }
  await commitWithMails(deps, async (trx) => {
    await settleCancellationRefund(trx, cancellationId, outcome);
    return { result: undefined, mails: await mailsFor(trx, slot, outcome.state) };
  });
  return outcome.state;
}

/**
 * The refund runner's part for cancelled sessions (issue 47: a refund owed is never forgotten), at
 * start and every RECONCILE_INTERVAL_MS: each cancellation whose PayPal refund failed, or that a
 * crash left pending after its commit for PAYMENT_ATTEMPT_STALE_MS, is tried again; a capture
 * refunded already (a try before the crash, or her refund by hand in PayPal) counts as made, so it
 * is refunded once. Her mail was sent at the first failure; a later success only updates the
 * record she sees among the cancellations. How many were made.
 */
export async function retryOwedSessionRefunds(deps: Pick<Services, 'db' | 'env' | 'payments' | 'clock'>): Promise<number> {
  const { db, payments } = deps;
  const staleBefore = new Date(deps.clock.now().getTime() - deps.env.PAYMENT_ATTEMPT_STALE_MS);
  let made = 0;
  for (const owed of await owedCancellationRefunds(db, staleBefore)) {
    const capture = owed.paypalCaptureId ?? (await captureOfOrder(payments, owed.paypalOrderId!));
    const refunded = capture ? await refundCaptureOnce(payments, capture) : { ok: false as const, why: 'PayPal could not name the capture' };
    if (!refunded.ok) {
      console.error(
        `[paypal] refund of cancelled session ${owed.slotId} (PayPal order ${owed.paypalOrderId}) still owed; retried on the next run: ${refunded.why}`,
      );
      continue;
    }
    await settleCancellationRefund(db, owed.id, { state: 'refunded', note: `refunded capture ${capture} on a later try` });
    made += 1;
  }
  return made;
}

/** What a cancel did: the refund of a paid session; for one booked with a credit, the credit returned or forfeited (issue 32). */
export type CancelResult = { ok: true; refund: CancelRefund; credit?: 'returned' | 'forfeited' } | { ok: false; kind: ChangeRefusal };

type CancelDeps = Pick<Services, 'db' | 'env' | 'payments' | 'mailer' | 'realtime' | 'clock'> & Partial<Pick<Services, 'calendar'>>;

/**
 * Cancels the client's session: frees the slot and records the cancellation (one short
 * transaction), then tells every open booking page, refunds a paid session in full through
 * PayPal and mails the client (with the .ics that cancels the entry) and the teacher.
 */
export async function cancelBooking(deps: CancelDeps, input: { slotId: string; userId: string }): Promise<CancelResult> {
  const { env, realtime } = deps;
  // A gift card's part given back with the cancellation (issue 33), for the mails written after the refund.
  let cardBackCents = 0;
  const queueCancelledMails = async (trx: Transaction<Database>, slot: LockedSlot, refund: CancelRefund, credit?: 'returned' | 'forfeited') => {
    const calendar = bookingCalendar(env, slot);
    const session = { ...changedSession(slot, { uid: calendar.uid, sequence: calendar.sequence + 1 }), giftCardBackCents: cardBackCents };
    return queueMails(trx, 'booking-cancelled', clientCancelledMails(env, (await brandNames(trx)).yoga, session, refund, credit));
  };
  let done: { slot: LockedSlot; cancellationId: string; captureId: string | null; paid: boolean; mails: QueuedMails; credit?: 'returned' | 'forfeited' };
  try {
    done = await commitAnswer(deps, async (trx) => {
      const { slot, captureId, late } = await lockOwnSession(trx, deps.clock.now(), input.slotId, input.userId, [], true);
      const paid = slot.paypalOrderId !== null && slot.amountCents !== null && slot.amountCents > 0;
      const recorded = await recordSessionCancellation(trx, slot, captureId, paid, 'client');
      const cancellationId = recorded.id;
      cardBackCents = recorded.cardBackCents;
      // A credit comes back in time; late, it is forfeited (the client was told before confirming).
      // A session a gift card paid wholly gives the card its value back instead (issue 47).
      const settled = slot.creditLotId
        ? await settleSessionOnCancel(trx, { userId: input.userId, lotId: slot.creditLotId, slotId: slot.id, late, by: 'client' })
        : undefined;
      if (settled && 'cardBackCents' in settled) cardBackCents += settled.cardBackCents;
      const credit = settled && 'credit' in settled ? settled.credit : undefined;
      await releaseBookedSlot(trx, slot.id);
      const mails = paid ? [] : await queueCancelledMails(trx, slot, 'none', credit);
      return { slot, cancellationId, captureId: paid ? captureId : null, paid, mails, credit };
    });
  } catch (err) {
    if (err instanceof ChangeRefused) return { ok: false, kind: err.kind as ChangeRefusal };
    throw err;
  }

  const { slot, cancellationId, captureId } = done;
  // The slot is free for everyone at once; a room that is down never fails the cancel.
  void realtime.notifySlotFreed(slot.id).catch(() => {});
  // Her Google Calendar loses the session now (issue 35).
  nudgeWriteBack(deps);
  if (!done.paid) {
    return { ok: true, refund: 'none', ...(done.credit ? { credit: done.credit } : {}) };
  }

  const refund = await refundCancelled(deps, { slot, cancellationId, captureId, by: 'its client' }, queueCancelledMails);
  return { ok: true, refund };
}
