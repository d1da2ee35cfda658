/**
 * The chocolate checkout's money flow (SPEC.md sections 3, 4, 7, 8; issue 6), behind
 * POST /api/orders: after startCheckout (start-checkout.ts) made the PayPal order and the buyer
 * approved it, placeOrder prices the same cart again and captures only if PayPal's order still
 * carries that cart's reference and amount, the buyer approved it, and the stock is claimed.
 *
 * It answers the placed order or a refusal, `{ ok: false, kind }`: a name for why, never an
 * HTTP status; the route chooses the status and contract/orders.ts's words. Anything else (the
 * database down, a bug) is thrown.
 *
 * Money rule (decision 0012, which supersedes the one-transaction capture of 0006): claim the
 * tins and record a payment attempt in one short transaction, commit; capture with no
 * transaction open; record the order in a second short transaction. A buyer who loses the last
 * tin is never charged (the PayPal order stays APPROVED and lapses); a declined capture gives
 * the tins back; a capture whose answer was lost (a crash, a timeout) is found again by the
 * buyer's retry, the reconciler (api/money/reconcile.ts) or PayPal's webhook, which complete
 * the same attempt.
 */
import type { DB } from '../../db/client.ts';
import type { OrderAttemptDetails } from '../../db/schema.ts';
import type { OrderView } from '../../contract/orders.ts';
import { CURRENCY } from '../../contract/pricing.ts';
import { captureRequestId, PayPalError } from '../services/payments/paypal.ts';
import { queueMails, type QueuedMails } from '../mail/outbox.repo.ts';
import { commitWithMails } from '../mail/commit.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ShipToAddress } from '../../contract/orders.ts';
import { cardSpendBecameOrder, giveBackCardPart, spendCard } from '../money/ledger.ts';
import { findAttempt, isOpen, linkOrder, openAttempt, type PaymentAttempt } from '../money/attempts.repo.ts';
import { PROCESS_ID } from '../lib/process.ts';
import { followAttempt, type CaptureOutcome } from '../money/capture.ts';
import { captureAndSettle, settlePayment, type PaymentDeps, type Purchase, type Settled, type Settler } from '../money/settle.ts';
import { orderMails } from './mails.ts';
import { brandNames } from '../site/brand.ts';
import { statusAfterCapture } from './order-status.ts';
import { orderView } from './order-views.ts';
import { withLabelLines } from './product-views.ts';
import { claimStock, findOrderByPaypalId, insertOrder, insertOrderItems, itemsOfOrders, recordCapture, restock } from './orders.repo.ts';
import { quoteCart, type Cart, type Quote, type QuoteRefusal } from './quote.ts';
import { shipStateChanged } from './sales-tax.ts';
import type { TaxDeps } from './tax-lookup.ts';

export interface PlaceOrderInput extends Cart {
  /**
   * The PayPal order startCheckout made for this cart and the buyer approved; absent when a gift
   * card pays the whole order (issue 33).
   */
  paypalOrderId?: string | undefined;
  /** Stand in only when PayPal reports no payer name or e-mail; required when no PayPal order is. */
  payerName?: string | undefined;
  payerEmail?: string | undefined;
  /** Where an order a gift card paid in full ships (PayPal's window asks it otherwise). */
  shipTo?: ShipToAddress | undefined;
}

/**
 * Why placeOrder placed nothing. Besides the quote's (QuoteRefusal), before any capture:
 * - 'payment-not-found': PayPal knows no such order;
 * - 'payment-unavailable': PayPal could not be reached or answered 5xx (here, or at the capture);
 * - 'cart-changed': the PayPal order was made for another cart, price, coupon or amount;
 * - 'payment-not-approved': the buyer has not approved the PayPal order;
 * - 'sold-out-during-payment': a line's tins sold out while the buyer was paying;
 * and at the capture:
 * - 'payment-failed': PayPal declined the capture;
 * - 'payment-refunded': PayPal captured another amount than the order's, and it was refunded;
 * - 'payment-already-used': PayPal says the order was captured, and no order of ours has it;
 * - 'ship-state-changed': the buyer chose a shipping address in PayPal in another state than the
 *   one the tax was figured for (issue 24): refused before the capture, nothing charged;
 * with a gift card (issue 33):
 * - 'gift-card-changed': the card holds less than the quote took from it (another cart spent it);
 * - 'payment-still-due': no PayPal order, and the card does not pay the whole order;
 * - 'payer-required', 'ship-to-required': a card-paid order without its payer or its address.
 * In every case no order is stored, no tin is taken, nothing is taken from the card and no money is kept.
 */
