/**
 * Private tastings (issue 34): the routes validate, call the use-cases and map refusals.
 *
 *   POST /api/tastings                          {name, email, phone, occasion, guests, dates, place, recaptchaToken} → 201; her notice mailed
 *   GET  /api/tastings/quotes/{id}?token=       the pay page: the quote, what is paid and what is due; every wrong link 404
 *   POST /api/tastings/quotes/{id}/paypal-order {token, part} → {orderID}: the server's order for exactly what is due
 *   POST /api/tastings/quotes/{id}/pay          {token, part, paypalOrderId} → 201: captured, recorded (a deposit holds the day)
 *   GET  /api/admin/tastings                    her requests with their quotes and payments, newest first
 *   POST /api/admin/tastings/{id}/quote         {priceCents, depositCents, date, time, place} → 201; the client mailed the pay link
 *   POST /api/admin/tastings/{id}/balance       {method: cash | check} → 201: the rest, paid by hand
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { validateJson, validateParams, validateQuery } from '../validation.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { verifyHuman } from '../middleware/human.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { LIMITS } from '../services/limits.ts';
import { wallTime, zonedNow } from '../lib/time.ts';
import { id, nonexistentTimeMessage } from '../../contract/common.ts';
import { PAYMENT_ALREADY_USED, PAYMENT_SERVICE_UNAVAILABLE, PAYMENT_UNSUCCESSFUL, type BookingOrderView } from '../../contract/booking.ts';
import {
  TASTING_CAPTCHA_ACTION,
  TASTING_DATE_PAST,
  TASTING_DEPOSIT_FIRST,
  TASTING_DEPOSIT_PAID,
  TASTING_LINK_INVALID,
  TASTING_NOT_FOUND,
  TASTING_NOT_QUOTED,
  TASTING_NOTHING_DUE,
  TASTING_PART_NOT_DUE,
  TASTING_PAYMENT_FOR_ANOTHER,
  TASTING_REQUEST_SENT,
  tastingBalanceRequest,
  tastingLinkToken,
  tastingOrderRequest,
  tastingPaymentRequest,
  tastingQuote,
  tastingRequest,
  type AdminTastingView,
  type TastingPaidView,
} from '../../contract/tastings.ts';
import { findQuote, listTastings, paymentsOf } from './tastings.repo.ts';
import { payTokenMatches, paidCentsOf, quoteView } from './tastings.ts';
import { requestTasting } from './request-tasting.ts';
import { quoteTasting, type QuoteResult } from './quote-tasting.ts';
import { payTasting, startTastingPayment, type PayTastingRefusal } from './pay-tasting.ts';
import { recordBalance, type BalanceResult } from './record-balance.ts';

const params = z.object({ id });

/** Her day now. */
const todayOf = (services: AppEnv['Variables']['services']) => zonedNow(services.env.SITE_TIMEZONE, services.clock.now()).date;

/** A day before her today, refused as the schema's own issues are (the form marks the field). */
const pastDay = (field: string) => ({ message: TASTING_DATE_PAST, issues: [{ path: field, message: TASTING_DATE_PAST }] });

type Refused = { status: 400 | 402 | 404 | 409 | 502; message: string };
const refused = (status: Refused['status'], message: string): Refused => ({ status, message });

/** The status and message of each refusal of a payment (the booking's words where they are the same). */
const payRefusals: Record<PayTastingRefusal, Refused> = {
  'not-found': refused(404, TASTING_LINK_INVALID),
  'nothing-due': refused(409, TASTING_NOTHING_DUE),
  'part-not-due': refused(409, TASTING_PART_NOT_DUE),
  'order-unknown': refused(400, PAYMENT_UNSUCCESSFUL),
  'payment-unavailable': refused(502, PAYMENT_SERVICE_UNAVAILABLE),
  'order-for-another-purchase': refused(400, TASTING_PAYMENT_FOR_ANOTHER),
  'order-already-used': refused(409, PAYMENT_ALREADY_USED),
  'order-not-approved': refused(400, PAYMENT_UNSUCCESSFUL),
  'capture-failed': refused(402, PAYMENT_UNSUCCESSFUL),
};

const quoteRefusals: Record<Extract<QuoteResult, { ok: false }>['kind'], Refused> = {
  'not-found': { status: 404, message: TASTING_NOT_FOUND },
  'deposit-paid': { status: 409, message: TASTING_DEPOSIT_PAID },
};

const balanceRefusals: Record<Exclude<BalanceResult, { ok: true }>['kind'], Refused> = {
  'not-found': refused(404, TASTING_NOT_FOUND),
  'not-quoted': refused(409, TASTING_NOT_QUOTED),
  'deposit-first': refused(409, TASTING_DEPOSIT_FIRST),
  'nothing-due': refused(409, TASTING_NOTHING_DUE),
};

/** The quote a pay link opens, or null for any wrong link (every one answers alike). */
async function quoteOfLink(c: { var: AppEnv['Variables'] }, quoteId: string, token: string) {
  const { db, env } = c.var.services;
  if (!payTokenMatches(env, quoteId, token)) return null;
  return (await findQuote(db, quoteId)) ?? null;
}

