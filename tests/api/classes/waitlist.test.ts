/**
 * The waitlist of a full class (issue 15): POST /api/waitlist with the sign-up's fields (same
 * schema, human check), promotion of the first in line in the same transaction when a place
 * frees (a student's give-back or the admin's delete) with a "you're in" mail carrying the
 * class's .ics, two places freed at once promoting the first two in order, leaving the line by
 * its signed link, and the admin's view of each class's line.
 */
import { describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { classForm } from '../../helpers/classes.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { itemAt, must } from '../../helpers/guards.ts';

// Behind a trusted proxy each X-Forwarded-For is one client: the tests stay under the per-client limits.
const server = useTestServer({ env: { TRUST_PROXY: '1' }, resetRateLimits: true });

const HUMAN = "Verification failed: we couldn't verify that you're human. Please try again.";
const zone = () => server.env.SITE_TIMEZONE;
let counter = 0;

async function addClass(capacity: number) {
  const title = `Full Moon Flow ${++counter}`;
  const date = addDays(zonedNow(zone()).date, 8);
  const row = await server.services.db
    .insertInto('events')
    .values({ title, date, time: '19:00', startsAt: zonedInstant(date, '19:00', zone()), location: 'Studio Two', capacity })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, title, date };
}

const form = (cls: { title: string; date: string }, email: string, name = 'Wai Ting') =>
  classForm(cls, { name, email, recaptchaToken: 'dev:waitlist_form_submit' });
let ip = 0;
const post = (path: string, json: unknown, headers: Record<string, string> = {}) =>
  server.api(path, { method: 'POST', json, headers: { 'x-forwarded-for': `10.9.0.${++ip % 250}`, ...headers } });
async function signUp(cls: { title: string; date: string }, email: string) {
  const res = await post('/api/signup', { ...form(cls, email, 'Ana Lima'), recaptchaToken: 'dev:signup_form_submit' });
  expect(res.status).toBe(201);
  return ((await res.json()) as { _id: string })._id;
}
const join = (cls: { title: string; date: string }, email: string, name?: string) => post('/api/waitlist', form(cls, email, name));
const seated = async (eventId: string) =>
  (await server.services.db.selectFrom('classSignups').select('email').where('eventId', '=', eventId).orderBy('email').execute()).map((r) => r.email);
const line = async (eventId: string) =>
  (await server.services.db.selectFrom('classWaitlist').select('email').where('eventId', '=', eventId).orderBy('seq').execute()).map((r) => r.email);
const tokenFrom = async (email: string, subject: string, param: 'token' | 'waitlist') => {
  const mail = (await readMailbox(server, email)).find((m) => m.subject.startsWith(subject));
  expect(mail, `a mail "${subject}…" to ${email}`).toBeDefined();
  const link = must(mail, 'mail').links.find((l) => l.includes(`/class-cancel?${param}=`))!;
  return new URL(link).searchParams.get(param)!;
};

