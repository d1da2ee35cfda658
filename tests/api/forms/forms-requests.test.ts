/**
 * The home page's free-meeting request (POST /api/publicBookings/request) and the contact form
 * (POST /api/contact): stored rows, the teacher's and the visitor's mails, validation, the human
 * check per action, and the rate limits.
 */
import { rowCount } from '../../helpers/row-count.ts';
import { describe, expect, it } from 'vitest';
import { resetRateLimits } from '../../../api/middleware/rate-limit.ts';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { MAIL_DOWN, withMailerDown, readMailbox } from '../../helpers/mail.ts';
import { LIMITS } from '../../../api/services/limits.ts';
import { itemAt, must } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });

const TEACHER = 'teacher@example.com';
const HUMAN = "Verification failed: we couldn't verify that you're human. Please try again.";

const mailbox = (to?: string) => readMailbox(server, to);
const count = (table: 'bookingRequests' | 'contactMessages') => rowCount(server.services.db, table);
const post = (path: string, json: unknown) => server.api(path, { method: 'POST', json });

/** Sends each body, expects 400, and checks that nothing was stored or mailed. */
async function expectRefused(path: string, table: 'bookingRequests' | 'contactMessages', bodies: [unknown, RegExp | string][]) {
  const rowsBefore = Number(await count(table));
  const mailsBefore = (await mailbox()).length;
  for (const [body, message] of bodies) {
    await resetRateLimits(); // many refusals in a row here; the limit has its own test
    const res = await post(path, body);
    expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(400);
    const answer = await res.json();
    if (typeof message === 'string') expect(answer.message).toBe(message);
    else expect(answer.message).toMatch(message);
  }
  expect(Number(await count(table))).toBe(rowsBefore);
  expect((await mailbox()).length).toBe(mailsBefore);
}

describe(`free-meeting request on ${testDbKind()}`, () => {
  const valid = {
    name: '  Ana Lima ',
    email: ' Ana.Lima@Example.COM ',
    phone: '123-456-7890',
    sessionType: 'yoga therapy',
    message: 'Back pain after long days at the desk.\nEvenings work best.',
    captchaToken: 'dev:book_request',
  };

  it('stores the request, mails the teacher every field (reply goes to the visitor) and confirms to the visitor', async () => {
    const res = await post('/api/publicBookings/request', valid);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Your form has been submitted successfully.' });

    const rows = await server.services.db.selectFrom('bookingRequests').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      name: 'Ana Lima',
      email: 'ana.lima@example.com',
      phone: '123-456-7890',
      sessionType: 'yoga therapy',
      message: valid.message,
    });

    const [teacher] = await mailbox(TEACHER);
    expect(must(teacher, 'teacher').subject).toBe('Free meeting request from Ana Lima (yoga therapy)');
    expect(must(teacher, 'teacher').headers['Reply-To']).toBe('ana.lima@example.com');
    for (const part of ['Ana Lima', 'ana.lima@example.com', '123-456-7890', 'yoga therapy', 'Back pain after long days at the desk.']) {
      expect(must(teacher, 'teacher').text).toContain(part);
    }

    const visitor = await mailbox('ana.lima@example.com');
    expect(visitor).toHaveLength(1);
    expect(itemAt(visitor, 0).subject).toBe('Your free 30-minute meeting request was received');
    expect(itemAt(visitor, 0).text).toContain('free 30-minute online meeting about yoga therapy');
  });

  it('accepts a request without a message', async () => {
    const { message: _omit, ...rest } = valid;
    const res = await post('/api/publicBookings/request', { ...rest, email: 'no-message@example.com' });
    expect(res.status).toBe(200);
    const row = await server.services.db
      .selectFrom('bookingRequests')
      .select('message')
      .where('email', '=', 'no-message@example.com')
      .executeTakeFirstOrThrow();
    expect(row.message).toBe('');
  });

  it('refuses missing, malformed, mistyped and overlong fields, storing and mailing nothing', async () => {
    const { name: _n, ...noName } = valid;
    await expectRefused('/api/publicBookings/request', 'bookingRequests', [
      [noName, 'name: Name is required'],
      [{ ...valid, name: '   ' }, 'name: Name is required'],
      [{ ...valid, email: 'ana@' }, 'email: Please enter a valid email address.'],
      [{ ...valid, email: 'ana lima@example.com' }, 'email: Please enter a valid email address.'],
      [{ ...valid, phone: '' }, 'phone: Phone is required'],
      [{ ...valid, phone: 'call me maybe' }, /phone: Please enter a valid phone number/],
      [{ ...valid, sessionType: 'massage' }, 'sessionType: Please choose a session type.'],
      [{ ...valid, sessionType: undefined }, 'sessionType: Please choose a session type.'],
      [{ ...valid, name: 42 }, 'name: Name is required'],
      [{ ...valid, message: ['a'] }, 'message: Message must be text'],
      [{ ...valid, name: 'A'.repeat(101) }, 'name: Name must be at most 100 characters'],
      [{ ...valid, name: 'Ana\nBcc: x@example.com' }, 'name: Name must be on one line'],
      [{ ...valid, message: 'x'.repeat(2001) }, 'message: Message must be at most 2000 characters'],
      [[valid], /Invalid input|expected object/],
    ]);
  });

  it('refuses a missing human-check token, or one issued for another action', async () => {
    const { captchaToken: _t, ...noToken } = valid;
    await expectRefused('/api/publicBookings/request', 'bookingRequests', [
      [noToken, HUMAN],
      [{ ...valid, captchaToken: '' }, HUMAN],
      [{ ...valid, captchaToken: 'dev:contact_form_submit' }, HUMAN],
      [{ ...valid, captchaToken: 'book_request' }, HUMAN],
    ]);
  });

  it('stores HTML as text and escapes it in the mails', async () => {
    const res = await post('/api/publicBookings/request', {
      ...valid,
      email: 'html@example.com',
      name: '<img src=x onerror=alert(1)>',
      message: '<script>alert("hi")</script> & <b>bold</b>',
    });
    expect(res.status).toBe(200);
    const row = await server.services.db
      .selectFrom('bookingRequests')
      .select(['name', 'message'])
      .where('email', '=', 'html@example.com')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: '<img src=x onerror=alert(1)>', message: '<script>alert("hi")</script> & <b>bold</b>' });
    const teacher = itemAt(await mailbox(TEACHER), 0);
    expect(teacher.html).toContain('&lt;script&gt;alert(&quot;hi&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
    expect(teacher.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(teacher.html).not.toContain('<script>');
    expect(teacher.html).not.toContain('<img');
    const visitor = itemAt(await mailbox('html@example.com'), 0);
    expect(visitor.html).not.toContain('<img');
  });

  it('keeps the request and answers success when the mail service fails', async () => {
    await withMailerDown(server, async (logged) => {
      const res = await post('/api/publicBookings/request', { ...valid, email: 'mail-down@example.com' });
      expect(res.status).toBe(200);
      expect(logged).toHaveBeenCalledWith(expect.stringContaining('[mail] could not send'), MAIL_DOWN);
    });
    const rows = await server.services.db.selectFrom('bookingRequests').select('id').where('email', '=', 'mail-down@example.com').execute();
    expect(rows).toHaveLength(1);
  });

  it('allows LIMITS.meetingRequest per client address, refused ones included, then answers 429', async () => {
    for (let i = 0; i < LIMITS.meetingRequest.max; i++) expect((await post('/api/publicBookings/request', { ...valid, email: 'bad' })).status).toBe(400);
    const before = Number(await count('bookingRequests'));
    const res = await post('/api/publicBookings/request', { ...valid, email: 'late@example.com' });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await res.json()).message).toMatch(/Too many requests/);
    expect(Number(await count('bookingRequests'))).toBe(before);
    expect(await mailbox('late@example.com')).toEqual([]);
  });
});

