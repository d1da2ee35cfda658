/**
 * Gift cards (issue 33, decision 0041): the routes validate, call the use-cases of gift-cards.ts
 * and map refusals.
 *
 *   GET  /api/gift-cards/balance?code=…   {balanceCents}; one 404 for every wrong code; 20 tries per address in 15 minutes
 *   POST /api/gift-cards/paypal-order     {amountCents} -> {orderID}: the server makes the PayPal order
 *   POST /api/gift-cards                  {paypalOrderId, amountCents, design, buyer, recipient, message?, sendOn?}: capture, then the card (201 {_id, last4})
 *   GET  /api/gift-cards/{id}/delivery?token=   the buyer's link (in the receipt): recipient, day, sent or not
 *   GET  /api/gift-cards/{id}/printable?token=  the recipient's link (in the card's mail): the card to print, with its code
 *   PUT  /api/gift-cards/{id}/delivery    {token, recipientName, recipientEmail, sendOn}: changed while not sent; today sends it now
 *   POST /api/user/{id}/packages/{packageId}/gift-card/paypal-order   {giftCardCode, amountCents}: the order for what the card does not hold
 *   POST /api/user/{id}/packages/{packageId}/gift-card   {giftCardCode, amountCents, paypalOrderId?}: a package the card pays, all or with that order (201)
 *   GET  /api/admin/gift-cards            her cards: last four, worth, left, delivered, voided
 *   POST /api/admin/gift-cards            {amountCents, recipientName, recipientEmail, message?, sendOn?, design?} -> 201 {_id, code}
 *   GET  /api/admin/gift-cards/{id}       the card and its history (her-cards.ts)
 *   POST /api/admin/gift-cards/{id}/void  a card never delivered: emptied, the buyer refunded through PayPal
 *   POST /api/admin/gift-cards/{id}/resend   a delivered card's mail again, the same code
 *   POST /api/admin/gift-cards/{id}/adjust   {cents, reason} -> 201 {balanceCents}; never below zero
 */
import { purchaseRefusals } from '../money/settle.ts';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { refuse, type Refused } from '../middleware/answers.ts';
import { validateJson, validateParams, validateQuery } from '../validation.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { LIMITS } from '../services/limits.ts';
import { addMonths, zonedNow } from '../lib/time.ts';
import { id } from '../../contract/common.ts';
import {
  GIFT_CARD_ALREADY_DELIVERED,
  GIFT_CARD_ALREADY_SENT,
  GIFT_CARD_LINK_INVALID,
  giftCardChangeToken,
  giftCardDeliveryChange,
  type GiftCardDeliveryView,
  type GiftCardPrintView,
  GIFT_CARD_ID_UNKNOWN,
  GIFT_CARD_NOT_YET_DELIVERED,
  GIFT_CARD_VOIDED,
  giftCardAdjustment,
  giftCardBelowZero,
  type AdminGiftCardDetailView,
  type GiftCardVoidedView,
  GIFT_CARD_AMOUNT_INVALID,
  GIFT_CARD_NOT_FOUND,
  GIFT_CARD_PAYMENT_FOR_ANOTHER,
  GIFT_CARD_SEND_ON_PAST,
  GIFT_CARD_SEND_ON_TOO_LATE,
  giftCardCode,
  giftCardOrderRequest,
  packageByCardRequest,
  packageByCardOrderRequest,
  GIFT_CARD_PAYS_PACKAGE,
  GIFT_CARD_EMPTY,
  giftCardPurchaseRequest,
  issueGiftCardRequest,
  type AdminGiftCardView,
  type GiftCardBalanceView,
  type GiftCardBoughtView,
  type GiftCardIssuedView,
} from '../../contract/gift-cards.ts';
import { changeDelivery, deliveryByLink, issueGiftCard, printableByLink, type DeliveryChange } from './gift-cards.ts';
import { balanceByCode, type BalanceResult } from '../money/cards.ts';
import { listGiftCards } from './gift-cards.repo.ts';
import { adjustCardBalance, cardWithHistory, resendCard, voidCard, type ResendResult, type VoidResult } from './her-cards.ts';
import { buyGiftCard, startGiftCardPayment, type BuyGiftCardRefusal } from './buy-gift-card.ts';
import { buyPackageWithCard, buyPackageWithCardAndPayPal, startPackagePaymentWithCard, type CardBuyResult, type PartCardResult } from './spend-on-package.ts';
import { buyRefusals as packageRefusals } from '../packages/packages.routes.ts';
import { assertSelf, requireAdmin, requireUser, signedInUser } from '../middleware/auth.ts';
import { balanceOf } from '../money/ledger.ts';
import { packageAmountOutOfRange, REFUND_OWED_WORDS, type PackageBoughtView } from '../../contract/packages.ts';
import { giftCardShort, type BookingOrderView } from '../../contract/booking.ts';