describe(`the waitlist on ${testDbKind()}`, () => {
  it('validates like a sign-up and needs the human check', async () => {
    const cls = await addClass(1);
    await signUp(cls, 'seat@example.com');
    const bad = await join({ ...cls }, 'not-an-email');
    expect(bad.status).toBe(400);
    expect((await bad.json()).issues.map((i: { path: string }) => i.path)).toContain('email');
    const noWaiver = await post('/api/waitlist', { ...form(cls, 'w@example.com'), waiver: false });
    expect(noWaiver.status).toBe(400);
    const robot = await post('/api/waitlist', { ...form(cls, 'w@example.com'), recaptchaToken: 'dev:signup_form_submit' });
    expect(robot.status).toBe(400);
    expect((await robot.json()).message).toBe(HUMAN);
    expect(await line(cls.id)).toEqual([]);
  });

  it('queues people in order, promotes the first when a student gives a place back, with the mail and the .ics, and the rest move up', async () => {
    const cls = await addClass(2);
    await signUp(cls, 'a@example.com');
    await signUp(cls, 'b@example.com');

    const first = await join(cls, 'w1@example.com', 'First Waiter');
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({ message: "You're on the waitlist", status: 'waiting', position: 1 });
    expect(await (await join(cls, 'w2@example.com', 'Second Waiter')).json()).toMatchObject({ position: 2 });
    expect(await (await join(cls, 'w3@example.com', 'Third Waiter')).json()).toMatchObject({ position: 3 });
    // Twice in line, or in line while seated: refused.
    const twice = await join(cls, 'w1@example.com');
    expect(twice.status).toBe(409);
    expect((await twice.json()).message).toBe('You are already on the waitlist for this class.');
    expect((await join(cls, 'a@example.com')).status).toBe(409);
    expect(itemAt(await readMailbox(server, 'w2@example.com'), 0).subject).toMatch(/^You're on the waitlist: /);

    const token = await tokenFrom('b@example.com', "You're signed up", 'token');
    const res = await post('/api/class-places/cancel', { token });
    expect(res.status).toBe(200);
    expect(await seated(cls.id)).toEqual(['a@example.com', 'w1@example.com']);
    expect(await line(cls.id)).toEqual(['w2@example.com', 'w3@example.com']);

    const youreIn = (await readMailbox(server, 'w1@example.com')).find((m) => m.subject.startsWith("You're in: "));
    expect(youreIn).toBeDefined();
    const ics = must(youreIn, 'youreIn').attachments.find((a) => a.filename === 'class.ics')!;
    expect(ics.contentType).toMatch(/^text\/calendar/);
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(ics.content)).getFirstSubcomponent('vevent')!);
    expect(event.summary).toBe(cls.title);
    expect(event.startDate.toJSDate().toISOString()).toBe(zonedInstant(cls.date, '19:00', zone()).toISOString());
    const newSignup = await server.services.db.selectFrom('classSignups').select('id').where('email', '=', 'w1@example.com').executeTakeFirstOrThrow();
    expect(event.uid).toBe(`${newSignup.id}@${new URL(server.env.SITE_URL).host}`);
    // The promoted student can give the place back in turn: the mail carries the link.
    expect(must(youreIn, 'youreIn').links.some((l) => l.includes('/class-cancel?token='))).toBe(true);
    // Nobody else was promoted or told so.
    expect((await readMailbox(server, 'w2@example.com')).some((m) => m.subject.startsWith("You're in"))).toBe(false);
  });

  it('promotes the first two in order when two places free at once (admin deletes, concurrently)', async () => {
    const cls = await addClass(2);
    const a = await signUp(cls, 'p-a@example.com');
    const b = await signUp(cls, 'p-b@example.com');
    for (const n of [1, 2, 3]) expect((await join(cls, `p-w${n}@example.com`)).status).toBe(201);
    const cookie = await adminCookie(server);
    const results = await Promise.all([a, b].map((id) => server.api(`/api/signup/${id}`, { method: 'DELETE', headers: { cookie } })));
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(await seated(cls.id)).toEqual(['p-w1@example.com', 'p-w2@example.com']);
    expect(await line(cls.id)).toEqual(['p-w3@example.com']);
    for (const email of ['p-w1@example.com', 'p-w2@example.com']) {
      expect((await readMailbox(server, email)).filter((m) => m.subject.startsWith("You're in: "))).toHaveLength(1);
    }
  });

  it('never goes over capacity when give-backs and joins race', async () => {
    const cls = await addClass(1);
    await signUp(cls, 'r-seat@example.com');
    expect((await join(cls, 'r-w1@example.com')).status).toBe(201);
    const token = await tokenFrom('r-seat@example.com', "You're signed up", 'token');
    const answers = await Promise.all([post('/api/class-places/cancel', { token }), join(cls, 'r-w2@example.com'), join(cls, 'r-w3@example.com')]);
    expect(answers.map((r) => r.status)).toEqual([200, 201, 201]);
    expect(await seated(cls.id)).toEqual(['r-w1@example.com']);
    expect(await line(cls.id)).toHaveLength(2);
  });

  it('gives new places to those in line when the admin raises the capacity', async () => {
    const cls = await addClass(1);
    await signUp(cls, 'c-seat@example.com');
    for (const n of [1, 2, 3]) await join(cls, `c-w${n}@example.com`);
    const res = await server.api(`/api/events/${cls.id}`, { method: 'PUT', json: { capacity: 3 }, headers: { cookie: await adminCookie(server) } });
    expect(res.status).toBe(200);
    expect(await seated(cls.id)).toEqual(['c-seat@example.com', 'c-w1@example.com', 'c-w2@example.com']);
    expect(await line(cls.id)).toEqual(['c-w3@example.com']);
    expect((await readMailbox(server, 'c-w2@example.com')).some((m) => m.subject.startsWith("You're in: "))).toBe(true);
  });

  it('signs up at once when a place is free after all', async () => {
    const cls = await addClass(1);
    const res = await join(cls, 'free@example.com');
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ status: 'signedUp', message: 'Sign up successful' });
    expect(await seated(cls.id)).toEqual(['free@example.com']);
    expect(itemAt(await readMailbox(server, 'free@example.com'), 0).subject).toMatch(/^You're signed up: /);
  });

  it('lets a student leave the line by the link in the mail (GET changes nothing), once; a forged link is refused', async () => {
    const cls = await addClass(1);
    await signUp(cls, 'l-seat@example.com');
    await join(cls, 'l-w1@example.com');
    await join(cls, 'l-w2@example.com');
    const token = await tokenFrom('l-w2@example.com', "You're on the waitlist", 'waitlist');
    const shown = await server.api(`/api/waitlist/entry?token=${encodeURIComponent(token)}`);
    expect(await shown.json()).toMatchObject({ classTitle: cls.title, position: 2 });
    expect(await line(cls.id)).toEqual(['l-w1@example.com', 'l-w2@example.com']);
    // The give-back purpose is not the waitlist's: a sign-up token can't remove anyone from a line.
    const signupToken = await tokenFrom('l-seat@example.com', "You're signed up", 'token');
    expect((await post('/api/waitlist/leave', { token: signupToken })).status).toBe(400);
    expect((await post('/api/waitlist/leave', { token: `${token}x` })).status).toBe(400);
    const left = await post('/api/waitlist/leave', { token });
    expect(await left.json()).toEqual({ message: 'You have left the waitlist. Thank you for letting me know!', alreadyLeft: false });
    expect(await line(cls.id)).toEqual(['l-w1@example.com']);
    expect(await (await post('/api/waitlist/leave', { token })).json()).toMatchObject({ alreadyLeft: true });
  });

  it("shows the admin each upcoming class's line in order, to the admin only", async () => {
    const cls = await addClass(1);
    await signUp(cls, 'v-seat@example.com');
    await join(cls, 'v-1@example.com', 'Vee One');
    await join(cls, 'v-2@example.com', 'Vee Two');
    expect((await server.api('/api/admin/waitlist')).status).toBe(401);
    const user = await createUser(server);
    expect((await server.api('/api/admin/waitlist', { headers: { cookie: user.cookie } })).status).toBe(401);
    const res = await server.api('/api/admin/waitlist', { headers: { cookie: await adminCookie(server) } });
    const rows = ((await res.json()) as { eventId: string; position: number; name: string }[]).filter((r) => r.eventId === cls.id);
    expect(rows.map((r) => [r.position, r.name])).toEqual([
      [1, 'Vee One'],
      [2, 'Vee Two'],
    ]);
  });
});
