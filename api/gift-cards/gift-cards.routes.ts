/**
 * Gift cards (issue 33, decision 0041): the routes validate, call the use-cases of gift-cards.ts
 * and map refusals.
 *
 *   GET  /api/gift-cards/balance?code=…   {balanceCents}; one 404 for every wrong code; 20 tries per address in 15 minutes
 *   GET  /api/admin/gift-cards            her cards: last four, worth, left, delivered, voided
 *   POST /api/admin/gift-cards            {amountCents, recipientName, recipientEmail, message?, sendOn?, design?} -> 201 {_id, code}
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { validateJson, validateQuery } from '../validation.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { LIMITS } from '../limits/limits.ts';
import { addMonths, zonedNow } from '../lib/time.ts';
import {
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

/** Her day now. */
const todayOf = (services: AppEnv['Variables']['services']) => zonedNow(services.env.SITE_TIMEZONE, services.clock.now()).date;

/** A delivery day is today or later (her day), within a year; a reason otherwise. */
export function sendOnRefusal(sendOn: string, today: string): string | null {
  if (sendOn < today) return GIFT_CARD_SEND_ON_PAST;
  if (sendOn > addMonths(today, 12)) return GIFT_CARD_SEND_ON_TOO_LATE;
  return null;
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
    return c.json(
      cards.map((g): AdminGiftCardView => ({
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
        deliveredAt: g.deliveredAt ? new Date(g.deliveredAt).toISOString() : null,
        voidedAt: g.voidedAt ? new Date(g.voidedAt).toISOString() : null,
        createdBy: g.createdBy,
        createdAt: new Date(g.createdAt).toISOString(),
      })),
    );
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
  });
