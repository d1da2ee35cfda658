/**
 * A card bought through PayPal (issue 33, decision 0041): the fourth purchase kind of the one
 * payment lifecycle (api/money/settle.ts), built as the package's (packages/buy-package.ts).
 *
 *   startGiftCardPayment: the PayPal order, made by the server for a whole-dollar amount from
 *     $10 to $500, its reference naming the amount;
 *   buyGiftCard: checks the approved order, opens the payment attempt (committed before any
 *     capture) with the card to make in its details, captures with no transaction open, and in
 *     the completing transaction makes the card (gift-cards.ts createCard: delivered at once when
 *     its day is today) and queues the buyer's receipt (the outbox).
 *
 * A crash between the capture and the commit leaves the attempt open: the buyer's retry, the
 * reconciler or PayPal's webhook completes it through the adapter registered below. The attempt
 * completes once (a conditional UPDATE) and the card's lot names its PayPal order (unique), so
 * one card is made whoever gets there. Nothing is held before the capture, so a release gives
 * nothing back. No sales tax: a card is money owed, not goods.
 */
import type { Services } from '../services/index.ts';
import type { DB } from '../../db/client.ts';
import type { GiftCardAttemptDetails } from '../../db/schema.ts';
import { BOUGHT_MIN_CENTS, GIFT_CARD_MAX_CENTS } from '../../contract/gift-cards.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { brandNames } from '../site/brand.ts';
import { findAttempt, openAttempt, type PaymentAttempt } from '../money/attempts.repo.ts';
import { attemptFor, createPayPalOrder, readApprovedOrder } from '../money/capture.ts';
import {
  acceptsApprovedUsd,
  answerSettled,
  captureAndSettle,
  replayPurchase,
  type PaidAnswers,
  type PaymentDeps,
  type PurchaseRefusal,
  type Purchase,
} from '../money/settle.ts';
import { zonedNow } from '../lib/time.ts';
import { createCard } from './gift-cards.ts';
import { cardOfPaypalOrder } from './gift-cards.repo.ts';
import { receiptMail } from './mails.ts';

/** The PayPal order a card is paid with: made by us, for this amount. */
export const giftCardOrderReference = (amountCents: number) => `gift-card:${amountCents}`;

/** Whole dollars from $10 to $500: what a buyer may pay for a card. */
const buyable = (cents: number) => Number.isInteger(cents) && cents >= BOUGHT_MIN_CENTS && cents <= GIFT_CARD_MAX_CENTS && cents % 100 === 0;

export type GiftCardPaymentResult = { ok: true; orderId: string } | { ok: false; kind: 'amount-out-of-range' | 'payment-unavailable' };

/** Creates the PayPal order for a card of this amount. */
export async function startGiftCardPayment(deps: Pick<Services, 'payments'>, input: { amountCents: number }): Promise<GiftCardPaymentResult> {
  if (!buyable(input.amountCents)) return { ok: false, kind: 'amount-out-of-range' };
  const order = { amountCents: input.amountCents, referenceId: giftCardOrderReference(input.amountCents), description: 'Gift card' };
  return createPayPalOrder(deps.payments, order, 'a gift card order');
}

/** Why buyGiftCard made no card (PurchaseRefusal: the payment's reasons). */
export type BuyGiftCardRefusal = 'amount-out-of-range' | PurchaseRefusal;

export type BuyGiftCardResult = { ok: true; id: string; last4: string } | { ok: false; kind: BuyGiftCardRefusal };

type BuyDeps = PaymentDeps & Pick<Services, 'clock'>;

/** The card to make once paid: the request as validated (its delivery day checked by the route). */
export interface GiftCardPurchase extends Omit<GiftCardAttemptDetails, 'paidOn'> {
  paypalOrderId: string;
  amountCents: number;
  /** The signed-in client who buys it, if any. */
  userId: string | null;
}

/** What the completing transaction made. */
interface Made {
  id: string;
  last4: string;
}

/**
 * Buys the card with the PayPal order the buyer approved: the order must be ours, for the amount
 * the request names, approved and in USD. A replay of the same order answers the card it made,
 * waits for it, or after a crash completes it.
 */
