/**
 * The roster on her phone (issue 34): an event's people in sign-up order (a place still being
 * paid for flagged, never marked), her check-in and no-show marks (idempotent, a double tap
 * from two phones marked once, a sign-up of another event not found), a walk-in added at the
 * door over capacity with the waiver signed on her phone, the series' attendance of the last six
 * months, and a client's classes with their marks; all of it for the admin only.
 */
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import { insertSignup } from '../../../api/classes/signups.repo.ts';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { adminCookie, createUser, expectAdminOnly } from '../../helpers/auth.ts';
import { PNG, SIGNATURE } from '../../helpers/endpoints/common.ts';
import { NO_SHOW_BEFORE_START, type AttendanceSavedView, type ClientClassView, type RosterView } from '../../../contract/roster.ts';
import { itemAt, must } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
const zone = () => server.env.SITE_TIMEZONE;
const db = () => server.services.db;
let n = 0;

async function addEvent(days: number, fields: { capacity?: number; seriesId?: string; title?: string; startedMinutesAgo?: number } = {}) {
  // A class that began some minutes ago (no-shows are marked only then), else at 18:00 `days` from today.
  const began = fields.startedMinutesAgo === undefined ? undefined : zonedNow(zone(), new Date(Date.now() - fields.startedMinutesAgo * 60_000));
  const date = began?.date ?? addDays(zonedNow(zone()).date, days);
  const time = began?.time ?? '18:00';
  return db()
    .insertInto('events')
    .values({
      title: fields.title ?? `Roster Flow ${++n}`,
      date,
      time,
      startsAt: zonedInstant(date, time, zone()),
      location: 'Studio',
      capacity: fields.capacity ?? 12,
      seriesId: fields.seriesId ?? null,
    })
    .returning(['id', 'title', 'date'])
    .executeTakeFirstOrThrow();
}

async function addSignup(event: { id: string; title: string; date: string }, name: string, fields: { payment?: 'held' | 'paid'; email?: string } = {}) {
  const row = must(
    await insertSignup(db(), {
      eventId: event.id,
      classTitle: event.title,
      date: event.date,
      name,
      email: fields.email ?? `${name.toLowerCase().replace(/\W+/g, '.')}.${++n}@example.com`,
      phone: '123-456-7890',
      waiverAccepted: true,
      signaturePng: new Uint8Array(PNG),
      payment: fields.payment ?? null,
      // One second apart: sign-up order is creation order, never a tie broken by random ids.
      createdAt: new Date(Date.UTC(2026, 0, 1) + ++n * 1000),
    }),
    'row',
  );
  return row.id;
}

const asAdmin = async (path: string, init: { method?: string; json?: unknown } = {}) =>
  server.api(path, { ...init, headers: { cookie: await adminCookie(server) } });
const mark = (eventId: string, signupId: string, status: string) =>
  asAdmin(`/api/admin/events/${eventId}/attendance`, { method: 'PUT', json: { signupId, status } });
const roster = async (eventId: string) => (await (await asAdmin(`/api/admin/events/${eventId}/roster`)).json()) as RosterView;

