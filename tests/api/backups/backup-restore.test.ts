/**
 * Backups she can restore (issue 21), on the database of the run (PGlite in a folder, or a
 * PostgreSQL database): the restore drill through the real commands (`node scripts/backup.ts`,
 * `node scripts/restore.ts`): seed, back up, empty, restore; every table's rows and their
 * checksum match, and the restored server serves the photo and logs the admin in. Then the
 * refusals, and the running server's own backups.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { loadEnv } from '../../../api/env.ts';
import { startServer, type RunningServer } from '../../../api/server.ts';
import { openDatabase } from '../../../db/client.ts';
import { RestoreRefused, restoreDatabase } from '../../../api/backups/restore.ts';
import { BackupError, backupDatabase } from '../../../api/backups/backup.ts';
import { freshDatabase, testDbKind, type FreshDatabase } from '../../helpers/database.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { smallJpeg } from '../../helpers/photos.ts';
import type { TestServer } from '../../helpers/server.ts';
import type { ImageUploadedView } from '../../../contract/images.ts';
import type { BackupStatusView } from '../../../contract/backups.ts';
import { itemAt, must } from '../../helpers/guards.ts';

const kind = testDbKind();
const root = resolve(import.meta.dirname, '../../..');
const ADMIN = { ADMIN_EMAIL: 'teacher-admin@example.com', ADMIN_PASSWORD: 'restore-drill-password-42' };

let work: string;
const dropLater: FreshDatabase[] = [];
const running: RunningServer[] = [];

/** An empty database of this run's kind: a folder that does not exist yet, or a new PostgreSQL database. */
async function emptyDatabase(name: string): Promise<Record<string, string>> {
  if (kind === 'pglite') return { PGLITE_DIR: join(work, name, 'pglite') };
  const fresh = await freshDatabase('postgres');
  dropLater.push(fresh);
  return { DATABASE_URL: fresh.env.DATABASE_URL! };
}

