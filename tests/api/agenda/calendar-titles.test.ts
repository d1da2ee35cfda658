/**
 * Issue 48 (decision 0058): what her Google Calendar receives of a session is a setting,
 * calendarTitle, neutral by default ("Session · Jane D."), and never the session type's words:
 * "Yoga Therapy Session" is consumer health data under Washington's My Health My Data Act, and
 * Google is a third party. A free meeting names its visitor the same way. Through the stand-in
 * at /dev/google, on PGlite and PostgreSQL.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { addFreeSlot, bookingForm } from '../../helpers/slots.ts';
import { requireNoIntake } from '../../helpers/intake.ts';
import { testDbKind } from '../../helpers/database.ts';
import { connectCalendar, googleEventsIn, type GoogleEvent } from '../../helpers/calendar.ts';
import { EMULATOR_ACCOUNT } from '../../../api/services/calendar/emulator.ts';
import { eventIdFor } from '../../../api/services/calendar/index.ts';
import { mirrorCalendar } from '../../../api/agenda/write-back.ts';
import { calendarTitleOf } from '../../../contract/calendar.ts';
import { must } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
const THERAPY = 'Yoga Therapy Session (60 min)';
/** Words of the session types and of what the visitors wrote, none of which may reach Google. */
const HEALTH_WORDS = [/therapy/i, /individual yoga/i, /lower back/i, /my knee/i];
let admin: string;
let sessionKey: string;
let meetingKey: string;

beforeAll(async () => {
  admin = await adminCookie(server);
  await server.api('/dev/google/emulator/reset', { method: 'POST' });
  await requireNoIntake(server);
});

const mirror = () => mirrorCalendar(server.services);
const eventOf = async (key: string): Promise<GoogleEvent | undefined> => {
  const row = await server.services.db.selectFrom('calendarMirror').select('eventId').where('key', '=', key).executeTakeFirst();
  return (await googleEventsIn(server, EMULATOR_ACCOUNT)).find((e) => e.id === (row?.eventId ?? eventIdFor(key)));
};
const titles = async () => [(await eventOf(sessionKey))?.summary, (await eventOf(meetingKey))?.summary];
const setTitle = (calendarTitle: unknown) => server.api('/api/admin/settings', { method: 'PUT', headers: { cookie: admin }, json: { calendarTitle } });

describe(`her Google Calendar's titles on ${testDbKind()}`, () => {
  it('by default a yoga therapy session is "Session · Ana L." and a free meeting "Free meeting · Mia R.": no session type, no message', async () => {
    const settings = await (await server.api('/api/admin/settings', { headers: { cookie: admin } })).json();
    expect(settings.settings.calendarTitle).toBe('initial');
    expect(await connectCalendar(server, admin)).toContain('calendar=connected');

    const client = await createUser(server);
    const slot = await addFreeSlot(server, 3);
    const booked = await server.api(`/api/bookings/${slot.id}/book`, {
      method: 'PUT',
      headers: { cookie: client.cookie },
      json: bookingForm(client, THERAPY, { message: 'My lower back hurts', couponCode: server.env.BOOKING_COUPON }),
    });
    expect(booked.status, await booked.clone().text()).toBe(200);
    sessionKey = `session:${slot.id}`;

    const times = ((await (await server.api('/api/publicBookings/times')).json()) as { times: { startsAt: string }[] }).times.map((t) => t.startsAt);
    const email = `visitor-${Date.now().toString(36)}@example.com`;
    let meeting: Response | undefined;
    for (const startsAt of times.slice(0, 10)) {
      meeting = await server.api('/api/publicBookings', {
        method: 'POST',
        headers: { 'x-forwarded-for': '198.51.100.48' },
        json: { name: 'Mia Rossi', email, phone: '123-456-7890', sessionType: 'yoga therapy', message: 'My knee', captchaToken: 'dev:book_request', startsAt },
      });
      if (meeting.status !== 409) break;
    }
    expect(must(meeting, 'meeting').status, await must(meeting, 'meeting').clone().text()).toBe(201);
    const { id } = await server.services.db.selectFrom('freeMeetings').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    meetingKey = `session:${id}`;

    await mirror();
    expect(await titles()).toEqual(['Session · Ana L.', 'Free meeting · Mia R.']);
    const session = (await eventOf(sessionKey))!;
    expect(session.status).toBe('confirmed');
    expect(session.description).toMatch(/^Session, from /);
    // Neither the title, the description nor the place carries a session type or what they wrote.
    for (const key of [sessionKey, meetingKey]) {
      const written = JSON.stringify(await eventOf(key));
      for (const word of HEALTH_WORDS) expect(written, `${key} ${word}`).not.toMatch(word);
    }
  });

  it('follows her choice: the full name, or no name; her events are written again with it', async () => {
    expect((await setTitle('fullName')).status).toBe(200);
    await mirror();
    expect(await titles()).toEqual(['Session · Ana Lima', 'Free meeting · Mia Rossi']);

    expect((await setTitle('none')).status).toBe(200);
    await mirror();
    expect(await titles()).toEqual(['Session', 'Free meeting']);
    for (const key of [sessionKey, meetingKey]) {
      const written = JSON.stringify(await eventOf(key));
      for (const word of [...HEALTH_WORDS, /Ana|Lima|Mia|Rossi/]) expect(written, `${key} ${word}`).not.toMatch(word);
    }

    expect((await setTitle('initial')).status).toBe(200);
    await mirror();
    expect(await titles()).toEqual(['Session · Ana L.', 'Free meeting · Mia R.']);
  });

  it('refuses a choice that is not one (400), and keeps hers', async () => {
    const refused = await setTitle('sessionType');
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toMatch(/calendarTitle/);
    const settings = await (await server.api('/api/admin/settings', { headers: { cookie: admin } })).json();
    expect(settings.settings.calendarTitle).toBe('initial');
  });
});

describe('a title from a name', () => {
  it('cuts a name given in one piece at its last space, and makes an initial of any letter', () => {
    expect(calendarTitleOf('initial', 'Session', { first: 'Jane', last: 'Doe' })).toBe('Session · Jane D.');
    expect(calendarTitleOf('initial', 'Free meeting', { first: 'Mary Ann Smith', last: '' })).toBe('Free meeting · Mary Ann S.');
    expect(calendarTitleOf('initial', 'Session', { first: 'Zoë', last: 'élan' })).toBe('Session · Zoë É.');
    expect(calendarTitleOf('initial', 'Session', { first: 'Cher', last: '' })).toBe('Session · Cher');
    expect(calendarTitleOf('fullName', 'Session', { first: ' Jane ', last: 'Doe ' })).toBe('Session · Jane Doe');
    expect(calendarTitleOf('none', 'Session', { first: 'Jane', last: 'Doe' })).toBe('Session');
    expect(calendarTitleOf('initial', 'Session', { first: '', last: '' })).toBe('Session');
  });
});
