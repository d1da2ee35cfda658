/**
 * The admin's credentials (issue 12, item 4 and the session/hash parts of 6): a changed
 * ADMIN_PASSWORD or ADMIN_EMAIL revokes what the old one opened, at the next start; the password
 * is stored as argon2id with its parameters and older hashes are upgraded at login; sessions are
 * `<id>.<secret>` tokens with an absolute lifetime.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, scryptSync, argon2Sync } from 'node:crypto';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { createUser } from '../../helpers/auth.ts';
import { freshDatabase, testDbKind, type FreshDatabase } from '../../helpers/database.ts';
import { resetRateLimits } from '../../../api/middleware/rate-limit.ts';
import { sessionIdOf } from '../../../api/middleware/sessions.ts';
import { ARGON2_PARAMS, verifyPassword } from '../../../api/accounts/password.ts';
import { must } from '../../helpers/guards.ts';

const EMAIL = 'admin@example.com';
const PASSWORD = 'first-password-of-the-admin';

/** One database that outlives a server, so a test can restart with other credentials. */
let database: FreshDatabase;
let dir: string | undefined;
let env: Record<string, string>;
let server: TestServer | undefined;

beforeEach(async () => {
  await resetRateLimits();
  database = await freshDatabase();
  if (testDbKind() === 'pglite') {
    dir = await mkdtemp(join(tmpdir(), 'admin-credentials-'));
    env = { PGLITE_DIR: dir };
  } else {
    env = { DATABASE_URL: database.env.DATABASE_URL! };
  }
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await database.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});
afterAll(() => resetRateLimits());

async function start(credentials: { ADMIN_EMAIL: string; ADMIN_PASSWORD: string }): Promise<TestServer> {
  await server?.close();
  server = await startTestServer({ env: { ...env, ...credentials } });
  return server;
}

const login = (s: TestServer, email: string, password: string) =>
  s.api('/api/admin/login', { method: 'POST', json: { email, password, recaptchaToken: 'dev:admin_login' } });

const cookieFrom = (res: Response) =>
  res.headers
    .getSetCookie()
    .find((h) => h.startsWith('yc_admin='))
    ?.split(';')[0];

async function loggedIn(s: TestServer, email = EMAIL, password = PASSWORD): Promise<string> {
  const res = await login(s, email, password);
  expect(res.status).toBe(200);
  return cookieFrom(res)!;
}

const verify = async (s: TestServer, cookie: string) => (await s.api('/api/admin/verify', { headers: { cookie } })).status;

const storedHash = async (s: TestServer, email = EMAIL) =>
  (await s.services.db.selectFrom('admins').select('passwordHash').where('email', '=', email).executeTakeFirstOrThrow()).passwordHash;

/** A hash of the scheme stored before argon2id: `scrypt$N$r$p$salt$hash` (N = 2^15, r = 8, p = 1). */
function legacyScryptHash(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password.normalize('NFKC'), salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', 2 ** 15, 8, 1, salt.toString('base64'), hash.toString('base64')].join('$');
}

