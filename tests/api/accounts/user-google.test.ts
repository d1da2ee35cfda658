/**
 * Google sign-in over HTTP, with Google's token endpoint played by a local fake: the redirect
 * with state and PKCE, the callback that signs in (new account, same account again, an account
 * with that e-mail linked), and every failure landing on /login without a session.
 */
import { rowCount } from '../../helpers/row-count.ts';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { createUser } from '../../helpers/auth.ts';
import { startFakeServer, type FakeServer, type RecordedRequest } from '../../helpers/fake-server.ts';
import { must } from '../../helpers/guards.ts';

const CLIENT_ID = 'yoga-test.apps.googleusercontent.com';
const CLIENT_SECRET = 'google-test-secret';

let google: FakeServer;
beforeAll(async () => {
  google = await startFakeServer();
});
afterAll(async () => {
  await google?.close();
});
const server = useTestServer({
  env: () => ({
    GOOGLE_CLIENT_ID: CLIENT_ID,
    GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
    GOOGLE_AUTH_URL: `${google.url}/o/oauth2/v2/auth`,
    GOOGLE_TOKEN_URL: `${google.url}/token`,
  }),
  resetRateLimits: true,
});

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const idToken = (claims: Record<string, unknown>) => `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64(claims)}.c2ln`;

let subs = 0;
function account(over: Record<string, unknown> = {}) {
  const n = ++subs;
  return {
    iss: 'https://accounts.google.com',
    aud: CLIENT_ID,
    sub: `10000000000000000${n}`,
    email: `google-${n}-${Math.random().toString(36).slice(2, 7)}@gmail.com`,
    email_verified: true,
    given_name: 'Gia',
    family_name: 'Google',
    exp: Math.floor(Date.now() / 1000) + 3600,
    ...over,
  };
}

/**
 * Google's token endpoint: accepts the code it "issued" only with our client's credentials and
 * the verifier whose S256 hash was in the authorization URL (PKCE), then returns `claims`.
 */
function tokenEndpoint(expected: { code: string; challenge: string }, claims: Record<string, unknown>) {
  google.handle((req: RecordedRequest) => {
    const form = new URLSearchParams(req.body);
    const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
    const verifier = form.get('code_verifier') ?? '';
    if (
      req.url !== '/token' ||
      req.headers.authorization !== basic ||
      form.get('grant_type') !== 'authorization_code' ||
      form.get('code') !== expected.code ||
      createHash('sha256').update(verifier).digest('base64url') !== expected.challenge
    ) {
      return { status: 400, body: { error: 'invalid_grant', error_description: 'Bad Request' } };
    }
    return { body: { access_token: 'ya29.fake', token_type: 'Bearer', expires_in: 3599, scope: 'openid email profile', id_token: idToken(claims) } };
  });
}

/** GET /api/user/auth/google: the redirect and the cookies the callback needs. */
async function begin() {
  const res = await server.api('/api/user/auth/google', { redirect: 'manual' });
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get('location')!);
  const setCookies = res.headers.getSetCookie();
  const cookie = setCookies.map((h) => h.split(';')[0]).join('; ');
  return { location, setCookies, cookie, state: location.searchParams.get('state')!, challenge: location.searchParams.get('code_challenge')! };
}

