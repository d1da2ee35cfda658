/**
 * The newsletter: subscribe (one row per address whatever the letter case, even under
 * concurrency), the welcome mail with its signed unsubscribe link and RFC 8058 headers,
 * unsubscribe by e-mail, by token and by one-click POST, and the admin's list.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import type { MailboxEntry } from '../../../api/services/mail/mailbox.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { LIMITS } from '../../../api/services/limits.ts';
import { must } from '../../helpers/guards.ts';

// Behind a trusted proxy each X-Forwarded-For is one client: the concurrency test sends as
// 20 visitors, so the per-client limit doesn't decide the outcome.
const server = useTestServer({ env: { TRUST_PROXY: '1' }, resetRateLimits: true });

const ALREADY = 'This email is already on our list.';
const UNSUBSCRIBED = "You’ve been unsubscribed successfully. I'm sorry to see you go!";

const mailbox = (to: string) => readMailbox(server, to);
const emails = async () => (await server.services.db.selectFrom('subscribers').select('email').orderBy('email').execute()).map((r) => r.email);
const subscribe = (email: unknown, headers: Record<string, string> = {}) =>
  server.api('/api/subscribers/subscribe', { method: 'POST', json: { email }, headers });
const unsubscribe = (json: unknown) => server.api('/api/subscribers/unsubscribe', { method: 'POST', json });
/** Path and query of a link in a mail (SITE_URL's port is not the test server's). */
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};
const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

async function welcomeFor(email: string): Promise<{ mail: MailboxEntry; page: string; oneClick: string }> {
  const [mail] = await mailbox(email);
  expect(mail, `welcome mail to ${email}`).toBeDefined();
  const page = must(mail, 'mail').links.find((l) => l.includes('/unsubscribe?token='))!;
  const oneClick = must(/^<([^>]+)>/.exec(must(mail, 'mail').headers['List-Unsubscribe']!), "a match in mail.headers['List-Unsubscrib…")[1]!;
  return { mail: mail!, page, oneClick };
}

describe(`subscribe on ${testDbKind()}`, () => {
  it('adds the address lower-cased and sends a welcome mail with a signed unsubscribe link and the RFC 8058 headers', async () => {
    const res = await subscribe('  Mia.Rossi@Example.COM ');
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ message: 'Thanks for signing up!' });
    expect(await emails()).toEqual(['mia.rossi@example.com']);

    const { mail, page, oneClick } = await welcomeFor('mia.rossi@example.com');
    // Her yoga brand from the published site content (issue 20).
    expect(mail.subject).toBe('Welcome to the Maya Linden Yoga newsletter');
    expect(page).toMatch(new RegExp(`^${server.env.SITE_URL}/unsubscribe\\?token=[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`));
    expect(mail.html).toContain(`<a href="${page}"`);
    expect(mail.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.headers['List-Unsubscribe']).toBe(
      `<${server.env.SITE_URL}/api/subscribers/one-click?token=${tokenOf(page)}>, <mailto:teacher@example.com?subject=Unsubscribe>`,
    );
    expect(oneClick.startsWith(`${server.env.SITE_URL}/api/subscribers/one-click?token=`)).toBe(true);
  });

  it("answers 409 with the spec's message for an address on the list, whatever the letter case, and sends nothing", async () => {
    await subscribe('lee@example.com');
    for (const again of ['lee@example.com', 'LEE@EXAMPLE.COM', ' Lee@Example.com ']) {
      const res = await subscribe(again);
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ message: ALREADY });
    }
    expect((await emails()).filter((e) => e === 'lee@example.com')).toHaveLength(1);
    expect(await mailbox('lee@example.com')).toHaveLength(1);
  });

  it('makes one row and one welcome mail from 20 concurrent identical subscriptions', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => subscribe(i % 2 ? 'RACE@example.com' : 'race@Example.com', { 'x-forwarded-for': `203.0.113.${i + 1}` })),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(19).fill(409)]);
    expect((await emails()).filter((e) => e === 'race@example.com')).toHaveLength(1);
    expect(await mailbox('race@example.com')).toHaveLength(1);
  });

  it('refuses an empty, malformed or non-text address, storing nothing', async () => {
    const before = await emails();
    const cases: [unknown, string][] = [
      ['', 'email: Email is required'],
      ['   ', 'email: Email is required'],
      [undefined, 'email: Email is required'],
      ['no-at-sign.example.com', 'email: Please enter a valid email address.'],
      ['two words@example.com', 'email: Please enter a valid email address.'],
      [`${'a'.repeat(250)}@example.com`, 'email: Email is too long'],
      [['a@example.com'], 'email: Email is required'],
    ];
    for (const [email, message] of cases) {
      const res = await subscribe(email);
      expect(res.status, String(email)).toBe(400);
      expect((await res.json()).message).toBe(message);
    }
    expect(await emails()).toEqual(before);
  });

  it('allows LIMITS.subscribe per client address, then answers 429', async () => {
    for (let i = 0; i < LIMITS.subscribe.max; i++) expect((await subscribe(`limit-${i}@example.com`)).status).toBe(201);
    const res = await subscribe('limit-late@example.com');
    expect(res.status).toBe(429);
    expect(await emails()).not.toContain('limit-late@example.com');
  });
});

