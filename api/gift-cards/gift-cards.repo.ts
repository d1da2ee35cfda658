/**
 * Gift cards' SQL (issue 33, decision 0041). A card's money is its lot's ledger rows (the one
 * ledger, api/money/ledger.repo.ts); this table keeps what a card is besides: the code's hash
 * and last four, who gave it to whom, its day and whether it was delivered or voided.
 */
import { sql, type Insertable, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database, GiftCardsTable } from '../../db/schema.ts';
import { cardBalance as balance, cardMoves } from '../money/cards.repo.ts';

type Handle = DB | Transaction<Database>;

/** A card as it is written: every column the table does not fill itself (its id is chosen by the caller, for its links). */
export type NewGiftCard = { id: string; message: string } & Omit<Insertable<GiftCardsTable>, 'id' | 'message' | 'deliveredAt' | 'voidedAt' | 'createdAt'>;

export async function insertGiftCard(trx: Transaction<Database>, card: NewGiftCard): Promise<void> {
  await trx.insertInto('giftCards').values(card).execute();
}

/** What a card was worth and what became of it (issue 50: each kind of money apart), from its lot and its ledger rows. */
const figures = [
  'l.quantity as amountCents',
  'l.priceCents as paidCents',
  balance.as('balanceCents'),
  cardMoves.adjusted.as('adjustedCents'),
  cardMoves.spent.as('spentCents'),
  cardMoves.refunded.as('refundedCents'),
] as const;

/** The sums as numbers (a driver may answer an int as a string). */
const asNumbers = <R extends { balanceCents: number; adjustedCents: number; spentCents: number; refundedCents: number }>(r: R): R => ({
  ...r,
  balanceCents: Number(r.balanceCents),
  adjustedCents: Number(r.adjustedCents),
  spentCents: Number(r.spentCents),
  refundedCents: Number(r.refundedCents),
});

/** Every card, newest first, with what it was worth and what is left: her Gift cards page. */
export async function listGiftCards(db: DB) {
  const rows = await db
    .selectFrom('giftCards as g')
    .innerJoin('creditLots as l', 'l.id', 'g.lotId')
    .select([
      'g.id',
      'g.codeLast4',
      'g.design',
      'g.buyerName',
      'g.recipientName',
      'g.recipientEmail',
      'g.message',
      'g.sendOn',
      'g.deliveredAt',
      'g.voidedAt',
      'g.createdBy',
      'g.createdAt',
    ])
    .select(figures)
    .orderBy('g.createdAt', 'desc')
    .orderBy('g.id', 'desc')
    .execute();
  return rows.map(asNumbers);
}

/** A card as its mails need it (the code is derived from the id, never read from here). */
export type CardToDeliver = Awaited<ReturnType<typeof claimDueCards>>[number];

/**
 * Claims the cards due by `today` (her day), not delivered and not voided, marking them delivered
 * in one conditional UPDATE: a second replica running it at once waits on the rows, finds them
 * marked and gets none. Takes the transaction the delivery mails are queued in, so the mark and
 * the mails commit together. With `ids`, only those cards (one just made for today).
 */
export async function claimDueCards(trx: Transaction<Database>, today: string, ids?: readonly string[]) {
  let query = trx
    .updateTable('giftCards as g')
    .from('creditLots as l')
    .set({ deliveredAt: sql<Date>`now()` })
    .whereRef('l.id', '=', 'g.lotId')
    .where('g.deliveredAt', 'is', null)
    .where('g.voidedAt', 'is', null)
    // A card whose recipient was erased before its day waits for a new one (decision 0053).
    .where('g.recipientEmail', '<>', '')
    .where('g.sendOn', '<=', today);
  if (ids) query = query.where('g.id', 'in', ids.length ? ids : ['']);
  return query
    .returning([
      'g.id',
      'g.design',
      'g.buyerName',
      'g.buyerEmail',
      'g.recipientName',
      'g.recipientEmail',
      'g.message',
      'g.sendOn',
      'g.codeLast4',
      'g.createdBy',
      'l.quantity as amountCents',
    ])
    .execute();
}

/** One card as her page shows it, with its lot's sale (how it was paid) for a refund. */
export async function cardById(db: Handle, id: string) {
  const row = await db
    .selectFrom('giftCards as g')
    .innerJoin('creditLots as l', 'l.id', 'g.lotId')
    .selectAll('g')
    .select(['l.method', 'l.paypalOrderId', 'l.priceCents'])
    .select(figures)
    .where('g.id', '=', id)
    .executeTakeFirst();
  return row && asNumbers(row);
}

/** Marks a card voided if it was neither delivered nor voided (the delivery's claim waits on the same row). */
export async function markVoided(trx: Transaction<Database>, id: string): Promise<boolean> {
  const r = await trx
    .updateTable('giftCards')
    .set({ voidedAt: sql<Date>`now()` })
    .where('id', '=', id)
    .where('deliveredAt', 'is', null)
    .where('voidedAt', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The card a PayPal order bought (its lot names the order, unique): what a replay of the purchase answers. */
export async function cardOfPaypalOrder(db: Handle, paypalOrderId: string) {
  return db
    .selectFrom('giftCards as g')
    .innerJoin('creditLots as l', 'l.id', 'g.lotId')
    .select(['g.id', 'g.codeLast4'])
    .where('l.paypalOrderId', '=', paypalOrderId)
    .executeTakeFirst();
}

/**
 * The buyer's change of where and when a card goes, if it was neither delivered nor voided: one
 * conditional UPDATE, so a change and the delivery's claim (which marks the row) never both win.
 */
export async function changeDeliveryOf(
  trx: Transaction<Database>,
  id: string,
  to: { recipientName: string; recipientEmail: string; sendOn: string },
): Promise<boolean> {
  const r = await trx.updateTable('giftCards').set(to).where('id', '=', id).where('deliveredAt', 'is', null).where('voidedAt', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * The cards on their way to `email` (not delivered, not voided) when she is erased: her name,
 * address and the words to her taken off, so the card waits, unsent, for its buyer to name another
 * recipient (decision 0053). What each card's buyer (or the teacher, for a card she gave) is told.
 */
export async function withholdCardsTo(trx: Transaction<Database>, email: string) {
  return trx
    .updateTable('giftCards as g')
    .from('creditLots as l')
    .set({ recipientName: '', recipientEmail: '', message: '' })
    .whereRef('l.id', '=', 'g.lotId')
    .where(sql`lower(g.recipient_email)`, '=', email)
    .where('g.deliveredAt', 'is', null)
    .where('g.voidedAt', 'is', null)
    .returning(['g.id', 'g.design', 'g.buyerName', 'g.buyerEmail', 'g.codeLast4', 'l.quantity as amountCents'])
    .execute();
}
