/**
 * Issue 35: the free 30-minute online meeting, scheduled. The home page offers her next free
 * times (her meeting hours, kept only when the agenda's rule leaves them clear: a busy time or a
 * class takes them away); a visitor books one with the invitation (link and .ics) at once; two
 * visitors racing for one time: one wins, the other is told 409; the meeting takes her time (her
 * agenda, Today) until its cancel link frees it. A request with no time still works as the spec has it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { zonedNow } from '../../../api/lib/time.ts';
import { FREE_MEETING_BOOKED, FREE_MEETING_TAKEN, type FreeMeetingTimesView } from '../../../contract/free-meetings.ts';
import { itemAt, mustFind } from '../../helpers/guards.ts';

// Behind a trusted proxy each X-Forwarded-For is one visitor (the race's two).
const server = useTestServer({ env: { TRUST_PROXY: '1' }, resetRateLimits: true });
const ROOM = 'https://zoom.example.com/j/555';
const HALF_HOUR = 30 * 60_000;
let admin = '';
beforeAll(async () => {
  admin = await adminCookie(server);
  const res = await server.api('/api/admin/settings/meeting', { method: 'PUT', json: { roomUrl: ROOM }, headers: { cookie: admin } });
  expect(res.status).toBe(200);
});

const times = async () => ((await (await server.api('/api/publicBookings/times')).json()) as FreeMeetingTimesView).times;
const starts = async () => (await times()).map((t) => t.startsAt);

let n = 0;
const visitor = () => `visitor-${++n}-${Date.now().toString(36)}@example.com`;

const book = (email: string, startsAt: string | undefined, ip = 1) =>
  server.api('/api/publicBookings', {
    method: 'POST',
    json: {
      name: 'Mia Rossi',
      email,
      phone: '123-456-7890',
      sessionType: 'yoga therapy',
      message: 'Hello',
      captchaToken: 'dev:book_request',
      ...(startsAt ? { startsAt } : {}),
    },
    headers: { 'x-forwarded-for': `198.51.100.${ip}` },
  });

describe(`the free meeting's times on ${testDbKind()}`, () => {
  it('are her weekday half hours ahead, labelled on her clocks, with no link or name', async () => {
    const view = (await (await server.api('/api/publicBookings/times')).json()) as FreeMeetingTimesView;
    expect(view.timeZone).toBe(server.env.SITE_TIMEZONE);
    expect(view.times.length).toBeGreaterThan(10);
    const now = Date.now();
    for (const t of view.times) {
      const at = new Date(t.startsAt);
      expect(at.getTime()).toBeGreaterThan(now + 4 * 3_600_000 - 60_000);
      const local = zonedNow(server.env.SITE_TIMEZONE, at);
      expect(local.time >= '09:00' && local.time <= '16:30', local.time).toBe(true);
      expect(local.time.endsWith(':00') || local.time.endsWith(':30')).toBe(true);
      expect(t.label).toMatch(/(Monday|Tuesday|Wednesday|Thursday|Friday), .* [AP]M P[SD]T$/);
    }
    expect(JSON.stringify(view)).not.toContain(ROOM);
  });

  it('skip a busy time she typed and a class', async () => {
    const [first, second, , fourth] = await starts();
    const busy = await server.api('/api/admin/busy', {
      method: 'POST',
      json: { start: first, end: new Date(new Date(first!).getTime() + HALF_HOUR).toISOString(), title: 'Dentist' },
      headers: { cookie: admin },
    });
    expect(busy.status).toBe(201);
    // A class of an hour at the fourth time takes it and the half hour after.
    const at = new Date(fourth!);
    const local = zonedNow(server.env.SITE_TIMEZONE, at);
    await server.services.db
      .insertInto('events')
      .values({ title: 'Gentle Flow', date: local.date, time: local.time, startsAt: at, location: 'Studio', capacity: 12 })
      .execute();
    const after = await starts();
    expect(after).not.toContain(first);
    expect(after).toContain(second);
    expect(after).not.toContain(fourth);
    expect(after).not.toContain(new Date(at.getTime() + HALF_HOUR).toISOString());
  });
});

describe(`booking the free meeting on ${testDbKind()}`, () => {
  it('books a time at once: the invitation with the link and the .ics, her notice, her agenda and Today', async () => {
    const [time] = await starts();
    const email = visitor();
    const res = await book(email, time);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ message: FREE_MEETING_BOOKED, startsAt: time });
    expect(await starts()).not.toContain(time);

    const invitation = itemAt(await readMailbox(server, email), 0);
    expect(invitation.text).toContain(`Join here: ${ROOM}`);
    expect(invitation.links).toContain(ROOM);
    expect(invitation.links.some((l) => l.includes('/meeting-cancel?token='))).toBe(true);
    const ics = mustFind(invitation.attachments, (a) => a.filename === 'meeting.ics').content.replace(/\r\n[ \t]/g, '');
    expect(ics).toContain(`URL:${ROOM}`);
    expect(ics).toContain('LOCATION:Online');
    const notice = itemAt(await readMailbox(server, server.env.TEACHER_EMAIL), 0);
    expect(notice.subject).toContain('Free meeting booked: Mia Rossi');

    const day = zonedNow(server.env.SITE_TIMEZONE, new Date(time!)).date;
    const agenda = await (await server.api(`/api/admin/agenda?from=${day}&to=${day}`, { headers: { cookie: admin } })).json();
    expect(agenda).toContainEqual(expect.objectContaining({ kind: 'session', title: 'Free meeting: Mia Rossi', place: 'Online', start: time }));
    const today = await (await server.api('/api/admin/today', { headers: { cookie: admin } })).json();
    const week = today.sessionsThisWeek.items as { startsAt: string; sessionType: string }[];
    // Today lists the week's first few; the first free time is within it unless the week is full of others.
    // Its row opens her Week on its day, the meeting marked (it is on no list of sessions); its place is the link.
    const id = (await server.services.db.selectFrom('freeMeetings').select('id').where('startsAt', '=', new Date(time!)).executeTakeFirstOrThrow()).id;
    if (new Date(time!).getTime() - Date.now() < 6 * 86_400_000)
      expect(week).toContainEqual(
        expect.objectContaining({ startsAt: time, sessionType: 'Free meeting', place: ROOM, href: `/admin/week?from=${day}&focus=${encodeURIComponent(id)}` }),
      );
  });

  it('two visitors racing for one time: one wins, the other is told it was taken', async () => {
    const [time] = await starts();
    const [a, b] = await Promise.all([book(visitor(), time, 11), book(visitor(), time, 12)]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const loser = a.status === 409 ? a : b;
    expect(await loser.json()).toEqual({ message: FREE_MEETING_TAKEN });
    const live = await server.services.db
      .selectFrom('freeMeetings')
      .select('id')
      .where('startsAt', '=', new Date(time!))
      .where('cancelledAt', 'is', null)
      .execute();
    expect(live).toHaveLength(1);
  });

  it('refuses a time she does not offer', async () => {
    const [time] = await starts();
    const off = new Date(new Date(time!).getTime() + 10 * 60_000).toISOString();
    expect((await book(visitor(), off)).status).toBe(400);
    expect((await book(visitor(), new Date(Date.now() + 3_600_000).toISOString())).status).toBe(400);
  });

  it('without a time is the request the spec has: mailed to her, nothing booked', async () => {
    const before = await server.services.db.selectFrom('freeMeetings').select('id').execute();
    const res = await server.api('/api/publicBookings/request', {
      method: 'POST',
      json: { name: 'Mia Rossi', email: visitor(), phone: '123-456-7890', sessionType: 'private yoga', message: '', captchaToken: 'dev:book_request' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Your form has been submitted successfully.' });
    expect(await server.services.db.selectFrom('freeMeetings').select('id').execute()).toHaveLength(before.length);
  });

  it("the invitation's cancel link frees the time and tells her; pressed again it says so", async () => {
    const [time] = await starts();
    const email = visitor();
    expect((await book(email, time, 21)).status).toBe(201);
    const invitation = itemAt(await readMailbox(server, email), 0);
    const link = invitation.links.find((l) => l.includes('/meeting-cancel?token='))!;
    const token = new URL(link).searchParams.get('token')!;

    const shown = await server.api(`/api/publicBookings/meeting?token=${encodeURIComponent(token)}`);
    expect(shown.status).toBe(200);
    expect(await shown.json()).toMatchObject({ name: 'Mia Rossi', startsAt: time, cancelled: false, canCancel: true });
    // Opening the page changes nothing: the time is still taken.
    expect(await starts()).not.toContain(time);

    const cancel = await server.api('/api/publicBookings/cancel', { method: 'POST', json: { token } });
    expect(cancel.status).toBe(200);
    expect(await starts()).toContain(time);
    const note = itemAt(await readMailbox(server, server.env.TEACHER_EMAIL), 0);
    expect(note.subject).toContain('Free meeting cancelled: Mia Rossi');
    const visitorNote = itemAt(await readMailbox(server, email), 0);
    expect(itemAt(visitorNote.attachments, 0).content).toContain('METHOD:CANCEL');

    expect((await server.api('/api/publicBookings/cancel', { method: 'POST', json: { token } })).status).toBe(409);
    expect((await server.api('/api/publicBookings/cancel', { method: 'POST', json: { token: `${token}x` } })).status).toBe(404);
  });
});