describe(`unsubscribe on ${testDbKind()}`, () => {
  it('removes the address given by e-mail, whatever the letter case', async () => {
    await subscribe('by-email@example.com');
    const res = await unsubscribe({ email: 'By-Email@Example.com' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: UNSUBSCRIBED });
    expect(await emails()).not.toContain('by-email@example.com');
  });

  it("answers the same for an address that is not on the list, so the page can't probe the list", async () => {
    const before = await emails();
    const res = await unsubscribe({ email: 'never-subscribed@example.com' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: UNSUBSCRIBED });
    expect(await emails()).toEqual(before);
  });

  it('says "no email provided" when neither an e-mail nor a token is given', async () => {
    for (const body of [{}, { email: '' }, { email: '  ', token: '' }, null]) {
      const res = await unsubscribe(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).message).toBe('Invalid request. No email provided.');
    }
  });

  it("removes the address of the signed token from the welcome mail's link, and only with an intact token", async () => {
    await subscribe('by-token@example.com');
    await subscribe('bystander@example.com');
    const token = tokenOf((await welcomeFor('by-token@example.com')).page);
    const other = tokenOf((await welcomeFor('bystander@example.com')).page);

    // A token whose payload names another address, or whose signature is altered, does nothing.
    const [payload, signature] = token.split('.') as [string, string];
    const [otherPayload] = other.split('.') as [string];
    const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
    for (const bad of [`${otherPayload}.${signature}`, `${payload}.${flipped}`, `${payload}.`, 'not-a-token', `${payload}.${signature}.x`]) {
      const res = await unsubscribe({ token: bad });
      expect(res.status, bad).toBe(400);
      expect((await res.json()).message).toMatch(/unsubscribe link is not valid/);
    }
    expect(await emails()).toEqual(expect.arrayContaining(['by-token@example.com', 'bystander@example.com']));

    const res = await unsubscribe({ token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: UNSUBSCRIBED });
    expect(await emails()).not.toContain('by-token@example.com');
    expect(await emails()).toContain('bystander@example.com');
  });

  it('unsubscribes with the one-click POST a mail provider sends (RFC 8058: form-encoded, no Origin)', async () => {
    await subscribe('one-click@example.com');
    const { oneClick } = await welcomeFor('one-click@example.com');
    const res = await server.api(local(oneClick), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect(await emails()).not.toContain('one-click@example.com');
  });

  it('unsubscribes with an empty one-click POST too, and refuses a bad token with 400', async () => {
    await subscribe('one-click-empty@example.com');
    const { oneClick } = await welcomeFor('one-click-empty@example.com');
    const bad = await server.api(`/api/subscribers/one-click?token=${tokenOf(oneClick)}x`, { method: 'POST' });
    expect(bad.status).toBe(400);
    const missing = await server.api('/api/subscribers/one-click', { method: 'POST' });
    expect(missing.status).toBe(400);
    expect(await emails()).toContain('one-click-empty@example.com');

    const res = await server.api(local(oneClick), { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: UNSUBSCRIBED });
    expect(await emails()).not.toContain('one-click-empty@example.com');
    // Unsubscribing twice is harmless.
    expect((await server.api(local(oneClick), { method: 'POST' })).status).toBe(200);
  });

  it('does not unsubscribe on a GET of the one-click URL (link scanners prefetch links)', async () => {
    await subscribe('scanner@example.com');
    const { oneClick } = await welcomeFor('scanner@example.com');
    const res = await server.api(local(oneClick));
    // The one-click address takes POST only (RFC 8058): a GET is told so (405, issue 47) and changes nothing.
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await emails()).toContain('scanner@example.com');
  });
});

describe(`admin subscribers on ${testDbKind()}`, () => {
  it('refuses the list and the deletion without an admin session, also to a logged-in client', async () => {
    await subscribe('guarded@example.com');
    const row = await server.services.db.selectFrom('subscribers').select('id').where('email', '=', 'guarded@example.com').executeTakeFirstOrThrow();
    const client = await createUser(server);
    for (const headers of [{}, { cookie: client.cookie }] as Record<string, string>[]) {
      expect((await server.api('/api/admin/subscribers', { headers })).status).toBe(401);
      expect((await server.api(`/api/admin/subscribers/${row.id}`, { method: 'DELETE', headers })).status).toBe(401);
    }
    expect(await emails()).toContain('guarded@example.com');
  });

  it('lists subscribers newest first as {_id, email, subscribedAt} and deletes one', async () => {
    const cookie = await adminCookie(server);
    await server.services.db
      .insertInto('subscribers')
      .values({ email: 'older@example.com', subscribedAt: new Date('2020-01-01T00:00:00Z') })
      .execute();
    await subscribe('newest@example.com');
    const res = await server.api('/api/admin/subscribers', { headers: { cookie } });
    expect(res.status).toBe(200);
    const list: { _id: string; email: string; subscribedAt: string }[] = await res.json();
    expect(list[0]).toEqual({ _id: expect.any(String), email: 'newest@example.com', subscribedAt: expect.any(String) });
    expect(list.at(-1)).toMatchObject({ email: 'older@example.com', subscribedAt: '2020-01-01T00:00:00.000Z' });
    const times = list.map((s) => Date.parse(s.subscribedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(list).toHaveLength((await emails()).length);

    const target = list.find((s) => s.email === 'older@example.com')!;
    const del = await server.api(`/api/admin/subscribers/${target._id}`, { method: 'DELETE', headers: { cookie } });
    expect(del.status).toBe(200);
    expect(await emails()).not.toContain('older@example.com');
    const again = await server.api(`/api/admin/subscribers/${target._id}`, { method: 'DELETE', headers: { cookie } });
    expect(again.status).toBe(404);
    expect((await server.api('/api/admin/subscribers/bad%20id', { method: 'DELETE', headers: { cookie } })).status).toBe(400);
  });
});