export type PlaceOrderRefusal =
  | QuoteRefusal
  | 'payment-not-found'
  | 'payment-unavailable'
  | 'cart-changed'
  | 'payment-not-approved'
  | 'sold-out-during-payment'
  | 'payment-failed'
  | 'payment-refunded'
  | 'payment-already-used'
  | 'ship-state-changed'
  | 'gift-card-changed'
  | 'payment-still-due'
  | 'payer-required'
  | 'ship-to-required';

/**
 * The answer of placeOrder: the order as the buyer sees it, `replayed` when it was placed by an
 * earlier request for the same PayPal order (nothing captured or mailed again); or a refusal.
 */
export type PlaceOrderResult = { ok: true; order: OrderView; replayed: boolean } | { ok: false; kind: PlaceOrderRefusal };

/** A refusal met inside the claim's transaction: thrown to roll it back, answered after. */
class OrderRefused extends Error {
  readonly kind: PlaceOrderRefusal;
  constructor(kind: PlaceOrderRefusal, why: string) {
    super(why);
    this.kind = kind;
  }
}

/** The PayPal order has an attempt already (a concurrent or later replay): roll back, follow it. */
class AttemptExists extends Error {}

const refused = (kind: PlaceOrderRefusal): PlaceOrderResult => ({ ok: false, kind });

const validEmail = (s: string | undefined) => {
  const e = (s ?? '').trim().toLowerCase();
  return e.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e) ? e : '';
};

const paypalTrouble = (err: unknown) => {
  console.error('[orders] PayPal call failed:', err instanceof Error ? err.message : err);
};

/** The order already placed for this PayPal order, as it was answered then. */
async function placedBefore(db: DB, paypalOrderId: string): Promise<PlaceOrderResult | undefined> {
  const existing = await findOrderByPaypalId(db, paypalOrderId);
  if (!existing) return undefined;
  return { ok: true, order: orderView(existing, await itemsOfOrders(db, [existing.id])), replayed: true };
}

/**
 * Places the order paid by `input.paypalOrderId`: checks the cart and the PayPal order (nothing
 * captured yet), claims the tins and records the attempt (commit), captures with no transaction
 * open, then stores the order (commit) and mails the buyer and the teacher. A replay of a placed
 * order answers that order; a replay of one still being paid waits for it, or after a crash
 * completes it.
 */
