/**
 * Students give class places back (issue 15): by the signed link of the confirmation mail (GET
 * shows, only POST frees; forged or foreign tokens refused; idempotent; not after the start),
 * from the dashboard (another user's session refused), the day-before reminders sent once
 * however many checks run, and the public calendar feed parsed by ical.js across a DST change.
 */
import { describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import { signToken } from '../../../api/lib/signed-token.ts';
import { sendDueClassReminders } from '../../../api/classes/reminders.ts';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { classForm } from '../../helpers/classes.ts';
import { createUser } from '../../helpers/auth.ts';
import { itemAt, must } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });

const TEACHER = 'teacher@example.com';
const HOUR = 3_600_000;
const zone = () => server.env.SITE_TIMEZONE;
let counter = 0;

async function addClass(fields: { inDays?: number; date?: string; time?: string; capacity?: number; startsAt?: Date } = {}) {
  const title = `Slow Flow ${++counter}`;
  const date = fields.date ?? addDays(zonedNow(zone()).date, fields.inDays ?? 7);
  const time = fields.time ?? '10:00';
  const startsAt = fields.startsAt ?? zonedInstant(date, time, zone());
  const row = await server.services.db
    .insertInto('events')
    .values({ title, date, time, startsAt, location: 'Studio One', capacity: fields.capacity ?? 12 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, title, date, time, startsAt };
}

async function signUp(cls: { title: string; date: string }, email: string) {
  const res = await server.api('/api/signup', {
    method: 'POST',
    json: classForm(cls, { email }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { _id: string })._id;
}

/** The give-back link of the newest mail to `email` whose subject starts with `subject`. */
async function giveBackToken(email: string, subject = "You're signed up") {
  const mail = (await readMailbox(server, email)).find((m) => m.subject.startsWith(subject));
  expect(mail, `a mail "${subject}…" to ${email}`).toBeDefined();
  const link = must(mail, 'mail').links.find((l) => l.includes('/class-cancel?token='));
  expect(link).toBeDefined();
  return new URL(link!).searchParams.get('token')!;
}

const signupExists = async (id: string) => Boolean(await server.services.db.selectFrom('classSignups').select('id').where('id', '=', id).executeTakeFirst());
const cancelByLink = (token: unknown) => server.api('/api/class-places/cancel', { method: 'POST', json: { token } });

describe(`giving a class place back by the mail's link on ${testDbKind()}`, () => {
  it('shows the place on GET without changing anything, frees it on POST, and says so again on a second POST', async () => {
    const cls = await addClass();
    const id = await signUp(cls, 'give@example.com');
    const token = await giveBackToken('give@example.com');

    for (let i = 0; i < 2; i++) {
      const shown = await server.api(`/api/class-places?token=${encodeURIComponent(token)}`);
      expect(shown.status).toBe(200);
      expect(await shown.json()).toMatchObject({ _id: id, classTitle: cls.title, date: cls.date, time: '10:00', location: 'Studio One', canGiveBack: true });
    }
    expect(await signupExists(id)).toBe(true);

    const res = await cancelByLink(token);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Your place is given back. Thank you for letting me know!', alreadyGivenBack: false });
    expect(await signupExists(id)).toBe(false);
    const status = await (await server.api(`/api/class-status?classTitle=${encodeURIComponent(cls.title)}&date=${cls.date}`)).json();
    expect(status.taken).toBe(0);
    expect((await readMailbox(server, TEACHER)).some((m) => m.subject.startsWith('Place given back: Ana Lima for ' + cls.title))).toBe(true);

    const again = await cancelByLink(token);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ message: 'This place has been given back already: nothing more to do.', alreadyGivenBack: true });
    expect((await server.api(`/api/class-places?token=${encodeURIComponent(token)}`)).status).toBe(404);
  });

  it('refuses a forged token, a token for another link and one for another place, changing nothing', async () => {
    const cls = await addClass();
    const mine = await signUp(cls, 'mine@example.com');
    const token = await giveBackToken('mine@example.com');
    const [payload, sig] = token.split('.') as [string, string];
    const other = await signUp(cls, 'other@example.com');
    const forgedForOther = `${Buffer.from(other).toString('base64url')}.${sig}`;
    const wrongPurpose = signToken(server.env.APP_SECRET, 'class-waitlist-leave', mine);
    const wrongSecret = signToken('another-secret-another-secret-another', 'class-give-back', mine);
    for (const bad of [forgedForOther, wrongPurpose, wrongSecret, `${payload}.${sig}x`, '', 'nope', 42]) {
      const res = await cancelByLink(bad);
      expect(res.status, String(bad)).toBe(400);
    }
    expect((await server.api(`/api/class-places?token=${encodeURIComponent(wrongPurpose)}`)).status).toBe(400);
    expect(await signupExists(mine)).toBe(true);
    expect(await signupExists(other)).toBe(true);
  });

  it('does not give back a place once the class has started', async () => {
    const cls = await addClass({ startsAt: new Date(Date.now() - 10 * 60_000), date: zonedNow(zone()).date });
    const row = await server.services.db
      .insertInto('classSignups')
      .values({ eventId: cls.id, classTitle: cls.title, date: cls.date, name: 'Late Lu', email: 'late@example.com', waiverAccepted: true, signaturePng: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const token = signToken(server.env.APP_SECRET, 'class-give-back', row.id);
    expect(await (await server.api(`/api/class-places?token=${encodeURIComponent(token)}`)).json()).toMatchObject({ canGiveBack: false });
    const res = await cancelByLink(token);
    expect(res.status).toBe(409);
    expect((await res.json()).message).toMatch(/has started, so its place can't be given back online/);
    expect(await signupExists(row.id)).toBe(true);
  });
});

describe(`class places on the dashboard on ${testDbKind()}`, () => {
  it("lists the account's upcoming places and gives one back; another user's session is refused", async () => {
    const cls = await addClass();
    const later = await addClass({ inDays: 9 });
    const ana = await createUser(server, { email: 'dash-ana@example.com' });
    const bo = await createUser(server, { email: 'dash-bo@example.com' });
    const first = await signUp(cls, ana.email);
    const second = await signUp(later, ana.email);
    await signUp(cls, bo.email);

    const list = await server.api(`/api/user/${ana.id}/classes`, { headers: { cookie: ana.cookie } });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { _id: string; classTitle: string }[]).map((p) => [p._id, p.classTitle])).toEqual([
      [first, cls.title],
      [second, later.title],
    ]);

    // Bo's session on Ana's address, and Bo's own address with Ana's place: refused, nothing changes.
    expect((await server.api(`/api/user/${ana.id}/classes`, { headers: { cookie: bo.cookie } })).status).toBe(403);
    expect((await server.api(`/api/user/${ana.id}/classes/${first}/cancel`, { method: 'POST', headers: { cookie: bo.cookie } })).status).toBe(403);
    const notHers = await server.api(`/api/user/${bo.id}/classes/${first}/cancel`, { method: 'POST', headers: { cookie: bo.cookie } });
    expect(notHers.status).toBe(404);
    expect((await server.api(`/api/user/${ana.id}/classes`)).status).toBe(401);
    expect(await signupExists(first)).toBe(true);

    const res = await server.api(`/api/user/${ana.id}/classes/${first}/cancel`, { method: 'POST', headers: { cookie: ana.cookie } });
    expect(res.status).toBe(200);
    expect((await res.json()).alreadyGivenBack).toBe(false);
    expect(await signupExists(first)).toBe(false);
    const again = await server.api(`/api/user/${ana.id}/classes/${first}/cancel`, { method: 'POST', headers: { cookie: ana.cookie } });
    expect(again.status).toBe(404);
    expect((await again.json()).message).toBe('This class place is not on your account (any more): it may have been given back already.');
    const after = (await (await server.api(`/api/user/${ana.id}/classes`, { headers: { cookie: ana.cookie } })).json()) as { _id: string }[];
    expect(after.map((p) => p._id)).toEqual([second]);
  });
});

describe(`class reminders on ${testDbKind()}`, () => {
  it('sends each student one reminder the day before, with the time in the teacher zone and the give-back link, however many checks run', async () => {
    await server.services.db.deleteFrom('classSignups').execute();
    const cls = await addClass({ inDays: 5, time: '18:30' });
    await signUp(cls, 'rem-a@example.com');
    await signUp(cls, 'rem-b@example.com');
    const far = new Date(cls.startsAt.getTime() - 30 * HOUR);
    expect(await sendDueClassReminders(server.services, far)).toBe(0);
    const dayBefore = new Date(cls.startsAt.getTime() - 12 * HOUR);
    const runs = await Promise.all(Array.from({ length: 5 }, () => sendDueClassReminders(server.services, dayBefore)));
    expect(runs.reduce((a, b) => a + b, 0)).toBe(2);
    for (const email of ['rem-a@example.com', 'rem-b@example.com']) {
      const reminders = (await readMailbox(server, email)).filter((m) => m.subject.startsWith('Reminder:'));
      expect(reminders).toHaveLength(1);
      expect(itemAt(reminders, 0).subject).toMatch(new RegExp(`^Reminder: ${cls.title} tomorrow, 6:30 PM P[SD]T$`));
      expect(itemAt(reminders, 0).links.some((l) => l.includes('/class-cancel?token='))).toBe(true);
    }
    expect(await sendDueClassReminders(server.services, new Date(dayBefore.getTime() + HOUR))).toBe(0);
  });
});

describe(`the public class feed GET /calendar.ics on ${testDbKind()}`, () => {
  it('lists upcoming classes with stable UIDs and the right instants on each side of a DST change', async () => {
    // America/Los_Angeles springs forward on 2027-03-14: 10:00 is 18:00Z before, 17:00Z after.
    expect(zone()).toBe('America/Los_Angeles');
    const before = await addClass({ date: '2027-03-12', time: '10:00' });
    const after = await addClass({ date: '2027-03-15', time: '10:00' });
    const past = await addClass({ startsAt: new Date(Date.now() - 2 * HOUR), date: zonedNow(zone()).date });

    const res = await server.api('/calendar.ics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/calendar/);
    const text = await res.text();
    const calendar = new ICAL.Component(ICAL.parse(text));
    const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    const byTitle = new Map(events.map((e) => [e.summary, e]));
    const host = new URL(server.env.SITE_URL).host;
    expect(must(byTitle.get(before.title), 'byTitle.get(before.title)').uid).toBe(`class-${before.id}@${host}`);
    expect(must(byTitle.get(before.title), 'byTitle.get(before.title)').startDate.toJSDate().toISOString()).toBe('2027-03-12T18:00:00.000Z');
    expect(must(byTitle.get(after.title), 'byTitle.get(after.title)').startDate.toJSDate().toISOString()).toBe('2027-03-15T17:00:00.000Z');
    expect(must(byTitle.get(after.title), 'byTitle.get(after.title)').endDate.toJSDate().toISOString()).toBe('2027-03-15T18:00:00.000Z');
    expect(byTitle.has(past.title)).toBe(false);
    expect(calendar.getFirstPropertyValue('x-wr-timezone')).toBe('America/Los_Angeles');

    // Fetched again: the same UIDs.
    const again = new ICAL.Component(ICAL.parse(await (await server.api('/calendar.ics')).text()));
    expect(again.getAllSubcomponents('vevent').map((v) => v.getFirstPropertyValue('uid'))).toEqual(events.map((e) => e.uid));
  });
});
