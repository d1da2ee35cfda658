/**
 * Her hand on the gift cards (issue 33, decision 0041): a card's history, voiding one that was
 * never delivered (its money taken back in its one 'refunded' row and, when it was bought through
 * PayPal, the buyer refunded after the commit), resending a delivered card's mail, and her
 * adjustment with a reason. Refusals are returned kinds.
 */
import type { Services } from '../services/index.ts';
import { findAttempt } from '../payments/attempts.repo.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { commitWithMails } from '../mail/commit.ts';
import { brandNames } from '../site/brand.ts';
import { adjustCard, emptyCard } from '../packages/ledger.ts';
import { entriesOfLot } from '../packages/ledger.repo.ts';
import { codeOf } from './codes.ts';
import { cardById, markVoided } from './gift-cards.repo.ts';
import { deliveryMails } from './mails.ts';

type Card = NonNullable<Awaited<ReturnType<typeof cardById>>>;

/** The card and its ledger rows, oldest first; undefined for an unknown id. */
export async function cardWithHistory(db: Services['db'], id: string) {
  const card = await cardById(db, id);
  if (!card) return undefined;
  return { card, history: await entriesOfLot(db, card.lotId) };
}

export type VoidResult =
  { ok: true; takenCents: number; paypalRefund: 'refunded' | 'failed' | 'none' } | { ok: false; kind: 'not-found' | 'already-delivered' | 'already-voided' };

/**
 * Voids a card nobody has received yet: marked voided (the delivery's claim then passes it by)
 * and emptied in one transaction; a card bought through PayPal has its capture refunded after the
 * commit, with no transaction open. A delivered card is the recipient's: she adjusts it instead.
 */
export async function voidCard(deps: Pick<Services, 'db' | 'payments'>, id: string): Promise<VoidResult> {
  const card = await cardById(deps.db, id);
  if (!card) return { ok: false, kind: 'not-found' };
  const taken = await deps.db.transaction().execute(async (trx) => {
    if (!(await markVoided(trx, id))) return undefined;
    return emptyCard(trx, { lotId: card.lotId, note: 'Voided before it was delivered' });
  });
  if (!taken) {
    const now = await cardById(deps.db, id);
    return { ok: false, kind: now?.voidedAt ? 'already-voided' : 'already-delivered' };
  }
  return { ok: true, takenCents: taken.takenCents, paypalRefund: await refundPurchase(deps, card) };
}

/** The buyer's PayPal payment for the card, refunded in full; 'none' for a card she gave. */
async function refundPurchase(deps: Pick<Services, 'db' | 'payments'>, card: Card): Promise<'refunded' | 'failed' | 'none'> {
  if (card.method !== 'paypal' || !card.paypalOrderId) return 'none';
  const captureId = (await findAttempt(deps.db, card.paypalOrderId))?.paypalCaptureId;
  try {
    if (!captureId) throw new Error('no capture recorded for it');
    const r = await deps.payments.refundCapture(captureId);
    console.warn(`[gift-cards] refunded capture ${captureId} of PayPal order ${card.paypalOrderId} (card ${card.id}): ${r.status}`);
    return 'refunded';
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    console.error(`[gift-cards] REFUND NEEDED for PayPal order ${card.paypalOrderId} (card ${card.id}, capture ${captureId ?? 'unknown'}): ${why}`);
    return 'failed';
  }
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
