import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { hashToken, sessionStore } from '../../api/auth/sessions.ts';
import { freshDatabase, testDbKind, type FreshDatabase } from '../helpers/database.ts';

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
    const rows = await h.db.selectFrom('userSessions').select('id').execute();
    expect(rows.map((r) => r.id)).toEqual([hashToken(token)]);
    expect(rows[0]!.id).not.toContain(token);
    expect(await users.validate(token)).toMatchObject({ subjectId: userId, renewed: false });
    expect(await users.validate(`${token}x`)).toBeNull();
    expect(await users.validate(rows[0]!.id)).toBeNull(); // the stored hash is not a token
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
    expect(await h.db.selectFrom('userSessions').select('id').where('id', '=', hashToken(token)).execute()).toEqual([]);
  });

  it('slides the expiry forward once half of the lifetime is spent', async () => {
    const admins = sessionStore(h.db, 'admin');
    const start = new Date(Date.now() - admins.lifetimeMs * 0.6);
    const { token, expiresAt } = await admins.create(adminId, start);
    const checked = await admins.validate(token);
    expect(checked?.renewed).toBe(true);
    expect(checked!.expiresAt.getTime()).toBeGreaterThan(expiresAt.getTime());
  });

  it('ends one session on logout and all of a user\'s sessions on demand', async () => {
    const users = sessionStore(h.db, 'user');
    const a = await users.create(userId);
    const b = await users.create(userId);
    await users.invalidate(a.token);
    expect(await users.validate(a.token)).toBeNull();
    expect(await users.validate(b.token)).not.toBeNull();
    await users.invalidateAll(userId);
    expect(await users.validate(b.token)).toBeNull();
  });
});
