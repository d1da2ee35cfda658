/**
 * A gift card's value as the money floor reads it (issue 33, decisions 0041 and 0042): the card a
 * typed code's hash names, with its balance, which is its lot's rows in the one ledger summed
 * (ledger.repo.ts). The gift-cards wing keeps the rest of the card's SQL (gift-cards.repo.ts).
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';

/** The card's balance: its lot's rows summed (the gift-cards wing's lists read it too). */
export const cardBalance = sql<number>`(select coalesce(sum(e.change), 0)::int from ledger_entries e where e.lot_id = g.lot_id)`;

/**
 * Where a card's money went, each by its rows' reason (issue 50: her totals on their own lines):
 * her adjustments (signed), what was spent net of what came back to it, and what was taken back.
 */
export const cardMoves = {
  adjusted: sql<number>`(select coalesce(sum(e.change), 0)::int from ledger_entries e where e.lot_id = g.lot_id and e.reason = 'adjusted')`,
  spent: sql<number>`(select coalesce(-sum(e.change), 0)::int from ledger_entries e where e.lot_id = g.lot_id and e.reason in ('used', 'returned'))`,
  refunded: sql<number>`(select coalesce(-sum(e.change), 0)::int from ledger_entries e where e.lot_id = g.lot_id and e.reason = 'refunded')`,
};

/** The card a code's hash names, with its balance; undefined for every other hash. */
export async function cardByHash(db: DB | Transaction<Database>, codeHash: string) {
  const row = await db
    .selectFrom('giftCards as g')
    .select(['g.id', 'g.lotId', 'g.voidedAt', 'g.deliveredAt', cardBalance.as('balanceCents')])
    .where('g.codeHash', '=', codeHash)
    .executeTakeFirst();
  return row && { ...row, balanceCents: Number(row.balanceCents) };
}
