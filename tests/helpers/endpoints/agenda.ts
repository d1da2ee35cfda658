/** The endpoint table's agenda part (issue 35; tests/helpers/endpoints.ts holds the whole table, in order). */
import { connectCalendar } from '../calendar.ts';
import { EMULATOR_ACCOUNT } from '../../../api/services/calendar/emulator.ts';
import { Fixtures, match, optionalText, plainGet, type Endpoint, type Method } from './common.ts';

const badInstants = ['tomorrow', '2031-02-30T10:00:00Z', '2031-01-01 10:00', '2031-01-01T10:00:00', ''];

/** A busy time she typed, new each time (a day of its own, far ahead). */
async function busyTime(fx: Fixtures): Promise<string> {
  const startsAt = new Date(Date.UTC(2031, 0, 1) + Number(fx.unique('b').split('-').pop()) * 86_400_000);
  const row = await fx.db
    .insertInto('busyTimes')
    .values({ startsAt, endsAt: new Date(startsAt.getTime() + 3_600_000), title: 'Dentist', source: 'manual' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Her calendar connected through the stand-in (once; a disconnect's example connects again). */
async function connected(fx: Fixtures): Promise<void> {
  const row = await fx.db.selectFrom('calendarConnections').select('id').executeTakeFirst();
  if (!row) await connectCalendar(fx.server, await fx.adminCookie());
}

/** One of her routes (admin session): what it reads, writes and a valid example. */
const hers = (method: Method, route: string, body: Endpoint['body'], rest: Omit<Endpoint, 'method' | 'route' | 'auth' | 'body'>): Endpoint => ({
  method,
  route,
  auth: 'admin',
  body,
  ...rest,
});
const CALENDAR_WRITES: Endpoint['writes'] = ['calendarConnections', 'busyTimes'];

export const AGENDA_ENDPOINTS: Endpoint[] = [
  {
    method: 'GET',
    route: '/api/admin/agenda',
    auth: 'admin',
    body: 'none',
    fields: {
      from: { kind: 'string', required: true, role: 'lookup', in: 'query', bad: ['tomorrow', '2031-02-30', ''] },
      to: { kind: 'string', required: true, role: 'lookup', in: 'query', bad: ['next week', '2031-13-01', '2030-12-01', '2033-01-01'] },
    },
    writes: [],
    example: async () => ({ query: { from: '2031-01-01', to: '2031-01-07' } }),
  },
  {
    method: 'POST',
    route: '/api/admin/busy',
    auth: 'admin',
    body: 'json',
    fields: {
      start: { kind: 'string', required: true, role: 'lookup', bad: badInstants },
      end: { kind: 'string', required: true, role: 'lookup', bad: [...badInstants, '2031-01-01T09:00:00Z', '2031-03-01T10:00:00Z'] },
      title: optionalText({ bad: ['x'.repeat(201)] }),
    },
    writes: ['busyTimes'],
    example: async () => ({ json: { start: '2031-01-01T10:00:00Z', end: '2031-01-01T11:00:00Z', title: 'Dentist' } }),
  },
  {
    method: 'DELETE',
    route: '/api/admin/busy/:id',
    auth: 'admin',
    body: 'none',
    writes: ['busyTimes'],
    example: async (fx) => ({ params: { id: await busyTime(fx) } }),
  },
  // her Google Calendar (issue 35)
  plainGet('/api/admin/calendar', 'admin'),
  // A browser navigation to the consent page (the stand-in's in tests).
  hers('GET', '/api/admin/calendar/connect', 'none', { writes: [], okStatus: [302], example: async () => ({}) }),
  // Google's redirect back: without the round trip's cookies it goes back to Settings, refused.
  hers('GET', '/api/admin/calendar/callback', 'none', { writes: CALENDAR_WRITES, okStatus: [302], example: async () => ({}) }),
  hers('PUT', '/api/admin/calendar', 'json', {
    // writeCalendarId is required but may be null (no calendar written to): not probed with null.
    fields: { busyCalendarIds: { kind: 'array', required: true, role: 'match' }, writeCalendarId: match({ required: false }) },
    writes: CALENDAR_WRITES,
    example: (fx) => connected(fx).then(() => ({ json: { busyCalendarIds: [EMULATOR_ACCOUNT], writeCalendarId: EMULATOR_ACCOUNT } })),
  }),
  hers('DELETE', '/api/admin/calendar', 'none', { writes: CALENDAR_WRITES, example: (fx) => connected(fx).then(() => ({})) }),
  // Google's push notification: none of her channels' id and token here, so 404 (tests/api/agenda/google-calendar.test.ts sends real ones).
  { method: 'POST', route: '/api/google/calendar/push', auth: 'none', body: 'none', writes: [], okStatus: [404], example: async () => ({}) },
];