export async function buyGiftCard(deps: BuyDeps, input: GiftCardPurchase): Promise<BuyGiftCardResult> {
  const { db, payments } = deps;
  if (!buyable(input.amountCents)) return { ok: false, kind: 'amount-out-of-range' };
  const mine = (a: PaymentAttempt) => a.kind === 'gift_card' && a.amountCents === input.amountCents;
  const existing = await findAttempt(db, input.paypalOrderId);
  if (existing && existing.state !== 'released') return mine(existing) ? replay(deps, existing) : { ok: false, kind: 'order-for-another-purchase' };

  const read = await readApprovedOrder(payments, input.paypalOrderId, 'a gift card order');
  if (!read.ok) return read;
  const { order } = read;
  if (order.referenceId !== giftCardOrderReference(input.amountCents)) return { ok: false, kind: 'order-for-another-purchase' };
  if (order.status === 'COMPLETED') {
    // A concurrent request for the same order may have captured since we looked: follow it.
    const late = await findAttempt(db, input.paypalOrderId);
    return late && mine(late) ? replay(deps, late) : { ok: false, kind: 'order-already-used' };
  }
  if (order.status !== 'APPROVED') return { ok: false, kind: 'order-not-approved' };
  if (order.currency !== 'USD' || order.amountCents !== input.amountCents) return { ok: false, kind: 'order-for-another-purchase' };

  const details: GiftCardAttemptDetails = {
    design: input.design,
    buyerName: input.buyerName,
    buyerEmail: input.buyerEmail,
    recipientName: input.recipientName,
    recipientEmail: input.recipientEmail,
    message: input.message,
    sendOn: input.sendOn,
    // The money comes in now (the capture follows at once); a recovery later still dates it today.
    paidOn: zonedNow(deps.env.SITE_TIMEZONE, deps.clock.now()).date,
  };
  // The attempt, committed before the capture: what a crash leaves for the reconciler to find.
  const attempt = await db.transaction().execute((trx) => openAttempt(trx, attemptFor('gift_card', order, details, input.userId)));
  if (!attempt) {
    // A concurrent request for this same order opened it first (a double click): follow it.
    const other = await findAttempt(db, order.id);
    return other && mine(other) ? replay(deps, other) : { ok: false, kind: 'order-for-another-purchase' };
  }
  return answerSettled(giftCardAnswers(db), attempt, await captureAndSettle(deps, giftCardPurchase(deps.env), attempt), '');
}

function replay(deps: BuyDeps, first: PaymentAttempt): Promise<BuyGiftCardResult> {
  return replayPurchase(deps, giftCardPurchase(deps.env), giftCardAnswers(deps.db), first, '');
}

/** The card's words for how settling ended (api/money/settle.ts answerSettled): the card it made. */
function giftCardAnswers(db: DB): PaidAnswers<Made, BuyGiftCardResult, 'capture-failed'> {
  return {
    // Nothing is recorded only when the capture was refunded: a failed payment, to the buyer.
    nothingToRecord: 'capture-failed',
    recorded: (made) => ({ ok: true, ...made }),
    async recordedBefore(attempt) {
      const card = await cardOfPaypalOrder(db, attempt.paypalOrderId);
      return card ? { ok: true, id: card.id, last4: card.codeLast4 } : undefined;
    },
  };
}

/**
 * The card's adapter of the payment lifecycle: the approved amount in USD, completed (a PENDING
 * capture is not money yet and is refunded); nothing held to give back on a release; on
 * completion the card made as the buyer asked, paid through PayPal, and her receipt queued.
 */
export function giftCardPurchase(env: PaymentDeps['env']): Purchase<Made> {
  return {
    kind: 'gift_card',
    log: '[gift-cards]',
    accepts: acceptsApprovedUsd,
    async release() {
      // Nothing was held for it: a card is made only when paid.
    },
    async record(trx, attempt) {
      const d = attempt.details as GiftCardAttemptDetails;
      const card = await createCard(trx, env, {
        amountCents: attempt.amountCents,
        priceCents: attempt.amountCents,
        method: 'paypal',
        paidOn: d.paidOn,
        design: d.design,
        buyerName: d.buyerName,
        buyerEmail: d.buyerEmail,
        recipientName: d.recipientName,
        recipientEmail: d.recipientEmail,
        message: d.message,
        sendOn: d.sendOn,
        createdBy: 'buyer',
        paypalOrderId: attempt.paypalOrderId,
      });
      const last4 = card.code.slice(-4);
      const receipt = receiptMail(env, (await brandNames(trx))[d.design], {
        ...d,
        amountCents: attempt.amountCents,
        last4,
        paypalOrderId: attempt.paypalOrderId,
        cardId: card.id,
      });
      // The receipt first, then the card's delivery when its day is today.
      const mails = [...(await queueMails(trx, 'gift-card-receipt', [receipt])), ...card.mails];
      return { recorded: { id: card.id, last4 }, mails };
    },
  };
}
