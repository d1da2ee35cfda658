/**
 * Her Google Calendar in tests (issue 35): the consent round trip through the stand-in at
 * /dev/google, as her browser makes it, and the stand-in's test endpoints.
 */
import { expect } from 'vitest';
import type { TestServer } from './server.ts';

/** The path and query of an absolute redirect (SITE_URL is not where the test server listens). */
export const pathOf = (location: string | null) => {
  const u = new URL(location ?? '', 'http://x');
  return `${u.pathname}${u.search}`;
};

/** The cookies an answer sets (not the ones it deletes), as a Cookie header's parts. */
export const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => !c.endsWith('='));

/** Connect → the stand-in's consent page → our callback; answers where the callback sends her. */
export async function connectCalendar(server: TestServer, admin: string): Promise<string> {
  const start = await server.api('/api/admin/calendar/connect', { redirect: 'manual', headers: { cookie: admin } });
  expect(start.status).toBe(302);
  const consent = await server.api(pathOf(start.headers.get('location')), { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const back = await server.api(pathOf(consent.headers.get('location')), { redirect: 'manual', headers: { cookie: [admin, ...cookiesOf(start)].join('; ') } });
  expect(back.status).toBe(302);
  return back.headers.get('location') ?? '';
}

/** Requests the site made to the stand-in's Google endpoints, and its live push channels. */
export const googleRequests = async (server: TestServer) =>
  (await (await server.api('/dev/google/emulator/requests')).json()) as { count: number; channels: number; writes: number };

/** An event in her calendar, as if she added it in Google; answers once its push notifications went out. */
export function addGoogleEvent(server: TestServer, calendarId: string, start: Date, minutes: number) {
  return server.api('/dev/google/emulator/events', {
    method: 'POST',
    json: { calendarId, start: start.toISOString(), end: new Date(start.getTime() + minutes * 60_000).toISOString(), summary: 'Dentist' },
  });
}

/** An event as the stand-in keeps it (Google's fields the tests read). */
export interface GoogleEvent {
  id: string;
  status: string;
  summary: string;
  description?: string;
  location?: string;
  start: { dateTime: string };
  end: { dateTime: string };
}

/** The events of one of her calendars at the stand-in, cancelled ones included (the stand-in's empty-id rows left out). */
export async function googleEventsIn(server: TestServer, calendarId: string): Promise<GoogleEvent[]> {
  const res = await server.api(`/dev/google/emulator/events?calendarId=${encodeURIComponent(calendarId)}`);
  return ((await res.json()) as GoogleEvent[]).filter((e) => e.id.length > 0);
}
