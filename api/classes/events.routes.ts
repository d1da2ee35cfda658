import { regenerateAfter } from '../middleware/regenerate-after.ts';
import { Hono } from 'hono';
import { z } from 'zod';
import { randomUUID } from 'node:crypto';
import type { AppEnv } from '../types.ts';
import { validateJson, validateParams, validateQuery } from '../validation.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { ambiguousTimeNote, id, nonexistentTimeMessage } from '../../contract/common.ts';
import {
  bulkDeleteEvents,
  classStatusQuery,
  eventsRange,
  eventUpdate,
  newEvent,
  REPEAT_COUNTS,
  SHORT_MONTH_NOTE,
  type ClassStatusView,
  type EventsAddedView,
  type EventView,
  type Repeat,
} from '../../contract/events.ts';
import { addDays, wallTime, zonedInstant, zonedNow } from '../lib/time.ts';
import { classStatus, deleteEvents, findEvent, listEventsFrom, updateEvent } from './events.repo.ts';
import { addEvents } from './add-events.ts';
import type { Event } from '../../db/schema.ts';
import { isPaidEvent, type EventPrice } from '../../contract/event-prices.ts';
import { readSettings } from '../settings/settings.repo.ts';
import { upcomingWithPaidPlaces } from './event-payments.repo.ts';
import { cancelEvent, refundDuePayments, type CancelEventRefusal } from './refunds.ts';
import { EVENT_CANCELLED_DONE, EVENT_DELETE_HAS_PAID, EVENT_NOT_FOUND, EVENT_ALREADY_CANCELLED, type EventCancelledView } from '../../contract/event-prices.ts';

const cancelRefusals: Record<CancelEventRefusal, { status: 404 | 409; message: string }> = {
  'not-found': { status: 404, message: EVENT_NOT_FOUND },
  'already-cancelled': { status: 409, message: EVENT_ALREADY_CANCELLED },
};
import { fillFreePlaces } from './places.ts';
import { overlapsOfNew } from '../agenda/overlaps.ts';

/**
 * Events (group classes), SPEC.md sections 2, 5 and 7. Three mounts: the public list and the
 * admin's edits under /events, the admin's add form at /admin/events, and /class-status.
 */

/** The calendar shows a month back, so past classes of the month appear (disabled). */
export const PAST_DAYS_SHOWN = 31;

type EventRow = Pick<
  Event,
  | 'id'
  | 'title'
  | 'date'
  | 'time'
  | 'startsAt'
  | 'location'
  | 'signUpLink'
  | 'isExternal'
  | 'capacity'
  | 'minutes'
  | 'priceCents'
  | 'minPriceCents'
  | 'suggestedPriceCents'
  | 'maxPriceCents'
  | 'private'
  | 'cancelledAt'
>;

/** An event as the API shows it; `noticeHours` (her notice period) says until when a paid place is refunded. */
const view = (e: EventRow, now: Date, noticeHours: number, admin = false): EventView => {
  const startsAt = new Date(e.startsAt);
  const paid = isPaidEvent(e);
  return {
    _id: e.id,
    title: e.title,
    date: e.date,
    time: e.time,
    startsAt: startsAt.toISOString(),
    location: e.location,
    signUpLink: e.signUpLink,
    isExternal: e.isExternal,
    capacity: e.capacity,
    minutes: e.minutes,
    isPast: startsAt.getTime() <= now.getTime(),
    priceCents: e.priceCents,
    minPriceCents: e.minPriceCents,
    suggestedPriceCents: e.suggestedPriceCents,
    maxPriceCents: e.maxPriceCents,
    refundUntil: paid ? new Date(startsAt.getTime() - noticeHours * 3_600_000).toISOString() : null,
    ...(admin ? { private: e.private, cancelled: e.cancelledAt !== null } : {}),
  };
};

/** The price fields of an edit: one shape sent replaces the other (a fixed price clears a scale, and back). */
function priceChanges(changes: Partial<EventPrice>): Partial<EventPrice> {
  const keys = ['priceCents', 'minPriceCents', 'suggestedPriceCents', 'maxPriceCents'] as const;
  if (!keys.some((k) => changes[k] !== undefined)) return {};
  return Object.fromEntries(keys.map((k) => [k, changes[k] ?? null]));
}

