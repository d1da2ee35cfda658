/**
 * The real Google Calendar client (api/services/calendar/google.ts) against the stand-in
 * (api/services/calendar/emulator.ts) served over HTTP: our local fake of Google's endpoints.
 * The consent round trip with PKCE, her calendars, one freeBusy for several calendars, events
 * keyed by our id (a retried insert updates instead of doubling, a Meet link made), a push
 * channel that posts Google's headers to the address given, and Google unreachable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { generateCodeVerifier, generateState } from 'arctic';
import { createGoogleCalendar } from '../../../api/services/calendar/google.ts';
import {
  createGoogleEmulator,
  EMULATOR_ACCOUNT,
  EMULATOR_CALENDAR_CLIENT_ID,
  EMULATOR_CALENDAR_CLIENT_SECRET,
  EMULATOR_FAMILY_CALENDAR,
  EMULATOR_HOLIDAYS_CALENDAR,
} from '../../../api/services/calendar/emulator.ts';
import { CalendarError, eventIdFor, type CalendarProvider } from '../../../api/services/calendar/index.ts';

/** An app listening on 127.0.0.1 (a free port), and how to stop it. */
async function listening(app: Hono) {
  const http = createAdaptorServer({ fetch: app.fetch });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const { port } = http.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise<void>((done) => http.close(() => done())) };
}

const pushes: Record<string, string>[] = [];
let google: Awaited<ReturnType<typeof listening>>;
let receiver: Awaited<ReturnType<typeof listening>>;
let client: CalendarProvider;
let refreshToken: string;
const REDIRECT = 'https://yoga.example.com/api/admin/calendar/callback';

beforeAll(async () => {
  google = await listening(createGoogleEmulator().app);
  await fetch(`${google.url}/emulator/reset`, { method: 'POST' });
  // Our push receiver: records Google's headers.
  const hook = new Hono().post('/push', (c) => {
    pushes.push(Object.fromEntries([...c.req.raw.headers].filter(([k]) => k.startsWith('x-goog-'))));
    return c.body(null, 200);
  });
  receiver = await listening(hook);
  client = createGoogleCalendar({
    clientId: EMULATOR_CALENDAR_CLIENT_ID,
    clientSecret: EMULATOR_CALENDAR_CLIENT_SECRET,
    authUrl: `${google.url}/o/oauth2/v2/auth`,
    tokenUrl: `${google.url}/token`,
    apiBase: `${google.url}/calendar/v3`,
  });
});

afterAll(async () => {
  await google?.stop();
  await receiver?.stop();
});

const at = (iso: string) => new Date(iso);

