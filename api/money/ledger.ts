/**
 * The rules of what a client holds with her (issue 32, decision 0035), as named use-cases:
 * granting a lot, spending a credit on a booking, returning or forfeiting it on a cancel, her
 * adjustments, expiry, and the balance a client reads. Every change is a ledger row
 * (ledger.repo.ts); a balance is their sum. A spend takes a Transaction and locks the client's
 * row first, so of two bookings racing for the last credit exactly one finds it. Refusals are
 * returned kinds; the routes map them.
 */
import type { Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database, LotMethod } from '../../db/schema.ts';
import { SESSION_TYPES } from '../../contract/booking.ts';
import type { BalanceView } from '../../contract/packages.ts';
import { addMonths } from '../lib/time.ts';
import { refundsOwedTo } from './refunds-owed.repo.ts';
import {
  cardPaymentOfSessionLot,
  cardSpendOfAttempt,
  releaseSpend,
  heldLots,
  insertEntry,
  insertLot,
  lapsedLots,
  ledgerOf,
  linkSpendToOrder,
  lockAccount,
  lockLotBalance,
  type HeldLot,
} from './ledger.repo.ts';

/** A lot can book `sessionType` on `today` (her day): it covers the type, has sessions left and has not lapsed. */
export const usableFor = (lot: HeldLot, sessionType: string, today: string) =>
  lot.remaining > 0 && lot.sessionTypes.includes(sessionType) && (lot.expiresOn === null || lot.expiresOn >= today);

export interface Sale {
  userId: string;
  /**
   * What was sold: a package, or (id null) one session she was paid for by hand when booking it
   * (issue 32), whose lot never lapses (`monthsValid` null: paid for, it stays the client's).
   */
  package: { id: string | null; name: string; sessionTypes: string[]; sessions: number; monthsValid: number | null };
  priceCents: number;
  method: LotMethod;
  /** Her day the money came in; the credits last `monthsValid` months from it. */
  paidOn: string;
  createdBy: 'client' | 'admin';
  paypalOrderId?: string | null;
}

/** A package sold: its lot (terms copied) and the 'bought' row, in the caller's transaction. */
export async function grantPackage(trx: Transaction<Database>, sale: Sale): Promise<string> {
  const lotId = await insertLot(trx, {
    userId: sale.userId,
    packageId: sale.package.id,
    name: sale.package.name,
    sessionTypes: sale.package.sessionTypes,
    quantity: sale.package.sessions,
    priceCents: sale.priceCents,
    method: sale.method,
    paidOn: sale.paidOn,
    expiresOn: sale.package.monthsValid === null ? null : addMonths(sale.paidOn, sale.package.monthsValid),
    createdBy: sale.createdBy,
    paypalOrderId: sale.paypalOrderId ?? null,
  });
  await insertEntry(trx, { userId: sale.userId, lotId, change: sale.package.sessions, reason: 'bought', createdBy: sale.createdBy });
  return lotId;
}

export type SpendResult = { ok: true; lotId: string; remaining: number; expiresOn: string | null } | { ok: false; kind: 'no-credit' | 'unknown-account' };

/**
 * Takes one credit for a session of `sessionType` booked into `slotId` (or a class place,
 * `signupId`: issue 34): the usable lot lapsing first (or `lotId`, the session she was just paid
 * for by hand), under the client's row lock. The caller books the slot in the same transaction
 * and rolls it all back when the slot was lost.
 */
export async function spendCredit(
  trx: Transaction<Database>,
  input: { userId: string; sessionType: string; slotId?: string; signupId?: string; today: string; lotId?: string; by?: 'client' | 'admin' },
): Promise<SpendResult> {
  if (!(await lockAccount(trx, input.userId))) return { ok: false, kind: 'unknown-account' };
  const lot = (await heldLots(trx, input.userId)).find((l) => usableFor(l, input.sessionType, input.today) && (!input.lotId || l.id === input.lotId));
  if (!lot) return { ok: false, kind: 'no-credit' };
  const used = { userId: input.userId, lotId: lot.id, change: -1, reason: 'used' as const, slotId: input.slotId ?? null, signupId: input.signupId ?? null };
  await insertEntry(trx, { ...used, createdBy: input.by ?? 'client' });
  return { ok: true, lotId: lot.id, remaining: lot.remaining - 1, expiresOn: lot.expiresOn };
}