export async function placeOrder(deps: PaymentDeps & Pick<TaxDeps, 'taxRates'>, input: PlaceOrderInput): Promise<PlaceOrderResult> {
  const { db, payments } = deps;
  const { paypalOrderId } = input;
  if (!paypalOrderId) return placeCardOrder(deps, input);

  // A replay of a placed order answers that order: never a second order, never a second capture.
  const replayed = await placedBefore(db, paypalOrderId);
  if (replayed) return replayed;
  const existing = await findAttempt(db, paypalOrderId);
  if (existing && existing.state !== 'released') return existing.kind === 'order' ? replay(deps, existing) : refused('cart-changed');

  // Whatever totals the browser sent are never read: the cart is priced again here.
  const quoted = await quoteCart(deps, input, deps.env.SITE_TIMEZONE);
  if (!quoted.ok) return quoted;
  const { quote } = quoted;
  const { totals } = quote;

  let paypal;
  try {
    paypal = await payments.getOrder(paypalOrderId);
  } catch (err) {
    if (err instanceof PayPalError && err.status === 404) return refused('payment-not-found');
    paypalTrouble(err);
    return refused('payment-unavailable');
  }
  if (paypal.referenceId !== quote.reference || paypal.amountCents !== quote.amountDueCents || paypal.currency !== CURRENCY) {
    return refused('cart-changed');
  }
  if (paypal.status === 'COMPLETED') {
    // A concurrent request for the same order may have opened its attempt and captured since we
    // looked: follow it. With no attempt of ours, it was paid somewhere else than this checkout.
    const late = await findAttempt(db, paypalOrderId);
    if (late && late.state !== 'released' && late.kind === 'order') return replay(deps, late);
    return refused('payment-already-used');
  }
  if (paypal.status !== 'APPROVED') return refused('payment-not-approved');
  // The tax was figured for the cart's state: an address in PayPal elsewhere is refused before any capture (issue 24).
  if (!quote.isLocalPickup && shipStateChanged(totals.taxState, paypal.shipToRegion)) return refused('ship-state-changed');

  const details: OrderAttemptDetails = {
    lines: quote.lines.map((l) => ({ productId: l.productId, name: l.name, unitPriceCents: l.unitPriceCents, quantity: l.quantity })),
    ...totals,
    couponCode: quote.couponCode,
    isLocalPickup: quote.isLocalPickup,
    payerName: input.payerName ?? '',
    payerEmail: validEmail(input.payerEmail),
    giftCardLotId: quote.giftCard?.lotId ?? null,
    giftCardCents: quote.giftCard?.cents ?? 0,
  };

  // The claim: the attempt, the tins and the card's part, in one short transaction. No PayPal call in here.
  let attempt: PaymentAttempt;
  try {
    attempt = await db.transaction().execute(async (trx) => {
      // The attempt first: paypal_order_id is unique, so a concurrent replay waits here, then follows this one.
      const opened = await openAttempt(trx, {
        kind: 'order',
        paypalOrderId,
        paypalRequestId: captureRequestId(paypalOrderId),
        amountCents: totals.totalCents,
        currency: CURRENCY,
        slotId: null,
        userId: null,
        details,
        claimedBy: PROCESS_ID,
      });
      if (!opened) throw new AttemptExists();
      if (!(await claimStock(trx, quote.lines))) throw new OrderRefused('sold-out-during-payment', 'sold out during payment');
      // The card pays its part before PayPal is asked for the rest; a release gives it back (orderPurchase).
      if (quote.giftCard) await takeCardPart(trx, quote.giftCard, { attemptId: opened.id });
      return opened;
    });
  } catch (err) {
    if (err instanceof OrderRefused) return refused(err.kind);
    if (err instanceof AttemptExists) {
      const other = await findAttempt(db, paypalOrderId);
      if (other) return replay(deps, other);
    }
    throw err;
  }

  // Capture after the claim, with no transaction open: the buyer is charged only once the tins are theirs.
  return answer(deps.db, attempt, await captureAndSettle(deps, orderPurchase(deps.env), attempt));
}

/** A replay of a PayPal order whose attempt is open or done (api/money/capture.ts followAttempt). */
async function replay(deps: PaymentDeps, first: PaymentAttempt): Promise<PlaceOrderResult> {
  const followed = await followAttempt(deps, first);
  if (followed.kind === 'timeout') return refused('payment-unavailable');
  if (followed.kind === 'captured') return settleOrderAttempt(deps, followed.attempt, followed.outcome, { settledBy: 'retry', holder: followed.holder });
  const { attempt } = followed;
  if (attempt.state === 'completed') return (await placedBefore(deps.db, attempt.paypalOrderId)) ?? refused('payment-already-used');
  return refused(attempt.outcome?.startsWith('refunded') ? 'payment-refunded' : 'payment-failed');
}

/** An order as it was recorded: its id and who paid. */
interface PlacedOrder {
  id: string;
  payerName: string;
}

/**
 * The shop's adapter of the payment lifecycle (api/money/settle.ts): the money it accepts (the
 * attempt's total in its currency, completed or pending at PayPal), the tins given back on a
 * release, and the order with its lines, capture and mails recorded on completion.
 */
export function orderPurchase(env: PaymentDeps['env']): Purchase<PlacedOrder> {
  return {
    kind: 'order',
    log: '[orders]',
    accepts(attempt, captured) {
      const details = attempt.details as OrderAttemptDetails;
      // A capture that took nothing (declined, failed): no money to give back.
      if (!statusAfterCapture(captured.captureStatus)) return { ok: false, why: `capture ${captured.captureStatus}`, refund: false };
      // PayPal is owed the total less the gift card's part (issue 33).
      const due = details.totalCents - (details.giftCardCents ?? 0);
      if (captured.amountCents !== due || captured.currency !== attempt.currency) {
        return { ok: false, why: `captured ${captured.amountCents} ${captured.currency} for ${due} ${attempt.currency} due`, refund: true };
      }
      return { ok: true };
    },
    async release(trx, attempt) {
      await restock(trx, (attempt.details as OrderAttemptDetails).lines);
      await giveBackCardPart(trx, { attemptId: attempt.id, note: 'The payment of the rest did not go through' });
    },
    async record(trx, attempt, captured) {
      const details = attempt.details as OrderAttemptDetails;
      const payer = {
        payerName: captured.payer.name || details.payerName,
        payerEmail: validEmail(captured.payer.email) || details.payerEmail,
      };
      const status = statusAfterCapture(captured.captureStatus)!;
      const stored = await storeOrder(trx, env, details, {
        paypalOrderId: attempt.paypalOrderId,
        paypalCaptureId: captured.captureId,
        ...payer,
        shipTo: details.isLocalPickup ? null : captured.shipTo,
        // payment_pending: the order waits for PayPal's webhook (paypal-webhooks.routes.ts) to say
        // completed or denied; the teacher ships nothing before.
        status,
      });
      await linkOrder(trx, attempt.id, stored.id);
      // The card's debit, written with the claim, now names the order (issue 33).
      if (details.giftCardCents) await cardSpendBecameOrder(trx, attempt.id, stored.id);
      return { recorded: { id: stored.id, payerName: payer.payerName }, mails: stored.mails };
    },
  };
}