const callback = (query: string, cookie?: string) =>
  server.api(`/api/user/auth/google/callback?${query}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });

const sessionPair = (res: Response) =>
  res.headers
    .getSetCookie()
    .find((h) => h.startsWith('yc_user='))
    ?.split(';')[0];
const userCount = () => rowCount(server.services.db, 'users');

/** The whole round trip for `claims`; returns the callback's answer. */
async function signIn(claims: Record<string, unknown>) {
  const start = await begin();
  tokenEndpoint({ code: 'code-from-google', challenge: start.challenge }, claims);
  return callback(`code=code-from-google&state=${encodeURIComponent(start.state)}`, start.cookie);
}

describe(`Google sign-in on ${testDbKind()}`, () => {
  it('redirects to the authorization endpoint with state and PKCE, keeping both in short-lived HttpOnly cookies', async () => {
    const start = await begin();
    expect(`${start.location.origin}${start.location.pathname}`).toBe(`${google.url}/o/oauth2/v2/auth`);
    const p = start.location.searchParams;
    expect(p.get('client_id')).toBe(CLIENT_ID);
    expect(p.get('redirect_uri')).toBe(`${server.env.SITE_URL}/api/user/auth/google/callback`);
    expect(p.get('response_type')).toBe('code');
    expect(p.get('scope')).toBe('openid email profile');
    expect(p.get('code_challenge_method')).toBe('S256');
    expect(start.state.length).toBeGreaterThanOrEqual(32);
    expect(start.setCookies).toHaveLength(2);
    for (const h of start.setCookies) {
      expect(h).toMatch(/HttpOnly/i);
      expect(h).toMatch(/Max-Age=600/);
      expect(h).toMatch(/Path=\/api\/user\/auth\/google/);
      expect(h).toMatch(/SameSite=Lax/i);
    }
    expect(start.cookie).toContain(`yc_google_state=${start.state}`);
    // The verifier goes only to the token endpoint, never to the browser's address bar.
    const verifier = must(/yc_google_verifier=([^;]+)/.exec(start.cookie), 'a match in start.cookie')[1]!;
    expect(start.location.toString()).not.toContain(verifier);
  });

  it('creates a verified account from the ID token, signs in by cookie and lands on /user/oauth with the id only', async () => {
    const claims = account({ given_name: 'Gia', family_name: 'Nova' });
    const before = await userCount();
    const res = await signIn(claims);
    expect(res.status).toBe(302);
    const row = await server.services.db.selectFrom('users').selectAll().where('email', '=', claims.email).executeTakeFirstOrThrow();
    expect(res.headers.get('location')).toBe(`/user/oauth?userId=${row.id}`);
    expect(row).toMatchObject({ firstName: 'Gia', lastName: 'Nova', googleId: claims.sub });
    expect(row.emailVerifiedAt).not.toBeNull();
    expect(await userCount()).toBe(before + 1);

    const cookie = sessionPair(res)!;
    expect(cookie).toMatch(/^yc_user=.{20,}/);
    expect(res.headers.get('location')).not.toContain(cookie.slice('yc_user='.length));
    // The state and verifier cookies are spent.
    expect(res.headers.getSetCookie().filter((h) => /^yc_google_(state|verifier)=;/.test(h))).toHaveLength(2);

    const check = await server.api('/api/user/validate-token', { method: 'POST', json: {}, headers: { cookie } });
    expect(check.status).toBe(200);
    expect((await check.json()).user).toMatchObject({ id: row.id, email: claims.email, firstName: 'Gia' });
  });

  it('signs the same Google account into the same user again', async () => {
    const claims = account();
    const first = await signIn(claims);
    const before = await userCount();
    const second = await signIn({ ...claims, given_name: 'Renamed' });
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    expect(await userCount()).toBe(before);
  });

  it('links the account that already has the e-mail and marks it verified', async () => {
    const claims = account();
    const { db } = server.services;
    const existing = await db
      .insertInto('users')
      .values({ email: claims.email, firstName: 'Reg', lastName: 'Istered' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await signIn({ ...claims, email: claims.email.toUpperCase() });
    expect(res.headers.get('location')).toBe(`/user/oauth?userId=${existing.id}`);
    const row = await db.selectFrom('users').selectAll().where('id', '=', existing.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ googleId: claims.sub, firstName: 'Reg', lastName: 'Istered' });
    expect(row.emailVerifiedAt).not.toBeNull();
  });

  it('refuses an e-mail whose account is linked to another Google account', async () => {
    const taken = account();
    await signIn(taken);
    const res = await signIn(account({ email: taken.email }));
    expect(res.headers.get('location')).toBe('/login');
    expect(sessionPair(res)).toBeUndefined();
  });

  it('sends every failure to /login with no session and no account', async () => {
    const before = await userCount();
    const start = await begin();
    tokenEndpoint({ code: 'good', challenge: start.challenge }, account());
    const tokenCalls = google.requests.length;

    const failures: [string, string | undefined][] = [
      ['state mismatch', (await callback(`code=good&state=not-the-state`, start.cookie)).headers.get('location') ?? undefined],
      ['no cookies', (await callback(`code=good&state=${start.state}`)).headers.get('location') ?? undefined],
      ['no code', (await callback(`state=${start.state}`, start.cookie)).headers.get('location') ?? undefined],
      ['error from Google', (await callback(`error=access_denied&state=${start.state}`, start.cookie)).headers.get('location') ?? undefined],
    ];
    for (const [label, location] of failures) expect(location, label).toBe('/login');
    // None of these reached Google's token endpoint.
    expect(google.requests.length).toBe(tokenCalls);

    // Refused by the token endpoint (a wrong code), or an unverified e-mail, or another audience.
    const wrongCode = await callback(`code=bad&state=${start.state}`, start.cookie);
    expect(wrongCode.headers.get('location')).toBe('/login');
    for (const claims of [account({ email_verified: false }), account({ aud: 'another-client' }), account({ sub: undefined })]) {
      const res = await signIn(claims);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/login');
      expect(sessionPair(res)).toBeUndefined();
    }
    expect(await userCount()).toBe(before);
  });

  it('is off (404) when Google is not configured', async () => {
    const plain = await startTestServer();
    try {
      const res = await plain.api('/api/user/auth/google', { redirect: 'manual' });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: 'Google sign-in is not available.' });
      const cb = await plain.api('/api/user/auth/google/callback?code=x&state=y', { redirect: 'manual' });
      expect(cb.status).toBe(302);
      expect(cb.headers.get('location')).toBe('/login');
    } finally {
      await plain.close();
    }
  });

  it('keeps a signed-in client apart: signing in as Google user B ends the session of A in this browser', async () => {
    const a = await createUser(server);
    const start = await begin();
    tokenEndpoint({ code: 'c', challenge: start.challenge }, account());
    const res = await callback(`code=c&state=${start.state}`, `${start.cookie}; ${a.cookie}`);
    expect(res.headers.get('location')).toMatch(/^\/user\/oauth\?userId=/);
    expect(sessionPair(res)).not.toBe(a.cookie);
    const old = await server.api('/api/user/validate-token', { method: 'POST', json: {}, headers: { cookie: a.cookie } });
    expect(old.status).toBe(401);
  });
});