/**
 * A session (`slotId`) or a class place (`signupId`, issue 34) paid with a credit is cancelled:
 * in time, the credit comes back to its lot ('returned'); late, or a no-show, it stays used and a
 * 'forfeited' row (no change) says why. A class place's rows are written once each.
 */
export async function settleCreditOnCancel(
  trx: Transaction<Database>,
  input: { userId: string | null; lotId: string; slotId?: string; signupId?: string; late: boolean; by: 'client' | 'admin' | 'system' },
): Promise<'returned' | 'forfeited'> {
  const outcome = input.late ? 'forfeited' : 'returned';
  const where = { slotId: input.slotId ?? null, signupId: input.signupId ?? null };
  await insertEntry(trx, { userId: input.userId, lotId: input.lotId, change: input.late ? 0 : 1, reason: outcome, ...where, createdBy: input.by });
  return outcome;
}

/**
 * A booked session is cancelled with its credit lot (issue 32): as settleCreditOnCancel, except a
 * session paid wholly by a gift card (issue 33: a lot of one, method 'gift_card') in time, whose
 * value goes back on the card (issue 47, decision 0042's one ledger): the lot of one is closed by
 * its one 'refunded' row (nothing comes back to the client as a session credit) and the card gets
 * a 'returned' row for what it paid; late, it stays used as any credit. Once per lot.
 */
export async function settleSessionOnCancel(
  trx: Transaction<Database>,
  input: { userId: string; lotId: string; slotId: string; late: boolean; by: 'client' | 'admin' },
): Promise<{ credit: 'returned' | 'forfeited' } | { cardBackCents: number }> {
  const card = input.late ? undefined : await cardPaymentOfSessionLot(trx, input.lotId);
  if (!card) return { credit: await settleCreditOnCancel(trx, input) };
  const closed = await insertEntry(trx, {
    userId: input.userId,
    lotId: input.lotId,
    change: 0,
    reason: 'refunded',
    slotId: input.slotId,
    note: 'Session cancelled: its gift card payment went back on the card',
    createdBy: input.by,
  });
  if (!closed) return { cardBackCents: 0 };
  await insertEntry(trx, {
    userId: null,
    lotId: card.cardLotId,
    change: card.cents,
    reason: 'returned',
    slotId: card.slotId,
    note: 'Session cancelled',
    createdBy: 'system',
  });
  return { cardBackCents: card.cents };
}

export type AdjustResult = { ok: true; sessionsRemaining: number } | { ok: false; kind: 'unknown-account' } | { ok: false; kind: 'below-zero'; held: number };

/**
 * Her adjustment with its reason: more sessions become a lot of their own (every session type,
 * never lapsing); fewer are taken from the lots lapsing first, never below zero.
 */
export async function adjustCredits(
  trx: Transaction<Database>,
  input: { userId: string; sessions: number; reason: string; today: string },
): Promise<AdjustResult> {
  if (!(await lockAccount(trx, input.userId))) return { ok: false, kind: 'unknown-account' };
  const usable = (await heldLots(trx, input.userId)).filter((l) => l.remaining > 0 && (l.expiresOn === null || l.expiresOn >= input.today));
  const held = usable.reduce((n, l) => n + l.remaining, 0);
  if (input.sessions > 0) {
    const lotId = await insertLot(trx, {
      userId: input.userId,
      packageId: null,
      name: 'Sessions given',
      sessionTypes: [...SESSION_TYPES],
      quantity: input.sessions,
      priceCents: 0,
      method: 'adjustment',
      paidOn: input.today,
      expiresOn: null,
      createdBy: 'admin',
    });
    await insertEntry(trx, { userId: input.userId, lotId, change: input.sessions, reason: 'adjusted', note: input.reason, createdBy: 'admin' });
    return { ok: true, sessionsRemaining: held + input.sessions };
  }
  if (held + input.sessions < 0) return { ok: false, kind: 'below-zero', held };
  let left = -input.sessions;
  for (const lot of usable) {
    if (left === 0) break;
    const take = Math.min(left, lot.remaining);
    await insertEntry(trx, { userId: input.userId, lotId: lot.id, change: -take, reason: 'adjusted', note: input.reason, createdBy: 'admin' });
    left -= take;
  }
  return { ok: true, sessionsRemaining: held + input.sessions };
}

