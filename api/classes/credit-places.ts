/**
 * A paid class place taken with one of the client's class credits (issue 34, decision 0043): a
 * package covering 'group yoga' (a "five classes" pass) is spent on the place instead of money.
 * One transaction under the class's lock, then the client's: the place inserted, the credit
 * spent on it (the ledger's 'used' row names the place), its payment recorded (no money: the
 * pass was paid for when it was bought), and the sign-up's mails queued. No credit: it all rolls
 * back and nothing is held.
 */
import type { Services } from '../services/index.ts';
import type { QueuedMails } from '../mail/outbox.repo.ts';
import { zonedNow } from '../lib/time.ts';
import { spendCredit } from '../packages/ledger.ts';
import { classSeats, insertSignup, lockClass } from './signups.repo.ts';
import { insertEventPayment, markPlacePaid } from './event-payments.repo.ts';
import { studentFields, type Student } from './enrol.ts';
import { paidEventRefusal, queuePaidSignupMails, type EventRefusal } from './paid-places.ts';

/** The session type a class credit covers (SPEC.md's name for group classes). */
export const CLASS_CREDIT_TYPE = 'group yoga';

export type CreditPlaceRefusal = EventRefusal | 'already' | 'full' | 'no-credit' | 'unknown-account';

/** Thrown inside the transaction to roll the place back when no credit pays for it. */
class NoCredit extends Error {
  readonly kind: 'no-credit' | 'unknown-account';
  constructor(kind: 'no-credit' | 'unknown-account') {
    super(kind);
    this.kind = kind;
  }
}

export async function takePlaceWithCredit(
  deps: Pick<Services, 'db' | 'env' | 'clock'>,
  userId: string,
  student: Student,
): Promise<{ ok: true; id: string; mails: QueuedMails } | { ok: false; kind: CreditPlaceRefusal }> {
  const { db, env } = deps;
  const today = zonedNow(env.SITE_TIMEZONE, deps.clock.now()).date;
  try {
    return await db.transaction().execute(async (trx) => {
      const event = await lockClass(trx, student.classTitle, student.date);
      const refused = event ? paidEventRefusal(event, new Date()) : 'not-found';
      if (refused) return { ok: false, kind: refused } as const;
      const seats = await classSeats(trx, event!, student.email);
      if (seats.mine) return { ok: false, kind: 'already' } as const;
      if (seats.taken >= event!.capacity) return { ok: false, kind: 'full' } as const;
      const row = await insertSignup(trx, {
        eventId: event!.id,
        classTitle: event!.title,
        date: event!.date,
        ...(await studentFields(trx, student)),
        // Held for the instant of this transaction, then paid below: the one way a place becomes paid.
        payment: 'held',
        heldUntil: new Date(Date.now() + 60_000),
      });
      if (!row) return { ok: false, kind: 'already' } as const;
      const spent = await spendCredit(trx, { userId, sessionType: CLASS_CREDIT_TYPE, signupId: row.id, today });
      if (!spent.ok) throw new NoCredit(spent.kind);
      const paymentId = await insertEventPayment(trx, {
        eventId: event!.id,
        eventTitle: event!.title,
        eventDate: event!.date,
        name: student.name,
        email: student.email,
        amountCents: 0,
        method: 'credit',
        lotId: spent.lotId,
        userId,
        paidOn: today,
      });
      await markPlacePaid(trx, row.id, paymentId);
      const mails = await queuePaidSignupMails(trx, env, event!, { id: row.id, name: student.name, email: student.email, phone: student.phone }, 0, true);
      return { ok: true, id: row.id, mails } as const;
    });
  } catch (err) {
    if (err instanceof NoCredit) return { ok: false, kind: err.kind };
    throw err;
  }
}
