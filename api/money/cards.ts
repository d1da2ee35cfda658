/**
 * A gift card as money (issue 33, decisions 0041 and 0042): its balance read by its code, and the
 * card a buyer typed to pay with (the cart, a session, a class place). Reads only; the debit is
 * ledger.ts's spendCard in the buyer's transaction. Issuing, delivering and printing cards are the
 * gift-cards wing's.
 */
import type { Services } from '../services/index.ts';
import { GIFT_CARD_EMPTY, GIFT_CARD_NOT_FOUND } from '../../contract/gift-cards.ts';
import { hashCode, normalizeCode } from './card-code.ts';
import { cardByHash } from './cards.repo.ts';

/**
 * How the routes that take a card's code answer a code that can't pay (the cart, a
 * class place): the same status and words wherever it is typed.
 */
export const CARD_CODE_REFUSALS = {
  'unknown-gift-card': { status: 400, message: GIFT_CARD_NOT_FOUND },
  'gift-card-empty': { status: 400, message: GIFT_CARD_EMPTY },
} as const;

export type BalanceResult = { ok: true; balanceCents: number } | { ok: false; kind: 'not-found' };

/** A card's balance by its code as typed; every code that is not a card's answers alike. */
export async function balanceByCode(db: Services['db'], typed: string): Promise<BalanceResult> {
  const code = normalizeCode(typed);
  const card = code ? await cardByHash(db, hashCode(code)) : undefined;
  if (!card) return { ok: false, kind: 'not-found' };
  return { ok: true, balanceCents: card.voidedAt ? 0 : card.balanceCents };
}

/**
 * Why a code can't pay (the cart, the booking): 'unknown-gift-card' for every code that is no
 * card's, answered in the balance's one message; 'gift-card-empty' for a card spent or voided.
 */
export type CardRefusal = 'unknown-gift-card' | 'gift-card-empty';

export type CardToSpend = { ok: true; lotId: string; balanceCents: number } | { ok: false; kind: CardRefusal };

/**
 * The card a buyer typed, to pay with (issue 33): its lot and what it holds now. Reads only; the
 * debit is ledger.ts's spendCard, under the lot's lock, in the order's or the booking's transaction.
 */
export async function cardToSpend(db: Services['db'], typed: string): Promise<CardToSpend> {
  const code = normalizeCode(typed);
  const card = code ? await cardByHash(db, hashCode(code)) : undefined;
  if (!card) return { ok: false, kind: 'unknown-gift-card' };
  if (card.voidedAt || card.balanceCents <= 0) return { ok: false, kind: 'gift-card-empty' };
  return { ok: true, lotId: card.lotId, balanceCents: card.balanceCents };
}