/** What the client holds, as the dashboard, the admin's client page and the data export show it. */
export async function balanceOf(db: DB, userId: string, today: string): Promise<BalanceView> {
  const lots = await heldLots(db, userId);
  const live = lots.filter((l) => l.remaining > 0 && (l.expiresOn === null || l.expiresOn >= today));
  const history = await ledgerOf(db, userId);
  const owed = await refundsOwedTo(db, userId);
  return {
    sessionsRemaining: live.reduce((n, l) => n + l.remaining, 0),
    credits: live.map((l) => ({ lotId: l.id, packageName: l.name, sessionTypes: l.sessionTypes, remaining: l.remaining, expiresOn: l.expiresOn })),
    history: history.map((h) => ({ at: new Date(h.createdAt).toISOString(), change: h.change, reason: h.reason, packageName: h.name, note: h.note })),
    refundsOwed: owed.map((r) => ({ _id: r.id, what: r.what, amountCents: r.amountCents, since: new Date(r.createdAt).toISOString() })),
  };
}

/**
 * The periodic runner's expiry: every lot whose last day has passed gives up what is left in one
 * 'expired' row. The row may exist once per lot, so two replicas running at once write one.
 */
export async function expireLapsedCredits(db: DB, today: string): Promise<number> {
  let written = 0;
  for (const lot of await lapsedLots(db, today)) {
    if (lot.userId === null) continue;
    if (await insertEntry(db, { userId: lot.userId, lotId: lot.id, change: -lot.remaining, reason: 'expired', createdBy: 'system' })) written++;
  }
  return written;
}

/**
 * A gift card's value (issue 33, decision 0041): a lot counted in cents that no account holds (the
 * card's code does) and that never lapses, and its one 'bought' row. What the buyer paid is its
 * price (0 for a card she gives); the books count it as income only when it is spent.
 */
export async function grantCardValue(
  trx: Transaction<Database>,
  input: { amountCents: number; priceCents: number; method: LotMethod; paidOn: string; createdBy: 'client' | 'admin'; paypalOrderId?: string | null },
): Promise<string> {
  const lotId = await insertLot(trx, {
    userId: null,
    unit: 'cents',
    packageId: null,
    name: 'Gift card',
    sessionTypes: [],
    quantity: input.amountCents,
    priceCents: input.priceCents,
    method: input.method,
    paidOn: input.paidOn,
    expiresOn: null,
    createdBy: input.createdBy,
    paypalOrderId: input.paypalOrderId ?? null,
  });
  await insertEntry(trx, { userId: null, lotId, change: input.amountCents, reason: 'bought', createdBy: input.createdBy === 'client' ? 'client' : 'admin' });
  return lotId;
}

export type CardSpend = { ok: true; balanceCents: number } | { ok: false; kind: 'not-enough'; balanceCents: number } | { ok: false; kind: 'no-such-card' };

/**
 * Takes `cents` from a gift card's lot for an order or a session, in the caller's transaction
 * (the order's or the booking's), under the lot's row lock: never more than its balance, however
 * many carts spend it at once. The caller decided how much the card pays (all it holds, up to the
 * total); a balance that fell meanwhile is 'not-enough' and the caller takes nothing.
 */