describe(`contact form on ${testDbKind()}`, () => {
  const valid = { name: 'Bo Chen', email: 'Bo@Example.com', message: 'Do you make vegan chocolates?', recaptchaToken: 'dev:contact_form_submit' };

  it('stores the message, mails the teacher (reply goes to the visitor) and confirms to the visitor', async () => {
    const res = await post('/api/contact', valid);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Message sent successfully!' });

    const rows = await server.services.db.selectFrom('contactMessages').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'Bo Chen', email: 'bo@example.com', message: 'Do you make vegan chocolates?' });

    const teacher = itemAt(await mailbox(TEACHER), 0);
    expect(teacher.subject).toBe('Message from Bo Chen through the contact form');
    expect(teacher.headers['Reply-To']).toBe('bo@example.com');
    expect(teacher.text).toContain('Do you make vegan chocolates?');
    expect(teacher.text).toContain('bo@example.com');

    const visitor = await mailbox('bo@example.com');
    expect(visitor).toHaveLength(1);
    expect(itemAt(visitor, 0).subject).toBe('Thank you for your message');
    // The confirmation doesn't echo the sender's text (no relay for someone else's words).
    expect(itemAt(visitor, 0).text).not.toContain('vegan');
  });

  it('refuses missing and invalid fields, storing and mailing nothing', async () => {
    const { message: _m, ...noMessage } = valid;
    await expectRefused('/api/contact', 'contactMessages', [
      [noMessage, 'message: Message is required'],
      [{ ...valid, message: ' \n ' }, 'message: Message is required'],
      [{ ...valid, name: '' }, 'name: Name is required'],
      [{ ...valid, email: '' }, 'email: Email is required'],
      [{ ...valid, email: 'bo@example' }, 'email: Please enter a valid email address.'],
      [{ ...valid, message: 'x'.repeat(5001) }, 'message: Message must be at most 5000 characters'],
      [{ ...valid, message: 'bell \u0007' }, 'message: Message contains characters that are not allowed'],
    ]);
  });

  it('refuses a missing human-check token, or one issued for another action', async () => {
    const { recaptchaToken: _t, ...noToken } = valid;
    await expectRefused('/api/contact', 'contactMessages', [
      [noToken, HUMAN],
      [{ ...valid, recaptchaToken: 'dev:signup_form_submit' }, HUMAN],
      [{ ...valid, recaptchaToken: 123 }, 'recaptchaToken: Verification token must be text'],
    ]);
  });

  it('refuses a form-encoded post before the handler', async () => {
    const before = Number(await count('contactMessages'));
    const res = await server.api('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...valid }).toString(),
    });
    expect(res.status).toBe(415);
    expect(Number(await count('contactMessages'))).toBe(before);
  });

  it('allows LIMITS.contact per client address, then answers 429', async () => {
    for (let i = 0; i < LIMITS.contact.max; i++) expect((await post('/api/contact', { ...valid, message: '' })).status).toBe(400);
    const before = Number(await count('contactMessages'));
    const res = await post('/api/contact', valid);
    expect(res.status).toBe(429);
    expect(Number(await count('contactMessages'))).toBe(before);
  });
});