/** How an order was paid and who paid: PayPal's ids (none when a gift card paid it all), the payer, the address. */
interface Payment {
  paypalOrderId: string | null;
  paypalCaptureId: string | null;
  payerName: string;
  payerEmail: string;
  shipTo: { name: string; address: string } | null;
  status: 'paid' | 'payment_pending';
}

/**
 * Stores the order as `details` priced it, its lines, its payment and the buyer's and the
 * teacher's mails, in the caller's transaction: a crash after the commit never loses the mails,
 * a rollback never sends them.
 */
async function storeOrder(
  trx: Transaction<Database>,
  env: PaymentDeps['env'],
  details: OrderAttemptDetails,
  paid: Payment,
): Promise<{ id: string; mails: QueuedMails }> {
  const { paypalOrderId, paypalCaptureId, payerName, payerEmail, shipTo, status } = paid;
  // What the buyer pays, as the attempt recorded it: the order row and the mails say the same.
  const { itemsTotalCents, discountCents, shippingCents, totalCents, couponCode, isLocalPickup } = details;
  // The sales tax as the attempt recorded it (issue 24); an attempt from before it has none.
  const { taxCents = 0, taxRatePpm = 0, taxState = null, taxOnShipping = false } = details;
  // Where the rate is of and where it came from (issue 29); an attempt from before it has none.
  const { taxZip = null, taxLocationCode = null, taxJurisdiction = null, taxRateSource = null } = details;
  // The gift card's part (issue 33); an attempt from before it has none.
  const { giftCardCents = 0, giftCardLotId = null } = details;
  const place = { taxZip, taxLocationCode, taxJurisdiction, taxRateSource };
  const priced = { itemsTotalCents, discountCents, shippingCents, totalCents, couponCode, isLocalPickup, taxCents, taxRatePpm, taxState, taxOnShipping };
  const order = await insertOrder(trx, { paypalOrderId, payerName, payerEmail, ...priced, ...place, giftCardCents, giftCardLotId });
  await insertOrderItems(
    trx,
    details.lines.map((l) => ({ orderId: order.id, productId: l.productId, name: l.name, unitPriceCents: l.unitPriceCents, quantity: l.quantity })),
  );
  await recordCapture(trx, order.id, {
    paypalCaptureId,
    payerName,
    payerEmail,
    shipToName: shipTo?.name ?? null,
    shipToAddress: shipTo?.address ?? null,
    status,
  });
  const mails = await queueMails(
    trx,
    'order-confirmation',
    orderMails(env, (await brandNames(trx)).chocolates, {
      id: order.id,
      paypalOrderId,
      paypalCaptureId,
      payerName,
      payerEmail,
      // Each line with its allergen line and net weight (issue 48).
      items: await withLabelLines(trx, details.lines),
      ...priced,
      giftCardCents,
      shipTo,
      paymentPending: status === 'payment_pending',
    }),
  );
  return { id: order.id, mails };
}

/** Takes the card's part of the order in the claim's transaction; a balance that fell since the quote refuses it all. */
async function takeCardPart(trx: Transaction<Database>, card: NonNullable<Quote['giftCard']>, of: { attemptId?: string; orderId?: string }) {
  const spent = await spendCard(trx, { lotId: card.lotId, cents: card.cents, ...of, by: 'client' });
  if (!spent.ok) throw new OrderRefused('gift-card-changed', 'the gift card holds less than quoted');
}

/** The lines of a shipping address as PayPal's are kept (shipToOf of services/payments/paypal.ts). */
const addressLines = (a: ShipToAddress) => [a.line1, a.line2, `${a.city}, ${a.state} ${a.zip}`, 'US'].filter(Boolean).join('\n');