const daysInMonth = (year: number, month0: number) => new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();

/**
 * The dates of one repeat. Monthly keeps the first date's day of the month; a month without
 * that day (the 31st, February 29 and 30) gets its last day instead, and says so.
 */
function seriesDates(date: string, repeat: Repeat): { dates: string[]; clamped: boolean } {
  const count = REPEAT_COUNTS[repeat];
  if (repeat !== 'monthly') return { dates: Array.from({ length: count }, (_, i) => addDays(date, i * 7)), clamped: false };
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  let clamped = false;
  const dates = Array.from({ length: count }, (_, i) => {
    const year = y + Math.floor((m - 1 + i) / 12);
    const month0 = (m - 1 + i) % 12;
    const last = daysInMonth(year, month0);
    if (d > last) clamped = true;
    return `${year}-${String(month0 + 1).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
  });
  return { dates, clamped };
}

const eventParams = z.object({ id });

/**
 * The instants of `time` on each of `dates` in the teacher's zone: a time the clocks skip is
 * refused (its message), a time they show twice is the first one, with a warning.
 */
function eventInstants(dates: string[], time: string, zone: string): { refused: string } | { instants: Date[]; warnings: string[] } {
  const instants: Date[] = [];
  const warnings: string[] = [];
  for (const date of dates) {
    const wall = wallTime(date, time, zone);
    if (wall.kind === 'skipped') return { refused: nonexistentTimeMessage(date, time, zone) };
    if (wall.kind === 'ambiguous') warnings.push(ambiguousTimeNote(date, time, zone));
    instants.push(wall.instant);
  }
  return { instants, warnings };
}

export const events = new Hono<AppEnv>()
  .use('*', regenerateAfter('classes'))
  // Public. Without a range (SPEC.md's call): today on, plus the past month so the calendar can
  // show those days' classes disabled. With from/to: the days one calendar month shows.
  .get('/', validateQuery(eventsRange), async (c) => {
    const zone = c.var.services.env.SITE_TIMEZONE;
    const now = c.var.services.clock.now();
    const range = c.req.valid('query');
    const [rows, { cancelNoticeHours }] = await Promise.all([
      range.from && range.to
        ? listEventsFrom(c.var.services.db, zonedInstant(range.from, '00:00', zone), zonedInstant(addDays(range.to, 1), '00:00', zone))
        : listEventsFrom(c.var.services.db, zonedInstant(addDays(zonedNow(zone, now).date, -PAST_DAYS_SHOWN), '00:00', zone)),
      readSettings(c.var.services.db),
    ]);
    return c.json(rows.map((e) => view(e, now, cancelNoticeHours)));
  })

  // Registered before /:id so "bulk" is never taken for an id.
  .delete('/bulk', requireAdmin(), validateJson(bulkDeleteEvents), async (c) => {
    const { eventIds } = c.req.valid('json');
    // An upcoming event with paid places is cancelled (everyone refunded), never just deleted.
    if ((await upcomingWithPaidPlaces(c.var.services.db, eventIds)).length) return c.json({ message: EVENT_DELETE_HAS_PAID }, 409);
    const deleted = await deleteEvents(c.var.services.db, [...new Set(eventIds)]);
    return c.json({ deleted });
  })

  .put('/:id', requireAdmin(), validateParams(eventParams), validateJson(eventUpdate), async (c) => {
    const { db, env } = c.var.services;
    const { id: eventId } = c.req.valid('param');
    const changes = c.req.valid('json');
    const current = await findEvent(db, eventId);
    if (!current) return c.json({ message: 'Event not found' }, 404);
    const date = changes.date ?? current.date;
    const time = changes.time ?? current.time;
    const at = eventInstants([date], time, env.SITE_TIMEZONE);
    if ('refused' in at) return c.json({ message: at.refused, issues: [{ path: 'time', message: at.refused }] }, 400);
    const updated = await updateEvent(db, eventId, { ...changes, ...priceChanges(changes), startsAt: at.instants[0]! });
    if (!updated) return c.json({ message: 'Event not found' }, 404);
    if (updated.capacity > current.capacity) {
      // More places: the waitlist's first in line get them (issue 15), their mails written with
      // the promotion and sent after its commit.
      await fillFreePlaces(c.var.services, eventId);
    }
    const { cancelNoticeHours } = await readSettings(db);
    return c.json({
      message: 'Event updated successfully',
      event: view(updated, c.var.services.clock.now(), cancelNoticeHours, true),
      ...(at.warnings.length ? { warnings: at.warnings } : {}),
    });
  });

/**
 * Her events: POST /api/admin/events adds (SPEC.md), GET lists them all with her private and
 * cancelled ones (issue 34), POST /{id}/cancel calls one off and refunds every paid place.
 */
export const adminEvents = new Hono<AppEnv>()
  .use('*', requireAdmin(), regenerateAfter('classes'))
  .get('/', async (c) => {
    const { db, env } = c.var.services;
    const now = c.var.services.clock.now();
    const from = zonedInstant(addDays(zonedNow(env.SITE_TIMEZONE, now).date, -PAST_DAYS_SHOWN), '00:00', env.SITE_TIMEZONE);
    const [rows, { cancelNoticeHours }] = await Promise.all([listEventsFrom(db, from, undefined, true), readSettings(db)]);
    return c.json(rows.map((e) => view(e, now, cancelNoticeHours, true)));
  })
  .post('/:id/cancel', validateParams(eventParams), async (c) => {
    const result = await cancelEvent(c.var.services, c.req.valid('param').id);
    if (!result.ok) return c.json({ message: cancelRefusals[result.kind].message }, cancelRefusals[result.kind].status);
    // The mails left after the commit; then the refunds, each once (the refund runner finishes any a crash left).
    await refundDuePayments(c.var.services);
    return c.json({ message: EVENT_CANCELLED_DONE, refunds: result.refunds } satisfies EventCancelledView);
  })
  .post('/', validateJson(newEvent), async (c) => {
    const { db, env } = c.var.services;
    const { repeat, ...fields } = c.req.valid('json');
    const { dates, clamped } = seriesDates(fields.date, repeat);
    const seriesId = dates.length > 1 ? randomUUID() : null;
    const at = eventInstants(dates, fields.time, env.SITE_TIMEZONE);
    if ('refused' in at) return c.json({ message: at.refused, issues: [{ path: 'time', message: at.refused }] }, 400);
    const rows = await addEvents(
      db,
      dates.map((date, i) => ({ ...fields, date, startsAt: at.instants[i]!, seriesId })),
    );
    const now = c.var.services.clock.now();
    const { cancelNoticeHours } = await readSettings(db);
    // Saved, then what each occurrence overlaps in her agenda (issue 35): she may go ahead.
    const warning = await overlapsOfNew(
      db,
      env.SITE_TIMEZONE,
      rows.map((e) => ({
        id: e.id,
        start: new Date(e.startsAt),
        end: new Date(new Date(e.startsAt).getTime() + e.minutes * 60_000),
        place: e.location,
        online: false,
      })),
    );
    return c.json(
      {
        message: 'Event(s) added successfully',
        events: rows.map((e) => view(e, now, cancelNoticeHours, true)),
        ...warning,
        ...(clamped ? { note: SHORT_MONTH_NOTE } : {}),
        ...(at.warnings.length ? { warnings: at.warnings } : {}),
      } satisfies EventsAddedView,
      201,
    );
  });

/** Public: is the class on that date full? Called once per event by the calendar. */
export const classStatusRoute = new Hono<AppEnv>().get('/', validateQuery(classStatusQuery), async (c) => {
  const { classTitle, date } = c.req.valid('query');
  const found = await classStatus(c.var.services.db, classTitle, date);
  if (!found) return c.json({ message: 'Class not found' }, 404);
  const taken = found.taken ?? 0;
  return c.json({ isFull: taken >= found.capacity, capacity: found.capacity, taken } satisfies ClassStatusView);
});
