/**
 * Issue 29, "one clock, one zone": the server reads the hour from its one clock (CLOCK_START
 * sets it in tests) and computes every day a person reads in SITE_TIMEZONE, whatever the
 * process's own zone. The clock here shows 21:30 in Los Angeles on New Year's Eve, when UTC (the
 * machine's zone) is already in the next day, month and year.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { zonedInstant } from '../../../api/lib/time.ts';
import type { EventView } from '../../../contract/events.ts';
import type { TodayView } from '../../../contract/backoffice.ts';

const EVENING = '2026-12-31T21:30:00-08:00';
const server = useTestServer({ site: true, env: { SITE_TIMEZONE: 'America/Los_Angeles', CLOCK_START: EVENING } });
let admin: string;

beforeAll(async () => {
  admin = await adminCookie(server);
});

const asAdmin = (path: string, init: RequestInit & { json?: unknown } = {}) =>
  server.api(path, { ...init, headers: { cookie: admin, ...(init.headers as Record<string, string>) } });

describe(`her evening on the server's clock on ${testDbKind()}`, () => {
  it('the clock starts where CLOCK_START says and runs on', () => {
    const shown = server.services.clock.now().getTime();
    expect(shown).toBeGreaterThanOrEqual(Date.parse(EVENING));
    expect(shown - Date.parse(EVENING)).toBeLessThan(120_000);
  });

  it('a class earlier this evening is past, a later one and tomorrow morning are not', async () => {
    for (const [title, date, time] of [
      ['Sunset Flow', '2026-12-31', '20:00'],
      ['Midnight Yin', '2026-12-31', '23:00'],
      ['New Year Flow', '2027-01-01', '09:00'],
    ] as const) {
      const res = await asAdmin('/api/admin/events', { method: 'POST', json: { title, date, time, location: 'Studio', signUpLink: '', isExternal: false } });
      expect(res.status, title).toBe(201);
    }
    const events = (await (await server.api('/api/events?from=2026-12-27&to=2027-01-02')).json()) as EventView[];
    const pastOf = Object.fromEntries(events.map((e) => [e.title, e.isPast]));
    expect(pastOf).toEqual({ 'Sunset Flow': true, 'Midnight Yin': false, 'New Year Flow': false });
  });

  it("the Today panel is for her date, with this evening's session in it", async () => {
    await server.services.db
      .insertInto('slots')
      .values({
        date: '2026-12-31',
        time: '22:00',
        startsAt: zonedInstant('2026-12-31', '22:00', 'America/Los_Angeles'),
        bookedAt: new Date(),
        firstName: 'Eve',
        lastName: 'Client',
        email: 'eve@example.com',
        sessionType: 'Individual Yoga Session (60 min)',
        message: '',
        couponUsed: true,
        place: 'Studio 3',
      })
      .execute();
    const today = (await (await asAdmin('/api/admin/today')).json()) as TodayView;
    expect(today.today).toBe('2026-12-31');
    expect(today.sessionsToday.count).toBe(1);
  });

  it('a CSV is named for her day', async () => {
    const res = await asAdmin('/api/admin/exports/subscribers.csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('2026-12-31');
  });

  it('/calendar is drawn on her day and the footer in her year, with the clock the islands hydrate from', async () => {
    const html = await (await server.api('/calendar')).text();
    expect(html).toContain('December 2026');
    expect(html).toContain('Thursday, December 31');
    expect(html).not.toContain('January 2027');
    expect(html).toMatch(/©\s*2026/);
    // The island's props carry the same clock (Astro serialises them into the page).
    expect(html).toContain('America/Los_Angeles');
  });
});
