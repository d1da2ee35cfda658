/**
 * Client accounts over HTTP: register and log in by mailed link (answers that never tell which
 * e-mails exist), the links' single use and expiry (also under concurrency), the cookie
 * session's validate / refresh / logout, and the account page's own-id rule and field rules.
 */
import { describe, expect, it } from 'vitest';
import { resetRateLimits } from '../../../api/middleware/rate-limit.ts';
import { hashToken, sessionIdOf } from '../../../api/middleware/sessions.ts';
import { issueLoginToken, redeemLoginToken } from '../../../api/accounts/login-tokens.ts';
import type { Mailer } from '../../../api/services/mail/index.ts';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { createUser } from '../../helpers/auth.ts';
import { LOGIN_INVALID, LOGIN_SENT, PROFILE_UPDATED, REGISTERED, VERIFIED, VERIFY_FAILED } from '../../helpers/spec-words.ts';
import { LIMITS, TOO_MANY_MAILS } from '../../../api/services/limits.ts';
import { itemAt, must } from '../../helpers/guards.ts';

// Behind a trusted proxy each X-Forwarded-For is one client (the rate-limit test's visitors).
const server = useTestServer({ env: { TRUST_PROXY: '1' }, resetRateLimits: true });

let counter = 0;
const freshEmail = (tag = 'client') => `${tag}-${++counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;

const post = (path: string, json: unknown, headers: Record<string, string> = {}) => server.api(path, { method: 'POST', json, headers });
const mailbox = (to: string) => readMailbox(server, to);
const site = () => server.env.SITE_URL;

/** The one link of the newest mail to `to` that starts with `prefix`. */
async function linkTo(to: string, prefix: string): Promise<string> {
  const [newest] = await mailbox(to);
  const link = newest?.links.find((l) => l.startsWith(prefix));
  if (!link) throw new Error(`no ${prefix} link in the newest mail to ${to}: ${JSON.stringify(newest?.links)}`);
  return link;
}
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

/** The `yc_user=...` pair a Set-Cookie header gives, and the whole header. */
function sessionCookie(res: Response): { pair: string; header: string } | undefined {
  const header = res.headers.getSetCookie().find((h) => h.startsWith('yc_user='));
  return header ? { pair: header.split(';')[0]!, header } : undefined;
}

const userByEmail = (email: string) => server.services.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
const sessionsOf = (userId: string) => server.services.db.selectFrom('userSessions').selectAll().where('userId', '=', userId).execute();

async function register(email: string, names = { firstName: 'Ana', lastName: 'Lima' }) {
  return post('/api/user/register', { ...names, email, recaptchaToken: 'dev:register' });
}

describe(`register and verify the e-mail on ${testDbKind()}`, () => {
  it('creates an unverified account and mails a verification link; no token in the answer', async () => {
    const email = freshEmail();
    const res = await register(` ${email.toUpperCase()} `, { firstName: ' Ana ', lastName: 'Lima' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: REGISTERED });
    expect(sessionCookie(res)).toBeUndefined();

    const user = await userByEmail(email);
    expect(user).toMatchObject({ email, firstName: 'Ana', lastName: 'Lima', emailVerifiedAt: null });

    const mail = itemAt(await mailbox(email), 0);
    expect(mail.subject).toContain('Verify your email');
    const link = await linkTo(email, `${site()}/verify-email?token=`);
    const token = tokenOf(link);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes
    // Only the hash is stored.
    const rows = await server.services.db.selectFrom('loginTokens').selectAll().where('userId', '=', must(user, 'user').id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: hashToken(token), purpose: 'verify_email', usedAt: null });
    const ttl = new Date(itemAt(rows, 0).expiresAt).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000 + 5_000);
  });

  it('answers a known e-mail exactly like a new one, mails its owner a login link and changes nothing', async () => {
    const known = await createUser(server, { email: freshEmail('known'), firstName: 'Kim', lastName: 'Known' });
    const fresh = freshEmail('new');
    const a = await register(known.email, { firstName: 'Mallory', lastName: 'Intruder' });
    const b = await register(fresh);
    expect(a.status).toBe(b.status);
    expect(await a.json()).toEqual(await b.json());
    expect([...a.headers.keys()].sort()).toEqual([...b.headers.keys()].sort());

    const owner = await userByEmail(known.email);
    expect(owner).toMatchObject({ id: known.id, firstName: 'Kim', lastName: 'Known' });
    expect(await server.services.db.selectFrom('users').select('id').where('email', '=', known.email).execute()).toHaveLength(1);

    const mail = itemAt(await mailbox(known.email), 0);
    expect(mail.subject).toContain('already have an account');
    expect(mail.links.some((l) => l.includes('/verify-email'))).toBe(false);
    const link = await linkTo(known.email, `${site()}/verify-login?token=`);
    const res = await post('/api/user/verify-login', { token: tokenOf(link) });
    expect(res.status).toBe(200);
    expect((await res.json()).userId).toBe(known.id);
  });

  it('verifies once with the mailed link: session cookie, verified address, the user back', async () => {
    const email = freshEmail();
    await register(email, { firstName: 'Vera', lastName: 'Link' });
    const token = tokenOf(await linkTo(email, `${site()}/verify-email?token=`));

    const res = await post('/api/user/verify-email', { token });
    expect(res.status).toBe(200);
    const body = await res.json();
    const user = must(await userByEmail(email), 'user');
    expect(body).toEqual({
      message: VERIFIED,
      userId: user.id,
      user: { id: user.id, firstName: 'Vera', lastName: 'Link', email, image: null, phone: '', preferredName: '', pronoun: '', city: '', zipcode: '' },
    });
    expect(JSON.stringify(body)).not.toContain(token);
    expect(user.emailVerifiedAt).not.toBeNull();

    const cookie = sessionCookie(res)!;
    expect(cookie.header).toMatch(/HttpOnly/i);
    expect(cookie.header).toMatch(/SameSite=Lax/i);
    expect(cookie.header).toMatch(/Path=\//);
    const check = await post('/api/user/validate-token', {}, { cookie: cookie.pair });
    expect(check.status).toBe(200);
    expect((await check.json()).user.id).toBe(user.id);

    const again = await post('/api/user/verify-email', { token });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ message: VERIFY_FAILED });
    expect(sessionCookie(again)).toBeUndefined();
    expect(await sessionsOf(user.id)).toHaveLength(1);
  });

  it('changes nothing on a GET of the link endpoints: the token still works afterwards', async () => {
    const email = freshEmail();
    await register(email);
    const token = tokenOf(await linkTo(email, `${site()}/verify-email?token=`));
    for (const path of ['/api/user/verify-email', '/api/user/verify-login']) {
      const res = await server.api(`${path}?token=${encodeURIComponent(token)}`);
      expect(res.status, path).not.toBe(200);
      expect(sessionCookie(res), path).toBeUndefined();
    }
    const user = must(await userByEmail(email), 'user');
    expect(user.emailVerifiedAt).toBeNull();
    expect(await sessionsOf(user.id)).toHaveLength(0);
    expect((await post('/api/user/verify-email', { token })).status).toBe(200);
  });

  it('refuses missing, malformed and wrong-purpose tokens with the same message', async () => {
    const known = await createUser(server, { email: freshEmail() });
    await post('/api/user/login', { email: known.email });
    const loginToken = tokenOf(await linkTo(known.email, `${site()}/verify-login?token=`));
    for (const body of [{}, { token: '' }, { token: 42 }, { token: 'x'.repeat(43) }, { token: 'a'.repeat(5000) }, { token: loginToken }]) {
      const res = await post('/api/user/verify-email', body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(await res.json()).toEqual({ message: VERIFY_FAILED });
    }
    // The login token was not spent by being offered to the wrong endpoint.
    expect((await post('/api/user/verify-login', { token: loginToken })).status).toBe(200);
  });
});

describe(`links that lead back to a booking (issue 30) on ${testDbKind()}`, () => {
  it('a registration for a session type mails a link back to that booking; a known e-mail gets a login link that does the same', async () => {
    const email = freshEmail('book');
    expect((await post('/api/user/register', { firstName: 'Bo', lastName: 'Ok', email, recaptchaToken: 'dev:register', book: 'yoga-therapy' })).status).toBe(
      200,
    );
    expect(await linkTo(email, `${site()}/verify-email?token=`)).toMatch(/&book=yoga-therapy$/);
    resetRateLimits();
    expect((await post('/api/user/register', { firstName: 'Bo', lastName: 'Ok', email, recaptchaToken: 'dev:register', book: 'individual-yoga' })).status).toBe(
      200,
    );
    expect(await linkTo(email, `${site()}/verify-login?token=`)).toMatch(/&book=individual-yoga$/);
    resetRateLimits();
    expect((await post('/api/user/login', { email, book: 'yoga-therapy' })).status).toBe(200);
    expect(await linkTo(email, `${site()}/verify-login?token=`)).toMatch(/&book=yoga-therapy$/);
    // Without one, the links are the spec's.
    resetRateLimits();
    await post('/api/user/login', { email });
    expect(await linkTo(email, `${site()}/verify-login?token=`)).not.toContain('book=');
  });

  it('refuses a session type it does not know, with the reason, and creates and mails nothing', async () => {
    const email = freshEmail('badbook');
    for (const book of ['workshop', '', 42, '"><script>']) {
      const res = await post('/api/user/register', { firstName: 'Bo', lastName: 'Ok', email, recaptchaToken: 'dev:register', book });
      expect(res.status, String(book)).toBe(400);
      expect(JSON.stringify(await res.json())).toContain('individual-yoga or yoga-therapy');
    }
    expect(await userByEmail(email)).toBeUndefined();
    expect(await mailbox(email)).toEqual([]);
  });
});

describe(`log in by link on ${testDbKind()}`, () => {
  it('answers known and unknown e-mails identically; the mail says the rest', async () => {
    const known = await createUser(server, { email: freshEmail('known') });
    const unknown = freshEmail('nobody');
    const a = await post('/api/user/login', { email: known.email });
    const b = await post('/api/user/login', { email: unknown });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(await a.json()).toEqual({ message: LOGIN_SENT });
    expect(await b.json()).toEqual({ message: LOGIN_SENT });
    expect(sessionCookie(a)).toBeUndefined();

    await linkTo(known.email, `${site()}/verify-login?token=`);
    const note = itemAt(await mailbox(unknown), 0);
    expect(note.links).toContain(`${site()}/register`);
    expect(note.links.some((l) => l.includes('token='))).toBe(false);
    expect(await userByEmail(unknown)).toBeUndefined();
  });

  it('signs in with the link once, marks the address verified, and returns the user', async () => {
    const email = freshEmail();
    await register(email, { firstName: 'Lou', lastName: 'Gin' });
    await post('/api/user/login', { email: email.toUpperCase() });
    const token = tokenOf(await linkTo(email, `${site()}/verify-login?token=`));
    const res = await post('/api/user/verify-login', { token });
    expect(res.status).toBe(200);
    const body = await res.json();
    const user = must(await userByEmail(email), 'user');
    expect(body).toEqual({
      userId: user.id,
      user: expect.objectContaining({ id: user.id, firstName: 'Lou', lastName: 'Gin', email }),
    });
    expect(user.emailVerifiedAt).not.toBeNull();
    expect(sessionCookie(res)).toBeDefined();

    const reused = await post('/api/user/verify-login', { token });
    expect(reused.status).toBe(400);
    expect(await reused.json()).toEqual({ message: LOGIN_INVALID });
    expect(sessionCookie(reused)).toBeUndefined();
  });

  it('refuses an expired link', async () => {
    const known = await createUser(server, { email: freshEmail() });
    await post('/api/user/login', { email: known.email });
    const token = tokenOf(await linkTo(known.email, `${site()}/verify-login?token=`));
    await server.services.db
      .updateTable('loginTokens')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('id', '=', hashToken(token))
      .execute();
    const before = (await sessionsOf(known.id)).length;
    const res = await post('/api/user/verify-login', { token });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: LOGIN_INVALID });
    expect(await sessionsOf(known.id)).toHaveLength(before);
  });

  it('gives exactly one session to 20 concurrent uses of one link', async () => {
    const email = freshEmail();
    await register(email);
    const user = await userByEmail(email);
    await post('/api/user/login', { email });
    const token = tokenOf(await linkTo(email, `${site()}/verify-login?token=`));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post('/api/user/verify-login', { token }, { 'x-forwarded-for': `198.51.100.${i + 1}` })),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(19).fill(400)]);
    expect(answers.filter((r) => sessionCookie(r))).toHaveLength(1);
    expect(await sessionsOf(must(user, 'user').id)).toHaveLength(1);

    // The same at the store, with all 20 redemptions in the database's queue at once.
    const token2 = await issueLoginToken(server.services.db, must(user, 'user').id, 'login');
    const redeemed = await Promise.all(Array.from({ length: 20 }, () => redeemLoginToken(server.services.db, token2, 'login')));
    expect(redeemed.filter((id) => id === must(user, 'user').id)).toHaveLength(1);
    expect(redeemed.filter((id) => id === undefined)).toHaveLength(19);
  });

  it('sends at most five live links to one address, from any number of addresses; past that, 429 and no mail', async () => {
    const known = await createUser(server, { email: freshEmail() });
    const before = (await mailbox(known.email)).length;
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await post('/api/user/login', { email: known.email }, { 'x-forwarded-for': `203.0.113.${i + 1}` });
      statuses.push(res.status);
      if (res.status === 200) expect(await res.json()).toEqual({ message: LOGIN_SENT });
      else expect(await res.json()).toEqual({ message: TOO_MANY_MAILS });
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMITS.mailTo.max);
    expect((await mailbox(known.email)).length - before).toBe(LIMITS.mailTo.max);
  });

  it('says so when the mail service refuses, whether or not the e-mail is known', async () => {
    const known = await createUser(server, { email: freshEmail() });
    const original = server.services.mailer;
    const failing: Mailer = { kind: 'resend', send: async () => Promise.reject(new Error('mail service down')) };
    server.services.mailer = failing;
    try {
      for (const email of [known.email, freshEmail('nobody')]) {
        const res = await post('/api/user/login', { email });
        expect(res.status).toBe(503);
        expect(await res.json()).toEqual({ message: 'Could not send login email. Please try again.' });
      }
    } finally {
      server.services.mailer = original;
    }
  });

  it('limits register and login per client address as a backstop: the one past the limit is refused and mails nothing', async () => {
    const ip = { 'x-forwarded-for': '192.0.2.77' };
    for (let i = 0; i < LIMITS.login.max; i++) expect((await post('/api/user/login', { email: freshEmail('limit') }, ip)).status).toBe(200);
    const email = freshEmail('limit');
    const refused = await post('/api/user/login', { email }, ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await mailbox(email)).toHaveLength(0);

    for (let i = 0; i < LIMITS.register.max; i++) expect((await register(freshEmail('limit'))).status).toBe(200);
    const late = freshEmail('limit');
    expect((await register(late)).status).toBe(429);
    expect(await userByEmail(late)).toBeUndefined();
  });
});

describe(`the cookie session on ${testDbKind()}`, () => {
  it('validate-token answers the user for a live cookie, 401 otherwise; a token in the body counts for nothing', async () => {
    const u = await createUser(server, { email: freshEmail(), firstName: 'Val', lastName: 'Id' });
    const ok = await post('/api/user/validate-token', { token: 'ignored' }, { cookie: u.cookie });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      isValid: true,
      user: { id: u.id, firstName: 'Val', lastName: 'Id', email: u.email, image: null, phone: '', preferredName: '', pronoun: '', city: '', zipcode: '' },
    });

    for (const headers of [{}, { cookie: 'yc_user=not-a-session-token-at-all' }] as Record<string, string>[]) {
      const res = await post('/api/user/validate-token', { token: u.token }, headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ isValid: false, message: expect.any(String) });
    }
    // The admin's cookie name with a client's token is no client session either.
    expect((await post('/api/user/validate-token', {}, { cookie: `yc_admin=${u.token}` })).status).toBe(401);
  });

  it('refresh-token gives the session a full new lifetime; without a session it is 401', async () => {
    const u = await createUser(server, { email: freshEmail() });
    const soon = new Date(Date.now() + 60 * 60_000);
    await server.services.db.updateTable('userSessions').set({ expiresAt: soon }).where('id', '=', sessionIdOf(u.token)!).execute();

    const res = await post('/api/user/refresh-token', {}, { cookie: u.cookie });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ ok: true, expiresAt: expect.any(String) });
    const expiresAt = new Date(body.expiresAt).getTime();
    expect(expiresAt).toBeGreaterThan(Date.now() + 29 * 24 * 3600_000);
    const row = itemAt(await sessionsOf(u.id), 0);
    expect(new Date(row.expiresAt).getTime()).toBe(expiresAt);
    const cookie = sessionCookie(res)!;
    expect(cookie.pair).toBe(u.cookie); // same token, renewed in place
    expect(cookie.header).toMatch(/Expires=/);

    expect((await post('/api/user/refresh-token', {})).status).toBe(401);
    expect((await post('/api/user/refresh-token', {}, { cookie: 'yc_user=bogus-token-bogus-token' })).status).toBe(401);
  });

  it('logout deletes the session and clears the cookie', async () => {
    const u = await createUser(server, { email: freshEmail() });
    const res = await post('/api/user/logout', {}, { cookie: u.cookie });
    expect(res.status).toBe(200);
    const cleared = sessionCookie(res)!;
    expect(cleared.pair).toBe('yc_user=');
    expect(cleared.header).toMatch(/Max-Age=0/i);
    expect(await sessionsOf(u.id)).toHaveLength(0);
    expect((await post('/api/user/validate-token', {}, { cookie: u.cookie })).status).toBe(401);
    // Idempotent without a cookie.
    expect((await post('/api/user/logout', {})).status).toBe(200);
  });
});

describe(`the account on ${testDbKind()}`, () => {
  const update = (id: string, json: unknown, cookie?: string) =>
    server.api(`/api/user/${id}/update`, { method: 'PUT', json, headers: cookie ? { cookie } : {} });

  it('shows a user their own account and refuses anyone else', async () => {
    const me = await createUser(server, { email: freshEmail(), firstName: 'Me', lastName: 'Self' });
    const other = await createUser(server, { email: freshEmail() });
    const res = await server.api(`/api/user/${me.id}`, { headers: { cookie: me.cookie } });
    expect(res.status).toBe(200);
    const row = must(await userByEmail(me.email), 'row');
    expect(await res.json()).toEqual({
      _id: me.id,
      id: me.id,
      firstName: 'Me',
      lastName: 'Self',
      email: me.email,
      phone: '',
      preferredName: '',
      pronoun: '',
      city: '',
      zipcode: '',
      image: null,
      createdAt: new Date(row.createdAt).toISOString(),
    });

    const theirs = await server.api(`/api/user/${other.id}`, { headers: { cookie: me.cookie } });
    expect(theirs.status).toBe(403);
    expect(JSON.stringify(await theirs.json())).not.toContain(other.email);
    expect((await server.api(`/api/user/${me.id}`)).status).toBe(401);
  });

  it('saves the account fields; the e-mail and unknown fields are ignored', async () => {
    const me = await createUser(server, { email: freshEmail() });
    const expected = {
      firstName: 'Ana',
      lastName: 'Lima',
      phone: '5551234567',
      preferredName: 'Annie',
      pronoun: 'she/her',
      city: 'Portland, OR',
      zipcode: '97201',
    };
    // The first name is sent with spaces around it (saved trimmed), with fields she may not set.
    const res = await update(me.id, { ...expected, firstName: ' Ana ', email: 'hijack@example.com', id: 'someone-else', googleId: 'x' }, me.cookie);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: PROFILE_UPDATED, user: expect.objectContaining({ ...expected, id: me.id, _id: me.id, email: me.email }) });
    expect(await userByEmail(me.email)).toMatchObject({ ...expected, id: me.id, googleId: null });
    expect(await userByEmail('hijack@example.com')).toBeUndefined();

    // Empty phone and zipcode are allowed; fields left out keep their values.
    const cleared = await update(me.id, { firstName: 'Ana', lastName: 'Lima', phone: '', zipcode: '' }, me.cookie);
    expect(cleared.status).toBe(200);
    expect(await userByEmail(me.email)).toMatchObject({ phone: '', zipcode: '', preferredName: 'Annie', city: 'Portland, OR' });
  });

  it('refuses a phone over 10 digits, letters in the zipcode and missing names, changing nothing', async () => {
    const me = await createUser(server, { email: freshEmail(), firstName: 'Keep', lastName: 'Me' });
    const base = { firstName: 'New', lastName: 'Name', phone: '5551234567', zipcode: '97201' };
    const cases: [unknown, RegExp][] = [
      [{ ...base, phone: '55512345678' }, /Phone must be digits only, at most 10/],
      [{ ...base, phone: '555-123-45' }, /Phone must be digits only/],
      [{ ...base, zipcode: '9720A' }, /Zipcode must be digits only, at most 5/],
      [{ ...base, zipcode: '972011' }, /Zipcode must be digits only/],
      [{ ...base, firstName: '  ' }, /First name is required/],
      [{ ...base, lastName: undefined }, /Last name is required/],
    ];
    for (const [body, message] of cases) {
      const res = await update(me.id, body, me.cookie);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).message).toMatch(message);
    }
    expect(await userByEmail(me.email)).toMatchObject({ firstName: 'Keep', lastName: 'Me', phone: '', zipcode: '' });
  });

  it("refuses to update another user's account (403) or without a session (401)", async () => {
    const me = await createUser(server, { email: freshEmail() });
    const other = await createUser(server, { email: freshEmail(), firstName: 'Other', lastName: 'Person' });
    const body = { firstName: 'Hacked', lastName: 'Hacked', phone: '1', zipcode: '1' };
    expect((await update(other.id, body, me.cookie)).status).toBe(403);
    expect((await update(other.id, { phone: 'invalid anyway' }, me.cookie)).status).toBe(403);
    expect((await update(other.id, body)).status).toBe(401);
    expect(await userByEmail(other.email)).toMatchObject({ firstName: 'Other', lastName: 'Person', phone: '', zipcode: '' });
  });
});
