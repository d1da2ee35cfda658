import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { validateJson, validateParams, validateQuery } from '../validation.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { id } from '../../contract/common.ts';
import { AGENDA_MAX_DAYS, AGENDA_RANGE_INVALID, BUSY_DELETED, BUSY_NOT_FOUND, BUSY_SAVED, agendaQuery, busyRequest } from '../../contract/agenda.ts';
import { addDays, zonedInstant } from '../lib/time.ts';
import { agendaBetween, overlapsOf } from './agenda.ts';
import { addBusyTime } from './busy-times.ts';
import { deleteManualBusyTime } from './agenda.repo.ts';

/**
 * Her agenda (issue 35, decision 0044), mounted on /api/admin:
 *
 *   GET    /agenda?from=&to=   her days (YYYY-MM-DD, inclusive) or instants -> AgendaItem[]
 *   POST   /busy               {start, end, title}: a time she is not to be booked; answers what it overlaps
 *   DELETE /busy/{id}          one she typed (Google's come and go with her calendar)
 */

/** A bound of the range as an instant: a day starts at her midnight; `to` as a day ends at the next. */
const bound = (v: string, zone: string, end: boolean) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? zonedInstant(end ? addDays(v, 1) : v, '00:00', zone) : new Date(v));

export const adminAgenda = new Hono<AppEnv>()
  .get('/agenda', requireAdmin(), validateQuery(agendaQuery), async (c) => {
    const { db, env } = c.var.services;
    const q = c.req.valid('query');
    const from = bound(q.from, env.SITE_TIMEZONE, false);
    const to = bound(q.to, env.SITE_TIMEZONE, true);
    if (!(from < to) || to.getTime() - from.getTime() > (AGENDA_MAX_DAYS + 1) * 86_400_000) return c.json({ message: AGENDA_RANGE_INVALID }, 400);
    return c.json(await agendaBetween(db, env.SITE_TIMEZONE, from, to));
  })

  .post('/busy', requireAdmin(), validateJson(busyRequest), async (c) => {
    const { db, env } = c.var.services;
    const b = c.req.valid('json');
    const saved = await addBusyTime(db, { startsAt: new Date(b.start), endsAt: new Date(b.end), title: b.title });
    // What it overlaps, for her to see (a booked session stays booked: the busy time only keeps new bookings away).
    const overlaps = await overlapsOf(db, env.SITE_TIMEZONE, { id: saved.id, start: saved.startsAt, end: saved.endsAt, place: '', online: false });
    return c.json(
      {
        message: BUSY_SAVED,
        busy: { id: saved.id, start: saved.startsAt.toISOString(), end: saved.endsAt.toISOString(), title: saved.title, source: saved.source },
        overlaps: overlaps.filter((o) => o.id !== saved.id),
      },
      201,
    );
  })

  .delete('/busy/:id', requireAdmin(), validateParams(z.object({ id })), async (c) => {
    const { db } = c.var.services;
    if (!(await deleteManualBusyTime(db, c.req.valid('param').id))) return c.json({ message: BUSY_NOT_FOUND }, 404);
    return c.json({ message: BUSY_DELETED });
  });
