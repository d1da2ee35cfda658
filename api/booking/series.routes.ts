/**
 * A weekly series (issue 32): the routes validate, call bookSeries (series.ts) and map its refusals.
 *
 *   POST /api/user/{id}/series          {slotId, weeks, sessionType, message?}: the client, with credits
 *   POST /api/admin/users/{id}/series   {date, time, weeks, sessionType, createSlots}: she, for the client
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { validateJson, validateParams } from '../validation.ts';
import { assertSelf, requireAdmin, requireUser } from '../middleware/auth.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { LIMITS } from '../services/limits.ts';
import { id } from '../../contract/common.ts';
import { NOT_LOGGED_IN } from '../../contract/user.ts';
import { SLOT_NOT_FOUND, SLOT_PAST, noCreditFor } from '../../contract/booking.ts';
import { CLIENT_NOT_FOUND } from '../../contract/packages.ts';
import { INTAKE_REQUIRED_MESSAGE } from '../../contract/practice.ts';
import { adminSeriesRequest, seriesBooked, seriesRequest, type SeriesView } from '../../contract/series.ts';
import { bookSeries, type SeriesRefusal, type SeriesResult } from './series.ts';

const params = z.object({ id });

type Answer = (c: Context<AppEnv>, sessionType: string) => Response;

const refusals = (by: 'client' | 'admin'): Record<SeriesRefusal, Answer> => ({
  'unknown-account': (c) => (by === 'admin' ? c.json({ message: CLIENT_NOT_FOUND }, 404) : c.json({ message: NOT_LOGGED_IN }, 401)),
  'slot-not-found': (c) => c.json({ message: SLOT_NOT_FOUND }, 404),
  'slot-past': (c) => c.json({ message: SLOT_PAST }, 400),
  'intake-missing': (c) => c.json({ message: INTAKE_REQUIRED_MESSAGE }, 409),
  // Nothing was booked: the words name the session type.
  'no-credit': (c, sessionType) => c.json({ message: noCreditFor(sessionType) }, 409),
});

function answer(c: Context<AppEnv>, result: SeriesResult, weeks: number, sessionType: string, by: 'client' | 'admin'): Response {
  if (!result.ok) return refusals(by)[result.kind](c, sessionType);
  const view: SeriesView = { message: seriesBooked(result.series.booked.length, weeks), ...result.series };
  return c.json(view, result.series.booked.length > 0 ? 201 : 200);
}

export const userSeries = new Hono<AppEnv>().post(
  '/:id/series',
  requireUser(),
  rateLimit({ ...LIMITS.booking, per: 'account' }),
  validateParams(params),
  validateJson(seriesRequest),
  async (c) => {
    const userId = c.req.valid('param').id;
    assertSelf(c, userId);
    const body = c.req.valid('json');
    const result = await bookSeries(c.var.services, {
      userId,
      sessionType: body.sessionType,
      weeks: body.weeks,
      message: body.message,
      first: { slotId: body.slotId },
      createSlots: false,
      by: 'client',
    });
    return answer(c, result, body.weeks, body.sessionType, 'client');
  },
);

// Mounted on /api/admin beside other routers: the route guards itself (as adminClients does).
export const adminSeries = new Hono<AppEnv>().post('/users/:id/series', requireAdmin(), validateParams(params), validateJson(adminSeriesRequest), async (c) => {
  const body = c.req.valid('json');
  const result = await bookSeries(c.var.services, {
    userId: c.req.valid('param').id,
    sessionType: body.sessionType,
    weeks: body.weeks,
    message: '',
    first: { date: body.date, time: body.time },
    createSlots: body.createSlots,
    by: 'admin',
  });
  return answer(c, result, body.weeks, body.sessionType, 'admin');
});
