/**
 * A client erased with a tasting booked (issue 47, decision 0053): each of her tastings still to
 * come is called off in the erasure's transaction, by her policy for what was paid, as a class
 * place given back is (api/classes/refunds.ts): further ahead than her notice period
 * (settings.cancelNoticeHours), what came through PayPal is refunded in full after the commit
 * (owed first: tasting_payments.refund 'due', then 'refunded'), and cash or a check is hers to
 * hand back; inside the notice period the money is kept, hers to refund by hand if she chooses.
 * The private event that held the day leaves her agenda (and her calendar). She is mailed what
 * was cancelled (when, guests, paid, refunded or not), never who: the erasure leaves no row that
 * names the client.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Services } from '../services/index.ts';
import type { OutgoingMail } from '../services/mail/index.ts';
import { refundCaptureOnce } from '../money/refunds-owed.ts';
import { readSettings } from '../settings/settings.repo.ts';
import { hoursInWords } from '../../contract/settings.ts';
import { cancelledWithDeletedAccountMail, classWhen, mail, money } from '../mail/layout.ts';
import { commitWithMails } from '../mail/commit.ts';
import { queueMails, type QueuedMails } from '../mail/outbox.repo.ts';
import { changeableAt } from '../lib/time.ts';
import { cancelTasting, dueTastingRefunds, keptPaymentsOf, lockComingTastingsOf, markTastingRefunded, oweTastingRefunds } from './deleted-account.repo.ts';

/** What became of one called-off tasting's money. */
export type CancelledTastingMoney = 'refund' | 'hers-to-decide';

export interface CancelledTasting {
  /** When it was to be, in her words and on her clocks (the one formatter, decision 0030). */
  when: { date: string; time: string };
  guests: number;
  paidCents: number;
  money: CancelledTastingMoney;
  /** PayPal payments owed back (refund 'due'), made after the commit. */
  refunds: { paymentId: string; captureId: string; amountCents: number }[];
  /** Paid by her hand (cash, a check): hers to hand back when in time. */
  byHandCents: number;
}

/** Calls off every tasting of `email` still to come at `now`, in the erasure's transaction; mails her the list. */
export async function cancelComingTastingsOfDeletedAccount(trx: Transaction<Database>, env: Services['env'], of: { email: string; now: Date }) {
  const { email, now } = of;
  const coming = await lockComingTastingsOf(trx, email, now);
  if (coming.length === 0) return { cancelled: [] as CancelledTasting[], mails: [] as QueuedMails };
  const { cancelNoticeHours } = await readSettings(trx);
  const cancelled: CancelledTasting[] = [];
  for (const t of coming) {
    const paid = await keptPaymentsOf(trx, t.id);
    const inTime = changeableAt(cancelNoticeHours, t.startsAt, now.getTime());
    const refunds = inTime
      ? paid.flatMap((p) => (p.method === 'paypal' && p.paypalCaptureId ? [{ paymentId: p.id, captureId: p.paypalCaptureId, amountCents: p.amountCents }] : []))
      : [];
    await cancelTasting(trx, t);
    await oweTastingRefunds(
      trx,
      refunds.map((r) => r.paymentId),
    );
    cancelled.push({
      when: classWhen(new Date(t.startsAt), env.SITE_TIMEZONE),
      guests: t.guests,
      paidCents: paid.reduce((sum, p) => sum + p.amountCents, 0),
      money: inTime ? 'refund' : 'hers-to-decide',
      refunds,
      byHandCents: inTime ? paid.filter((p) => p.method !== 'paypal').reduce((sum, p) => sum + p.amountCents, 0) : 0,
    });
  }
  const mails = await queueMails(trx, 'account-deleted-tastings', [teacherMail(env, cancelled, cancelNoticeHours)]);
  return { cancelled, mails };
}

/**
 * After the erasure's commit: the refunds owed, through PayPal, tried now. One PayPal refuses stays
 * owed ('due', written with the cancellation) and the refund runner (refundDueTastingPayments)
 * tries it again until PayPal makes it; she is mailed once, now, that it is owed and retried.
 */
export async function settleTastingsOfDeletedAccount(
  deps: Pick<Services, 'db' | 'env' | 'payments' | 'mailer'>,
  cancelled: readonly CancelledTasting[],
): Promise<void> {
  for (const t of cancelled) {
    for (const r of t.refunds) {
      const made = await refundCaptureOnce(deps.payments, r.captureId);
      if (made.ok) {
        await markTastingRefunded(deps.db, r.paymentId);
        continue;
      }
      console.error(`[tastings] refund of capture ${r.captureId} failed; owed and tried again by the refund runner:`, made.why);
      await commitWithMails(deps, async (trx) => ({
        result: undefined,
        mails: await queueMails(trx, 'account-deleted-tasting-refund-owed', [refundOwedMail(deps.env, t, r.amountCents)]),
      }));
    }
  }
}

/**
 * The refund runner's part for tastings (at start and every RECONCILE_INTERVAL_MS, as the class
 * places' refundDuePayments): every tasting payment owed back through PayPal, tried once each;
 * a capture refunded already (a try before a crash) counts as made. How many were made.
 */
export async function refundDueTastingPayments(deps: Pick<Services, 'db' | 'payments'>): Promise<number> {
  let made = 0;
  for (const due of await dueTastingRefunds(deps.db)) {
    const refunded = await refundCaptureOnce(deps.payments, due.paypalCaptureId!);
    if (!refunded.ok) {
      console.error(`[tastings] refund of capture ${due.paypalCaptureId} failed; retried on the next run:`, refunded.why);
      continue;
    }
    await markTastingRefunded(deps.db, due.id);
    made += 1;
  }
  return made;
}

const line = (t: CancelledTasting, noticeHours: number) => {
  const what = `${t.when.date}, ${t.when.time}: ${t.guests} guests`;
  const paid = money(t.paidCents);
  if (t.money === 'hers-to-decide')
    return `${what} (paid ${paid}: within your notice of ${hoursInWords(noticeHours)}, not refunded; refund it by hand if you wish)`;
  const back = t.refunds.reduce((sum, r) => sum + r.amountCents, 0);
  const parts = [
    ...(back ? [`${money(back)} refunded in full through PayPal`] : []),
    ...(t.byHandCents ? [`${money(t.byHandCents)} paid by hand, yours to give back`] : []),
  ];
  return `${what} (paid ${paid}: ${parts.join('; ') || 'nothing to refund'})`;
};

const teacherMail = (env: Services['env'], cancelled: readonly CancelledTasting[], noticeHours: number) =>
  cancelledWithDeletedAccountMail(
    env,
    { one: 'booked tasting', heading: 'Tastings cancelled with a deleted account', freed: 'day', erased: 'name, address and place are' },
    cancelled.map((t) => line(t, noticeHours)),
  );

function refundOwedMail(env: Services['env'], t: CancelledTasting, cents: number): OutgoingMail {
  return mail(env.TEACHER_EMAIL, `Refund owed: a deleted account's tasting on ${t.when.date}`, {
    heading: 'A refund is owed',
    paragraphs: [
      `PayPal could not refund ${money(cents)} for the tasting on ${t.when.date}, ${t.when.time}, cancelled when its client deleted their account.`,
      'The site tries again by itself until PayPal makes it; nothing for you to do unless PayPal keeps refusing.',
    ],
  });
}
