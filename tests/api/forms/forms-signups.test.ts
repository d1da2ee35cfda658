/**
 * Class sign-up: the new student's form with waiver and signature (POST /api/signup), the
 * returning student (POST /api/check-student), the mails with their .ics, the class's
 * capacity under concurrency, past / unknown / full classes, and the admin's list.
 */
import { rowCount } from '../../helpers/row-count.ts';
import { describe, expect, it } from 'vitest';
import { resetRateLimits } from '../../../api/middleware/rate-limit.ts';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { icsTo, readMailbox } from '../../helpers/mail.ts';
import { classForm } from '../../helpers/classes.ts';
// A real 1 by 1 PNG, as a canvas's toDataURL('image/png') gives (only smaller).
import { PNG as PNG_BYTES, PNG_BASE64 as PNG_B64 } from '../../helpers/endpoints/common.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { LIMITS } from '../../../api/services/limits.ts';
import { itemAt, must } from '../../helpers/guards.ts';

// Behind a trusted proxy each X-Forwarded-For is one client (the concurrency test's visitors).
const server = useTestServer({ env: { TRUST_PROXY: '1' }, resetRateLimits: true });

const TEACHER = 'teacher@example.com';
const HUMAN = "Verification failed: we couldn't verify that you're human. Please try again.";
const EMAIL_NOT_FOUND = "This email doesn't exist in our records. Please sign up as a new student.";
/** Without the word 'already', which the island reads as "Already Signed Up". */
const PAST = 'This class has taken place. Please pick an upcoming class from the calendar.';

const zone = () => server.env.SITE_TIMEZONE;
const today = () => zonedNow(zone()).date;
let eventCounter = 0;

/** Inserts a class directly; dates are relative to today on the teacher's clocks. */
async function addClass(fields: { title?: string; inDays?: number; time?: string; capacity?: number; location?: string; isExternal?: boolean } = {}) {
  const title = fields.title ?? `Gentle Flow ${++eventCounter}`;
  const date = addDays(today(), fields.inDays ?? 7);
  const time = fields.time ?? '10:00';
  await server.services.db
    .insertInto('events')
    .values({
      title,
      date,
      time,
      startsAt: zonedInstant(date, time, zone()),
      location: fields.location ?? 'Studio One, 12 Main St',
      capacity: fields.capacity ?? 12,
      isExternal: fields.isExternal ?? false,
    })
    .execute();
  return { title, date, time };
}

const form = classForm;
const signUp = (json: unknown, headers: Record<string, string> = {}) => server.api('/api/signup', { method: 'POST', json, headers });
const checkStudent = (json: unknown) => server.api('/api/check-student', { method: 'POST', json });
const mailbox = (to: string) => readMailbox(server, to);
const signupsOf = (title: string) => server.services.db.selectFrom('classSignups').selectAll().where('classTitle', '=', title).orderBy('createdAt').execute();
const countAll = () => rowCount(server.services.db, 'classSignups');
const mailCount = () => rowCount(server.services.db, 'mails');

/** Sends each body and expects the status and message; nothing stored or mailed. */
async function expectRefused(send: (body: unknown) => Promise<Response>, cases: [unknown, number, string | RegExp][]) {
  const rows = await countAll();
  const mails = await mailCount();
  for (const [body, status, message] of cases) {
    await resetRateLimits(); // many refusals in a row here; the limit has its own test
    const res = await send(body);
    const answer = await res.json();
    expect(res.status, `${JSON.stringify(body).slice(0, 100)} -> ${answer.message}`).toBe(status);
    if (typeof message === 'string') expect(answer.message).toBe(message);
    else expect(answer.message).toMatch(message);
  }
  expect(await countAll()).toBe(rows);
  expect(await mailCount()).toBe(mails);
}