const envOf = (db: Record<string, string>, more: Record<string, string> = {}) =>
  loadEnv({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', QUIET: '1', BACKUP_DIR: join(work, 'backups'), ...ADMIN, ...db, ...more });

async function start(db: Record<string, string>, more: Record<string, string> = {}, seedContent = false) {
  const server = await startServer(envOf(db, more), { site: false, seedContent });
  running.push(server);
  const base = `http://127.0.0.1:${server.port}`;
  const api = (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const { json, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (json !== undefined) headers.set('content-type', 'application/json');
    return fetch(`${base}${path}`, { ...rest, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) });
  };
  const stop = async () => {
    running.splice(running.indexOf(server), 1);
    await server.close();
  };
  return { server, api, stop, cookie: () => adminCookie(server as unknown as TestServer) };
}

/** Every table of schema public: its row count and an md5 of its rows, each as text, in order. */
async function fingerprint(db: Record<string, string>): Promise<Record<string, { rows: number; md5: string }>> {
  const handle = await openDatabase({ url: db.DATABASE_URL, pgliteDir: db.PGLITE_DIR });
  try {
    const tables = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`.execute(handle.db);
    const out: Record<string, { rows: number; md5: string }> = {};
    for (const { name } of tables.rows) {
      const { rows } = await sql<{ n: number; md5: string | null }>`
        select count(*)::int as n, md5(string_agg(t::text, ',' order by t::text)) as md5 from ${sql.table(name)} t`.execute(handle.db);
      out[name] = { rows: itemAt(rows, 0).n, md5: itemAt(rows, 0).md5 ?? '' };
    }
    return out;
  } finally {
    await handle.close();
  }
}

/** Runs one of the commands as the teacher would (`npm run backup` is `node scripts/backup.ts`). */
function command(script: 'backup' | 'restore', args: string[], db: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [join(root, 'scripts', `${script}.ts`), ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', BACKUP_DIR: join(work, 'backups'), ...ADMIN, ...db },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((done) => child.once('close', (code) => done({ code, out, err })));
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'backup-restore-'));
});
afterAll(async () => {
  for (const r of running.splice(0)) await r.close().catch(() => {});
  for (const d of dropLater) await d.drop().catch(() => {});
  rmSync(work, { recursive: true, force: true });
});

describe(`backups she can restore, on ${kind}`, () => {
  let source: Record<string, string>;
  let target: Record<string, string>;
  let photoUrl: string;
  let photoBytes: Buffer;
  let variantUrl: string;
  let variantBytes: Buffer;
  let before: Awaited<ReturnType<typeof fingerprint>>;
  const file = () => join(work, kind === 'pglite' ? 'drill.tar.gz' : 'drill.dump');

  it('the drill: seed, back up, empty, restore; every table matches, the restored server serves the photo and logs the admin in', async () => {
    // Seed: the real server with its content, a photo through the admin's upload, some business.
    source = await emptyDatabase('source');
    const first = await start(source, {}, true);
    const cookie = await first.cookie();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await smallJpeg(900, 600, '#6b3e26'))], { type: 'image/jpeg' }), 'tins.jpg');
    const uploaded = await first.api('/api/admin/images', { method: 'POST', body: form, headers: { cookie } });
    expect(uploaded.status).toBe(201);
    const { url, picture } = (await uploaded.json()) as ImageUploadedView;
    photoUrl = url;
    variantUrl = itemAt(picture.avif.split(', '), 0).split(' ')[0]!;
    photoBytes = Buffer.from(await (await first.api(photoUrl)).arrayBuffer());
    variantBytes = Buffer.from(await (await first.api(variantUrl)).arrayBuffer());
    expect(photoBytes.length).toBeGreaterThan(100);

    const { db } = first.server.services;
    for (let i = 0; i < 5; i++) {
      const order = await db
        .insertInto('orders')
        .values({
          paypalOrderId: `PAYPAL-DRILL-${i}`,
          payerName: `Buyer ${i}`,
          payerEmail: `buyer${i}@example.com`,
          itemsTotalCents: 1800 * (i + 1),
          totalCents: 1800 * (i + 1) + 600,
          shippingCents: 600,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('orderItems')
        .values({ orderId: order.id, name: 'Dark tin', unitPriceCents: 1800, quantity: i + 1 })
        .execute();
    }
    await db
      .insertInto('classSignups')
      .values(
        [1, 2, 3].map((i) => ({
          classTitle: 'Gentle Flow',
          date: '2027-01-0' + i,
          name: `Student ${i}`,
          email: `student${i}@example.com`,
          waiverAccepted: true,
          signaturePng: new Uint8Array([0x89, 0x50, 0x4e, 0x47, i]),
        })),
      )
      .execute();
    await db.insertInto('subscribers').values({ email: 'reader@example.com' }).execute();
    await db.insertInto('contactMessages').values({ name: 'Ana', email: 'ana@example.com', message: "Hello — ünïcode ✓, a quote ' and a comma," }).execute();
    await first.stop();

    before = await fingerprint(source);
    expect(before.images?.rows).toBe(1);
    expect(must(before.image_variants, 'before.image_variants').rows).toBeGreaterThan(1);
    expect(before.orders?.rows).toBe(5);
    expect(before.class_signups?.rows).toBe(3);
    expect(must(before.slots, 'before.slots').rows).toBeGreaterThan(0);
    expect(before.admins?.rows).toBe(1);

    // Back up, as `npm run backup -- FILE`.
    const backup = await command('backup', [file()], source);
    expect(backup.code, backup.err).toBe(0);
    expect(backup.out).toContain(`to ${file()}`);
    expect(backup.out).toMatch(/ orders\s+5\n/);
    expect(existsSync(file())).toBe(true);

    // Empty: a new database (folder) nobody has used; restore, as `npm run restore -- FILE`.
    target = await emptyDatabase('target');
    const restore = await command('restore', [file()], target);
    expect(restore.code, restore.err).toBe(0);
    expect(restore.out).toMatch(/ images\s+1\n/);
    expect(restore.out).toMatch(/ class_signups\s+3\n/);
    expect(restore.out).toMatch(new RegExp(`${Object.keys(before).length} tables, [\\d,]+ rows`));

    // Every table: the same rows, the same bytes.
    expect(await fingerprint(target)).toEqual(before);

    // The restored server serves the photo and lets the admin in.
    const restored = await start(target);
    const served = await restored.api(photoUrl);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(photoBytes)).toBe(true);
    expect(Buffer.from(await (await restored.api(variantUrl)).arrayBuffer()).equals(variantBytes)).toBe(true);
    const login = await restored.api('/api/admin/login', {
      method: 'POST',
      json: { email: ADMIN.ADMIN_EMAIL, password: ADMIN.ADMIN_PASSWORD, recaptchaToken: 'dev:admin_login' },
    });
    expect(login.status).toBe(200);
    const cookie2 = must(login.headers.get('set-cookie'), "login.headers.get('set-cookie')").split(';')[0]!;
    expect((await restored.api('/api/admin/orders', { headers: { cookie: cookie2 } })).status).toBe(200);
    await restored.stop();
  }, 180_000);

  it('refuses to restore into a non-empty database unless told (--force), and keeps what it replaced', async () => {
    expect(before, 'the drill ran').toBeDefined();
    // The source database is not empty: refused, exit 2, nothing changed.
    const refused = await command('restore', [file()], source);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('is not empty');
    expect(refused.err).toContain('--force');
    await expect(restoreDatabase(envOf(source), file())).rejects.toBeInstanceOf(RestoreRefused);
    expect(await fingerprint(source)).toEqual(before);

    // Change the source, then restore over it with --force: the backup's rows again.
    const handle = await openDatabase({ url: source.DATABASE_URL, pgliteDir: source.PGLITE_DIR });
    await handle.db.deleteFrom('orderItems').execute();
    await handle.db.deleteFrom('orders').execute();
    await handle.db.insertInto('subscribers').values({ email: 'after-backup@example.com' }).execute();
    await handle.close();
    const forced = await command('restore', [file(), '--force'], source);
    expect(forced.code, forced.err).toBe(0);
    expect(forced.out).toMatch(/ orders\s+5\n/);
    const kept = /kept in (.+) \(delete it/.exec(forced.out)?.[1];
    expect(kept && existsSync(kept), forced.out).toBe(true);
    expect(await fingerprint(source)).toEqual(before);

    // Not a backup at all, and a backup of the other kind: said plainly, nothing touched.
    const wrong = await command('restore', [join(root, 'package.json')], await emptyDatabase('wrong'));
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain('is not a backup');
    const otherKind = join(work, 'other-kind.bin');
    writeFileSync(otherKind, kind === 'pglite' ? Buffer.from('PGDMP\x01\x0e\x00') : Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]));
    const mismatch = await command('restore', [otherKind], await emptyDatabase('mismatch'));
    expect(mismatch.code).toBe(1);
    expect(mismatch.err).toContain('which restores only');

    // A folder for FILE: the backup goes inside it, named for its time.
    const into = join(work, 'usb');
    mkdirSync(into);
    const toFolder = await command('backup', [into], source);
    expect(toFolder.code, toFolder.err).toBe(0);
    expect(readdirSync(into)).toEqual([expect.stringMatching(/^manual-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.(tar\.gz|dump)$/)]);
  }, 120_000);

  // PGlite only (one process per folder; PostgreSQL has no such lock): defined only on PGlite.
  if (kind === 'pglite')
    it('never opens an embedded database a running server has open', async () => {
      const live = await start(target);
      try {
        const backup = await command('backup', [join(work, 'while-running.tar.gz')], target);
        expect(backup.code).toBe(1);
        expect(backup.err).toMatch(/open in another process \(pid \d+/);
        const restore = await command('restore', [file(), '--force'], target);
        expect(restore.code).toBe(1);
        expect(restore.err).toContain('open in another process');
        // In memory, there is nothing on disk to back up.
        await expect(backupDatabase(envOf({ PGLITE_DIR: 'memory://' }))).rejects.toBeInstanceOf(BackupError);
      } finally {
        await live.stop();
      }
    }, 60_000);

  it('the running server backs itself up into BACKUP_DIR, and the admin sees the last backup', async () => {
    const dir = join(work, 'auto');
    const db = kind === 'pglite' ? target : await emptyDatabase('auto');
    // A backup due every 2 seconds, keeping one: the retention deletes the one before.
    const live = await start(db, {
      BACKUP_AUTO: '1',
      BACKUP_DIR: dir,
      BACKUP_INTERVAL_HOURS: String(2 / 3600),
      BACKUP_KEEP_DAILY: '1',
      BACKUP_KEEP_WEEKLY: '0',
    });
    try {
      expect((await live.api('/api/admin/backups')).status).toBe(401);
      const cookie = await live.cookie();
      const status = async () => (await (await live.api('/api/admin/backups', { headers: { cookie } })).json()) as BackupStatusView;
      if (kind === 'postgres') {
        // Its provider backs a PostgreSQL server up (docs/DEPLOY.md): no automatic backups here.
        await new Promise((r) => setTimeout(r, 2500));
        expect(await status()).toMatchObject({ last: null, auto: false, database: 'postgres', dir });
        expect(existsSync(dir)).toBe(false);
        return;
      }
      let view = await status();
      for (let i = 0; i < 300 && !view.last; i++) {
        await new Promise((r) => setTimeout(r, 100));
        view = await status();
      }
      expect(view).toMatchObject({ auto: true, database: 'pglite', dir, intervalHours: 2 / 3600, keep: { daily: 1, weekly: 0 } });
      expect(must(view.last, 'view.last').file).toMatch(/^auto-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.tar\.gz$/);
      expect(must(view.last, 'view.last').bytes).toBeGreaterThan(100_000);
      expect(Date.now() - new Date(must(view.last, 'view.last').at).getTime()).toBeLessThan(60_000);
      const firstFile = must(view.last, 'view.last').file;
      // The next one replaces it (one kept).
      for (let i = 0; i < 300 && must(view.last, 'view.last').file === firstFile; i++) {
        await new Promise((r) => setTimeout(r, 100));
        view = await status();
      }
      expect(must(view.last, 'view.last').file).not.toBe(firstFile);
      await new Promise((r) => setTimeout(r, 200));
      expect(readdirSync(dir).filter((n) => n.startsWith('auto-'))).toHaveLength(1);

      // A backup taken from the live server restores like any other.
      const copy = join(work, 'live-copy.tar.gz');
      copyFileSync(join(dir, must(view.last, 'view.last').file), copy);
      const restored = await restoreDatabase(envOf({ PGLITE_DIR: join(work, 'from-auto', 'pglite') }), copy);
      expect(restored.tables.find((t) => t.table === 'images')?.rows).toBe(1);
      expect(restored.tables.find((t) => t.table === 'orders')?.rows).toBe(5);
    } finally {
      await live.stop();
    }
  }, 60_000);
});
