/**
 * A client deletes her account with sessions still to come (issue 30): each is cancelled by her
 * policy in the erasure's transaction, so no slot stays booked for "Unknown client". A paid
 * session further ahead than her notice period is refunded in full, as the client's own cancel
 * would be (after the commit: no outside call inside the transaction); a paid one inside the
 * notice period is left for her to refund by hand if she chooses, as a late cancellation by mail
 * would be. The teacher is mailed the sessions (when, what, paid, refunded or not), never the
 * person: the erasure leaves no row that names her.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Services } from '../services/index.ts';
import type { OutgoingMail } from '../services/mail/index.ts';
import { findAttempt } from '../money/attempts.repo.ts';
import { readSettings } from '../settings/settings.repo.ts';
import { hoursInWords } from '../../contract/settings.ts';
import { cancelledWithDeletedAccountMail, classWhen, mail, money, oneLine } from '../mail/layout.ts';
import { queueMails, type QueuedMails } from '../mail/outbox.repo.ts';
import { lockSlots, releaseBookedSlot, type LockedSlot } from './booking.repo.ts';
import { recordSessionCancellation, refundCancelled } from './cancel-booking.ts';
import { changeableAt } from '../lib/time.ts';
import { comingSessionIdsOf } from './deleted-account.repo.ts';

/** What became of one coming session: refunded in full (after the commit), kept for her to decide, or nothing paid. */
export type DeletedSessionMoney = 'refund' | 'hers-to-decide' | 'none';

export interface CancelledOfDeletedAccount {
  slot: LockedSlot;
  cancellationId: string;
  captureId: string | null;
  money: DeletedSessionMoney;
}

/** Cancels every session of `userId` still to come at `now`, in the erasure's transaction; mails the teacher the list. */
export async function cancelComingSessionsOfDeletedAccount(
  trx: Transaction<Database>,
  env: Services['env'],
  userId: string,
  now: Date,
): Promise<{ cancelled: CancelledOfDeletedAccount[]; mails: QueuedMails }> {
  const ids = await comingSessionIdsOf(trx, userId, now);
  if (ids.length === 0) return { cancelled: [], mails: [] };
  const locked = await lockSlots(trx, ids);
  const { cancelNoticeHours } = await readSettings(trx);
  const cancelled: CancelledOfDeletedAccount[] = [];
  for (const slot of [...locked.values()].sort((a, b) => new Date(a.startsAt).getTime() - new Date(b.startsAt).getTime())) {
    if (slot.bookedBy !== userId || slot.bookedAt === null) continue;
    const paid = slot.paypalOrderId !== null && slot.amountCents !== null && slot.amountCents > 0;
    const attempt = paid ? await findAttempt(trx, slot.paypalOrderId!) : undefined;
    // A capture still under way, or inside her notice period: hers to settle by hand.
    const refundable = paid && (!attempt || attempt.state === 'completed') && changeableAt(cancelNoticeHours, slot.startsAt, now.getTime());
    const money: DeletedSessionMoney = !paid ? 'none' : refundable ? 'refund' : 'hers-to-decide';
    const captureId = attempt?.paypalCaptureId ?? null;
    const cancellationId = (await recordSessionCancellation(trx, slot, captureId, refundable, 'client')).id;
    await releaseBookedSlot(trx, slot.id);
    cancelled.push({ slot, cancellationId, captureId, money });
  }
  const mails = cancelled.length ? await queueMails(trx, 'account-deleted-sessions', [teacherMail(env, cancelled, cancelNoticeHours)]) : [];
  return { cancelled, mails };
}

/** After the erasure's commit: the freed slots are told to open booking pages, and the refunds made. */
export async function settleCancelledOfDeletedAccount(
  deps: Pick<Services, 'db' | 'env' | 'payments' | 'mailer' | 'realtime'>,
  cancelled: readonly CancelledOfDeletedAccount[],
): Promise<void> {
  for (const c of cancelled) void deps.realtime.notifySlotFreed(c.slot.id).catch(() => {});
  for (const c of cancelled.filter((x) => x.money === 'refund')) {
    await refundCancelled(
      deps,
      { slot: c.slot, cancellationId: c.cancellationId, captureId: c.captureId, by: 'the deletion of its account' },
      async (trx, slot, outcome) => (outcome === 'failed' ? queueMails(trx, 'account-deleted-refund-failed', [refundFailedMail(deps.env, slot)]) : []),
    );
  }
}

const line = (env: Services['env'], c: CancelledOfDeletedAccount, noticeHours: number) => {
  const when = classWhen(new Date(c.slot.startsAt), env.SITE_TIMEZONE);
  const what = `${when.date}, ${when.time}: ${oneLine(c.slot.sessionType ?? 'Session')}`;
  if (c.money === 'none') return `${what} (nothing was paid)`;
  const paid = money(c.slot.amountCents!);
  return c.money === 'refund'
    ? `${what} (paid ${paid}: refunded in full through PayPal)`
    : `${what} (paid ${paid}: within your notice of ${hoursInWords(noticeHours)}, not refunded; refund it by hand if you wish)`;
};

const teacherMail = (env: Services['env'], cancelled: readonly CancelledOfDeletedAccount[], noticeHours: number) =>
  cancelledWithDeletedAccountMail(
    env,
    { one: 'coming session', heading: 'Sessions cancelled with a deleted account', freed: 'slot', erased: 'name and address are' },
    cancelled.map((c) => line(env, c, noticeHours)),
  );

function refundFailedMail(env: Services['env'], slot: LockedSlot): OutgoingMail {
  const when = classWhen(new Date(slot.startsAt), env.SITE_TIMEZONE);
  return mail(env.TEACHER_EMAIL, `REFUND NEEDED: a deleted account's session on ${when.date}`, {
    heading: 'Refund by hand',
    paragraphs: [
      `PayPal refused the refund of the session on ${when.date}, ${when.time} (${money(slot.amountCents ?? 0)}), cancelled when its client deleted their account.`,
      'Please refund it by hand in PayPal. The cancellation is listed in the bookings.',
    ],
  });
}
