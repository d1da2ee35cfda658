import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind, rowCount } from '../../helpers/database.ts';
import { sessionIdOf, sessionStore } from '../../../api/middleware/sessions.ts';
import { ADMIN_DELAY, LIMITS, TOO_MANY_ADMIN_ATTEMPTS } from '../../../api/services/limits.ts';
import { must } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
let password: string;
beforeAll(async () => {
  password = server.env.ADMIN_PASSWORD;
});

const INVALID = { message: 'Invalid email or password. Please try again.' };

const login = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  server.api('/api/admin/login', { method: 'POST', json: { recaptchaToken: 'dev:admin_login', ...body }, headers });

/** The `name=value` part of the admin cookie a response sets. */
const cookieFrom = (res: Response) => {
  const header = res.headers.getSetCookie().find((h) => h.startsWith('yc_admin='));
  return header?.split(';')[0];
};

const adminSessions = () => rowCount(server.services.db, 'adminSessions');

describe(`admin login on ${testDbKind()}`, () => {
  it('logs in with the right password: an HttpOnly, SameSite=Strict cookie and no token in the body', async () => {
    const res = await login({ email: 'admin@example.com', password });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ admin: { _id: expect.any(String), email: 'admin@example.com', name: 'Admin' }, expiresAt: expect.any(String) });
    const expiresIn = new Date(body.expiresAt).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(11 * 3600_000);
    expect(expiresIn).toBeLessThanOrEqual(12 * 3600_000);

    const header = res.headers.getSetCookie().find((h) => h.startsWith('yc_admin='))!;
    expect(header).toMatch(/; HttpOnly/i);
    expect(header).toMatch(/; SameSite=Strict/i);
    expect(header).toMatch(/; Path=\//i);
    expect(header).not.toMatch(/; Secure/i); // NODE_ENV=test; production sets it
    const cookie = header.split(';')[0]!;
    const token = cookie.slice('yc_admin='.length);
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(JSON.stringify(body)).not.toContain(token);
    // Stored under the token's id part; only the hash of its secret part is stored.
    const row = await server.services.db.selectFrom('adminSessions').select(['id', 'secretHash']).where('id', '=', sessionIdOf(token)!).executeTakeFirst();
    expect(row).toBeDefined();
    expect(token).not.toContain(must(row, 'row').secretHash);

    const verify = await server.api('/api/admin/verify', { headers: { cookie } });
    expect(verify.status).toBe(200);
    expect(await verify.json()).toEqual({ admin: body.admin });
  });

  it('ignores the letter case of the e-mail', async () => {
    const res = await login({ email: '  Admin@Example.COM ', password });
    expect(res.status).toBe(200);
  });

  it('answers a wrong password and an unknown e-mail identically, in similar time', async () => {
    const before = await adminSessions();
    const wrong = await login({ email: 'admin@example.com', password: `${password}x` });
    const unknown = await login({ email: 'nobody@example.com', password });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(INVALID);
    expect(await unknown.json()).toEqual(INVALID);
    expect(cookieFrom(wrong)).toBeUndefined();
    expect(cookieFrom(unknown)).toBeUndefined();
    expect(await adminSessions()).toBe(before);

    // An unknown e-mail must not answer faster (it would reveal which e-mails are admins).
    const time = async (email: string) => {
      const t = performance.now();
      await login({ email, password: 'not-the-password' });
      return performance.now() - t;
    };
    // The fastest of five each: a busy machine only ever adds time, so the minimum is the work
    // itself (a median of three failed on a loaded two-core runner).
    const wrongTimes = [];
    const unknownTimes = [];
    for (let i = 0; i < 5; i++) {
      wrongTimes.push(await time('admin@example.com'));
      unknownTimes.push(await time(`nobody${i}@example.com`));
    }
    expect(Math.min(...unknownTimes)).toBeGreaterThan(Math.min(...wrongTimes) * 0.5);
  });

  it('refuses a missing or wrong human-check token, even with the right password', async () => {
    const before = await adminSessions();
    const missing = await server.api('/api/admin/login', { method: 'POST', json: { email: 'admin@example.com', password } });
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toMatch(/verify that you're human/);
    const otherAction = await login({ email: 'admin@example.com', password, recaptchaToken: 'dev:contact_form_submit' });
    expect(otherAction.status).toBe(400);
    expect((await otherAction.json()).message).toMatch(/verify that you're human/);
    expect(cookieFrom(missing)).toBeUndefined();
    expect(cookieFrom(otherAction)).toBeUndefined();
    expect(await adminSessions()).toBe(before);
  });

  it('requires e-mail and password', async () => {
    const noPassword = await login({ email: 'admin@example.com' });
    expect(noPassword.status).toBe(400);
    expect((await noPassword.json()).message).toMatch(/Password is required/);
    const noEmail = await login({ password });
    expect(noEmail.status).toBe(400);
    expect((await noEmail.json()).message).toMatch(/Email is required/);
    const notJson = await server.api('/api/admin/login', { method: 'POST', body: 'email=admin', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
  });

  // Issue 21: the delay used to hold back the right password too, so anyone who knew her e-mail
  // could lock her out; now the password is checked first and only failures wait.
  it('makes wrong passwords wait after a run of them, but lets the right one in', async () => {
    for (let i = 0; i <= ADMIN_DELAY.freeFailures; i++) {
      const res = await login({ email: 'admin@example.com', password: 'wrong-password' });
      expect(res.status).toBe(401);
    }
    const limited = await login({ email: 'admin@example.com', password: 'wrong-password' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toEqual({ message: TOO_MANY_ADMIN_ATTEMPTS });
    expect(cookieFrom(limited)).toBeUndefined();
    const right = await login({ email: 'admin@example.com', password });
    expect(right.status).toBe(200);
    expect(cookieFrom(right)).toBeDefined();
  });

  it('limits attempts per address as a backstop: one past LIMITS.adminLogin gets 429, whatever the e-mail', async () => {
    for (let i = 0; i < LIMITS.adminLogin.max; i++) {
      const res = await login({ email: `guess-${i}@example.com`, password: 'wrong-password' });
      expect(res.status).toBe(401);
    }
    const limited = await login({ email: 'admin@example.com', password });
    expect(limited.status).toBe(429);
    expect((await limited.json()).message).toMatch(/Too many requests/);
    expect(cookieFrom(limited)).toBeUndefined();
  });

  it('refuses a cross-site login post', async () => {
    const res = await login({ email: 'admin@example.com', password }, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(cookieFrom(res)).toBeUndefined();
  });
});

describe('admin session', () => {
  it('ends on logout on the server: the old cookie no longer verifies', async () => {
    const res = await login({ email: 'admin@example.com', password });
    const cookie = cookieFrom(res)!;
    expect((await server.api('/api/admin/verify', { headers: { cookie } })).status).toBe(200);

    const out = await server.api('/api/admin/logout', { method: 'POST', headers: { cookie } });
    expect(out.status).toBe(204);
    const cleared = out.headers.getSetCookie().find((h) => h.startsWith('yc_admin='))!;
    expect(cleared).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    const token = cookie.slice('yc_admin='.length);
    expect(await server.services.db.selectFrom('adminSessions').select('id').where('id', '=', sessionIdOf(token)!).executeTakeFirst()).toBeUndefined();

    const again = await server.api('/api/admin/verify', { headers: { cookie } });
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({ message: 'Admin login required' });
    // Logging out twice is harmless.
    expect((await server.api('/api/admin/logout', { method: 'POST', headers: { cookie } })).status).toBe(204);
  });

  it('a new login ends the session the browser held before', async () => {
    const first = cookieFrom(await login({ email: 'admin@example.com', password }))!;
    const second = cookieFrom(await login({ email: 'admin@example.com', password }, { cookie: first }))!;
    expect(second).not.toBe(first);
    expect((await server.api('/api/admin/verify', { headers: { cookie: first } })).status).toBe(401);
    expect((await server.api('/api/admin/verify', { headers: { cookie: second } })).status).toBe(200);
  });

  it('refresh-token extends a live session in place and answers the admin', async () => {
    const { db } = server.services;
    const store = sessionStore(db, 'admin');
    const admin = await db.selectFrom('admins').select('id').executeTakeFirstOrThrow();
    // Started two hours ago: ten hours left.
    const { token, expiresAt } = await store.create(admin.id, new Date(Date.now() - 2 * 3600_000));
    const cookie = `yc_admin=${token}`;
    const res = await server.api('/api/admin/refresh-token', { method: 'POST', headers: { cookie } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.admin).toMatchObject({ _id: admin.id, email: 'admin@example.com' });
    expect(JSON.stringify(body)).not.toContain(token);
    const renewed = new Date(body.expiresAt).getTime();
    expect(renewed).toBeGreaterThan(expiresAt.getTime() + 3600_000);
    const row = await db.selectFrom('adminSessions').select('expiresAt').where('id', '=', sessionIdOf(token)!).executeTakeFirstOrThrow();
    expect(new Date(row.expiresAt).getTime()).toBe(renewed);
    expect(cookieFrom(res)).toBe(cookie); // same token, later expiry
    expect((await server.api('/api/admin/verify', { headers: { cookie } })).status).toBe(200);
  });

  it('a client session is not an admin session, in either cookie', async () => {
    const client = await createUser(server);
    expect((await server.api('/api/admin/verify', { headers: { cookie: client.cookie } })).status).toBe(401);
    expect((await server.api('/api/admin/verify', { headers: { cookie: `yc_admin=${client.token}` } })).status).toBe(401);
    expect((await server.api('/api/admin/refresh-token', { method: 'POST', headers: { cookie: client.cookie } })).status).toBe(401);
    // Nor does the admin cookie open a client's own view.
    const cookie = await adminCookie(server);
    const res = await server.api(`/api/bookings?userId=${client.id}`, { headers: { cookie } });
    expect(res.status).toBe(401);
  });
});
