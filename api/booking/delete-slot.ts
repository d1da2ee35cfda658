/**
 * The teacher deletes a slot (issue 21). A free slot simply goes, and vanishes from every open
 * booking page. A booked session still to come is cancelled as a client's cancel is: recorded
 * (cancelled_by 'teacher'), refunded in full through PayPal after the commit, the client mailed
 * with the refund's outcome and the .ics that removes it, through the outbox. A slot whose
 * payment is still in progress is refused (the booking isn't settled; she tries again in a
 * moment). A passed session is record keeping: deleted, nobody mailed, nothing refunded.
 */
import type { Transaction } from 'kysely';
import type { Services } from '../services/index.ts';
import type { Database } from '../../db/schema.ts';
import { queueMails, type QueuedMails } from '../mail/outbox.repo.ts';
import { commitAnswer } from '../mail/commit.ts';
import { brandNames } from '../site/brand.ts';
import { findAttempt } from '../money/attempts.repo.ts';
import { lockSlots, type LockedSlot } from './booking.repo.ts';
import { deleteSlot } from './slots.repo.ts';
import { bookingCalendar, sessionCancelledMail } from './mails.ts';
import { recordSessionCancellation, refundCancelled, type CancelRefund } from './cancel-booking.ts';
import { settleSessionOnCancel } from '../money/ledger.ts';

export type DeleteSlotResult = { ok: true; booked: boolean; refund: CancelRefund } | { ok: false; kind: 'not-found' | 'payment-processing' };

class Refused extends Error {
  readonly kind: 'not-found' | 'payment-processing';
  constructor(kind: 'not-found' | 'payment-processing') {
    super(kind);
    this.kind = kind;
  }
}

type Deps = Pick<Services, 'db' | 'env' | 'payments' | 'mailer' | 'realtime'>;

export async function deleteSlotByTeacher(deps: Deps, slotId: string, now = new Date()): Promise<DeleteSlotResult> {
  const { env, realtime } = deps;
  // A gift card's part given back with the cancellation (issue 33), for the client's mail.
  let cardBackCents = 0;
  const mailsFor = async (trx: Transaction<Database>, slot: LockedSlot, refund: CancelRefund): Promise<QueuedMails> =>
    queueMails(trx, 'session-cancelled-by-teacher', [
      sessionCancelledMail(env, (await brandNames(trx)).yoga, {
        slotId: slot.id,
        startsAt: new Date(slot.startsAt),
        bookedAt: new Date(slot.bookedAt!),
        duration: slot.duration,
        sessionType: slot.sessionType ?? '',
        firstName: slot.firstName ?? '',
        email: slot.email!,
        userId: slot.bookedBy,
        amountCents: slot.amountCents,
        calendar: bookingCalendar(env, slot),
        refund,
        giftCardBackCents: cardBackCents,
      }),
    ]);

  let done: { slot: LockedSlot; upcoming: boolean; paid: boolean; cancellationId: string | null; captureId: string | null; mails: QueuedMails };
  try {
    done = await commitAnswer(deps, async (trx) => {
      const slot = (await lockSlots(trx, [slotId])).get(slotId);
      if (!slot) throw new Refused('not-found');
      let captureId: string | null = null;
      if (slot.bookedAt !== null && slot.paypalOrderId) {
        const attempt = await findAttempt(trx, slot.paypalOrderId);
        // Claimed, capture under way or its answer lost: the booking isn't settled yet.
        if (attempt && attempt.state !== 'completed') throw new Refused('payment-processing');
        captureId = attempt?.paypalCaptureId ?? null;
      }
      // Only a session still to come is news to the client; a passed one is just record keeping.
      const upcoming = slot.bookedAt !== null && !!slot.email && new Date(slot.startsAt).getTime() > now.getTime();
      const paid = upcoming && slot.paypalOrderId !== null && slot.amountCents !== null && slot.amountCents > 0;
      const recorded = upcoming ? await recordSessionCancellation(trx, slot, captureId, paid, 'teacher') : null;
      const cancellationId = recorded?.id ?? null;
      cardBackCents = recorded?.cardBackCents ?? 0;
      // She called it off: a session booked with a credit gets it back, whatever the hour (issue 32).
      if (upcoming && slot.creditLotId && slot.bookedBy) {
        // A session a gift card paid wholly gives the card its value back instead (issue 47).
        const settled = await settleSessionOnCancel(trx, { userId: slot.bookedBy, lotId: slot.creditLotId, slotId: slot.id, late: false, by: 'admin' });
        if ('cardBackCents' in settled) cardBackCents += settled.cardBackCents;
      }
      await deleteSlot(trx, slotId);
      const mails = upcoming && !paid ? await mailsFor(trx, slot, 'none') : [];
      return { slot, upcoming, paid, cancellationId, captureId, mails };
    });
  } catch (err) {
    if (err instanceof Refused) return { ok: false, kind: err.kind };
    throw err;
  }

  const { slot } = done;
  // Every open booking page: a free slot vanishes; a booked one's page reloads what is left.
  void (slot.bookedAt === null ? realtime.notifySlotBooked(slot.id) : realtime.notifySlotFreed(slot.id)).catch(() => {});
  if (!done.paid) {
    return { ok: true, booked: slot.bookedAt !== null, refund: 'none' };
  }
  const refund = await refundCancelled(deps, { slot, cancellationId: done.cancellationId!, captureId: done.captureId, by: 'the teacher' }, mailsFor);
  return { ok: true, booked: true, refund };
}
