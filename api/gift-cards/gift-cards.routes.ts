/**
 * Gift cards (issue 33, decision 0041): the routes validate, call the use-cases of gift-cards.ts
 * and map refusals.
 *
 *   GET  /api/gift-cards/balance?code=…   {balanceCents}; one 404 for every wrong code; 20 tries per address in 15 minutes
 *   GET  /api/admin/gift-cards            her cards: last four, worth, left, delivered, voided
 *   POST /api/admin/gift-cards            {amountCents, recipientName, recipientEmail, message?, sendOn?, design?} -> 201 {_id, code}
 *   GET  /api/admin/gift-cards/{id}       the card and its history (her-cards.ts)
 *   POST /api/admin/gift-cards/{id}/void  a card never delivered: emptied, the buyer refunded through PayPal
 *   POST /api/admin/gift-cards/{id}/resend   a delivered card's mail again, the same code
 *   POST /api/admin/gift-cards/{id}/adjust   {cents, reason} -> 201 {balanceCents}; never below zero
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { validateJson, validateParams, validateQuery } from '../validation.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { LIMITS } from '../limits/limits.ts';
import { addMonths, zonedNow } from '../lib/time.ts';
import { id } from '../../contract/common.ts';
import {
  GIFT_CARD_ALREADY_DELIVERED,
  GIFT_CARD_ID_UNKNOWN,
  GIFT_CARD_NOT_YET_DELIVERED,
  GIFT_CARD_VOIDED,
  giftCardAdjustment,
  giftCardBelowZero,
  type AdminGiftCardDetailView,
  type GiftCardVoidedView,
  GIFT_CARD_NOT_FOUND,
  GIFT_CARD_SEND_ON_PAST,
  GIFT_CARD_SEND_ON_TOO_LATE,
  giftCardCode,
  issueGiftCardRequest,
  type AdminGiftCardView,
  type GiftCardBalanceView,
  type GiftCardIssuedView,
} from '../../contract/gift-cards.ts';
import { balanceByCode, issueGiftCard } from './gift-cards.ts';
import { listGiftCards } from './gift-cards.repo.ts';
import { adjustCardBalance, cardWithHistory, resendCard, voidCard } from './her-cards.ts';

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

export const giftCards = new Hono<AppEnv>().get('/balance', rateLimit(LIMITS.giftCardCode), validateQuery(z.object({ code: giftCardCode })), async (c) => {
  const result = await balanceByCode(c.var.services.db, c.req.valid('query').code);
  if (!result.ok) return c.json({ message: GIFT_CARD_NOT_FOUND }, 404);
  return c.json({ balanceCents: result.balanceCents } satisfies GiftCardBalanceView);
});

export const adminGiftCards = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/', async (c) => {
    const cards = await listGiftCards(c.var.services.db);
    return c.json(cards.map(cardView));
  })
  .post('/', validateJson(issueGiftCardRequest), async (c) => {
    const body = c.req.valid('json');
    const today = todayOf(c.var.services);
    const sendOn = body.sendOn ?? today;
    const refusal = sendOnRefusal(sendOn, today);
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
    if (!result.ok) {
      const refusals = {
        'not-found': () => c.json({ message: GIFT_CARD_ID_UNKNOWN }, 404),
        'already-delivered': () => c.json({ message: GIFT_CARD_ALREADY_DELIVERED }, 409),
        'already-voided': () => c.json({ message: GIFT_CARD_VOIDED }, 409),
      } satisfies Record<typeof result.kind, () => Response>;
      return refusals[result.kind]();
    }
    const refund = { refunded: ' The buyer was refunded through PayPal.', failed: ' The PayPal refund failed: please refund the buyer by hand.', none: '' };
    return c.json({
      message: `Gift card voided.${refund[result.paypalRefund]}`,
      takenCents: result.takenCents,
      paypalRefund: result.paypalRefund,
    } satisfies GiftCardVoidedView);
  })
  .post('/:id/resend', validateParams(params), async (c) => {
    const result = await resendCard(c.var.services, c.req.valid('param').id);
    if (!result.ok) {
      const refusals = {
        'not-found': () => c.json({ message: GIFT_CARD_ID_UNKNOWN }, 404),
        'not-yet-delivered': () => c.json({ message: GIFT_CARD_NOT_YET_DELIVERED }, 409),
        voided: () => c.json({ message: GIFT_CARD_VOIDED }, 409),
      } satisfies Record<typeof result.kind, () => Response>;
      return refusals[result.kind]();
    }
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