describe(`admin credentials across restarts on ${testDbKind()}`, () => {
  it('keeps admin and client sessions when the credentials are unchanged', async () => {
    let s = await start({ ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD });
    const cookie = await loggedIn(s);
    const client = await createUser(s);
    s = await start({ ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD });
    expect(s.seeded.admin).toBe('kept');
    expect(await verify(s, cookie)).toBe(200);
    expect((await s.api('/api/user/validate-token', { method: 'POST', json: {}, headers: { cookie: client.cookie } })).status).toBe(200);
  });

  // Fails without the fix: the new password was stored, the old sessions stayed valid.
  it('ends every admin session when ADMIN_PASSWORD changed, and only the new password logs in', async () => {
    let s = await start({ ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD });
    const first = await loggedIn(s);
    const second = await loggedIn(s);
    const client = await createUser(s);
    s = await start({ ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: 'the-new-password-after-a-leak' });
    expect(s.seeded.admin).toBe('updated');
    expect(await verify(s, first)).toBe(401);
    expect(await verify(s, second)).toBe(401);
    expect((await s.api('/api/admin/refresh-token', { method: 'POST', headers: { cookie: first } })).status).toBe(401);
    expect(await s.services.db.selectFrom('adminSessions').select('id').execute()).toEqual([]);
    expect((await login(s, EMAIL, PASSWORD)).status).toBe(401);
    expect(await verify(s, await loggedIn(s, EMAIL, 'the-new-password-after-a-leak'))).toBe(200);
    // Clients are not the admin: their sessions stay.
    expect((await s.api('/api/user/validate-token', { method: 'POST', json: {}, headers: { cookie: client.cookie } })).status).toBe(200);
  });

  // Fails without the fix: the old row stayed, so the old e-mail kept logging in with the old password.
  it('replaces the admin when ADMIN_EMAIL changed: the old e-mail no longer logs in, its sessions end', async () => {
    let s = await start({ ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD });
    const old = await loggedIn(s);
    s = await start({ ADMIN_EMAIL: 'New.Teacher@Example.com', ADMIN_PASSWORD: PASSWORD });
    expect(s.seeded.admin).toBe('replaced');
    expect(await verify(s, old)).toBe(401);
    const refused = await login(s, EMAIL, PASSWORD);
    expect(refused.status).toBe(401);
    expect(cookieFrom(refused)).toBeUndefined();
    const admins = await s.services.db.selectFrom('admins').select('email').execute();
    expect(admins).toEqual([{ email: 'new.teacher@example.com' }]);
    expect(await verify(s, await loggedIn(s, 'new.teacher@example.com', PASSWORD))).toBe(200);

    // Both changed at once: the same.
    const current = await loggedIn(s, 'new.teacher@example.com', PASSWORD);
    s = await start({ ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: 'yet-another-password' });
    expect(s.seeded.admin).toBe('replaced');
    expect(await verify(s, current)).toBe(401);
    expect((await login(s, 'new.teacher@example.com', PASSWORD)).status).toBe(401);
    expect((await login(s, EMAIL, PASSWORD)).status).toBe(401);
    expect((await login(s, EMAIL, 'yet-another-password')).status).toBe(200);
  });
});

describe(`admin password hash on ${testDbKind()}`, () => {
  // Fails without the fix: the stored hash was scrypt$32768$8$1$…
  it('is argon2id in PHC form with its parameters, at or above OWASP’s minimum', async () => {
    const s = await start({ ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD });
    const stored = await storedHash(s);
    const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(stored);
    expect(match, stored).not.toBeNull();
    const [m, t, p] = [Number(must(match, 'match')[1]), Number(must(match, 'match')[2]), Number(must(match, 'match')[3])];
    expect({ m, t, p }).toEqual({ m: ARGON2_PARAMS.memory, t: ARGON2_PARAMS.passes, p: ARGON2_PARAMS.parallelism });
    // OWASP: m = 19 MiB (19456 KiB), t = 2, p = 1 at least.
    expect(m).toBeGreaterThanOrEqual(19_456);
    expect(t).toBeGreaterThanOrEqual(2);
    expect(p).toBeGreaterThanOrEqual(1);
    expect(Buffer.from(must(match, 'match')[4]!, 'base64')).toHaveLength(16);
    expect(Buffer.from(must(match, 'match')[5]!, 'base64')).toHaveLength(32);
    // The hash is what argon2id makes of the password with that salt and those parameters.
    const tag = argon2Sync('argon2id', {
      message: PASSWORD,
      nonce: Buffer.from(must(match, 'match')[4]!, 'base64'),
      memory: m,
      passes: t,
      parallelism: p,
      tagLength: 32,
    });
    expect(tag.equals(Buffer.from(must(match, 'match')[5]!, 'base64'))).toBe(true);
  });

  it('logs in with an old scrypt hash once and stores argon2id in its place', async () => {
    const s = await start({ ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD });
    const legacy = legacyScryptHash(PASSWORD);
    await s.services.db.updateTable('admins').set({ passwordHash: legacy }).where('email', '=', EMAIL).execute();
    // A wrong password changes nothing.
    expect((await login(s, EMAIL, `${PASSWORD}x`)).status).toBe(401);
    expect(await storedHash(s)).toBe(legacy);

    const cookie = await loggedIn(s);
    expect(await verify(s, cookie)).toBe(200);
    const upgraded = await storedHash(s);
    expect(upgraded).toMatch(new RegExp(`^\\$argon2id\\$v=19\\$m=${ARGON2_PARAMS.memory},t=${ARGON2_PARAMS.passes},p=${ARGON2_PARAMS.parallelism}\\$`));
    expect(await verifyPassword(PASSWORD, upgraded)).toBe(true);
    expect(await verify(s, await loggedIn(s))).toBe(200);
    expect(await storedHash(s)).toBe(upgraded); // a current hash is left alone
  });

  it('rehashes an argon2id hash made with other parameters at the next login', async () => {
    const s = await start({ ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD });
    const nonce = randomBytes(16);
    const weak = argon2Sync('argon2id', { message: PASSWORD, nonce, memory: 4096, passes: 1, parallelism: 1, tagLength: 32 });
    const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');
    const old = `$argon2id$v=19$m=4096,t=1,p=1$${b64(nonce)}$${b64(weak)}`;
    await s.services.db.updateTable('admins').set({ passwordHash: old }).where('email', '=', EMAIL).execute();
    await loggedIn(s);
    expect(await storedHash(s)).toMatch(new RegExp(`^\\$argon2id\\$v=19\\$m=${ARGON2_PARAMS.memory},`));
  });

  it('upgrades an old scrypt hash at start when ADMIN_PASSWORD still matches it, keeping sessions', async () => {
    let s = await start({ ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD });
    const cookie = await loggedIn(s);
    await s.services.db
      .updateTable('admins')
      .set({ passwordHash: legacyScryptHash(PASSWORD) })
      .where('email', '=', EMAIL)
      .execute();
    s = await start({ ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD });
    expect(s.seeded.admin).toBe('kept');
    expect(await storedHash(s)).toMatch(/^\$argon2id\$/);
    expect(await verify(s, cookie)).toBe(200);
  });
});

