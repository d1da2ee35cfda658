import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../db/client.ts';
import { migrateToLatest } from '../../../db/migrate.ts';
import { sql } from 'kysely';
import { hashToken, sessionIdOf, sessionStore } from '../../../api/middleware/sessions.ts';
import { freshDatabase, testDbKind, type FreshDatabase } from '../../helpers/database.ts';
import { itemAt, must } from '../../helpers/guards.ts';

let fresh: FreshDatabase;
let h: DatabaseHandle;
let userId: string;
let adminId: string;
beforeAll(async () => {
  fresh = await freshDatabase();
  h = await openDatabase({ url: fresh.env.DATABASE_URL, pgliteDir: fresh.env.PGLITE_DIR });
  await migrateToLatest(h.db);
  userId = (await h.db.insertInto('users').values({ email: 'ana@example.com' }).returning('id').executeTakeFirstOrThrow()).id;
  adminId = (await h.db.insertInto('admins').values({ email: 'admin@example.com', passwordHash: 'x' }).returning('id').executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await h?.close();
  await fresh?.drop();
});

describe(`sessions on ${testDbKind()}`, () => {
  it('stores only the hash of a long random token and validates it back to its user', async () => {
    const users = sessionStore(h.db, 'user');
    const { token } = await users.create(userId);
    expect(token.length).toBeGreaterThanOrEqual(32);
    const [id, secret] = token.split('.') as [string, string];
    const rows = await h.db.selectFrom('userSessions').select(['id', 'secretHash']).execute();
    expect(rows).toEqual([{ id, secretHash: hashToken(secret) }]);
    expect(itemAt(rows, 0).secretHash).not.toContain(secret);
    expect(await users.validate(token)).toMatchObject({ subjectId: userId, renewed: false });
    expect(await users.validate(`${token}x`)).toBeNull();
    expect(await users.validate(`${itemAt(rows, 0).id}.${itemAt(rows, 0).secretHash}`)).toBeNull(); // the stored row is not a token
  });

  it('keeps clients and the administrator apart', async () => {
    const { token } = await sessionStore(h.db, 'admin').create(adminId);
    expect(await sessionStore(h.db, 'user').validate(token)).toBeNull();
    expect(await sessionStore(h.db, 'admin').validate(token)).toMatchObject({ subjectId: adminId });
  });

  it('refuses an expired session and deletes it', async () => {
    const users = sessionStore(h.db, 'user');
    const past = new Date(Date.now() - users.lifetimeMs - 1000);
    const { token } = await users.create(userId, past);
    expect(await users.validate(token)).toBeNull();
    expect(await h.db.selectFrom('userSessions').select('id').where('id', '=', sessionIdOf(token)!).execute()).toEqual([]);
  });

  it('slides the expiry forward once half of the lifetime is spent', async () => {
    const admins = sessionStore(h.db, 'admin');
    const start = new Date(Date.now() - admins.lifetimeMs * 0.6);
    const { token, expiresAt } = await admins.create(adminId, start);
    const checked = await admins.validate(token);
    expect(checked?.renewed).toBe(true);
    expect(must(checked, 'checked').expiresAt.getTime()).toBeGreaterThan(expiresAt.getTime());
  });

  it("ends one session on logout and all of a user's sessions on demand", async () => {
    const users = sessionStore(h.db, 'user');
    const a = await users.create(userId);
    const b = await users.create(userId);
    await users.invalidate(a.token);
    expect(await users.validate(a.token)).toBeNull();
    expect(await users.validate(b.token)).not.toBeNull();
    await users.invalidateAll(userId);
    expect(await users.validate(b.token)).toBeNull();
  });

  it('issues `<id>.<secret>` tokens: two random base32 strings, the row keyed by the id', async () => {
    const users = sessionStore(h.db, 'user');
    const a = await users.create(userId);
    const b = await users.create(userId);
    for (const { token } of [a, b]) expect(token).toMatch(/^[a-z2-7]{32}\.[a-z2-7]{32}$/);
    const [idA, secretA] = a.token.split('.') as [string, string];
    const [idB, secretB] = b.token.split('.') as [string, string];
    expect(new Set([idA, secretA, idB, secretB]).size).toBe(4);
    expect(sessionIdOf(a.token)).toBe(idA);
    const row = await h.db.selectFrom('userSessions').select(['secretHash', 'createdAt']).where('id', '=', idA).executeTakeFirstOrThrow();
    expect(row.secretHash).toBe(hashToken(secretA));
    expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a right id with a wrong secret, and that guess ends nothing', async () => {
    const users = sessionStore(h.db, 'user');
    const { token } = await users.create(userId);
    const [id, secret] = token.split('.') as [string, string];
    const otherSecret = (await users.create(userId)).token.split('.')[1]!;
    // One letter off, another session's secret, the id alone, the secret alone, the old format.
    const flipped = `${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}`;
    for (const wrong of [`${id}.${flipped}`, `${id}.${otherSecret}`, id, `${id}.`, secret, `.${secret}`, `${id}${secret}`, `${id}.${secret}.${secret}`]) {
      expect(await users.validate(wrong), wrong).toBeNull();
      expect(await users.refresh(wrong), wrong).toBeNull();
      await users.invalidate(wrong);
    }
    expect(await users.validate(token)).toMatchObject({ subjectId: userId });
  });

  // Fails without the absolute lifetime: each use slides the expiry on forever.
  it('ends an admin session 7 days after login even when it is used every few hours', async () => {
    const admins = sessionStore(h.db, 'admin');
    const start = new Date(Date.now() - 8 * 24 * 3600_000);
    const { token } = await admins.create(adminId, start);
    let lastValid = start;
    for (let t = start.getTime() + 5 * 3600_000; t <= Date.now(); t += 5 * 3600_000) {
      const session = await admins.validate(token, new Date(t));
      if (!session) break;
      lastValid = new Date(t);
      expect(session.expiresAt.getTime()).toBeLessThanOrEqual(start.getTime() + admins.maxAgeMs);
    }
    expect(lastValid.getTime()).toBeGreaterThan(start.getTime() + 6.5 * 24 * 3600_000);
    expect(lastValid.getTime()).toBeLessThan(start.getTime() + 7 * 24 * 3600_000);
    expect(await admins.validate(token)).toBeNull();
    expect(await admins.refresh(token)).toBeNull();
    expect(await h.db.selectFrom('adminSessions').select('id').where('id', '=', sessionIdOf(token)!).execute()).toEqual([]);
  });

  it('ends a client session 90 days after login even when it is used every day', async () => {
    const users = sessionStore(h.db, 'user');
    const start = new Date(Date.now() - 91 * 24 * 3600_000);
    const { token } = await users.create(userId, start);
    let days = 0;
    for (let t = start.getTime() + 24 * 3600_000; t <= Date.now(); t += 24 * 3600_000) {
      // refresh-token every day too: it may not reach past the end either.
      const session = (await users.validate(token, new Date(t))) && (await users.refresh(token, new Date(t)));
      if (!session) break;
      days++;
      expect(session.expiresAt.getTime()).toBeLessThanOrEqual(start.getTime() + users.maxAgeMs);
    }
    expect(days).toBe(89);
    expect(await users.validate(token)).toBeNull();
  });

  it('refuses a session whose row says it is past its absolute lifetime, whatever its expiry says', async () => {
    const users = sessionStore(h.db, 'user');
    const { token } = await users.create(userId);
    const id = sessionIdOf(token)!;
    // Last used yesterday (expiry a month away), but logged in 90 days and a minute ago.
    await sql`update user_sessions set created_at = now() - interval '90 days 1 minute', expires_at = now() + interval '29 days' where id = ${id}`.execute(
      h.db.withoutPlugins(),
    );
    expect(await users.validate(token)).toBeNull();
    // A day short of it, it is valid, and a renewal stops at the absolute end.
    const { token: younger } = await users.create(userId);
    await sql`update user_sessions set created_at = now() - interval '89 days', expires_at = now() + interval '1 hour' where id = ${sessionIdOf(younger)!}`.execute(
      h.db.withoutPlugins(),
    );
    const renewed = await users.validate(younger);
    expect(renewed?.renewed).toBe(true);
    expect(must(renewed, 'renewed').expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 24 * 3600_000 + 1000);
    expect(must(renewed, 'renewed').expiresAt.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
  });
});
