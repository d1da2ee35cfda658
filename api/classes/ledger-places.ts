/**
 * A paid class place taken with what the one ledger holds (issue 34, decision 0043), instead of
 * money through PayPal:
 *   - one of the client's class credits: a package covering 'group yoga' (a "five classes"
 *     pass); its payment records no money (the pass was paid for when it was bought);
 *   - a gift card that holds the amount chosen: its money is income when spent (decision 0041).
 * One transaction under the class's lock, then the lot's: the place inserted, the credit or the
 * card's cents spent on it (the ledger's 'used' row names the place), its payment recorded, and
 * the sign-up's mails queued, and sent after the commit (commitAnswer). Not enough on it: it all
 * rolls back and nothing is held, nor mailed.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Services } from '../services/index.ts';
import { acceptsAmount } from '../../contract/event-prices.ts';
import { cardToSpend, type CardRefusal } from '../money/cards.ts';
import type { QueuedMails } from '../mail/outbox.repo.ts';
import { commitAnswer } from '../mail/commit.ts';
import { zonedNow } from '../lib/time.ts';
import { spendCard, spendCredit } from '../money/ledger.ts';
import { classSeats, findClass, insertSignup, lockClass } from './signups.repo.ts';
import { insertEventPayment, markPlacePaid } from './event-payments.repo.ts';
import { studentFields, type Student } from './enrol.ts';
import { noPlaceLeft, paidEventRefusal, queuePaidSignupMails, type EventRefusal } from './paid-places.ts';

/** The session type a class credit covers (SPEC.md's name for group classes). */
export const CLASS_CREDIT_TYPE = 'group yoga';

/** Why a place was not taken with a credit or a card; nothing is held then. */
export type LedgerPlaceRefusal = EventRefusal | 'already' | 'full' | 'held' | 'amount' | 'no-credit' | 'unknown-account' | CardRefusal | 'gift-card-short';
/** 'held' carries how many places are held for payments and when the first frees (issue 47). */
export type LedgerPlaceRefused = { ok: false; kind: Exclude<LedgerPlaceRefusal, 'held'> } | { ok: false; kind: 'held'; held: number; freeAt: Date };

type PlaceTaken = { ok: true; id: string; mails: QueuedMails } | LedgerPlaceRefused;

/** Thrown inside the transaction to roll the place back when the credit or the card does not pay for it. */
class NotEnough extends Error {
  readonly kind: 'no-credit' | 'unknown-account' | 'gift-card-short';
  constructor(kind: 'no-credit' | 'unknown-account' | 'gift-card-short') {
    super(kind);
    this.kind = kind;
  }
}

/** How the place is paid from the ledger: a class credit of the signed-in client, or `cents` from a gift card's lot. */
type LedgerPayment = { kind: 'credit'; userId: string } | { kind: 'gift_card'; lotId: string; cents: number };

export async function takePlaceWithCredit(deps: PlaceDeps, userId: string, student: Student): Promise<PlaceTaken> {
  return takePlaceFromLedger(deps, student, { kind: 'credit', userId });
}

/**
 * A gift card pays the whole place (the amount she chose on the scale, or the price): a card that
 * holds less is refused before anything is held (pay with PayPal instead).
 */
export async function takePlaceWithCard(deps: PlaceDeps, student: Student, card: { code: string; amountCents: number | undefined }): Promise<PlaceTaken> {
  const found = await cardToSpend(deps.db, card.code);
  if (!found.ok) return found;
  const event = await findClass(deps.db, student.classTitle, student.date);
  const cents = event?.priceCents ?? card.amountCents;
  if (!event || cents === undefined || cents === null || !acceptsAmount(event, cents)) return { ok: false, kind: event ? 'amount' : 'not-found' };
  if (found.balanceCents < cents) return { ok: false, kind: 'gift-card-short' };
  return takePlaceFromLedger(deps, student, { kind: 'gift_card', lotId: found.lotId, cents });
}

type PlaceDeps = Pick<Services, 'db' | 'env' | 'clock' | 'mailer'>;

async function takePlaceFromLedger(deps: PlaceDeps, student: Student, paying: LedgerPayment): Promise<PlaceTaken> {
  const { env } = deps;
  const today = zonedNow(env.SITE_TIMEZONE, deps.clock.now()).date;
  try {
    return await commitAnswer(deps, async (trx) => {
      const event = await lockClass(trx, student.classTitle, student.date);
      const refused = event ? paidEventRefusal(event, new Date()) : 'not-found';
      if (refused) return { ok: false, kind: refused } as const;
      const seats = await classSeats(trx, event!, student.email);
      if (seats.mine) return { ok: false, kind: 'already' } as const;
      const none = noPlaceLeft(seats, event!.capacity);
      if (none) return { ok: false, ...none } as const;
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
      const paid = await spendOn(trx, paying, row.id, today);
      const paymentId = await insertEventPayment(trx, {
        eventId: event!.id,
        eventTitle: event!.title,
        eventDate: event!.date,
        name: student.name,
        email: student.email,
        amountCents: paid.cents,
        method: paying.kind,
        lotId: paid.lotId,
        userId: paying.kind === 'credit' ? paying.userId : null,
        paidOn: today,
      });
      await markPlacePaid(trx, row.id, paymentId);
      const who = { id: row.id, name: student.name, email: student.email, phone: student.phone };
      const mails = await queuePaidSignupMails(trx, env, event!, who, paid.cents, paying.kind === 'credit');
      return { ok: true, id: row.id, mails } as const;
    });
  } catch (err) {
    if (err instanceof NotEnough) return { ok: false, kind: err.kind };
    throw err;
  }
}

/** Spends the credit or the card's cents on the place, under the lot's lock; not enough is thrown (rolled back). */
async function spendOn(trx: Transaction<Database>, paying: LedgerPayment, signupId: string, today: string): Promise<{ lotId: string; cents: number }> {
  if (paying.kind === 'credit') {
    const spent = await spendCredit(trx, { userId: paying.userId, sessionType: CLASS_CREDIT_TYPE, signupId, today });
    if (!spent.ok) throw new NotEnough(spent.kind);
    return { lotId: spent.lotId, cents: 0 };
  }
  const spent = await spendCard(trx, { lotId: paying.lotId, cents: paying.cents, signupId, by: 'client' });
  if (!spent.ok) throw new NotEnough('gift-card-short');
  return { lotId: paying.lotId, cents: paying.cents };
}