/**
 * An order a gift card pays in full (issue 33): no PayPal order, so in one transaction the tins
 * are claimed, the order stored paid, the card debited under its lock (two carts spending one
 * card never take more than it holds) and the mails queued; sent after the commit.
 */
async function placeCardOrder(deps: PaymentDeps & Pick<TaxDeps, 'taxRates'>, input: PlaceOrderInput): Promise<PlaceOrderResult> {
  const quoted = await quoteCart(deps, input, deps.env.SITE_TIMEZONE);
  if (!quoted.ok) return quoted;
  const { quote } = quoted;
  if (!quote.giftCard || quote.amountDueCents > 0) return refused('payment-still-due');
  const payerName = (input.payerName ?? '').trim();
  const payerEmail = validEmail(input.payerEmail);
  if (!payerName || !payerEmail) return refused('payer-required');
  if (!quote.isLocalPickup && !input.shipTo) return refused('ship-to-required');
  if (input.shipTo && !quote.isLocalPickup && input.shipTo.state !== quote.totals.taxState) return refused('ship-state-changed');
  const card = quote.giftCard;
  const details: OrderAttemptDetails = {
    lines: quote.lines.map((l) => ({ productId: l.productId, name: l.name, unitPriceCents: l.unitPriceCents, quantity: l.quantity })),
    ...quote.totals,
    couponCode: quote.couponCode,
    isLocalPickup: quote.isLocalPickup,
    payerName,
    payerEmail,
    giftCardLotId: card.lotId,
    giftCardCents: card.cents,
  };
  const shipTo = input.shipTo && !quote.isLocalPickup ? { name: input.shipTo.name, address: addressLines(input.shipTo) } : null;
  try {
    const done = await commitWithMails(deps, async (trx) => {
      if (!(await claimStock(trx, quote.lines))) throw new OrderRefused('sold-out-during-payment', 'sold out');
      const stored = await storeOrder(trx, deps.env, details, { paypalOrderId: null, paypalCaptureId: null, payerName, payerEmail, shipTo, status: 'paid' });
      await takeCardPart(trx, card, { orderId: stored.id });
      return { result: stored.id, mails: stored.mails };
    });
    return { ok: true, order: orderView({ id: done.result, ...details }, details.lines), replayed: false };
  } catch (err) {
    if (err instanceof OrderRefused) return refused(err.kind);
    throw err;
  }
}

/**
 * Records how an order's attempt ended, after the capture (or the look-up at PayPal), through the
 * shared lifecycle (api/money/settle.ts), and answers it in the shop's words. Used by the
 * checkout, the buyer's retry, the reconciler and the webhook alike.
 */
export async function settleOrderAttempt(deps: PaymentDeps, attempt: PaymentAttempt, outcome: CaptureOutcome, by: Settler): Promise<PlaceOrderResult> {
  return answer(deps.db, attempt, await settlePayment(deps, orderPurchase(deps.env), attempt, outcome, by));
}

/** The shop's words for how settling ended. */
async function answer(db: DB, attempt: PaymentAttempt, settled: Settled<PlacedOrder>): Promise<PlaceOrderResult> {
  switch (settled.kind) {
    case 'unknown':
      return refused('payment-unavailable');
    case 'released':
      return refused(settled.afterOutage ? 'payment-unavailable' : settled.refunded ? 'payment-refunded' : 'payment-failed');
    case 'nothing-to-record':
      return refused('payment-refunded');
    case 'completed': {
      // A pending payment answers like a paid one: SPEC.md has words for the cart's success and
      // failure dialogs only, and the pending payment is not a failure (the order is placed, the
      // tins are the buyer's). So the cart keeps its success dialog, the answer keeps its shape
      // (no status: it would only matter to a dialog the spec does not have), and the buyer's mail
      // says the order ships once PayPal confirms the payment.
      const details = attempt.details as OrderAttemptDetails;
      return { ok: true, order: orderView({ id: settled.recorded.id, ...details, payerName: settled.recorded.payerName }, details.lines), replayed: false };
    }
    case 'lost': {
      // Someone else recorded the attempt's outcome first: answer it.
      const now = settled.attempt;
      if (now?.state === 'completed') return (await placedBefore(db, attempt.paypalOrderId)) ?? refused('payment-already-used');
      if (settled.refunded) return refused('payment-refunded');
      return refused(now && isOpen(now) ? 'payment-unavailable' : 'payment-failed');
    }
  }
}