describe(`admin session tokens on ${testDbKind()}`, () => {
  // Fails without the fix: the cookie held one base32 string whose SHA-256 was the row's id.
  it('are `<id>.<secret>`; the row holds the id and only the hash of the secret; a wrong secret is refused', async () => {
    const s = await start({ ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD });
    const cookie = await loggedIn(s);
    const token = cookie.slice('yc_admin='.length);
    expect(token).toMatch(/^[a-z2-7]{32}\.[a-z2-7]{32}$/);
    const [id, secret] = token.split('.') as [string, string];
    const row = await s.services.db.selectFrom('adminSessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);

    const other = (await loggedIn(s)).slice('yc_admin='.length).split('.')[1]!;
    const flipped = `${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}`;
    for (const wrong of [`${id}.${flipped}`, `${id}.${other}`, id, `${id}.${row.secretHash}`]) {
      expect(await verify(s, `yc_admin=${wrong}`), wrong).toBe(401);
      expect((await s.api('/api/admin/refresh-token', { method: 'POST', headers: { cookie: `yc_admin=${wrong}` } })).status, wrong).toBe(401);
      // Logging out with a guessed secret ends nothing.
      expect((await s.api('/api/admin/logout', { method: 'POST', headers: { cookie: `yc_admin=${wrong}` } })).status).toBe(204);
    }
    expect(await verify(s, cookie)).toBe(200);
  });

  // Fails without the fix: each use slid the expiry on; a 30-day-old session was extended.
  it('are refused past 7 days from login however recently they were used; client sessions past 90 days', async () => {
    const s = await start({ ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD });
    const db = s.services.db.withoutPlugins();
    const cookie = await loggedIn(s);
    const id = sessionIdOf(cookie.slice('yc_admin='.length))!;
    // Used an hour ago (so not expired), but logged in 7 days and a minute ago.
    await sql`update admin_sessions set created_at = now() - interval '7 days 1 minute', expires_at = now() + interval '11 hours' where id = ${id}`.execute(db);
    expect(await verify(s, cookie)).toBe(401);
    expect((await s.api('/api/admin/refresh-token', { method: 'POST', headers: { cookie } })).status).toBe(401);

    // Six days and 23 hours in: valid, and refresh-token extends it only to the 7-day mark.
    const younger = await loggedIn(s);
    const youngerId = sessionIdOf(younger.slice('yc_admin='.length))!;
    await sql`update admin_sessions set created_at = now() - interval '6 days 23 hours', expires_at = now() + interval '1 hour' where id = ${youngerId}`.execute(
      db,
    );
    const refreshed = await s.api('/api/admin/refresh-token', { method: 'POST', headers: { cookie: younger } });
    expect(refreshed.status).toBe(200);
    const until = new Date((await refreshed.json()).expiresAt).getTime();
    expect(until).toBeLessThanOrEqual(Date.now() + 3600_000 + 1000);
    expect(until).toBeGreaterThan(Date.now() + 3600_000 - 60_000);

    const client = await createUser(s);
    const clientId = sessionIdOf(client.token)!;
    await sql`update user_sessions set created_at = now() - interval '90 days 1 minute', expires_at = now() + interval '29 days' where id = ${clientId}`.execute(
      db,
    );
    const validate = await s.api('/api/user/validate-token', { method: 'POST', json: {}, headers: { cookie: client.cookie } });
    expect(validate.status).toBe(401);
    expect((await s.api('/api/user/refresh-token', { method: 'POST', json: {}, headers: { cookie: client.cookie } })).status).toBe(401);
  });
});
