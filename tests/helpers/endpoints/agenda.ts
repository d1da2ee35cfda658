/** The endpoint table's agenda part (tests/helpers/endpoints.ts holds the whole table, in order): her agenda, busy times and Google Calendar (issue 35). */
import { connectCalendar } from '../calendar.ts';
import { EMULATOR_ACCOUNT } from '../../../api/services/calendar/emulator.ts';
import { match, optionalText, plainGet, type Endpoint, type Fixtures, type Method } from './common.ts';

/** Her calendar connected through the stand-in (once; a disconnect's example connects again). */
async function connected(fx: Fixtures): Promise<void> {
  const row = await fx.db.selectFrom('calendarConnections').select('id').executeTakeFirst();
  if (!row) await connectCalendar(fx.server, await fx.adminCookie());
}

// Far beyond the fixtures' slots and events (tests/helpers/endpoints/common.ts): a busy time here overlaps none of them.
const inDays = (days: number, hour: number) => new Date(Date.now() + days * 86_400_000 + hour * 3_600_000).toISOString();

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
  hers('GET', '/api/admin/agenda', 'none', {
    fields: { from: match({ in: 'query', bad: ['2031-02-30', 'soon'] }), to: match({ in: 'query', bad: ['2031-13-01', 'later'] }) },
    writes: [],
    example: async (fx) => ({ query: { from: fx.date(1), to: fx.date(8) } }),
  }),
  hers('POST', '/api/admin/busy', 'json', {
    fields: { start: match({ bad: ['2031-02-30T10:00:00Z', 'tomorrow'] }), end: match({ bad: ['2031-02-30T11:00:00Z', 'later'] }), title: optionalText() },
    writes: ['busyTimes'],
    example: async () => ({ json: { start: inDays(700, 1), end: inDays(700, 2), title: 'Dentist' } }),
  }),
  hers('DELETE', '/api/admin/busy/:id', 'none', {
    writes: ['busyTimes'],
    example: async (fx) => {
      const row = await fx.db
        .insertInto('busyTimes')
        .values({ startsAt: inDays(701, 1), endsAt: inDays(701, 2), title: 'Trip', source: 'manual' })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { params: { id: row.id } };
    },
  }),
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
