import { Hono } from 'hono';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import type { Env } from '../env.ts';
import { validateParams } from '../validation.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { assertSelf, requireUser } from '../middleware/auth.ts';
import { id } from '../../contract/common.ts';
import { CALENDAR_FEED_CREATED, type CalendarFeedView } from '../../contract/booking-changes.ts';
import { buildIcsFeed } from '../mail/ics.ts';
import { brandNames } from '../site/brand.ts';
import { placeLink } from '../../contract/slots.ts';
import { bookingCalendar } from './mails.ts';
import { findCalendarSecret, findUserByCalendarSecret, replaceCalendarSecret, upcomingSessionsOf } from './calendar-feed.repo.ts';
import { LIMITS } from '../services/limits.ts';

/**
 * A client's private calendar feed (issue 15, decision 0016): their booked sessions to come as
 * an iCalendar feed under a secret address a calendar app subscribes to. Each entry has the UID
 * its confirmation mail was sent with, so an entry added from the mail and one from the feed are
 * the same event.
 *
 *   GET  /api/user/{id}/calendar-feed   {url}: the address, null until one is made (client session)
 *   POST /api/user/{id}/calendar-feed   makes a new secret; the old address answers 404 from then on
 *   GET  /api/calendar/{secret}.ics     the feed (text/calendar), no session: the secret is the key
 */

/** 32 random bytes, URL-safe: not guessable, and 43 characters keep the address short enough to paste. */
const newSecret = () => randomBytes(32).toString('base64url');
const feedUrl = (env: Pick<Env, 'SITE_URL'>, secret: string | null) => (secret ? `${env.SITE_URL}/api/calendar/${secret}.ics` : null);

const userParams = z.object({ id });

export const calendarFeedSettings = new Hono<AppEnv>()
  .get('/:id/calendar-feed', requireUser(), validateParams(userParams), async (c) => {
    const userId = c.req.valid('param').id;
    assertSelf(c, userId);
    const { db, env } = c.var.services;
    return c.json({ url: feedUrl(env, await findCalendarSecret(db, userId)) } satisfies CalendarFeedView);
  })
  .post('/:id/calendar-feed', requireUser(), rateLimit({ ...LIMITS.calendarFeedSecret, per: 'account' }), validateParams(userParams), async (c) => {
    const userId = c.req.valid('param').id;
    assertSelf(c, userId);
    const { db, env } = c.var.services;
    const secret = newSecret();
    if (!(await replaceCalendarSecret(db, userId, secret))) return c.json({ message: 'Please log in' }, 401);
    return c.json({ url: feedUrl(env, secret), message: CALENDAR_FEED_CREATED } satisfies CalendarFeedView);
  });

const feedParams = z.object({ file: z.string().regex(/^[A-Za-z0-9_-]{43}\.ics$/) });

export const calendarFeed = new Hono<AppEnv>().get(
  '/:file',
  rateLimit(LIMITS.calendarFeed),
  async (c, next) => {
    // A malformed address is as unknown as an ended one: 404, not a validation message.
    if (!feedParams.safeParse(c.req.param()).success) return c.json({ message: 'Not found' }, 404);
    await next();
  },
  async (c) => {
    const { db, env } = c.var.services;
    const secret = c.req.param('file').slice(0, -'.ics'.length);
    const user = await findUserByCalendarSecret(db, secret);
    if (!user) return c.json({ message: 'Not found' }, 404);
    // Sessions that began within the day stay in the feed until they are over.
    const [sessions, brands] = await Promise.all([
      upcomingSessionsOf(db, user.id, new Date(c.var.services.clock.now().getTime() - 24 * 3_600_000)),
      brandNames(db),
    ]);
    const body = buildIcsFeed({
      name: `${brands.yoga}: my sessions`,
      timezone: env.SITE_TIMEZONE,
      events: sessions.map((s) => {
        const calendar = bookingCalendar(env, s);
        const minutes = Number(/(\d+)/.exec(s.duration)?.[1] ?? 60);
        // The session's place (issue 20): LOCATION, and the URL when it is an online link.
        const link = placeLink(s.place);
        return {
          uid: calendar.uid,
          sequence: calendar.sequence,
          start: new Date(s.startsAt),
          durationMinutes: minutes > 0 && minutes <= 600 ? minutes : 60,
          summary: s.sessionType ?? 'Session',
          ...(s.place ? { location: s.place } : {}),
          description: s.link
            ? `Join here: ${s.link}`
            : link
              ? `Your one-to-one session, online: ${link}`
              : s.place
                ? `Your one-to-one session at ${s.place}.`
                : 'Your one-to-one session. The link to join comes before the session.',
          url: link ?? `${env.SITE_URL}/user/${user.id}`,
        };
      }),
    });
    // The address is the key: never cached by anything shared, never indexed.
    return c.body(body, 200, {
      'content-type': 'text/calendar; charset=utf-8',
      'cache-control': 'private, no-store',
      'x-robots-tag': 'noindex',
      'referrer-policy': 'no-referrer',
    });
  },
);