describe('the Google Calendar client against the stand-in over HTTP', () => {
  it('consents with PKCE and exchanges the code for her refresh token and address', async () => {
    const state = generateState();
    const codeVerifier = generateCodeVerifier();
    const url = client.authorizationUrl({ state, codeVerifier, redirectUri: REDIRECT });
    expect(url.searchParams.get('access_type')).toBe('offline');
    const consent = await fetch(url, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    const back = new URL(consent.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe(state);
    const code = back.searchParams.get('code')!;

    // The wrong verifier is refused, and a code is good once.
    await expect(client.exchangeCode({ code, codeVerifier: generateCodeVerifier(), redirectUri: REDIRECT })).rejects.toThrow(/invalid_grant/);
    const again = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!).searchParams.get('code')!;
    const account = await client.exchangeCode({ code: again, codeVerifier, redirectUri: REDIRECT });
    expect(account.email).toBe(EMULATOR_ACCOUNT);
    refreshToken = account.refreshToken;
    expect(refreshToken).toBeTruthy();
  });

  it('lists her calendars', async () => {
    const calendars = await client.listCalendars(refreshToken);
    expect(calendars.map((c) => [c.id, c.primary, c.accessRole])).toEqual([
      [EMULATOR_ACCOUNT, true, 'owner'],
      [EMULATOR_FAMILY_CALENDAR, false, 'owner'],
      [EMULATOR_HOLIDAYS_CALENDAR, false, 'reader'],
    ]);
  });

  it('reads busy times of several calendars in one freeBusy request, and names a calendar it could not read', async () => {
    for (const [calendarId, start, end] of [
      [EMULATOR_ACCOUNT, '2031-03-04T17:00:00Z', '2031-03-04T18:00:00Z'],
      [EMULATOR_ACCOUNT, '2031-03-04T17:30:00Z', '2031-03-04T19:00:00Z'],
      [EMULATOR_FAMILY_CALENDAR, '2031-03-05T09:00:00Z', '2031-03-05T10:00:00Z'],
    ]) {
      expect((await fetch(`${google.url}/emulator/events`, { method: 'POST', body: JSON.stringify({ calendarId, start, end }) })).status).toBe(201);
    }
    const before = ((await (await fetch(`${google.url}/emulator/requests`)).json()) as { count: number }).count;
    const answer = await client.freeBusy(refreshToken, {
      calendarIds: [EMULATOR_ACCOUNT, EMULATOR_FAMILY_CALENDAR, 'gone@group.calendar.google.com'],
      from: at('2031-03-01T00:00:00Z'),
      to: at('2031-04-01T00:00:00Z'),
    });
    // One request (the access token is kept from the calendar list).
    expect(((await (await fetch(`${google.url}/emulator/requests`)).json()) as { count: number }).count).toBe(before + 1);
    expect(answer.busy).toEqual([
      { calendarId: EMULATOR_ACCOUNT, start: at('2031-03-04T17:00:00Z'), end: at('2031-03-04T19:00:00Z') },
      { calendarId: EMULATOR_FAMILY_CALENDAR, start: at('2031-03-05T09:00:00Z'), end: at('2031-03-05T10:00:00Z') },
    ]);
    expect(answer.errors).toEqual([{ calendarId: 'gone@group.calendar.google.com', reason: 'notFound' }]);
  });

  it('writes an event keyed by our id with a Meet link; a retried insert updates it; patch and delete (twice)', async () => {
    const id = eventIdFor('yc-slot-3f2a9c1e-0000-4000-8000-000000000001');
    expect(id).toMatch(/^[a-v0-9]{5,}$/);
    const event = {
      id,
      summary: 'Yoga therapy: Ana L.',
      location: 'Online',
      start: at('2031-03-06T18:00:00Z'),
      end: at('2031-03-06T19:00:00Z'),
      timeZone: 'America/Los_Angeles',
      meet: true,
    };
    const first = await client.insertEvent(refreshToken, EMULATOR_ACCOUNT, event);
    expect(first.id).toBe(id);
    expect(first.meetLink).toMatch(/^https:\/\/meet\.google\.com\/[a-z]{3}-[a-z]{4}-[a-z]{3}$/);
    const retried = await client.insertEvent(refreshToken, EMULATOR_ACCOUNT, { ...event, summary: 'Yoga therapy: Ana Lima' });
    expect(retried.meetLink).toBe(first.meetLink);
    const listed = (await (await fetch(`${google.url}/emulator/events?calendarId=${encodeURIComponent(EMULATOR_ACCOUNT)}`)).json()) as {
      id: string;
      summary: string;
    }[];
    expect(listed.filter((e) => e.id === id).map((e) => e.summary)).toEqual(['Yoga therapy: Ana Lima']);

    await client.patchEvent(refreshToken, EMULATOR_ACCOUNT, { ...event, start: at('2031-03-06T20:00:00Z'), end: at('2031-03-06T21:00:00Z') });
    const moved = (await (await fetch(`${google.url}/emulator/events?calendarId=${encodeURIComponent(EMULATOR_ACCOUNT)}`)).json()) as {
      id: string;
      start: { dateTime: string };
    }[];
    expect(moved.find((e) => e.id === id)?.start.dateTime).toBe('2031-03-06T20:00:00.000Z');
    await client.deleteEvent(refreshToken, EMULATOR_ACCOUNT, id);
    await client.deleteEvent(refreshToken, EMULATOR_ACCOUNT, id);
    await expect(client.insertEvent(refreshToken, EMULATOR_HOLIDAYS_CALENDAR, { ...event, id: eventIdFor('yc-slot-other') })).rejects.toThrow(CalendarError);
  });

  it('watches a calendar: Google posts its headers to our address on a change; a stopped channel posts no more', async () => {
    const channel = await client.watch(refreshToken, EMULATOR_FAMILY_CALENDAR, {
      id: 'c0ffee00-0000-4000-8000-000000000001',
      token: 'her-channel-token',
      address: `${receiver.url}/push`,
      ttlSeconds: 3600,
    });
    expect(channel.expiresAt.getTime()).toBeGreaterThan(Date.now() + 3_500_000);
    await fetch(`${google.url}/emulator/events`, {
      method: 'POST',
      body: JSON.stringify({ calendarId: EMULATOR_FAMILY_CALENDAR, start: '2031-03-07T09:00:00Z', end: '2031-03-07T10:00:00Z' }),
    });
    const exists = pushes.find((p) => p['x-goog-resource-state'] === 'exists');
    expect(exists).toMatchObject({ 'x-goog-channel-id': channel.id, 'x-goog-channel-token': 'her-channel-token', 'x-goog-resource-id': channel.resourceId });
    await client.stopChannel(refreshToken, channel);
    await client.stopChannel(refreshToken, channel);
    const count = pushes.length;
    await fetch(`${google.url}/emulator/events`, {
      method: 'POST',
      body: JSON.stringify({ calendarId: EMULATOR_FAMILY_CALENDAR, start: '2031-03-08T09:00:00Z', end: '2031-03-08T10:00:00Z' }),
    });
    expect(pushes.length).toBe(count);
  });

  it('says Google is unavailable (its status) when it is, and a revoked token is refused', async () => {
    await fetch(`${google.url}/emulator/unreachable`, { method: 'PUT', body: JSON.stringify({ unreachable: true }) });
    try {
      const error = await client
        .freeBusy(refreshToken, { calendarIds: [EMULATOR_ACCOUNT], from: at('2031-03-01T00:00:00Z'), to: at('2031-03-02T00:00:00Z') })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CalendarError);
      expect((error as CalendarError).status).toBe(503);
      expect((error as CalendarError).message).not.toContain(refreshToken);
    } finally {
      await fetch(`${google.url}/emulator/unreachable`, { method: 'PUT', body: JSON.stringify({ unreachable: false }) });
    }
    await expect(client.listCalendars('1//not-hers')).rejects.toThrow(/invalid_grant/);
  });
});