const params = z.object({ id });

/** Her day now. */
const todayOf = (services: AppEnv['Variables']['services']) => zonedNow(services.env.SITE_TIMEZONE, services.clock.now()).date;

/** A delivery day is today or later (her day), within a year; a reason otherwise. */
export function sendOnRefusal(sendOn: string, today: string): string | null {
  if (sendOn < today) return GIFT_CARD_SEND_ON_PAST;
  if (sendOn > addMonths(today, 12)) return GIFT_CARD_SEND_ON_TOO_LATE;
  return null;
}

const iso = (t: Date | string | null) => (t ? new Date(t).toISOString() : null);

/** A card as her page shows it: never the whole code. */
function cardView(g: Awaited<ReturnType<typeof listGiftCards>>[number]): AdminGiftCardView {
  return {
    _id: g.id,
    last4: g.codeLast4,
    amountCents: g.amountCents,
    balanceCents: g.voidedAt ? 0 : g.balanceCents,
    paidCents: g.paidCents,
    adjustedCents: g.adjustedCents,
    spentCents: g.spentCents,
    refundedCents: g.refundedCents,
    design: g.design,
    buyerName: g.buyerName,
    recipientName: g.recipientName,
    recipientEmail: g.recipientEmail,
    message: g.message,
    sendOn: g.sendOn,
    deliveredAt: iso(g.deliveredAt),
    voidedAt: iso(g.voidedAt),
    createdBy: g.createdBy,
    createdAt: iso(g.createdAt)!,
  };
}

/** The delivery day asked (today when left out) and her today, or why that day cannot be. */
function deliveryDay(services: AppEnv['Variables']['services'], asked: string | undefined) {
  const today = todayOf(services);
  const sendOn = asked ?? today;
  return { today, sendOn, refusal: sendOnRefusal(sendOn, today) };
}

/** A card's code or link that is no card's, and a delivery already made: every wrong one answers alike. */
const balanceRefusals: Record<Extract<BalanceResult, { ok: false }>['kind'], Refused> = { 'not-found': { status: 404, message: GIFT_CARD_NOT_FOUND } };
const deliveryRefusals: Record<Extract<DeliveryChange, { ok: false }>['kind'], Refused> = {
  'not-found': { status: 404, message: GIFT_CARD_LINK_INVALID },
  'already-sent': { status: 409, message: GIFT_CARD_ALREADY_SENT },
};

/** The status and message of each refusal of a purchase (the booking's and the package's words where they are the same). */
const buyRefusals: Record<BuyGiftCardRefusal, Refused> = {
  'amount-out-of-range': { status: 400, message: GIFT_CARD_AMOUNT_INVALID },
  ...purchaseRefusals(GIFT_CARD_PAYMENT_FOR_ANOTHER),
};

