/**
 * A client moves their own booked session to another free slot (issue 15, decision 0016), under
 * the same notice period as a cancel (her setting cancelNoticeHours).
 *
 * One transaction locks both slot rows in id order (lockSlots: two reschedules crossing each
 * other never deadlock), checks the target is free and to come, moves the booking onto it with
 * its payment (order, amount, coupon flag, session type; the payment attempt follows) and frees
 * the old one. Of any number of clients racing for the target, the first to lock it wins; the
 * others find it booked and keep their own session. Nothing is charged or refunded: the money
 * stays where it is. Her session notes move with the booking (issue 30).
 */
import { slotIsClear } from '../agenda/agenda.ts';
import type { Services } from '../services/index.ts';
import { queueMails, type QueuedMails } from '../mail/outbox.repo.ts';
import { commitAnswer } from '../mail/commit.ts';
import { brandNames } from '../site/brand.ts';
import { moveBooking, type LockedSlot } from './booking.repo.ts';
import { moveSessionNotes } from '../practice/records.ts';
import { bookingCalendar, rescheduledMails } from './mails.ts';
import { nudgeWriteBack, prepareMeetLink, sessionLink } from '../agenda/write-back.ts';
import { ChangeRefused, changedSession, lockOwnSession, type ChangeRefusal } from './cancel-booking.ts';

/**
 * Why the move was refused, besides ChangeRefusal (the session itself):
 * - 'same-slot': the target is the session's own slot;
 * - 'target-not-found' / 'target-taken' / 'target-past': the target slot is gone, booked, or has begun.
 */
export type RescheduleRefusal = ChangeRefusal | 'same-slot' | 'target-not-found' | 'target-taken' | 'target-past';

export type RescheduleResult = { ok: true; slotId: string; startsAt: Date } | { ok: false; kind: RescheduleRefusal };

type RescheduleDeps = Pick<Services, 'db' | 'env' | 'mailer' | 'realtime' | 'clock'> & Partial<Pick<Services, 'calendar'>>;

export async function rescheduleBooking(deps: RescheduleDeps, input: { slotId: string; toSlotId: string; userId: string }): Promise<RescheduleResult> {
  const { env, realtime } = deps;
  if (input.slotId === input.toSlotId) return { ok: false, kind: 'same-slot' };
  // Onto an online slot: its Meet link made first when her calendar is connected (issue 35).
  await prepareMeetLink(deps, input.toSlotId);
  let done: { from: LockedSlot; to: LockedSlot; mails: QueuedMails };
  try {
    done = await commitAnswer(deps, async (trx) => {
      const { slot: from, locked } = await lockOwnSession(trx, deps.clock.now(), input.slotId, input.userId, [input.toSlotId]);
      const target = locked.get(input.toSlotId);
      if (!target) throw new ChangeRefused('target-not-found');
      if (target.bookedAt !== null) throw new ChangeRefused('target-taken');
      if (new Date(target.startsAt).getTime() <= deps.clock.now().getTime()) throw new ChangeRefused('target-past');
      // Her agenda took the time (issue 35); the session being moved away does not count against it.
      if (!(await slotIsClear(trx, env.SITE_TIMEZONE, target.id, [from.id]))) throw new ChangeRefused('target-taken');
      const current = bookingCalendar(env, from);
      const calendar = { uid: current.uid, sequence: current.sequence + 1 };
      const to = await moveBooking(trx, from, target.id, calendar, await sessionLink(trx, target.id));
      // Locked and checked free above: only a bug gets here.
      if (!to) throw new ChangeRefused('target-taken');
      // Her notes belong to the session, not the slot: they move with it.
      await moveSessionNotes(trx, from.id, to.id, input.userId);
      // The client's and the teacher's mails (with the updated .ics), written with the move.
      const mails = await queueMails(
        trx,
        'booking-rescheduled',
        rescheduledMails(env, (await brandNames(trx)).yoga, changedSession(to, calendar), { startsAt: new Date(from.startsAt) }),
      );
      return { from, to, mails };
    });
  } catch (err) {
    if (err instanceof ChangeRefused) return { ok: false, kind: err.kind as RescheduleRefusal };
    throw err;
  }
  const { from, to } = done;
  void realtime.notifySlotFreed(from.id).catch(() => {});
  void realtime.notifySlotBooked(to.id).catch(() => {});
  // Her Google Calendar moves it now (issue 35).
  nudgeWriteBack(deps);
  return { ok: true, slotId: to.id, startsAt: new Date(to.startsAt) };
}
