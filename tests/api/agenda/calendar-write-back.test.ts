/**
 * Issue 35 (decision 0044): her agenda written to her Google Calendar, through the stand-in at
 * /dev/google. A booked session, a class and a gig become events in the calendar she writes to,
 * titled without notes or the session type; a move and a cancel follow; a second round writes nothing; Google away,
 * the writes wait and go when it is back; a new choice of calendar moves them; her own events
 * read back as busy are not counted twice; disconnected, nothing is sent.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { addFreeSlot, freeSlotTime } from '../../helpers/slots.ts';
import { connectCalendar, googleEventsIn, googleRequests, type GoogleEvent } from '../../helpers/calendar.ts';
import { EMULATOR_ACCOUNT, EMULATOR_FAMILY_CALENDAR } from '../../../api/services/calendar/emulator.ts';
import { eventIdFor } from '../../../api/services/calendar/index.ts';
import { mirrorCalendar } from '../../../api/agenda/write-back.ts';
import { refreshBusyTimes } from '../../../api/agenda/calendar.ts';
import { zonedInstant } from '../../../api/lib/time.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { itemAt, must } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
const YOGA = 'Individual Yoga Session (60 min)';
let admin: string;
let client: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  admin = await adminCookie(server);
  client = await createUser(server);
  await server.api('/dev/google/emulator/reset', { method: 'POST' });
});

const mirror = () => mirrorCalendar(server.services);
const eventsIn = (calendarId: string) => googleEventsIn(server, calendarId);
const live = async (calendarId: string) => (await eventsIn(calendarId)).filter((e) => e.status === 'confirmed');
const eventOf = async (calendarId: string, key: string) => (await eventsIn(calendarId)).find((e) => e.id === eventIdFor(key));
const unreachable = (on: boolean) => server.api('/dev/google/emulator/unreachable', { method: 'PUT', json: { unreachable: on } });

function book(slotId: string, message = '') {
  return server.api(`/api/bookings/${slotId}/book`, {
    method: 'PUT',
    headers: { cookie: client.cookie },
    json: { userId: client.id, firstName: 'Ana', lastName: 'Lima', email: client.email, sessionType: YOGA, message, couponCode: 'JOURNEY' },
  });
}

/** A free online slot `inDays` ahead, clear of the file's other slots. */
async function addOnlineSlot(inDays: number) {
  const at = freeSlotTime(server.env.SITE_TIMEZONE, inDays);
  return server.services.db
    .insertInto('slots')
    .values({ date: at.date, time: at.time, startsAt: at.startsAt, online: true })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** A session booked `inDays` ahead and a write-back round reach Google not at all, and queue nothing. */
async function expectNothingSentForABooking(inDays: number) {
  const before = (await googleRequests(server)).count;
  const slot = await addFreeSlot(server, inDays);
  expect((await book(slot.id)).status).toBe(200);
  await mirror();
  expect((await googleRequests(server)).count).toBe(before);
  expect(await server.services.db.selectFrom('calendarMirror').selectAll().execute()).toEqual([]);
}

describe('her agenda written to her Google Calendar', () => {
  let session: { id: string; startsAt: Date };
  let classId: string;
  let gigId: string;

  it('writes nothing while she is not connected', async () => {
    await expectNothingSentForABooking(2);
  });

  it('connected, a booked session, a class and a gig become events in the calendar she writes to, and nothing private', async () => {
    expect(await connectCalendar(server, admin)).toContain('calendar=connected');
    const slot = await addFreeSlot(server, 3);
    expect((await book(slot.id, 'My lower back hurts since the fall')).status).toBe(200);
    session = { id: slot.id, startsAt: new Date(slot.startsAt) };
    const zone = server.env.SITE_TIMEZONE;
    const at = freeSlotTime(zone, 4);
    classId = (
      await server.services.db
        .insertInto('events')
        .values({ title: 'Candlelight Yin', date: at.date, time: at.time, startsAt: at.startsAt, location: 'Studio Om' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const gigAt = freeSlotTime(zone, 5);
    const place = await server.services.db.insertInto('locations').values({ name: 'Riverside Studio' }).returning('id').executeTakeFirstOrThrow();
    gigId = (
      await server.services.db
        .insertInto('gigs')
        .values({
          date: gigAt.date,
          time: gigAt.time,
          className: 'Riverside Flow',
          locationId: place.id,
          rateCents: 6000,
          frequency: 'perClass',
          paymentMethod: 'cash',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

    await mirror();
    const written = await live(EMULATOR_ACCOUNT);
    const sessionEvent = written.find((e) => e.id === eventIdFor(`session:${slot.id}`));
    // Titled as her calendarTitle setting says (default: first name and initial), never with the session type (decision 0058).
    expect(sessionEvent).toMatchObject({ summary: 'Session · Ana L.' });
    expect(Date.parse(must(sessionEvent, 'sessionEvent').start.dateTime)).toBe(session.startsAt.getTime());
    expect(Date.parse(must(sessionEvent, 'sessionEvent').end.dateTime)).toBe(session.startsAt.getTime() + 60 * 60_000);
    expect(written.find((e) => e.id === eventIdFor(`class:${classId}`))).toMatchObject({ summary: 'Candlelight Yin', location: 'Studio Om' });
    const gig = written.find((e) => e.id === eventIdFor(`gig:${gigId}`));
    expect(gig).toMatchObject({ summary: 'Riverside Flow (gig)', location: 'Riverside Studio' });
    expect(Date.parse(must(gig, 'gig').start.dateTime)).toBe(zonedInstant(gigAt.date, gigAt.time, zone).getTime());
    // The client's message (health words, often) never leaves the site.
    expect(JSON.stringify(written)).not.toContain('back hurts');
  });

  it('a second round writes nothing: each thing is in her calendar once', async () => {
    const before = (await googleRequests(server)).writes;
    const events = (await eventsIn(EMULATOR_ACCOUNT)).length;
    await mirror();
    await mirror();
    expect((await googleRequests(server)).writes).toBe(before);
    expect((await eventsIn(EMULATOR_ACCOUNT)).length).toBe(events);
  });

  it('forgets the rows of things a month past whose events are as they should be', async () => {
    const row = (key: string, daysAgo: number) => ({
      calendarId: EMULATOR_ACCOUNT,
      key,
      eventId: eventIdFor(key),
      startsAt: new Date(Date.now() - daysAgo * 86_400_000),
      want: JSON.stringify({ summary: 'Old', description: '', location: '', start: new Date().toISOString(), end: new Date().toISOString(), meet: false }),
      wantHash: 'h',
      writtenHash: 'h',
    });
    await server.services.db
      .insertInto('calendarMirror')
      .values([row('class:long-past', 40), row('class:last-week', 7)])
      .execute();
    await mirror();
    const keys = (await server.services.db.selectFrom('calendarMirror').select('key').where('key', 'in', ['class:long-past', 'class:last-week']).execute()).map(
      (r) => r.key,
    );
    expect(keys).toEqual(['class:last-week']);
  });

  it('her own events, read back from a calendar she marked busy, are not busy times of hers', async () => {
    expect(await refreshBusyTimes(server.services, { fresh: true })).toBe('refreshed');
    const google = await server.services.db.selectFrom('busyTimes').select(['startsAt']).where('source', '=', 'google').execute();
    expect(google.map((b) => new Date(b.startsAt).getTime())).not.toContain(session.startsAt.getTime());
    const week = await server.api(`/api/admin/agenda?from=${new Date().toISOString()}&to=${new Date(Date.now() + 7 * 86_400_000).toISOString()}`, {
      headers: { cookie: admin },
    });
    const items = (await week.json()) as { id: string; kind: string; conflictsWith: string[] }[];
    expect(items.find((i) => i.id === classId)?.conflictsWith).toEqual([]);
  });

  it('a move takes the event to the new time and a cancel takes it out, each once', async () => {
    const target = await addFreeSlot(server, 6);
    const moved = await server.api(`/api/bookings/${session.id}/reschedule`, {
      method: 'POST',
      headers: { cookie: client.cookie },
      json: { toSlotId: target.id },
    });
    expect(moved.status).toBe(200);
    await mirror();
    expect((await eventOf(EMULATOR_ACCOUNT, `session:${session.id}`))?.status).toBe('cancelled');
    const there = (await live(EMULATOR_ACCOUNT)).filter((e) => e.summary === 'Session · Ana L.');
    expect(there.map((e) => [e.id, Date.parse(e.start.dateTime)])).toContainEqual([eventIdFor(`session:${target.id}`), new Date(target.startsAt).getTime()]);

    const cancelled = await server.api(`/api/bookings/${target.id}/cancel`, { method: 'POST', headers: { cookie: client.cookie } });
    expect(cancelled.status).toBe(200);
    await mirror();
    expect((await eventOf(EMULATOR_ACCOUNT, `session:${target.id}`))?.status).toBe('cancelled');
    expect(await server.services.db.selectFrom('calendarMirror').select('key').where('key', '=', `session:${target.id}`).execute()).toEqual([]);
  });

  it('Google away: the write waits with its reason and goes when Google is back', async () => {
    await unreachable(true);
    try {
      await server.services.db.updateTable('events').set({ cancelledAt: new Date() }).where('id', '=', classId).execute();
      await mirror();
      const waiting = await server.services.db.selectFrom('calendarMirror').selectAll().where('key', '=', `class:${classId}`).executeTakeFirstOrThrow();
      expect(waiting).toMatchObject({ wantHash: null, attempts: 1, claimedBy: null });
      expect(waiting.lastError).toMatch(/could not be reached/i);
      expect((await eventOf(EMULATOR_ACCOUNT, `class:${classId}`))?.status).toBe('confirmed');
      // Her Settings page says so.
      const view = await (await server.api('/api/admin/calendar', { headers: { cookie: admin } })).json();
      expect(view.writes).toEqual({ waiting: 1, lastError: 'Google Calendar could not be reached' });
    } finally {
      await unreachable(false);
    }
    // Its retry time come (30 s on), the next round sends it.
    await server.services.db.updateTable('calendarMirror').set({ nextAttemptAt: new Date() }).where('key', '=', `class:${classId}`).execute();
    await mirror();
    expect((await eventOf(EMULATOR_ACCOUNT, `class:${classId}`))?.status).toBe('cancelled');
  });

  it('writing to another calendar moves her events there', async () => {
    const saved = await server.api('/api/admin/calendar', {
      method: 'PUT',
      headers: { cookie: admin },
      json: { busyCalendarIds: [EMULATOR_ACCOUNT], writeCalendarId: EMULATOR_FAMILY_CALENDAR },
    });
    expect(saved.status).toBe(200);
    await mirror();
    expect((await eventOf(EMULATOR_ACCOUNT, `gig:${gigId}`))?.status).toBe('cancelled');
    expect((await eventOf(EMULATOR_FAMILY_CALENDAR, `gig:${gigId}`))?.status).toBe('confirmed');
  });

  it('an online session booked while she is connected gets a Google Meet link of its own: in the mail, on the slot and on its event', async () => {
    const room = 'https://meet.jit.si/her-room';
    expect((await server.api('/api/admin/settings/meeting', { method: 'PUT', headers: { cookie: admin }, json: { roomUrl: room } })).status).toBe(200);
    const slot = await addOnlineSlot(8);
    const linkOf = async () => (await server.services.db.selectFrom('slots').select('link').where('id', '=', slot.id).executeTakeFirstOrThrow()).link;
    const eventOfSlot = async () => {
      const row = await server.services.db.selectFrom('calendarMirror').select('eventId').where('key', '=', `session:${slot.id}`).executeTakeFirstOrThrow();
      return (await eventsIn(EMULATOR_FAMILY_CALENDAR)).find((e) => e.id === row.eventId) as GoogleEvent & { hangoutLink?: string };
    };

    expect((await book(slot.id)).status).toBe(200);
    const meet = await linkOf();
    expect(meet).toMatch(/^https:\/\/meet\.google\.com\/[a-z]{3}-[a-z]{4}-[a-z]{3}$/);
    const mail = itemAt(await readMailbox(server, client.email), 0);
    expect(mail.text).toContain(`Join here: ${meet}`);
    expect(mail.text).not.toContain(room);
    await mirror();
    expect(await eventOfSlot()).toMatchObject({ status: 'confirmed', summary: 'Session · Ana L.', location: meet, hangoutLink: meet });

    // Cancelled and booked again by someone else: a new link, never the first client's.
    const first = await eventOfSlot();
    expect((await server.api(`/api/bookings/${slot.id}/cancel`, { method: 'POST', headers: { cookie: client.cookie } })).status).toBe(200);
    const other = await createUser(server, { firstName: 'Bea', lastName: 'Cruz' });
    const again = await server.api(`/api/bookings/${slot.id}/book`, {
      method: 'PUT',
      headers: { cookie: other.cookie },
      json: { userId: other.id, firstName: 'Bea', lastName: 'Cruz', email: other.email, sessionType: YOGA, couponCode: 'JOURNEY' },
    });
    expect(again.status).toBe(200);
    const second = await linkOf();
    expect(second).toMatch(/^https:\/\/meet\.google\.com\//);
    expect(second).not.toBe(meet);
    await mirror();
    expect((await eventsIn(EMULATOR_FAMILY_CALENDAR)).find((e) => e.id === first.id)?.status).toBe('cancelled');
    expect(await eventOfSlot()).toMatchObject({ status: 'confirmed', summary: 'Session · Bea C.', location: second });
  });

  it('Google away at the booking: the online session takes her room link and is booked all the same', async () => {
    const slot = await addOnlineSlot(9);
    await unreachable(true);
    try {
      expect((await book(slot.id)).status).toBe(200);
    } finally {
      await unreachable(false);
    }
    expect((await server.services.db.selectFrom('slots').select('link').where('id', '=', slot.id).executeTakeFirstOrThrow()).link).toBe(
      'https://meet.jit.si/her-room',
    );
  });

  it('a free meeting booked while she is connected gets a Meet link in its invitation; its cancel link takes the event out', async () => {
    const [time] = ((await (await server.api('/api/publicBookings/times')).json()) as { times: { startsAt: string }[] }).times.map((t) => t.startsAt);
    const email = `visitor-${Date.now().toString(36)}@example.com`;
    const booked = await server.api('/api/publicBookings', {
      method: 'POST',
      headers: { 'x-forwarded-for': '198.51.100.77' },
      json: {
        name: 'Mia Rossi',
        email,
        phone: '123-456-7890',
        sessionType: 'yoga therapy',
        message: 'My knee',
        captchaToken: 'dev:book_request',
        startsAt: time,
      },
    });
    expect(booked.status).toBe(201);
    const meeting = await server.services.db.selectFrom('freeMeetings').select(['id', 'link']).where('email', '=', email).executeTakeFirstOrThrow();
    expect(meeting.link).toMatch(/^https:\/\/meet\.google\.com\//);
    const invitation = itemAt(await readMailbox(server, email), 0);
    expect(invitation.text).toContain(`Join here: ${meeting.link}`);
    await mirror();
    const row = await server.services.db.selectFrom('calendarMirror').select('eventId').where('key', '=', `session:${meeting.id}`).executeTakeFirstOrThrow();
    const event = (await eventsIn(EMULATOR_FAMILY_CALENDAR)).find((e) => e.id === row.eventId);
    expect(event).toMatchObject({ status: 'confirmed', summary: 'Free meeting · Mia R.', location: meeting.link });
    expect(JSON.stringify(event)).not.toContain('My knee');

    const token = new URL(invitation.links.find((l) => l.includes('/meeting-cancel?token='))!).searchParams.get('token')!;
    expect((await server.api('/api/publicBookings/cancel', { method: 'POST', json: { token } })).status).toBe(200);
    await mirror();
    expect((await eventsIn(EMULATOR_FAMILY_CALENDAR)).find((e) => e.id === row.eventId)?.status).toBe('cancelled');
  });

  it('disconnected, nothing more is sent: a booking and a round reach Google not at all', async () => {
    expect((await server.api('/api/admin/calendar', { method: 'DELETE', headers: { cookie: admin } })).status).toBe(200);
    await expectNothingSentForABooking(7);
  });
});
