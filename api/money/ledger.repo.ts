/**
 * What a client holds with her (issue 32, decision 0035): credit lots and their ledger, plain SQL.
 * A lot's balance is the sum of its ledger rows, read here and nowhere else; spending locks the
 * client's row first (`lockAccount`), so two spends of one balance queue instead of both reading
 * the same sum. The rules (which lot, expiry, refusals) are in api/money/ledger.ts.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database, LedgerReason, LotMethod } from '../../db/schema.ts';

/** The client, with what a receipt or a purchase's mail is addressed to (her own address, never one from a request); undefined when there is none (a sale or a balance for no one is 404). */
export function clientContact(db: DB, userId: string) {
  return db.selectFrom('users').select(['id', 'email', 'firstName', 'lastName']).where('id', '=', userId).executeTakeFirst();
}

/** Takes the client's row lock for the rest of the transaction; false when there is no such client. */
export async function lockAccount(trx: Transaction<Database>, userId: string): Promise<boolean> {
  // FOR NO KEY UPDATE, as the coupon's count does: spends of one client queue, while inserts whose
  // foreign key only share-locks the row (a payment attempt, a ledger row) pass.
  return !!(await trx.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().executeTakeFirst());
}

export interface HeldLot {
  id: string;
  name: string;
  sessionTypes: string[];
  expiresOn: string | null;
  paidOn: string;
  priceCents: number;
  quantity: number;
  method: LotMethod;
  /** The sum of its ledger rows. */
  remaining: number;
}

/** The client's session lots with their balances (lapsed ones included), the one lapsing first first. */
export async function heldLots(db: DB, userId: string): Promise<HeldLot[]> {
  const rows = await db
    .selectFrom('creditLots as l')
    .leftJoin('ledgerEntries as e', 'e.lotId', 'l.id')
    .select([
      'l.id',
      'l.name',
      'l.sessionTypes',
      'l.expiresOn',
      'l.paidOn',
      'l.priceCents',
      'l.quantity',
      'l.method',
      sql<number>`coalesce(sum(e.change), 0)::int`.as('remaining'),
    ])
    .where('l.userId', '=', userId)
    .where('l.unit', '=', 'session')
    .groupBy('l.id')
    // Lots that never lapse come last: the one lapsing first is spent first.
    .orderBy(sql`l.expires_on asc nulls last`)
    .orderBy('l.createdAt')
    .orderBy('l.id')
    .execute();
  return rows.map((r) => ({ ...r, remaining: Number(r.remaining) }));
}

export interface NewLot {
  /** Null for a gift card's lot: the card, not an account, holds it (issue 33). */
  userId: string | null;
  /** Sessions (the default) or a gift card's cents. */
  unit?: 'session' | 'cents';
  packageId: string | null;
  name: string;
  sessionTypes: string[];
  quantity: number;
  priceCents: number;
  method: LotMethod;
  paidOn: string;
  expiresOn: string | null;
  createdBy: 'client' | 'admin';
  paypalOrderId?: string | null;
}

