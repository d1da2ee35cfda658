/**
 * The money of a paid class place when it is given back or the event is called off (issue 34,
 * decision 0043), by her policy:
 *
 *   - the student gives the place back at least her notice period (settings.cancelNoticeHours)
 *     before the start: refunded in full; later: not refunded (the place still goes to the
 *     next in line). The page says so before paying and before giving it back.
 *   - she removes someone: refunded, unless they were marked a no-show (forfeited).
 *   - she cancels the event: every paid place refunded in full, everyone mailed.
 *
 * A refund is first owed (event_payments.refund = 'due', in the transaction that gives the
 * place back or cancels the event), then made after the commit by refundDuePayments, which the
 * refund runner also calls: a crash between the two leaves it owed, and the restart makes it.
 * PayPal's refund is keyed by its capture (PayPal-Request-Id), and a capture refunded already is
 * taken as done, so a refund raced or repeated after a crash is made once.
 */
import type { Transaction } from 'kysely';
import type { Database, EventPaymentMethod } from '../../db/schema.ts';
import type { Services } from '../services/index.ts';
import { refundCaptureOnce } from '../money/refunds-owed.ts';
import { changeableAt, zonedNow } from '../lib/time.ts';
import { readSettings } from '../settings/settings.repo.ts';
import { giveBackCardPart, settleCreditOnCancel } from '../money/ledger.ts';
import { queueMails, type QueuedMails } from '../mail/outbox.repo.ts';
import { commitAnswer } from '../mail/commit.ts';
import { brandNames } from '../site/brand.ts';
import { usd } from '../../contract/event-prices.ts';
import type { ClassEvent } from './signups.repo.ts';
import { lockEventById } from './places.repo.ts';
import {
  dropHoldsAndLine,
  dueRefunds,
  lockPaymentOfSignup,
  markEventCancelled,
  markPaymentRefunded,
  owePaymentRefund,
  placesOfEvent,
} from './event-payments.repo.ts';
import { classMail, eventCancelledMail } from './mails.ts';

/** What a given-back paid place gets back: its money and whether it is refunded. */
export interface PlaceRefund {
  cents: number;
  method: EventPaymentMethod;
  refunded: boolean;
}

/**
 * Decides the refund of the place `signupId` being given back, in the give-back's transaction
 * under its class's lock: owed when in time (or removed by her, not a no-show), else kept.
 * Null for a free place.
 */
export async function refundOnGiveBack(
  trx: Transaction<Database>,
  signupId: string,
  event: ClassEvent | undefined,
  by: { byAdmin: boolean; now: Date; today: string },
): Promise<PlaceRefund | null> {
  const payment = await lockPaymentOfSignup(trx, signupId);
  if (!payment) return null;
  const place = { cents: payment.amountCents, method: payment.method };
  if (payment.refund) return { ...place, refunded: true };
  const { cancelNoticeHours } = await readSettings(trx);
  const refunded = by.byAdmin ? payment.attendance !== 'noShow' : !event || changeableAt(cancelNoticeHours, event.startsAt, by.now.getTime());
  if (refunded) await owePaymentRefund(trx, payment.id, by.byAdmin ? 'removed' : 'cancelled-in-time');
  await settleCredit(trx, payment, signupId, refunded, by.byAdmin ? 'admin' : 'client', by.today);
  return { ...place, refunded };
}

/**
 * A place paid from the ledger, given back: a class credit comes back to its lot in time, or
 * stays used late (or for a no-show) with a 'forfeited' row saying why; a gift card's cents come
 * back to the card in time. Either way at once, and the refund owed is done. Each row once per
 * place (the ledger's unique index), so a repeat writes nothing. PayPal's money is the runner's.
 */
async function settleCredit(
  trx: Transaction<Database>,
  payment: { id: string; method: EventPaymentMethod; amountCents: number; lotId: string | null; userId: string | null },
  signupId: string,
  returned: boolean,
  by: 'client' | 'admin' | 'system',
  today: string,
): Promise<void> {
  if (!payment.lotId) return;
  if (payment.method === 'credit') await settleCreditOnCancel(trx, { userId: payment.userId, lotId: payment.lotId, signupId, late: !returned, by });
  else if (payment.method === 'gift_card' && returned)
    await giveBackCardPart(trx, { signupId, lotId: payment.lotId, cents: payment.amountCents, note: 'class place given back' });
  else return;
  if (returned) await markPaymentRefunded(trx, payment.id, today);
}