export const tastings = new Hono<AppEnv>()
  .post('/', rateLimit(LIMITS.tastingRequest), validateJson(tastingRequest), async (c) => {
    const body = c.req.valid('json');
    await verifyHuman(c, body.recaptchaToken, TASTING_CAPTCHA_ACTION);
    if (body.dates.some((d) => d < todayOf(c.var.services))) return c.json(pastDay('dates'), 400);
    const { name, email, phone, occasion, guests, dates, place } = body;
    const requestId = await requestTasting(c.var.services, { name, email, phone, occasion, guests, dates, place });
    return c.json({ _id: requestId, message: TASTING_REQUEST_SENT }, 201);
  })
  // The client's pay link: limited per address as a checkout is; every wrong link answers alike.
  .get('/quotes/:id', rateLimit(LIMITS.checkout), validateParams(params), validateQuery(z.object({ token: tastingLinkToken })), async (c) => {
    const quote = await quoteOfLink(c, c.req.valid('param').id, c.req.valid('query').token);
    if (!quote) return c.json({ message: TASTING_LINK_INVALID }, 404);
    return c.json(quoteView(quote, await paymentsOf(c.var.services.db, quote.id)));
  })
  .post('/quotes/:id/paypal-order', rateLimit(LIMITS.checkout), validateParams(params), validateJson(tastingOrderRequest), async (c) => {
    const { token, part } = c.req.valid('json');
    const quote = await quoteOfLink(c, c.req.valid('param').id, token);
    if (!quote) return c.json({ message: TASTING_LINK_INVALID }, 404);
    const result = await startTastingPayment(c.var.services, { quoteId: quote.id, part });
    if (!result.ok) return c.json({ message: payRefusals[result.kind].message }, payRefusals[result.kind].status);
    return c.json({ orderID: result.orderId } satisfies BookingOrderView);
  })
  .post('/quotes/:id/pay', rateLimit(LIMITS.placeOrder), validateParams(params), validateJson(tastingPaymentRequest), async (c) => {
    const { token, part, paypalOrderId } = c.req.valid('json');
    const quote = await quoteOfLink(c, c.req.valid('param').id, token);
    if (!quote) return c.json({ message: TASTING_LINK_INVALID }, 404);
    const result = await payTasting(c.var.services, { quoteId: quote.id, part, paypalOrderId });
    if (!result.ok) return c.json({ message: payRefusals[result.kind].message }, payRefusals[result.kind].status);
    return c.json({ part: result.part, amountCents: result.amountCents, payerFirstName: result.payerFirstName } satisfies TastingPaidView, 201);
  });

export const adminTastings = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/', async (c) => {
    const { requests, quotes, payments } = await listTastings(c.var.services.db);
    const quoteOf = new Map(quotes.map((q) => [q.requestId, q]));
    const views = requests.map((r): AdminTastingView => {
      const q = quoteOf.get(r.id);
      const paid = q ? payments.filter((p) => p.quoteId === q.id) : [];
      return {
        _id: r.id,
        createdAt: new Date(r.createdAt).toISOString(),
        name: r.name,
        email: r.email,
        phone: r.phone,
        occasion: r.occasion,
        guests: r.guests,
        dates: r.dates,
        place: r.place,
        quote: q
          ? {
              _id: q.id,
              priceCents: q.priceCents,
              depositCents: q.depositCents,
              date: q.date,
              time: q.time,
              place: q.place,
              depositPaid: q.depositPaidAt !== null,
              eventId: q.eventId,
              paidCents: paidCentsOf(paid),
              payments: paid.map((p) => ({ part: p.part, amountCents: p.amountCents, method: p.method, paidOn: p.paidOn })),
            }
          : null,
      };
    });
    return c.json(views);
  })
  .post('/:id/quote', validateParams(params), validateJson(tastingQuote), async (c) => {
    const body = c.req.valid('json');
    const { env } = c.var.services;
    if (body.date < todayOf(c.var.services)) return c.json(pastDay('date'), 400);
    // A wall time her clocks skip names no instant: the event could not hold it.
    if (wallTime(body.date, body.time, env.SITE_TIMEZONE).kind === 'skipped') {
      const message = nonexistentTimeMessage(body.date, body.time, env.SITE_TIMEZONE);
      return c.json({ message, issues: [{ path: 'time', message }] }, 400);
    }
    const result = await quoteTasting(c.var.services, c.req.valid('param').id, body);
    if (!result.ok) return c.json({ message: quoteRefusals[result.kind].message }, quoteRefusals[result.kind].status);
    return c.json({ _id: result.quoteId, message: result.mailed ? 'Quote sent.' : 'Quote saved; its mail will be sent shortly.' }, 201);
  })
  .post('/:id/balance', validateParams(params), validateJson(tastingBalanceRequest), async (c) => {
    const result = await recordBalance(c.var.services, c.req.valid('param').id, c.req.valid('json').method);
    if (!result.ok) return c.json({ message: balanceRefusals[result.kind].message }, balanceRefusals[result.kind].status);
    return c.json({ amountCents: result.amountCents }, 201);
  });