export async function insertLot(trx: Transaction<Database>, lot: NewLot): Promise<string> {
  const row = await trx
    .insertInto('creditLots')
    .values({ ...lot, sessionTypes: JSON.stringify(lot.sessionTypes), paypalOrderId: lot.paypalOrderId ?? null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface NewEntry {
  userId: string | null;
  lotId: string;
  change: number;
  reason: LedgerReason;
  slotId?: string | null;
  /** The order a gift card paid for (issue 33). */
  orderId?: string | null;
  /** The payment attempt a card's debit waits on while PayPal takes the rest (issue 33). */
  attemptId?: string | null;
  /** The class place a credit paid (issue 34). */
  signupId?: string | null;
  note?: string;
  createdBy: 'client' | 'admin' | 'system';
}

/**
 * Writes one ledger row; false when a row that may exist once exists already: a lot's 'bought',
 * 'expired' or 'refunded', an attempt's or an order's 'returned' (the unique indexes of 0023, 0028).
 */
export async function insertEntry(trx: Transaction<Database> | DB, entry: NewEntry): Promise<boolean> {
  const done = await trx
    .insertInto('ledgerEntries')
    .values({
      ...entry,
      slotId: entry.slotId ?? null,
      orderId: entry.orderId ?? null,
      attemptId: entry.attemptId ?? null,
      signupId: entry.signupId ?? null,
      note: entry.note ?? '',
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return done !== undefined;
}

/** The 'used' row of a session booked with a credit: its lot and the client. */
export async function usedEntryOf(trx: Transaction<Database>, slotId: string) {
  return trx
    .selectFrom('ledgerEntries')
    .select(['lotId', 'userId'])
    .where('slotId', '=', slotId)
    .where('reason', '=', 'used')
    .orderBy('createdAt', 'desc')
    .executeTakeFirst();
}

/** The client's ledger, newest first, with each row's lot name. */
export function ledgerOf(db: DB, userId: string) {
  return db
    .selectFrom('ledgerEntries as e')
    .innerJoin('creditLots as l', 'l.id', 'e.lotId')
    .select(['e.createdAt', 'e.change', 'e.reason', 'e.note', 'l.name'])
    .where('e.userId', '=', userId)
    .orderBy('e.createdAt', 'desc')
    .orderBy('e.id', 'desc')
    .execute();
}

/** Lots with sessions left whose last day is before `today` and have no 'expired' row yet. */
export async function lapsedLots(db: DB, today: string) {
  const rows = await db
    .selectFrom('creditLots as l')
    .innerJoin('ledgerEntries as e', 'e.lotId', 'l.id')
    .select(['l.id', 'l.userId', sql<number>`sum(e.change)::int`.as('remaining')])
    .where('l.expiresOn', '<', today)
    .where('l.unit', '=', 'session')
    .groupBy('l.id')
    .having(sql`sum(e.change)`, '>', 0)
    .execute();
  return rows.map((r) => ({ ...r, remaining: Number(r.remaining) }));
}

/**
 * Claims the lots whose last day is `today`..`lastDay` (a week ahead), with sessions left and no
 * reminder yet, marking them reminded in one conditional UPDATE: under the row locks it takes, a
 * second replica running the same statement finds them marked and gets none. Takes a transaction
 * whose reminders' mails commit with the mark. Each with its client's address and name.
 */
export async function claimExpiryReminders(trx: Transaction<Database>, today: string, lastDay: string) {
  const remaining = sql<number>`(select coalesce(sum(e.change), 0)::int from ledger_entries e where e.lot_id = credit_lots.id)`;
  const rows = await trx
    .updateTable('creditLots')
    .from('users')
    .set({ expiryRemindedAt: sql<Date>`now()` })
    .whereRef('users.id', '=', 'creditLots.userId')
    .where('creditLots.expiryRemindedAt', 'is', null)
    .where('creditLots.unit', '=', 'session')
    .where('creditLots.expiresOn', '>=', today)
    .where('creditLots.expiresOn', '<=', lastDay)
    .where(remaining, '>', 0)
    .returning(['creditLots.id', 'creditLots.userId', 'creditLots.name', 'creditLots.expiresOn', 'users.email', 'users.firstName', remaining.as('remaining')])
    .execute();
  return rows.map((r) => ({ ...r, remaining: Number(r.remaining) }));
}

/** One lot of the client's, with its balance and how it was paid: what a refund reads. */
export async function lotOf(db: DB, userId: string, lotId: string) {
  const lot = (await heldLots(db, userId)).find((l) => l.id === lotId);
  if (!lot) return undefined;
  const { paypalOrderId } = await db.selectFrom('creditLots').select('paypalOrderId').where('id', '=', lotId).executeTakeFirstOrThrow();
  return { ...lot, paypalOrderId };
}

/** The lot a PayPal order granted (a package bought on the site), if it was recorded. */
export async function lotOfPaypalOrder(db: DB, paypalOrderId: string) {
  return db.selectFrom('creditLots').select(['id', 'userId']).where('paypalOrderId', '=', paypalOrderId).executeTakeFirst();
}

/**
 * What she still owes (issue 32): the sessions left on every lot not lapsed by `today` (her day),
 * over all clients, and their value: each lot's price ÷ its sessions × what is left, rounded to
 * the cent. A lot's sessions left are the sum of its ledger rows, as everywhere.
 */
export async function sessionsOwed(db: DB, today: string): Promise<{ sessions: number; cents: number }> {
  const { rows } = await sql<{ sessions: string | number; cents: string | number }>`
    select coalesce(sum(remaining), 0) as sessions, coalesce(sum(round(price_cents::numeric * remaining / quantity)), 0) as cents
    from (
      select l.price_cents, l.quantity, sum(e.change) as remaining
      from credit_lots l join ledger_entries e on e.lot_id = l.id
      where l.unit = 'session' and (l.expires_on is null or l.expires_on >= ${today})
      group by l.id
    ) lots
    where remaining > 0`.execute(db);
  return { sessions: Number(rows[0]?.sessions ?? 0), cents: Number(rows[0]?.cents ?? 0) };
}

/**
 * Gift cards owed (issue 33): what the cards still hold, over every card, and how many hold
 * something. A card's money is a liability until it buys something (then it is income where it
 * was spent); a voided card was emptied, so it holds nothing.
 */
export async function giftCardsOwed(db: DB): Promise<{ cards: number; cents: number }> {
  const { rows } = await sql<{ cards: string | number; cents: string | number }>`
    select count(*) as cards, coalesce(sum(remaining), 0) as cents
    from (
      select sum(e.change) as remaining
      from credit_lots l join ledger_entries e on e.lot_id = l.id
      where l.unit = 'cents'
      group by l.id
    ) lots
    where remaining > 0`.execute(db);
  return { cards: Number(rows[0]?.cards ?? 0), cents: Number(rows[0]?.cents ?? 0) };
}

/**
 * Takes a lot's row lock for the rest of the transaction and answers its balance (the sum of its
 * rows); undefined when there is no such lot. A gift card's spends lock its lot (no account holds
 * it), so of two carts spending one card at once the second sums after the first has written.
 */
export async function lockLotBalance(trx: Transaction<Database>, lotId: string): Promise<number | undefined> {
  const lot = await trx.selectFrom('creditLots').select('id').where('id', '=', lotId).forUpdate().executeTakeFirst();
  if (!lot) return undefined;
  const { sum } = await trx
    .selectFrom('ledgerEntries')
    .select(sql<number>`coalesce(sum(change), 0)::int`.as('sum'))
    .where('lotId', '=', lotId)
    .executeTakeFirstOrThrow();
  return Number(sum);
}

/** A card's debit waiting on a payment attempt (one at most: a release lets go of it, releaseSpend). */
export async function cardSpendOfAttempt(trx: Transaction<Database>, attemptId: string) {
  return trx.selectFrom('ledgerEntries').select(['id', 'lotId', 'change']).where('attemptId', '=', attemptId).where('reason', '=', 'used').executeTakeFirst();
}

/** The attempt lets go of its debit (given back): a claim of it again makes a debit of its own. */
export async function releaseSpend(trx: Transaction<Database>, entryId: string): Promise<void> {
  await trx.updateTable('ledgerEntries').set({ attemptId: null }).where('id', '=', entryId).execute();
}

export async function linkSpendToOrder(trx: Transaction<Database>, attemptId: string, orderId: string): Promise<void> {
  await trx.updateTable('ledgerEntries').set({ orderId }).where('attemptId', '=', attemptId).where('reason', '=', 'used').execute();
}

/** A lot's rows, oldest first: a gift card's history. */
export function entriesOfLot(db: DB, lotId: string) {
  return db
    .selectFrom('ledgerEntries')
    .select(['id', 'createdAt', 'change', 'reason', 'note', 'orderId', 'slotId', 'createdBy'])
    .where('lotId', '=', lotId)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
}

/**
 * The gift card that paid a session wholly (issue 33: the session sold as a lot of one, method
 * 'gift_card', and the card debited with the claim): the card's lot and what it paid, found by the
 * lot of one's 'used' row (its slot is the one booked first: a moved session keeps its rows).
 */
export async function cardPaymentOfSessionLot(
  trx: Transaction<Database>,
  lotId: string,
): Promise<{ cardLotId: string; cents: number; slotId: string } | undefined> {
  const row = await trx
    .selectFrom('creditLots as own')
    .innerJoin('ledgerEntries as used', (j) => j.onRef('used.lotId', '=', 'own.id').on('used.reason', '=', 'used'))
    .innerJoin('ledgerEntries as card', (j) => j.onRef('card.slotId', '=', 'used.slotId').on('card.reason', '=', 'used'))
    .innerJoin('creditLots as cardLot', (j) => j.onRef('cardLot.id', '=', 'card.lotId').on('cardLot.unit', '=', 'cents'))
    .select(['card.lotId as cardLotId', 'card.change', 'used.slotId'])
    .where('own.id', '=', lotId)
    .where('own.method', '=', 'gift_card')
    .executeTakeFirst();
  return row?.slotId ? { cardLotId: row.cardLotId, cents: -row.change, slotId: row.slotId } : undefined;
}