describe(`new student sign-up on ${testDbKind()}`, () => {
  it('stores the sign-up with the waiver and the signature bytes, mails the teacher and the student with an .ics', async () => {
    const cls = await addClass({ title: 'Sunrise Flow', time: '07:30', location: 'Studio One, 12 Main St; 2nd floor' });
    const res = await signUp(form(cls, { name: ' Ana Lima ', email: ' Ana@Example.com ' }));
    expect(res.status).toBe(201);
    const answer = await res.json();
    expect(answer).toEqual({ message: 'Sign up successful', _id: expect.any(String) });

    const [row] = await signupsOf('Sunrise Flow');
    expect(row).toMatchObject({
      id: answer._id,
      classTitle: 'Sunrise Flow',
      date: cls.date,
      name: 'Ana Lima',
      email: 'ana@example.com',
      phone: '123-456-7890',
      waiverAccepted: true,
    });
    expect(Buffer.from(must(row, 'row').signaturePng!).equals(PNG_BYTES)).toBe(true);
    const event = await server.services.db.selectFrom('events').select('id').where('title', '=', 'Sunrise Flow').executeTakeFirstOrThrow();
    expect(must(row, 'row').eventId).toBe(event.id);

    const when = new Intl.DateTimeFormat('en-US', { timeZone: zone(), weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(
      zonedInstant(cls.date, '07:30', zone()),
    );
    const [teacher] = await mailbox(TEACHER);
    expect(must(teacher, 'teacher').subject).toBe(`Class sign-up: Ana Lima for Sunrise Flow on ${cls.date}`);
    expect(must(teacher, 'teacher').headers['Reply-To']).toBe('ana@example.com');
    for (const part of ['Sunrise Flow', 'Ana Lima', 'ana@example.com', '123-456-7890', when]) expect(must(teacher, 'teacher').text).toContain(part);

    const student = itemAt(await mailbox('ana@example.com'), 0);
    expect(student.subject).toBe(`You're signed up: Sunrise Flow on ${when}`);
    expect(student.text).toContain(`Date: ${when}`);
    expect(student.text).toMatch(/Time: 7:30 AM P[SD]T/);
    expect(student.text).toContain('Place: Studio One, 12 Main St; 2nd floor');
    expect(student.attachments).toMatchObject([
      { filename: 'class.ics', contentType: 'text/calendar; charset=utf-8; method=PUBLISH', size: expect.any(Number) },
    ]);

    const ics = await icsTo(server, 'ana@example.com');
    const compact = cls.date.replaceAll('-', '');
    expect(ics.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(ics).toContain(`\r\nUID:${answer._id}@`);
    expect(ics).toContain(`\r\nDTSTART;TZID=America/Los_Angeles:${compact}T073000\r\n`);
    expect(ics).toContain(`\r\nDTEND;TZID=America/Los_Angeles:${compact}T083000\r\n`);
    expect(ics).toContain('\r\nSUMMARY:Sunrise Flow\r\n');
    expect(ics).toContain('\r\nLOCATION:Studio One\\, 12 Main St\\; 2nd floor\r\n');
    expect(ics).toContain('\r\nTZID:America/Los_Angeles\r\n');
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
  });

  it('refuses missing, malformed and mistyped fields, storing and mailing nothing', async () => {
    const cls = await addClass();
    const { signature: _s, ...noSignature } = form(cls);
    const { waiver: _w, ...noWaiver } = form(cls);
    await expectRefused(signUp, [
      [noSignature, 400, 'signature: Please sign your name and save your signature before submitting the form.'],
      [form(cls, { signature: '' }), 400, 'signature: Please sign your name and save your signature before submitting the form.'],
      [noWaiver, 400, 'waiver: Please read and accept the liability waiver to sign up.'],
      [form(cls, { waiver: false }), 400, 'waiver: Please read and accept the liability waiver to sign up.'],
      [form(cls, { waiver: 'true' }), 400, 'waiver: Please read and accept the liability waiver to sign up.'],
      [form(cls, { name: '' }), 400, 'name: Name is required'],
      [form(cls, { name: 'N'.repeat(101) }), 400, 'name: Name must be at most 100 characters'],
      [form(cls, { email: 'ana(at)example.com' }), 400, 'email: Please enter a valid email address.'],
      [form(cls, { phone: '' }), 400, 'phone: Phone is required'],
      [form(cls, { phone: '12' }), 400, /phone: Please enter a valid phone number/],
      [form(cls, { classTitle: '' }), 400, 'classTitle: Class is required'],
      [form(cls, { classTitle: 'C'.repeat(201) }), 400, 'classTitle: Class must be at most 200 characters'],
      [form(cls, { date: '2030-02-30' }), 400, 'date: Date is not a real date'],
      [form(cls, { date: 'next friday' }), 400, 'date: Date must look like YYYY-MM-DD'],
      [form(cls, { date: 20300101 }), 400, 'date: Date is required'],
    ]);
  });

  it('refuses a signature that is not a PNG, and one above 200 KB with 413', async () => {
    const cls = await addClass();
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1').toString('base64');
    const magicOnly = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).toString('base64');
    const big = Buffer.concat([PNG_BYTES.subarray(0, 33), Buffer.alloc(210 * 1024, 7)]).toString('base64');
    await expectRefused(signUp, [
      [form(cls, { signature: `data:image/jpeg;base64,${PNG_B64}` }), 400, /signature must be a PNG image/],
      [form(cls, { signature: PNG_B64 }), 400, /signature must be a PNG image/],
      [form(cls, { signature: `data:image/png;base64,${gif}` }), 400, /signature must be a PNG image/],
      [form(cls, { signature: `data:image/png;base64,${magicOnly}` }), 400, /signature must be a PNG image/],
      [form(cls, { signature: 'data:image/png;base64,%%%not base64%%%' }), 400, /signature must be a PNG image/],
      [form(cls, { signature: 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=' }), 400, /signature must be a PNG image/],
      [form(cls, { signature: `data:image/png;base64,${big}` }), 413, 'The signature image is too large (at most 200 KB). Please clear it and sign again.'],
    ]);
  });

  it('refuses a missing human-check token, or one issued for another action', async () => {
    const cls = await addClass();
    const { recaptchaToken: _t, ...noToken } = form(cls);
    await expectRefused(signUp, [
      [noToken, 400, HUMAN],
      [form(cls, { recaptchaToken: 'dev:contact_form_submit' }), 400, HUMAN],
      [form(cls, { recaptchaToken: 'dev:signup_form_submit ' }), 400, HUMAN],
    ]);
  });

  it('refuses an unknown, a past, an external class and a class on another date', async () => {
    const past = await addClass({ inDays: -1 });
    const external = await addClass({ isExternal: true });
    const future = await addClass();
    await expectRefused(signUp, [
      [form({ title: 'No Such Class', date: future.date }), 404, "We couldn't find this class. Please pick it again from the calendar."],
      [form({ title: future.title, date: addDays(future.date, 1) }), 404, "We couldn't find this class. Please pick it again from the calendar."],
      [form(past), 400, PAST],
      [form(external), 400, 'This class takes sign-ups through its own link on the calendar.'],
    ]);
  });

  it('refuses a class that started a minute ago', async () => {
    const now = zonedNow(zone());
    const startsAt = new Date(Date.now() - 60_000);
    await server.services.db.insertInto('events').values({ title: 'Just Started', date: now.date, time: now.time, startsAt }).execute();
    await expectRefused(signUp, [[form({ title: 'Just Started', date: now.date }), 400, PAST]]);
  });

  it('refuses the same person twice for one class, whatever the letter case (409, "already")', async () => {
    const cls = await addClass();
    expect((await signUp(form(cls, { email: 'twice@example.com' }))).status).toBe(201);
    await expectRefused(signUp, [
      [form(cls, { email: 'twice@example.com' }), 409, 'You are already signed up for this class.'],
      [form(cls, { email: 'TWICE@Example.com', name: 'Someone Else' }), 409, 'You are already signed up for this class.'],
    ]);
    expect(await signupsOf(cls.title)).toHaveLength(1);
  });

  it('refuses a full class with 409 and keeps the class at its capacity', async () => {
    const cls = await addClass({ capacity: 2 });
    expect((await signUp(form(cls, { email: 'one@example.com' }))).status).toBe(201);
    expect((await signUp(form(cls, { email: 'two@example.com' }))).status).toBe(201);
    await expectRefused(signUp, [[form(cls, { email: 'three@example.com' }), 409, 'This class is full.']]);
    expect(await signupsOf(cls.title)).toHaveLength(2);
  });

  it('never goes over capacity with 10 concurrent sign-ups for 3 places', async () => {
    const cls = await addClass({ capacity: 3 });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => signUp(form(cls, { email: `racer${i}@example.com` }), { 'x-forwarded-for': `198.51.100.${i + 1}` })),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, ...Array(7).fill(409)]);
    for (const r of answers.filter((a) => a.status === 409)) expect((await r.json()).message).toBe('This class is full.');
    expect(await signupsOf(cls.title)).toHaveLength(3);
  });

  it('stores HTML as text and escapes it in the mails', async () => {
    const cls = await addClass({ location: '<b>Hall</b>' });
    const name = '<script>alert(1)</script>';
    expect((await signUp(form(cls, { name, email: 'html@example.com' }))).status).toBe(201);
    expect(itemAt(await signupsOf(cls.title), 0).name).toBe(name);
    const [teacher] = await mailbox(TEACHER);
    const [student] = await mailbox('html@example.com');
    expect(must(teacher, 'teacher').html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    // The student's address is unproven: a name that is not a plain name is not echoed to it at all.
    expect(must(student, 'student').html).not.toContain('alert(1)');
    expect(must(student, 'student').text).toContain('See you in class!');
    for (const m of [teacher!, student!]) {
      expect(m.html).not.toContain('<script>');
      expect(m.html).not.toContain('<b>Hall');
    }
  });

  it('allows LIMITS.classSignup per client address, then answers 429', async () => {
    const cls = await addClass();
    for (let i = 0; i < LIMITS.classSignup.max; i++) expect((await signUp(form(cls, { waiver: false }))).status).toBe(400);
    const res = await signUp(form(cls, { email: 'late@example.com' }));
    expect(res.status).toBe(429);
    expect(await signupsOf(cls.title)).toHaveLength(0);
  });
});

describe(`returning student on ${testDbKind()}`, () => {
  it('signs a known student up with the name, phone and signature of the latest sign-up and sends the confirmation', async () => {
    const first = await addClass();
    const second = await addClass();
    expect((await signUp(form(first, { name: 'Rae Old', phone: '555-000-1111', email: 'rae@example.com' }))).status).toBe(201);
    // A later sign-up under a new name and phone: the latest one is reused.
    const third = await addClass();
    expect((await signUp(form(third, { name: 'Rae New', phone: '555-222-3333', email: 'rae@example.com' }))).status).toBe(201);

    const res = await checkStudent({ email: ' RAE@example.com ', classTitle: second.title, date: second.date });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Registration confirmed!', _id: expect.any(String) });
    const [row] = await signupsOf(second.title);
    expect(row).toMatchObject({ name: 'Rae New', phone: '555-222-3333', email: 'rae@example.com', waiverAccepted: true, date: second.date });
    expect(Buffer.from(must(row, 'row').signaturePng!).equals(PNG_BYTES)).toBe(true);

    const student = itemAt(await mailbox('rae@example.com'), 0);
    expect(student.subject).toContain(`You're signed up: ${second.title}`);
    expect(student.attachments.map((a) => a.filename)).toEqual(['class.ics']);
    expect(await icsTo(server, 'rae@example.com')).toContain(`DTSTART;TZID=America/Los_Angeles:${second.date.replaceAll('-', '')}T100000`);
    const teacher = itemAt(await mailbox(TEACHER), 0);
    expect(teacher.subject).toBe(`Class sign-up: Rae New for ${second.title} on ${second.date}`);
  });

  it('tells an unknown e-mail to sign up as a new student (404, "email doesn\'t exist"), also a registered client who never signed the waiver', async () => {
    const cls = await addClass();
    const client = await createUser(server, { email: 'client-no-waiver@example.com' });
    await expectRefused(checkStudent, [
      [{ email: 'stranger@example.com', classTitle: cls.title, date: cls.date }, 404, EMAIL_NOT_FOUND],
      [{ email: client.email, classTitle: cls.title, date: cls.date }, 404, EMAIL_NOT_FOUND],
    ]);
  });

  it('asks for the e-mail when it is missing, and refuses malformed ones', async () => {
    const cls = await addClass();
    await expectRefused(checkStudent, [
      [{ classTitle: cls.title, date: cls.date }, 400, 'Please enter your email address.'],
      [{ email: '   ', classTitle: cls.title, date: cls.date }, 400, 'Please enter your email address.'],
      [{ email: 'nope', classTitle: cls.title, date: cls.date }, 400, 'email: Please enter a valid email address.'],
      [{ email: 'ana@example.com', classTitle: cls.title }, 400, 'date: Date is required'],
    ]);
  });

  it('refuses an "already" with 400, and a full, past or unknown class', async () => {
    const known = await addClass();
    expect((await signUp(form(known, { email: 'kim@example.com' }))).status).toBe(201);
    const full = await addClass({ capacity: 1 });
    expect((await signUp(form(full, { email: 'first@example.com' }))).status).toBe(201);
    const past = await addClass({ inDays: -2 });
    await expectRefused(checkStudent, [
      [{ email: 'KIM@example.com', classTitle: known.title, date: known.date }, 400, 'You are already signed up for this class.'],
      [{ email: 'kim@example.com', classTitle: full.title, date: full.date }, 409, 'This class is full.'],
      [{ email: 'kim@example.com', classTitle: past.title, date: past.date }, 400, PAST],
      [
        { email: 'kim@example.com', classTitle: 'No Such Class', date: known.date },
        404,
        "We couldn't find this class. Please pick it again from the calendar.",
      ],
    ]);
  });

  it('allows LIMITS.checkStudent per client address, then answers 429', async () => {
    const cls = await addClass();
    for (let i = 0; i < LIMITS.checkStudent.max; i++)
      expect((await checkStudent({ email: `probe${i}@example.com`, classTitle: cls.title, date: cls.date })).status).toBe(404);
    const res = await checkStudent({ email: 'probe-late@example.com', classTitle: cls.title, date: cls.date });
    expect(res.status).toBe(429);
  });
});

describe(`admin sign-ups on ${testDbKind()}`, () => {
  it('refuses the list, the signature and the deletion without an admin session, also to a logged-in client', async () => {
    const cls = await addClass();
    const { _id } = await (await signUp(form(cls, { email: 'guarded@example.com' }))).json();
    const client = await createUser(server);
    for (const headers of [{}, { cookie: client.cookie }] as Record<string, string>[]) {
      expect((await server.api('/api/admin/signups', { headers })).status).toBe(401);
      expect((await server.api(`/api/admin/signups/${_id}/signature`, { headers })).status).toBe(401);
      expect((await server.api(`/api/signup/${_id}`, { method: 'DELETE', headers })).status).toBe(401);
    }
    expect(await signupsOf(cls.title)).toHaveLength(1);
  });

  it('lists sign-ups latest date first, serves the signature as a PNG and deletes a sign-up', async () => {
    const cookie = await adminCookie(server);
    const later = await addClass({ inDays: 30 });
    const sooner = await addClass({ inDays: 20 });
    const a = await (await signUp(form(later, { email: 'list-a@example.com', name: 'List A' }))).json();
    await signUp(form(sooner, { email: 'list-b@example.com', name: 'List B' }));
    // A sign-up without a signature (kept from before signatures were stored).
    await server.services.db
      .insertInto('classSignups')
      .values({ classTitle: 'Old Class', date: '2020-01-01', name: 'Old', email: 'old@example.com' })
      .execute();

    const res = await server.api('/api/admin/signups', { headers: { cookie } });
    expect(res.status).toBe(200);
    const list: { _id: string; date: string; classTitle: string; name: string; email: string; phone: string; hasSignature: boolean }[] = await res.json();
    expect(list[0]).toEqual({
      _id: a._id,
      date: later.date,
      classTitle: later.title,
      name: 'List A',
      email: 'list-a@example.com',
      phone: '123-456-7890',
      hasSignature: true,
      // The waiver published when they signed (issue 19).
      waiverRevision: 1,
      waiverHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      createdAt: expect.any(String),
    });
    expect(list.at(-1)).toMatchObject({ classTitle: 'Old Class', hasSignature: false, waiverRevision: null });
    const dates = list.map((s) => s.date);
    expect([...dates].sort().reverse()).toEqual(dates);

    const png = await server.api(`/api/admin/signups/${a._id}/signature`, { headers: { cookie } });
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await png.arrayBuffer()).equals(PNG_BYTES)).toBe(true);
    const old = list.at(-1)!;
    expect((await server.api(`/api/admin/signups/${old._id}/signature`, { headers: { cookie } })).status).toBe(404);

    const del = await server.api(`/api/signup/${a._id}`, { method: 'DELETE', headers: { cookie } });
    expect(del.status).toBe(200);
    expect(await signupsOf(later.title)).toHaveLength(0);
    expect((await server.api(`/api/signup/${a._id}`, { method: 'DELETE', headers: { cookie } })).status).toBe(404);
    // The place is free again.
    expect((await signUp(form(later, { email: 'list-a@example.com' }))).status).toBe(201);
  });
});
