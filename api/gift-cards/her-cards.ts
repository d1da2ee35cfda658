/**
 * Her hand on the gift cards (issue 33, decision 0041): a card's history, voiding one that was
 * never delivered (its money taken back in its one 'refunded' row and, when it was bought through
 * PayPal, the buyer's refund owed with it and made after the commit), resending a delivered card's mail, and her
 * adjustment with a reason. Refusals are returned kinds.
 */
import type { Services } from '../services/index.ts';
import { makeOwedRefund, oweRefund } from '../money/refunds-owed.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { commitWithMails } from '../mail/commit.ts';
import { brandNames } from '../site/brand.ts';
import { adjustCard, emptyCard } from '../money/ledger.ts';
import { entriesOfLot } from '../money/ledger.repo.ts';
import { codeOf } from './codes.ts';
import { cardById, markVoided } from './gift-cards.repo.ts';
import { deliveryMails } from './mails.ts';

/** The card and its ledger rows, oldest first; undefined for an unknown id. */
export async function cardWithHistory(db: Services['db'], id: string) {
  const card = await cardById(db, id);
  if (!card) return undefined;
  return { card, history: await entriesOfLot(db, card.lotId) };
}

export type VoidResult =
  { ok: true; takenCents: number; paypalRefund: 'refunded' | 'owed' | 'none' } | { ok: false; kind: 'not-found' | 'already-delivered' | 'already-voided' };

/**
 * Voids a card nobody has received yet: marked voided (the delivery's claim then passes it by)
 * and emptied in one transaction; a card bought through PayPal has its refund owed in that
 * transaction (issue 47, decision 0055) and made after the commit, with no transaction open; a
 * refund PayPal refuses stays owed and is tried again until PayPal answers. A delivered card is
 * the recipient's: she adjusts it instead.
 */
export async function voidCard(deps: Pick<Services, 'db' | 'env' | 'payments' | 'mailer'>, id: string): Promise<VoidResult> {
  const card = await cardById(deps.db, id);
  if (!card) return { ok: false, kind: 'not-found' };
  const taken = await deps.db.transaction().execute(async (trx) => {
    if (!(await markVoided(trx, id))) return undefined;
    const emptied = await emptyCard(trx, { lotId: card.lotId, note: 'Voided before it was delivered' });
    if (!emptied) return undefined;
    const owed =
      card.method === 'paypal' && card.paypalOrderId
        ? await oweRefund(trx, {
            kind: 'gift_card',
            subjectId: card.id,
            what: `Gift card …${card.codeLast4}`,
            userId: null,
            paypalOrderId: card.paypalOrderId,
            amountCents: card.priceCents,
          })
        : undefined;
    return { ...emptied, owed };
  });
  if (!taken) {
    const now = await cardById(deps.db, id);
    return { ok: false, kind: now?.voidedAt ? 'already-voided' : 'already-delivered' };
  }
  return { ok: true, takenCents: taken.takenCents, paypalRefund: taken.owed ? await makeOwedRefund(deps, taken.owed) : 'none' };
}

export type ResendResult = { ok: true; sent: boolean } | { ok: false; kind: 'not-found' | 'not-yet-delivered' | 'voided' };

/** Sends a delivered card's mail to its recipient again (lost in a spam folder): the same code. */
export async function resendCard(deps: Pick<Services, 'db' | 'env' | 'mailer'>, id: string): Promise<ResendResult> {
  const card = await cardById(deps.db, id);
  if (!card) return { ok: false, kind: 'not-found' };
  if (card.voidedAt) return { ok: false, kind: 'voided' };
  if (!card.deliveredAt) return { ok: false, kind: 'not-yet-delivered' };
  const done = await commitWithMails(deps, async (trx) => {
    const brand = (await brandNames(trx))[card.design];
    // The recipient's mail only: the buyer was told once that it went.
    const [toRecipient] = deliveryMails(deps.env, brand, { ...card, buyerEmail: null }, codeOf(deps.env.APP_SECRET, card.id));
    return { result: undefined, mails: await queueMails(trx, 'gift-card', [toRecipient!]) };
  });
  return { ok: true, sent: done.allSent };
}

export type AdjustCardResult =
  { ok: true; balanceCents: number } | { ok: false; kind: 'not-found' | 'voided' } | { ok: false; kind: 'below-zero'; balanceCents: number };

/** Her adjustment (a make-good, a correction), with its reason; never below zero, never on a voided card. */
export async function adjustCardBalance(db: Services['db'], id: string, input: { cents: number; reason: string }): Promise<AdjustCardResult> {
  const card = await cardById(db, id);
  if (!card) return { ok: false, kind: 'not-found' };
  if (card.voidedAt) return { ok: false, kind: 'voided' };
  const result = await db.transaction().execute((trx) => adjustCard(trx, { lotId: card.lotId, cents: input.cents, reason: input.reason }));
  if (!result.ok) return result.kind === 'below-zero' ? result : { ok: false, kind: 'not-found' };
  return result;
}