/** Her no-show mark on a place paid with a credit (the roster): the credit is forfeited, once. */
export async function forfeitCreditOfNoShow(trx: Transaction<Database>, signupId: string): Promise<void> {
  const payment = await lockPaymentOfSignup(trx, signupId);
  // Forfeited: nothing is refunded, so no day of a refund.
  if (payment && !payment.refund) await settleCredit(trx, payment, signupId, false, 'admin', '');
}

/** The sentence a refund gets in a mail or an answer. */
export const refundSentence = (r: PlaceRefund): string => {
  if (r.method === 'credit')
    return r.refunded ? 'Your class credit is back on your account.' : 'Your class credit is not given back: the class is less than the notice period away.';
  const how = r.method === 'gift_card' ? 'back on your gift card' : 'refunded in full through PayPal';
  return r.refunded
    ? `Your payment of ${usd(r.cents)} is ${how}.`
    : `Your payment of ${usd(r.cents)} is not refunded: the class is less than the notice period away.`;
};

export type CancelEventRefusal = 'not-found' | 'already-cancelled';

/**
 * She calls the event off: marked cancelled, its held places and its waitlist dropped, every
 * paid place's refund owed, and everyone with a place mailed: one transaction, the mails sent
 * after its commit. The refunds are made by the caller after it (refundDuePayments).
 */
export async function cancelEvent(
  deps: Pick<Services, 'db' | 'env' | 'mailer'>,
  eventId: string,
): Promise<{ ok: true; refunds: number; mails: QueuedMails } | { ok: false; kind: CancelEventRefusal }> {
  const { env } = deps;
  return commitAnswer(deps, async (trx) => {
    const event = await lockEventById(trx, eventId);
    if (!event) return { ok: false, kind: 'not-found' } as const;
    if (!(await markEventCancelled(trx, event.id))) return { ok: false, kind: 'already-cancelled' } as const;
    await dropHoldsAndLine(trx, event.id);
    let refunds = 0;
    const mails = [];
    const brand = (await brandNames(trx)).yoga;
    for (const place of await placesOfEvent(trx, event)) {
      const payment = place.paymentId ? await lockPaymentOfSignup(trx, place.id) : undefined;
      if (payment && (await owePaymentRefund(trx, payment.id, 'event-cancelled'))) {
        refunds += 1;
        await settleCredit(trx, payment, place.id, true, 'admin', zonedNow(env.SITE_TIMEZONE, new Date()).date);
      }
      const refund = payment ? refundSentence({ cents: payment.amountCents, method: payment.method, refunded: true }) : null;
      mails.push(eventCancelledMail(env, brand, { name: place.name, email: place.email, refund }, classMail(event)));
    }
    return { ok: true, refunds, mails: await queueMails(trx, 'event-cancelled', mails) } as const;
  });
}

/**
 * Makes every refund owed through PayPal, each once: after a give-back's or a cancel's commit,
 * and by the refund runner (what a crash left). A refund PayPal could not make stays owed for
 * the next run.
 */
export async function refundDuePayments(deps: Pick<Services, 'db' | 'env' | 'payments' | 'clock'>): Promise<number> {
  const { db, payments } = deps;
  let count = 0;
  for (const due of await dueRefunds(db)) {
    if (!due.paypalCaptureId) continue;
    // Refunded already (a run before a crash, or a runner racing this one) counts as made.
    const made = await refundCaptureOnce(payments, due.paypalCaptureId);
    if (!made.ok) {
      console.error(`[events] refund of capture ${due.paypalCaptureId} (PayPal order ${due.paypalOrderId}) failed; retried on the next run:`, made.why);
      continue;
    }
    await markPaymentRefunded(db, due.id, zonedNow(deps.env.SITE_TIMEZONE, deps.clock.now()).date);
    count += 1;
  }
  return count;
}