describe(`the roster on ${testDbKind()}`, () => {
  it('is for the admin only: no session and a client are refused, and nothing changes', async () => {
    const event = await addEvent(3);
    const signupId = await addSignup(event, 'Ana Lima');
    const client = await createUser(server);
    await expectAdminOnly(
      server,
      [
        { method: 'GET', path: `/api/admin/events/${event.id}/roster` },
        { method: 'PUT', path: `/api/admin/events/${event.id}/attendance`, json: { signupId, status: 'present' } },
        { method: 'POST', path: `/api/admin/events/${event.id}/walk-ins`, json: { name: 'Sneaky Pete', email: 'pete@example.com' } },
        { method: 'GET', path: `/api/admin/users/${client.id}/classes` },
      ],
      client.cookie,
      (body, where) => expect(body, where).not.toContain('Ana Lima'),
    );
    const row = await db().selectFrom('classSignups').select('attendance').where('id', '=', signupId).executeTakeFirstOrThrow();
    expect(row.attendance).toBeNull();
    expect(await db().selectFrom('classSignups').select('id').where('email', '=', 'pete@example.com').execute()).toEqual([]);
  });

  it('lists the event and its people in sign-up order, a place still being paid for flagged and not markable', async () => {
    const event = await addEvent(2, { capacity: 8 });
    const first = await addSignup(event, 'First Comer');
    const paying = await addSignup(event, 'Still Paying', { payment: 'held' });
    const paid = await addSignup(event, 'Paid Up', { payment: 'paid' });
    const view = await roster(event.id);
    expect(view.event).toMatchObject({
      _id: event.id,
      title: event.title,
      date: event.date,
      time: '18:00',
      location: 'Studio',
      capacity: 8,
      isPast: false,
      inSeries: false,
    });
    expect(view.people.map((p) => [p._id, p.name, p.payment])).toEqual([
      [first, 'First Comer', null],
      [paying, 'Still Paying', 'held'],
      [paid, 'Paid Up', 'paid'],
    ]);
    expect(view.people[0]).toEqual({
      _id: first,
      name: 'First Comer',
      email: expect.stringMatching(/@example\.com$/),
      phone: '123-456-7890',
      attendance: null,
      walkIn: false,
      payment: null,
      hasSignature: true,
    });
    expect(view.series).toEqual([]);
    expect(view.waiver.heading).toBeTruthy();
    expect(view.waiver.paragraphs.length).toBeGreaterThan(0);

    const held = await mark(event.id, paying, 'present');
    expect(held.status).toBe(409);
    expect((await held.json()).message).toMatch(/still being paid/);
    expect((await mark(event.id, paid, 'present')).status).toBe(200);

    const unknown = await asAdmin(`/api/admin/events/${randomUUID()}/roster`);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).message).toBe('Event not found.');
  });

  it('marks present once however often she taps (two phones at once included), then no-show; bad input says why', async () => {
    const event = await addEvent(0, { startedMinutesAgo: 10 });
    const ana = await addSignup(event, 'Ana Lima');

    const [a, b] = await Promise.all([mark(event.id, ana, 'present'), mark(event.id, ana, 'present')]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const [first, second] = [(await a.json()) as AttendanceSavedView, (await b.json()) as AttendanceSavedView];
    expect(first).toMatchObject({ _id: ana, attendance: 'present' });
    // The second tap found the first's mark and kept its time.
    expect(second.attendanceAt).toBe(first.attendanceAt);
    const again = (await (await mark(event.id, ana, 'present')).json()) as AttendanceSavedView;
    expect(again.attendanceAt).toBe(first.attendanceAt);
    expect(itemAt((await roster(event.id)).people, 0).attendance).toBe('present');

    const noShow = await mark(event.id, ana, 'noShow');
    expect(noShow.status).toBe(200);
    expect(await noShow.json()).toMatchObject({ _id: ana, attendance: 'noShow' });
    expect(itemAt((await roster(event.id)).people, 0).attendance).toBe('noShow');

    const badStatus = await mark(event.id, ana, 'absent');
    expect(badStatus.status).toBe(400);
    expect((await badStatus.json()).message).toBe("status: Status must be 'present' or 'noShow'.");
    const noId = await asAdmin(`/api/admin/events/${event.id}/attendance`, { method: 'PUT', json: { status: 'present' } });
    expect(noId.status).toBe(400);
    expect((await noId.json()).message).toMatch(/^signupId: Say which sign-up to mark/);
    expect(itemAt((await roster(event.id)).people, 0).attendance).toBe('noShow');
  });

  it('refuses a no-show before the class has begun (issue 50), and marks nothing; a check-in is fine', async () => {
    const event = await addEvent(1);
    const ana = await addSignup(event, 'Ana Early');
    const early = await mark(event.id, ana, 'noShow');
    expect(early.status).toBe(409);
    expect((await early.json()).message).toBe(NO_SHOW_BEFORE_START);
    expect(itemAt((await roster(event.id)).people, 0).attendance).toBeNull();
    expect((await mark(event.id, ana, 'present')).status).toBe(200);
  });

  it("answers 404 for another event's sign-up and for an unknown one, and marks nothing", async () => {
    const mine = await addEvent(1);
    const other = await addEvent(1);
    const theirs = await addSignup(other, 'Other Class');
    const wrong = await mark(mine.id, theirs, 'present');
    expect(wrong.status).toBe(404);
    expect((await wrong.json()).message).toBe('This person is not signed up for this event.');
    expect((await mark(mine.id, randomUUID(), 'noShow')).status).toBe(404);
    expect((await mark(randomUUID(), theirs, 'noShow')).status).toBe(404);
    expect(itemAt((await roster(other.id)).people, 0).attendance).toBeNull();
  });

  it('adds a walk-in at the door, over capacity, checked in, with the signature and the waiver she signed; the same e-mail twice is 409', async () => {
    const event = await addEvent(0, { capacity: 1 });
    const seated = await addSignup(event, 'Seated Sam', { email: 'sam@example.com' });
    const added = await asAdmin(`/api/admin/events/${event.id}/walk-ins`, {
      method: 'POST',
      json: { name: 'Walk In Wendy', email: 'Wendy@Example.com', phone: '555-123-4567', signature: SIGNATURE },
    });
    expect(added.status).toBe(201);
    const { _id } = (await added.json()) as { _id: string };
    const row = await db().selectFrom('classSignups').selectAll().where('id', '=', _id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      eventId: event.id,
      email: 'wendy@example.com',
      phone: '555-123-4567',
      walkIn: true,
      attendance: 'present',
      waiverAccepted: true,
      waiverRevision: expect.any(Number),
      waiverHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(Buffer.from(row.signaturePng!).equals(PNG)).toBe(true);
    const view = await roster(event.id);
    expect(view.people.map((p) => [p._id, p.walkIn, p.attendance, p.hasSignature])).toEqual([
      [seated, false, null, true],
      [_id, true, 'present', true],
    ]);

    const twice = await asAdmin(`/api/admin/events/${event.id}/walk-ins`, { method: 'POST', json: { name: 'Wendy Again', email: 'wendy@example.com' } });
    expect(twice.status).toBe(409);
    expect((await twice.json()).message).toBe('This e-mail is already signed up for this class: check them in on the list instead.');
    const signedUp = await asAdmin(`/api/admin/events/${event.id}/walk-ins`, { method: 'POST', json: { name: 'Sam', email: 'SAM@example.com' } });
    expect(signedUp.status).toBe(409);

    // Without a signature (the pinned call: name and e-mail): present, the waiver not accepted.
    const unsigned = await asAdmin(`/api/admin/events/${event.id}/walk-ins`, {
      method: 'POST',
      json: { name: 'No Pen', email: 'nopen@example.com', phone: '' },
    });
    expect(unsigned.status).toBe(201);
    const plain = await db()
      .selectFrom('classSignups')
      .select(['waiverAccepted', 'signaturePng', 'waiverRevision', 'phone', 'attendance'])
      .where('email', '=', 'nopen@example.com')
      .executeTakeFirstOrThrow();
    expect(plain).toEqual({ waiverAccepted: false, signaturePng: null, waiverRevision: null, phone: '', attendance: 'present' });

    const notPng = await asAdmin(`/api/admin/events/${event.id}/walk-ins`, {
      method: 'POST',
      json: { name: 'Bad Ink', email: 'ink@example.com', signature: 'data:image/png;base64,aGVsbG8=' },
    });
    expect(notPng.status).toBe(400);
    expect((await notPng.json()).message).toMatch(/PNG/);
    const noName = await asAdmin(`/api/admin/events/${event.id}/walk-ins`, { method: 'POST', json: { email: 'x@example.com' } });
    expect(noName.status).toBe(400);
    expect((await asAdmin(`/api/admin/events/${randomUUID()}/walk-ins`, { method: 'POST', json: { name: 'Lost', email: 'lost@example.com' } })).status).toBe(
      404,
    );
    expect(await db().selectFrom('classSignups').select('id').where('email', 'in', ['ink@example.com', 'lost@example.com']).execute()).toEqual([]);
  });

  it("shows the weekly series' past six months: signed up (paying left out), present and no-show per class, oldest first", async () => {
    const seriesId = randomUUID();
    const old = await addEvent(-200, { seriesId, title: 'Series Flow' });
    const twoWeeks = await addEvent(-14, { seriesId, title: 'Series Flow' });
    const lastWeek = await addEvent(-7, { seriesId, title: 'Series Flow' });
    const next = await addEvent(7, { seriesId, title: 'Series Flow' });
    await addSignup(old, 'Long Ago');
    const a = await addSignup(twoWeeks, 'Ann');
    const b = await addSignup(twoWeeks, 'Ben');
    await addSignup(twoWeeks, 'Cat');
    await addSignup(twoWeeks, 'Paying Pat', { payment: 'held' });
    const c = await addSignup(lastWeek, 'Dee');
    await mark(twoWeeks.id, a, 'present');
    await mark(twoWeeks.id, b, 'noShow');
    await mark(lastWeek.id, c, 'present');
    await asAdmin(`/api/admin/events/${lastWeek.id}/walk-ins`, { method: 'POST', json: { name: 'Door Dan', email: 'dan@example.com' } });

    const view = await roster(next.id);
    expect(view.event.inSeries).toBe(true);
    expect(view.series).toEqual([
      { _id: twoWeeks.id, date: twoWeeks.date, capacity: 12, signedUp: 3, present: 1, noShow: 1 },
      { _id: lastWeek.id, date: lastWeek.date, capacity: 12, signedUp: 2, present: 2, noShow: 0 },
    ]);
  });

  it("shows a client's classes with attended and no-show, matched by their e-mail", async () => {
    const client = await createUser(server, { email: 'regular@example.com' });
    const monday = await addEvent(-3);
    const tuesday = await addEvent(-2);
    const coming = await addEvent(5);
    const m = await addSignup(monday, 'Regular Rae', { email: 'regular@example.com' });
    const t = await addSignup(tuesday, 'Regular Rae', { email: 'regular@example.com' });
    const c = await addSignup(coming, 'Regular Rae', { email: 'regular@example.com' });
    await addSignup(tuesday, 'Someone Else');
    await mark(monday.id, m, 'present');
    await mark(tuesday.id, t, 'noShow');

    const res = await asAdmin(`/api/admin/users/${client.id}/classes`);
    expect(res.status).toBe(200);
    const classes = (await res.json()) as ClientClassView[];
    expect(classes.map((x) => [x._id, x.classTitle, x.past, x.attendance])).toEqual([
      [c, coming.title, false, null],
      [t, tuesday.title, true, 'noShow'],
      [m, monday.title, true, 'present'],
    ]);
    expect((await asAdmin(`/api/admin/users/${randomUUID()}/classes`)).status).toBe(404);
  });
});
