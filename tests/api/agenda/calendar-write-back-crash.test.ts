/**
 * Issue 35's hardest promise for the write-back: every booking, move and cancel is in her Google
 * Calendar once, even when the server is killed (SIGKILL) after Google made the write and before
 * the site recorded it. The Google Calendar stand-in runs in a process of its own (Google
 * outlives our crash) and holds back its answer to each event write after making it; the real
 * Google client is pointed at it. After a restart, the stale claim is taken again, the retried
 * insert finds the event by its id (made from ours) and updates it: one event, at the right time.
 *
 * PostgreSQL only: PGlite is an embedded database inside the killed process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, zonedNow } from '../../../api/lib/time.ts';
import { sessionStore } from '../../../api/middleware/sessions.ts';
import { SESSION_COOKIES } from '../../../api/middleware/session-cookies.ts';
import { EMULATOR_ACCOUNT, EMULATOR_CALENDAR_CLIENT_ID, EMULATOR_CALENDAR_CLIENT_SECRET } from '../../../api/services/calendar/emulator.ts';
import { eventIdFor } from '../../../api/services/calendar/index.ts';
import { zonedInstant } from '../../../api/lib/time.ts';
import { usePaymentCrash } from '../../helpers/payment-processes.ts';
import { startChild, type Child } from '../../helpers/child.ts';
import { pathOf, cookiesOf, type GoogleEvent } from '../../helpers/calendar.ts';
import { must } from '../../helpers/guards.ts';

const ZONE = 'America/Los_Angeles';
const TEACHER = 'teacher@example.com';
const YOGA = 'Individual Yoga Session (60 min)';
const RECONCILE = { interval: 600_000, stale: 600_000 };

describe('a server killed between Google’s write and the site’s record of it', () => {
  const crash = usePaymentCrash({ zone: ZONE, teacher: TEACHER });
  const { db, call } = crash;
  let google: Child;
  beforeAll(async () => {
    google = await startChild('tests/helpers/google-emulator-process.ts', {});
  });
  afterAll(async () => {
    await google?.kill('SIGTERM');
  });

  const googleEnv = () => ({
    GOOGLE_CLIENT_ID: EMULATOR_CALENDAR_CLIENT_ID,
    GOOGLE_CLIENT_SECRET: EMULATOR_CALENDAR_CLIENT_SECRET,
    GOOGLE_AUTH_URL: `${google.url}/o/oauth2/v2/auth`,
    GOOGLE_TOKEN_URL: `${google.url}/token`,
    GOOGLE_CALENDAR_API_URL: `${google.url}/calendar/v3`,
    // Written at once after each change, and from the runner every 200 ms; a dead process's claim retaken after 500 ms.
    GOOGLE_CALENDAR_WRITE_MS: '200',
    GOOGLE_CALENDAR_WRITE_STALE_MS: '500',
  });
  const start = () => crash.start(RECONCILE, googleEnv());
  const stats = async () => (await (await fetch(`${google.url}/emulator/requests`)).json()) as { writes: number };
  const holdWrites = (ms: number) =>
    fetch(`${google.url}/emulator/hold-writes`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms }) });
  const events = async () => (await (await fetch(`${google.url}/emulator/events?calendarId=${encodeURIComponent(EMULATOR_ACCOUNT)}`)).json()) as GoogleEvent[];
  const sessionEvents = async () => (await events()).filter((e) => e.summary === 'Session · Ana L.');
  const mirrorDone = async (key: string) => {
    const row = await db().selectFrom('calendarMirror').select(['wantHash', 'writtenHash']).where('key', '=', key).executeTakeFirst();
    return row === undefined || row.wantHash === row.writtenHash;
  };

  /** Google makes the next event write and holds its answer; the server is killed meanwhile; it starts again. */
  async function killMidWrite(change: () => Promise<Response>) {
    await holdWrites(60_000);
    const before = (await stats()).writes;
    expect((await change()).status).toBe(200);
    await crash.until(
      async () => (await stats()).writes > before,
      () => 'Google was never written to',
    );
    await must(crash.server, 'crash.server').kill('SIGKILL');
    await holdWrites(0);
    await start();
  }

  it('a booking, a move and a cancel are each in her calendar once after a kill -9 mid-write', async () => {
    await start();
    // Her admin session, and her calendar connected through the consent round trip.
    const adminId = (await db().insertInto('admins').values({ email: TEACHER, passwordHash: 'x' }).returning('id').executeTakeFirstOrThrow()).id;
    const admin = `${SESSION_COOKIES.admin}=${(await sessionStore(db(), 'admin').create(adminId)).token}`;
    const connect = await call('/api/admin/calendar/connect', { redirect: 'manual', headers: { cookie: admin } });
    expect(connect.status).toBe(302);
    const consent = await fetch(connect.headers.get('location')!, { redirect: 'manual' });
    const back = await call(pathOf(consent.headers.get('location')), { redirect: 'manual', headers: { cookie: [admin, ...cookiesOf(connect)].join('; ') } });
    expect(back.headers.get('location')).toContain('calendar=connected');

    const user = await db()
      .insertInto('users')
      .values({ email: 'crash.calendar@example.com', firstName: 'Ana', lastName: 'Lima', emailVerifiedAt: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const client = `${SESSION_COOKIES.user}=${(await sessionStore(db(), 'user').create(user.id)).token}`;
    const day = addDays(zonedNow(ZONE).date, 3);
    const [first, second] = await db()
      .insertInto('slots')
      .values([
        { date: day, time: '10:00', startsAt: zonedInstant(day, '10:00', ZONE) },
        { date: day, time: '14:00', startsAt: zonedInstant(day, '14:00', ZONE) },
      ])
      .returning(['id', 'startsAt'])
      .execute();

    // Booked: the insert made, its answer lost with the server.
    await killMidWrite(() =>
      call(`/api/bookings/${must(first, 'first').id}/book`, {
        method: 'PUT',
        headers: { cookie: client },
        json: { userId: user.id, firstName: 'Ana', lastName: 'Lima', email: 'crash.calendar@example.com', sessionType: YOGA, couponCode: 'JOURNEY' },
      }),
    );
    await crash.until(
      () => mirrorDone(`session:${must(first, 'first').id}`),
      () => 'the booking was not written after the restart',
    );
    expect((await sessionEvents()).map((e) => [e.id, e.status, Date.parse(e.start.dateTime)])).toEqual([
      [eventIdFor(`session:${must(first, 'first').id}`), 'confirmed', new Date(must(first, 'first').startsAt).getTime()],
    ]);

    // Moved to 14:00: the delete or the insert cut short, each done once after the restart.
    await killMidWrite(() =>
      call(`/api/bookings/${must(first, 'first').id}/reschedule`, {
        method: 'POST',
        headers: { cookie: client },
        json: { toSlotId: must(second, 'second').id },
      }),
    );
    await crash.until(
      async () => (await mirrorDone(`session:${must(first, 'first').id}`)) && (await mirrorDone(`session:${must(second, 'second').id}`)),
      () => 'the move was not written after the restart',
    );
    const afterMove = await sessionEvents();
    expect(afterMove.filter((e) => e.status === 'confirmed').map((e) => [e.id, Date.parse(e.start.dateTime)])).toEqual([
      [eventIdFor(`session:${must(second, 'second').id}`), new Date(must(second, 'second').startsAt).getTime()],
    ]);
    expect(afterMove).toHaveLength(2);

    // Cancelled: no session left in her calendar.
    await killMidWrite(() => call(`/api/bookings/${must(second, 'second').id}/cancel`, { method: 'POST', headers: { cookie: client } }));
    await crash.until(
      () => mirrorDone(`session:${must(second, 'second').id}`),
      () => 'the cancel was not written after the restart',
    );
    expect((await sessionEvents()).filter((e) => e.status === 'confirmed')).toEqual([]);
    expect(await db().selectFrom('calendarMirror').selectAll().execute()).toEqual([]);
  });
});