export async function spendCard(
  trx: Transaction<Database>,
  input: {
    lotId: string;
    cents: number;
    orderId?: string | null;
    slotId?: string | null;
    signupId?: string | null;
    attemptId?: string | null;
    by: 'client' | 'admin';
  },
): Promise<CardSpend> {
  const balance = await lockLotBalance(trx, input.lotId);
  if (balance === undefined) return { ok: false, kind: 'no-such-card' };
  if (input.cents > balance) return { ok: false, kind: 'not-enough', balanceCents: balance };
  await insertEntry(trx, {
    userId: null,
    lotId: input.lotId,
    change: -input.cents,
    reason: 'used',
    orderId: input.orderId ?? null,
    slotId: input.slotId ?? null,
    signupId: input.signupId ?? null,
    attemptId: input.attemptId ?? null,
    createdBy: input.by,
  });
  return { ok: true, balanceCents: balance - input.cents };
}

/**
 * The card's debit of a payment attempt whose order is now recorded: the row names the order
 * (the card's history and a later refund find it there).
 */
export async function cardSpendBecameOrder(trx: Transaction<Database>, attemptId: string, orderId: string): Promise<void> {
  await linkSpendToOrder(trx, attemptId, orderId);
}

/** What a gift card paid of a payment attempt (issue 33): its debit keyed by the attempt, in cents; 0 for none. */
export async function cardPartOfAttempt(trx: Transaction<Database>, attemptId: string): Promise<number> {
  const spend = await cardSpendOfAttempt(trx, attemptId);
  return spend ? -spend.change : 0;
}

/**
 * Gives a card's part back in a 'returned' row: of an attempt released (PayPal declined the rest;
 * the lifecycle releases a claim once, and the attempt lets go of the debit, so a later claim of
 * it has its own), or of an order refunded (one 'returned' row per order: a refund seen by her
 * button and by PayPal's webhook gives it back once). Answers the cents given back, 0 when
 * there was nothing or it was given back already.
 */
export async function giveBackCardPart(
  trx: Transaction<Database>,
  input:
    | { attemptId: string; note: string }
    | { orderId: string; lotId: string; cents: number; note: string }
    | { signupId: string; lotId: string; cents: number; note: string },
): Promise<number> {
  if ('attemptId' in input) {
    const spend = await cardSpendOfAttempt(trx, input.attemptId);
    if (!spend) return 0;
    await releaseSpend(trx, spend.id);
    await insertEntry(trx, { userId: null, lotId: spend.lotId, change: -spend.change, reason: 'returned', note: input.note, createdBy: 'system' });
    return -spend.change;
  }
  if (input.cents <= 0) return 0;
  const written = await insertEntry(trx, {
    userId: null,
    lotId: input.lotId,
    change: input.cents,
    reason: 'returned',
    // An order's, or a class place's (issue 34): one 'returned' row each, by their unique indexes.
    ...('orderId' in input ? { orderId: input.orderId } : { signupId: input.signupId }),
    note: input.note,
    createdBy: 'system',
  });
  return written ? input.cents : 0;
}

export type CardAdjustment = { ok: true; balanceCents: number } | { ok: false; kind: 'below-zero'; balanceCents: number } | { ok: false; kind: 'no-such-card' };

/** Her adjustment of a gift card with its reason, under the lot's lock; never below zero. */
export async function adjustCard(trx: Transaction<Database>, input: { lotId: string; cents: number; reason: string }): Promise<CardAdjustment> {
  const balance = await lockLotBalance(trx, input.lotId);
  if (balance === undefined) return { ok: false, kind: 'no-such-card' };
  if (balance + input.cents < 0) return { ok: false, kind: 'below-zero', balanceCents: balance };
  await insertEntry(trx, { userId: null, lotId: input.lotId, change: input.cents, reason: 'adjusted', note: input.reason, createdBy: 'admin' });
  return { ok: true, balanceCents: balance + input.cents };
}

/** A card voided: what it holds is taken back in its one 'refunded' row; false when it was taken back already. */
export async function emptyCard(trx: Transaction<Database>, input: { lotId: string; note: string }): Promise<{ takenCents: number } | undefined> {
  const balance = await lockLotBalance(trx, input.lotId);
  if (balance === undefined) return undefined;
  const written = await insertEntry(trx, { userId: null, lotId: input.lotId, change: -balance, reason: 'refunded', note: input.note, createdBy: 'admin' });
  return written ? { takenCents: balance } : undefined;
}