export const giftCards = new Hono<AppEnv>()
  .get('/balance', rateLimit(LIMITS.giftCardCode), validateQuery(z.object({ code: giftCardCode })), async (c) => {
    const result = await balanceByCode(c.var.services.db, c.req.valid('query').code);
    if (!result.ok) return refuse(c, balanceRefusals[result.kind]);
    return c.json({ balanceCents: result.balanceCents } satisfies GiftCardBalanceView);
  })
  // Anyone may buy a card, signed in or not: limited per address, as the shop's checkout is.
  .post('/paypal-order', rateLimit(LIMITS.checkout), validateJson(giftCardOrderRequest), async (c) => {
    const result = await startGiftCardPayment(c.var.services, { amountCents: c.req.valid('json').amountCents });
    if (!result.ok) return c.json({ message: buyRefusals[result.kind].message }, buyRefusals[result.kind].status);
    return c.json({ orderID: result.orderId } satisfies BookingOrderView);
  })
  .post('/', rateLimit(LIMITS.placeOrder), validateJson(giftCardPurchaseRequest), async (c) => {
    const body = c.req.valid('json');
    const { sendOn, refusal } = deliveryDay(c.var.services, body.sendOn);
    if (refusal) return c.json({ message: refusal }, 400);
    const result = await buyGiftCard(c.var.services, { ...body, message: body.message ?? '', sendOn, userId: await signedInUser(c) });
    if (!result.ok) return c.json({ message: buyRefusals[result.kind].message }, buyRefusals[result.kind].status);
    return c.json({ _id: result.id, last4: result.last4 } satisfies GiftCardBoughtView, 201);
  })
  // The buyer's link: limited per address as the code is, and every wrong link answers alike.
  .get('/:id/delivery', rateLimit(LIMITS.giftCardCode), validateParams(params), validateQuery(z.object({ token: giftCardChangeToken })), async (c) => {
    const card = await deliveryByLink(c.var.services, c.req.valid('param').id, c.req.valid('query').token);
    if (!card) return c.json({ message: GIFT_CARD_LINK_INVALID }, 404);
    const { codeLast4: last4, amountCents, recipientName, recipientEmail, sendOn } = card;
    return c.json({
      last4,
      amountCents,
      recipientName,
      recipientEmail,
      sendOn,
      delivered: !!(card.deliveredAt || card.voidedAt),
    } satisfies GiftCardDeliveryView);
  })
  .get('/:id/printable', rateLimit(LIMITS.giftCardCode), validateParams(params), validateQuery(z.object({ token: giftCardChangeToken })), async (c) => {
    const card = await printableByLink(c.var.services, c.req.valid('param').id, c.req.valid('query').token);
    if (!card) return c.json({ message: GIFT_CARD_LINK_INVALID }, 404);
    return c.json(card satisfies GiftCardPrintView);
  })
  .put('/:id/delivery', rateLimit(LIMITS.giftCardCode), validateParams(params), validateJson(giftCardDeliveryChange), async (c) => {
    const { token, ...to } = c.req.valid('json');
    const today = todayOf(c.var.services);
    const refusal = sendOnRefusal(to.sendOn, today);
    if (refusal) return c.json({ message: refusal }, 400);
    const result = await changeDelivery(c.var.services, { id: c.req.valid('param').id, token, ...to, today });
    if (!result.ok) return refuse(c, deliveryRefusals[result.kind]);
    return c.json({
      message: result.delivered ? `Sent to ${to.recipientEmail} now.` : `It goes to ${to.recipientEmail} on ${to.sendOn}.`,
      delivered: result.delivered,
    });
  });

/** Why her change of a card was refused (her-cards.ts), in words and status. */
const herCardRefusals: Record<Exclude<VoidResult | ResendResult, { ok: true }>['kind'], { status: 404 | 409; message: string }> = {
  'not-found': { status: 404, message: GIFT_CARD_ID_UNKNOWN },
  'already-delivered': { status: 409, message: GIFT_CARD_ALREADY_DELIVERED },
  'already-voided': { status: 409, message: GIFT_CARD_VOIDED },
  'not-yet-delivered': { status: 409, message: GIFT_CARD_NOT_YET_DELIVERED },
  voided: { status: 409, message: GIFT_CARD_VOIDED },
};

