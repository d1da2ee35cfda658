/**
 * Issue 35 (decision 0044): her Google Calendar, read side, through the stand-in at /dev/google.
 * She connects (consent, code with PKCE, her calendars), chooses which calendars mean busy; an
 * event added there reaches the site by Google's push notification and its slot is neither
 * offered nor booked; with Google unreachable the last busy times stand and a clear slot still
 * books; disconnecting deletes her Google busy times and nothing more goes to Google.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser, expectAdminOnly } from '../../helpers/auth.ts';
import { addFreeSlot } from '../../helpers/slots.ts';
import { until } from '../../helpers/until.ts';
import { addGoogleEvent, connectCalendar, cookiesOf, googleRequests as requests } from '../../helpers/calendar.ts';
import { EMULATOR_ACCOUNT, EMULATOR_FAMILY_CALENDAR, EMULATOR_HOLIDAYS_CALENDAR } from '../../../api/services/calendar/emulator.ts';
import type { CalendarView } from '../../../contract/calendar.ts';
import { must } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
let admin: string;
let client: Awaited<ReturnType<typeof createUser>>;
const YOGA = 'Individual Yoga Session (60 min)';

beforeAll(async () => {
  admin = await adminCookie(server);
  client = await createUser(server);
  // The stand-in keeps its state per process: start from none.
  await server.api('/dev/google/emulator/reset', { method: 'POST' });
});

const asAdmin = (path: string, init: RequestInit & { json?: unknown } = {}) =>
  server.api(path, { redirect: 'manual', ...init, headers: { cookie: admin, ...(init.headers as Record<string, string> | undefined) } });
async function view(): Promise<CalendarView> {
  const res = await asAdmin('/api/admin/calendar');
  expect(res.status).toBe(200);
  return (await res.json()) as CalendarView;
}

async function freeSlotIds(): Promise<string[]> {
  const res = await server.api(`/api/bookings?userId=${client.id}`, { headers: { cookie: client.cookie } });
  expect(res.status).toBe(200);
  return ((await res.json()).availableSlots as { _id: string }[]).map((s) => s._id);
}

function book(slotId: string) {
  return server.api(`/api/bookings/${slotId}/book`, {
    method: 'PUT',
    headers: { cookie: client.cookie },
    json: { userId: client.id, firstName: 'Ana', lastName: 'Lima', email: client.email, sessionType: YOGA, couponCode: 'JOURNEY' },
  });
}

const googleRows = () => server.services.db.selectFrom('busyTimes').selectAll().where('source', '=', 'google').execute();
const googleRequests = () => requests(server);
const addEvent = (calendarId: string, start: Date, minutes: number) => addGoogleEvent(server, calendarId, start, minutes);

describe('her Google Calendar through the stand-in', () => {
  it('is refused without the admin session', async () => {
    await expectAdminOnly(
      server,
      [
        { method: 'GET', path: '/api/admin/calendar' },
        { method: 'GET', path: '/api/admin/calendar/connect' },
        { method: 'GET', path: '/api/admin/calendar/callback?code=x&state=y' },
        { method: 'PUT', path: '/api/admin/calendar', json: { busyCalendarIds: [], writeCalendarId: null } },
        { method: 'DELETE', path: '/api/admin/calendar' },
      ],
      client.cookie,
      (body, where) => expect(body, where).not.toContain('calendar'),
    );
  });

  it('refuses a callback whose state is not the one it started', async () => {
    const start = await asAdmin('/api/admin/calendar/connect');
    const consentUrl = new URL(start.headers.get('location')!);
    expect(consentUrl.pathname).toBe('/dev/google/o/oauth2/v2/auth');
    expect(consentUrl.searchParams.get('access_type')).toBe('offline');
    expect(consentUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(consentUrl.searchParams.get('scope')).toContain('https://www.googleapis.com/auth/calendar');
    const roundTrip = cookiesOf(start);
    const back = await asAdmin('/api/admin/calendar/callback?code=4%2Femu-x&state=not-it', { headers: { cookie: [admin, ...roundTrip].join('; ') } });
    expect(back.headers.get('location')).toContain('calendar=refused');
    expect((await view()).connected).toBe(false);
  });

  it('connects: her account, her calendars, the primary one busy and written to; the token is stored sealed', async () => {
    expect(await connectCalendar(server, admin)).toBe('/admin/settings?calendar=connected#google-calendar');
    const v = await view();
    expect(v).toMatchObject({ available: true, standIn: true, connected: true, account: EMULATOR_ACCOUNT, error: null });
    expect(v.fetchedAt).not.toBeNull();
    expect(v.calendars.map((c) => [c.id, c.busy, c.write, c.writable])).toEqual([
      [EMULATOR_ACCOUNT, true, true, true],
      [EMULATOR_FAMILY_CALENDAR, false, false, true],
      [EMULATOR_HOLIDAYS_CALENDAR, false, false, false],
    ]);
    const row = await server.services.db.selectFrom('calendarConnections').selectAll().executeTakeFirstOrThrow();
    expect(row.refreshTokenSealed).toMatch(/^v1\./);
    expect(JSON.stringify(v)).not.toContain('1//emu-');
    expect(row.watchChannels).toHaveLength(1);
  });

  it('refuses a calendar that is not hers, and writing to one she can only read', async () => {
    const unknown = await asAdmin('/api/admin/calendar', { method: 'PUT', json: { busyCalendarIds: ['someone@else.com'], writeCalendarId: null } });
    expect(unknown.status).toBe(409);
    const readOnly = await asAdmin('/api/admin/calendar', { method: 'PUT', json: { busyCalendarIds: [], writeCalendarId: EMULATOR_HOLIDAYS_CALENDAR } });
    expect(readOnly.status).toBe(409);
    const bad = await asAdmin('/api/admin/calendar', { method: 'PUT', json: { busyCalendarIds: 'all' } });
    expect(bad.status).toBe(400);
  });

  it('an event added to a busy calendar reaches the site by push: its slot vanishes and booking it is 409', async () => {
    const saved = await asAdmin('/api/admin/calendar', {
      method: 'PUT',
      json: { busyCalendarIds: [EMULATOR_ACCOUNT, EMULATOR_FAMILY_CALENDAR], writeCalendarId: EMULATOR_ACCOUNT },
    });
    expect(saved.status).toBe(200);
    expect((await googleRequests()).channels).toBe(2);
    const slot = await addFreeSlot(server, 3);
    expect(await freeSlotIds()).toContain(slot.id);

    // In the Family calendar, overlapping the slot's first half hour.
    const added = await addEvent(EMULATOR_FAMILY_CALENDAR, new Date(new Date(slot.startsAt).getTime() - 15 * 60_000), 45);
    expect(added.status).toBe(201);
    await until(async () => !(await freeSlotIds()).includes(slot.id));
    expect((await googleRows()).map((r) => r.calendarId)).toEqual([EMULATOR_FAMILY_CALENDAR]);
    expect((await book(slot.id)).status).toBe(409);

    // A push with the wrong token is not hers.
    const forged = await server.api('/api/google/calendar/push', {
      method: 'POST',
      headers: { 'x-goog-channel-id': 'whatever', 'x-goog-channel-token': 'nope', 'x-goog-resource-state': 'exists' },
    });
    expect(forged.status).toBe(404);
  });

  it('Google unreachable: the last busy times stand, the error and since when are shown, a clear slot still books', async () => {
    const busySlot = await addFreeSlot(server, 4);
    await addEvent(EMULATOR_ACCOUNT, new Date(busySlot.startsAt), 60);
    await until(async () => !(await freeSlotIds()).includes(busySlot.id));
    const before = await googleRows();
    const clear = await addFreeSlot(server, 5);

    await server.api('/dev/google/emulator/unreachable', { method: 'PUT', json: { unreachable: true } });
    try {
      // Stale: the booking attempt reads Google first, fails, and goes on with the rows stored.
      await server.services.db
        .updateTable('calendarConnections')
        .set({ fetchedAt: new Date(Date.now() - 3_600_000) })
        .execute();
      const started = Date.now();
      expect((await book(clear.id)).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect((await book(busySlot.id)).status).toBe(409);
      expect((await googleRows()).length).toBe(before.length);
      const v = await view();
      expect(v.error?.message).toBe('Google Calendar could not be reached');
      expect(Date.parse(must(v.error, 'v.error').since)).toBeGreaterThan(started - 1000);
      expect(Date.parse(v.fetchedAt!)).toBeLessThan(started - 3_000_000);
    } finally {
      await server.api('/dev/google/emulator/unreachable', { method: 'PUT', json: { unreachable: false } });
    }
    // Back: the next save reads Google again and clears the error.
    const saved = await asAdmin('/api/admin/calendar', {
      method: 'PUT',
      json: { busyCalendarIds: [EMULATOR_ACCOUNT, EMULATOR_FAMILY_CALENDAR], writeCalendarId: EMULATOR_ACCOUNT },
    });
    expect(((await saved.json()) as { calendar: CalendarView }).calendar.error).toBeNull();
  });

  it('unticking a calendar lets its slots be offered again', async () => {
    const slot = await addFreeSlot(server, 6);
    await addEvent(EMULATOR_FAMILY_CALENDAR, new Date(slot.startsAt), 30);
    await until(async () => !(await freeSlotIds()).includes(slot.id));
    const saved = await asAdmin('/api/admin/calendar', { method: 'PUT', json: { busyCalendarIds: [EMULATOR_ACCOUNT], writeCalendarId: EMULATOR_ACCOUNT } });
    expect(saved.status).toBe(200);
    expect(await freeSlotIds()).toContain(slot.id);
    expect((await googleRequests()).channels).toBe(1);
  });

  it('disconnecting deletes her Google busy times, stops the channels, and nothing more goes to Google', async () => {
    expect((await googleRows()).length).toBeGreaterThan(0);
    const res = await asAdmin('/api/admin/calendar', { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await googleRows()).toEqual([]);
    expect(await server.services.db.selectFrom('calendarConnections').selectAll().execute()).toEqual([]);
    const after = await googleRequests();
    expect(after.channels).toBe(0);

    // An event in her calendar, a booking attempt, a stale push: none reaches Google.
    const slot = await addFreeSlot(server, 7);
    await addEvent(EMULATOR_ACCOUNT, new Date(slot.startsAt), 60);
    expect(await freeSlotIds()).toContain(slot.id);
    expect((await book(slot.id)).status).toBe(200);
    expect((await googleRequests()).count).toBe(after.count);
    expect((await view()).connected).toBe(false);
    expect((await asAdmin('/api/admin/calendar', { method: 'DELETE' })).status).toBe(404);
  });
});
