import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import { buildFeed } from '../mail/ics.ts';
import { brandNames } from '../site/brand.ts';
import { listEventsFrom } from './events.repo.ts';

/** How far ahead the feed reaches; the seeded calendar has six weeks, a teacher may plan a season. */
const FEED_DAYS = 366;
/** Calendar apps poll; a few minutes of staleness is fine and spares the database. */
const FEED_MAX_AGE_S = 300;

/**
 * GET /calendar.ics: the upcoming classes as a public iCalendar feed that Google, Apple and
 * Outlook calendars subscribe to. Served by the Hono app from the database on each request (a
 * static Astro endpoint would freeze it at build time). Each class keeps its UID
 * (`class-<event id>@<host>`), so an edited class updates in place and a deleted one goes.
 */
export const classFeed = new Hono<AppEnv>().get('/', async (c) => {
  const { db, env } = c.var.services;
  const now = c.var.services.clock.now();
  const [rows, brands] = await Promise.all([listEventsFrom(db, now, new Date(now.getTime() + FEED_DAYS * 86_400_000)), brandNames(db)]);
  const host = new URL(env.SITE_URL).host;
  const ics = buildFeed({
    // Her yoga brand, as the site's header and the mails say it (issue 20).
    name: `${brands.yoga} classes`,
    timezone: env.SITE_TIMEZONE,
    stamp: now,
    events: rows.map((e) => ({
      uid: `class-${e.id}@${host}`,
      start: new Date(e.startsAt),
      durationMinutes: 60,
      summary: e.title,
      location: e.location,
      description: e.isExternal ? 'Sign-ups through the class’s own link.' : 'Sign up on the class calendar.',
      url: e.isExternal && e.signUpLink ? e.signUpLink : `${env.SITE_URL}/calendar`,
    })),
  });
  return c.body(ics, 200, {
    'content-type': 'text/calendar; charset=utf-8',
    'content-disposition': 'inline; filename="classes.ics"',
    'cache-control': `public, max-age=${FEED_MAX_AGE_S}`,
  });
});