export const adminGiftCards = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/', async (c) => {
    const cards = await listGiftCards(c.var.services.db);
    return c.json(cards.map(cardView));
  })
  .post('/', validateJson(issueGiftCardRequest), async (c) => {
    const body = c.req.valid('json');
    const { today, sendOn, refusal } = deliveryDay(c.var.services, body.sendOn);
    if (refusal) return c.json({ message: refusal }, 400);
    const card = await issueGiftCard(c.var.services, {
      amountCents: body.amountCents,
      recipientName: body.recipientName,
      recipientEmail: body.recipientEmail,
      message: body.message ?? '',
      sendOn,
      design: body.design ?? 'yoga',
      today,
    });
    return c.json({ _id: card.id, code: card.code } satisfies GiftCardIssuedView, 201);
  })
  .get('/:id', validateParams(params), async (c) => {
    const found = await cardWithHistory(c.var.services.db, c.req.valid('param').id);
    if (!found) return c.json({ message: GIFT_CARD_ID_UNKNOWN }, 404);
    const { card, history } = found;
    return c.json({
      ...cardView(card),
      history: history.map((h) => ({ at: iso(h.createdAt)!, change: h.change, reason: h.reason, note: h.note, orderId: h.orderId, slotId: h.slotId })),
    } satisfies AdminGiftCardDetailView);
  })
  .post('/:id/void', validateParams(params), async (c) => {
    const result = await voidCard(c.var.services, c.req.valid('param').id);
    if (!result.ok) return c.json({ message: herCardRefusals[result.kind].message }, herCardRefusals[result.kind].status);
    const refund = { refunded: ' The buyer was refunded through PayPal.', owed: ` ${REFUND_OWED_WORDS}`, none: '' };
    return c.json({
      message: `Gift card voided.${refund[result.paypalRefund]}`,
      takenCents: result.takenCents,
      paypalRefund: result.paypalRefund,
    } satisfies GiftCardVoidedView);
  })
  .post('/:id/resend', validateParams(params), async (c) => {
    const result = await resendCard(c.var.services, c.req.valid('param').id);
    if (!result.ok) return c.json({ message: herCardRefusals[result.kind].message }, herCardRefusals[result.kind].status);
    return c.json({ message: result.sent ? 'The card was sent again.' : 'The card will be sent again shortly.' });
  })
  .post('/:id/adjust', validateParams(params), validateJson(giftCardAdjustment), async (c) => {
    const result = await adjustCardBalance(c.var.services.db, c.req.valid('param').id, c.req.valid('json'));
    if (!result.ok) {
      const refusals = {
        'not-found': () => c.json({ message: GIFT_CARD_ID_UNKNOWN }, 404),
        voided: () => c.json({ message: GIFT_CARD_VOIDED }, 409),
        'below-zero': () => c.json({ message: giftCardBelowZero(result.kind === 'below-zero' ? result.balanceCents : 0) }, 409),
      } satisfies Record<typeof result.kind, () => Response>;
      return refusals[result.kind]();
    }
    return c.json({ balanceCents: result.balanceCents }, 201);
  });

/** Why a package was not bought with a card, in words and status (the package's and the booking's words where they are the same). */
function packageByCardRefusal(result: Exclude<CardBuyResult | PartCardResult<never>, { ok: true }>): Refused {
  switch (result.kind) {
    case 'amount-out-of-range':
      return { status: 400, message: packageAmountOutOfRange(result.package) };
    case 'unknown-gift-card':
      return { status: 400, message: GIFT_CARD_NOT_FOUND };
    case 'gift-card-empty':
      return { status: 400, message: GIFT_CARD_EMPTY };
    case 'gift-card-short':
      return { status: 402, message: giftCardShort(result.balanceCents, result.amountCents) };
    case 'gift-card-pays-all':
      return { status: 400, message: GIFT_CARD_PAYS_PACKAGE };
    default:
      return packageRefusals[result.kind];
  }
}

const packageParams = z.object({ id, packageId: id });

/**
 * A client's package paid with a gift card, alone or with PayPal for the rest (issue 33): limited
 * per account as every spend by code is.
 */
export const userGiftCards = new Hono<AppEnv>()
  .post(
    '/:id/packages/:packageId/gift-card/paypal-order',
    requireUser(),
    rateLimit({ ...LIMITS.giftCardCode, per: 'account' }),
    validateParams(packageParams),
    validateJson(packageByCardOrderRequest),
    async (c) => {
      const { id: userId, packageId } = c.req.valid('param');
      assertSelf(c, userId);
      const { giftCardCode: code, amountCents } = c.req.valid('json');
      const result = await startPackagePaymentWithCard(c.var.services, { userId, packageId, code, amountCents });
      if (!result.ok) {
        const { status, message } = packageByCardRefusal(result);
        return c.json({ message }, status);
      }
      return c.json({ orderID: result.orderId } satisfies BookingOrderView);
    },
  )
  .post(
    '/:id/packages/:packageId/gift-card',
    requireUser(),
    rateLimit({ ...LIMITS.giftCardCode, per: 'account' }),
    validateParams(packageParams),
    validateJson(packageByCardRequest),
    async (c) => {
      const { id: userId, packageId } = c.req.valid('param');
      assertSelf(c, userId);
      const { giftCardCode: code, amountCents, paypalOrderId } = c.req.valid('json');
      const result =
        paypalOrderId === undefined
          ? await buyPackageWithCard(c.var.services, { userId, packageId, code, amountCents })
          : await buyPackageWithCardAndPayPal(c.var.services, { userId, packageId, code, amountCents, paypalOrderId });
      if (!result.ok) {
        const { status, message } = packageByCardRefusal(result);
        return c.json({ message }, status);
      }
      const balance = await balanceOf(c.var.services.db, userId, todayOf(c.var.services));
      return c.json({ lotId: result.lotId, payerFirstName: result.payerFirstName, balance } satisfies PackageBoughtView, 201);
    },
  );
