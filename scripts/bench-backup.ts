/**
 * `npm run bench:backup` (issue 21): how long `npm run backup` and `npm run restore` take and how
 * big the file is, for a database seeded with the site's content plus 10,000 orders (1–3 lines
 * each) and 1,000 photos, on the embedded database (a PGlite folder) and on PostgreSQL.
 *
 * The photos are inserted with SQL, not through the pipeline (1,000 real uploads would take 15
 * minutes): each is a master of 48 KB and ten sizes of 4 KB of random bytes, which compress no
 * better than real WebP/AVIF do; 88 KB a photo, about what a 1200 px product photo's sizes weigh.
 * The commands run as she runs them (`node scripts/backup.ts FILE`, `node scripts/restore.ts
 * FILE` into an empty database), timed from outside, process start included. For PGlite also the
 * backup inside a running server (the daily automatic one) and how long it holds the database.
 *
 * Writes docs/bench/backup.md. PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/postgres (a throwaway database is made and dropped).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { loadEnv } from '../api/env.ts';
import { prepareDatabase } from '../api/boot.ts';
import { openDatabase, type DatabaseHandle, type DB } from '../db/client.ts';
import { backupPglite, tarPglite } from '../api/backups/backup.ts';
import { formatBytes } from '../contract/backups.ts';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 10_000);
const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 1_000);
const MASTER_BYTES = 48 * 1024;
const VARIANT_BYTES = 4 * 1024;
const VARIANT_WIDTHS = [320, 640, 960, 1280, 1920];
const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Row {
  database: string;
  databaseSize: number;
  tables: number;
  rows: number;
  backupMs: number;
  fileBytes: number;
  restoreMs: number;
  liveDumpMs?: number;
  liveHeldMs?: number;
  checkpointMs?: number;
  match: boolean;
}

/** 10,000 orders with their lines and 1,000 photos with their sizes, in bulk. */
async function seedBulk(db: DB): Promise<void> {
  await sql`
    insert into orders (paypal_order_id, paypal_capture_id, payer_name, payer_email, items_total_cents, shipping_cents, total_cents, status, created_at)
    select 'BENCH-' || g, 'CAPTURE-' || g, 'Buyer ' || g, 'buyer' || g || '@example.com', 1800 * (1 + g % 3), 600, 1800 * (1 + g % 3) + 600,
           (array['paid', 'shipped', 'picked_up', 'refunded'])[1 + g % 4], now() - (g || ' minutes')::interval
    from generate_series(1, ${ORDERS}) g`.execute(db);
  await sql`
    insert into order_items (order_id, name, unit_price_cents, quantity)
    select o.id, 'Tin ' || n, 1800, 1 from orders o cross join generate_series(1, 3) n
    where n <= 1 + (hashtext(o.id::text) & 2147483647) % 3`.execute(db);
  for (let done = 0; done < PHOTOS; done += 50) {
    const batch = Math.min(50, PHOTOS - done);
    const images = await db
      .insertInto('images')
      .values(
        Array.from({ length: batch }, () => ({
          contentType: 'image/webp',
          bytes: randomBytes(MASTER_BYTES),
          width: 2560,
          height: 1707,
          placeholder: 'data:image/webp;base64,UklGRg==',
        })),
      )
      .returning('id')
      .execute();
    await db
      .insertInto('imageVariants')
      .values(
        images.flatMap(({ id }) =>
          (['avif', 'webp'] as const).flatMap((format) =>
            VARIANT_WIDTHS.map((width) => ({ imageId: id, format, width, height: Math.round((width * 2) / 3), bytes: randomBytes(VARIANT_BYTES) })),
          ),
        ),
      )
      .execute();
  }
}

/** Every table's count and an md5 of its rows: the restore is compared with the original. */
type Fingerprint = { tables: number; rows: number; sums: string };
async function fingerprint(db: DB): Promise<Fingerprint> {
  const names = (
    await sql<{
      name: string;
    }>`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`.execute(db)
  ).rows;
  let rows = 0;
  const sums: string[] = [];
  for (const { name } of names) {
    const r = (
      await sql<{
        n: number;
        md5: string | null;
      }>`select count(*)::int as n, md5(string_agg(t::text, ',' order by t::text)) as md5 from ${sql.table(name)} t`.execute(db)
    ).rows[0]!;
    rows += r.n;
    sums.push(`${name}:${r.n}:${r.md5 ?? ''}`);
  }
  return { tables: names.length, rows, sums: sums.join('\n') };
}

function run(script: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [join('scripts', `${script}.ts`), ...args], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((done, fail) =>
    child.once('close', (code) => (code === 0 ? done(performance.now() - started) : fail(new Error(`${script} exited ${code}:\n${out}`)))),
  );
}

const folderSize = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((sum, e) => sum + (e.isDirectory() ? folderSize(join(dir, e.name)) : statSync(join(dir, e.name)).size), 0);

async function benchPglite(work: string): Promise<Row> {
  const source = { PGLITE_DIR: join(work, 'source', 'pglite'), BACKUP_DIR: join(work, 'backups') };
  const target = { PGLITE_DIR: join(work, 'target', 'pglite'), BACKUP_DIR: join(work, 'backups') };
  const env = loadEnv({ NODE_ENV: 'test', QUIET: '1', ...source });
  console.log('[bench:backup] PGlite: seeding…');
  const { database } = await prepareDatabase(env, { seedContent: true });
  await seedBulk(database.db);
  const original = await fingerprint(database.db);
  // PGlite has no background checkpointer: the first CHECKPOINT after the bulk load writes it
  // all out. A server's daily backup finds only a day's changes to write.
  let started = performance.now();
  await sql`checkpoint`.execute(database.db);
  const checkpointMs = performance.now() - started;
  // What the running server's automatic backup costs: the database is held while the tar is
  // made, then it is compressed to the file while requests go on.
  started = performance.now();
  await tarPglite(database.pglite!);
  const liveHeldMs = performance.now() - started;
  started = performance.now();
  await backupPglite(database.pglite!, join(work, 'live.tar.gz'));
  const liveDumpMs = performance.now() - started;
  await database.close();
  const databaseSize = folderSize(source.PGLITE_DIR);

  const trip = await roundTrip('PGlite', join(work, 'bench.tar.gz'), source, target, () => openDatabase({ pgliteDir: target.PGLITE_DIR }));
  return { database: 'PGlite (folder)', databaseSize, ...figures(original, trip), liveDumpMs, liveHeldMs, checkpointMs };
}

/** Her two commands, backup of `source` to `file` then restore into `target`, timed; the copy's fingerprint read back. */
async function roundTrip(name: string, file: string, source: Record<string, string>, target: Record<string, string>, open: () => Promise<DatabaseHandle>) {
  console.log(`[bench:backup] ${name}: backup…`);
  const backupMs = await run('backup', [file], source);
  console.log(`[bench:backup] ${name}: restore…`);
  const restoreMs = await run('restore', [file], target);
  const restored = await open();
  const copy = await fingerprint(restored.db);
  await restored.close();
  return { backupMs, restoreMs, fileBytes: statSync(file).size, copy };
}

/** A row's figures: the original's counts, the round trip's times and file, and whether the copy matches. */
const figures = (original: Fingerprint, trip: Awaited<ReturnType<typeof roundTrip>>) => ({
  tables: original.tables,
  rows: original.rows,
  backupMs: trip.backupMs,
  fileBytes: trip.fileBytes,
  restoreMs: trip.restoreMs,
  match: trip.copy.sums === original.sums,
});

async function benchPostgres(work: string): Promise<Row> {
  const names = [`bench_backup_${process.pid}_a`, `bench_backup_${process.pid}_b`];
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const urlOf = (name: string) => {
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    return u.toString();
  };
  try {
    for (const n of names) await admin.query(`create database "${n}"`);
    const source = { DATABASE_URL: urlOf(names[0]!), BACKUP_DIR: join(work, 'backups') };
    const target = { DATABASE_URL: urlOf(names[1]!), BACKUP_DIR: join(work, 'backups') };
    console.log('[bench:backup] PostgreSQL: seeding…');
    const { database } = await prepareDatabase(loadEnv({ NODE_ENV: 'test', QUIET: '1', ...source }), { seedContent: true });
    await seedBulk(database.db);
    await sql`vacuum analyze`.execute(database.db);
    const original = await fingerprint(database.db);
    const databaseSize = Number((await sql<{ n: string }>`select pg_database_size(current_database()) as n`.execute(database.db)).rows[0]!.n);
    await database.close();

    const trip = await roundTrip('PostgreSQL', join(work, 'bench.dump'), source, target, () => openDatabase({ url: target.DATABASE_URL, poolMax: 1 }));
    return { database: 'PostgreSQL 15 (pg_dump -Fc)', databaseSize, ...figures(original, trip) };
  } finally {
    for (const n of names) await admin.query(`drop database if exists "${n}" with (force)`);
    await admin.end();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main() {
  const load = loadavg()[0]!;
  const work = mkdtempSync(join(tmpdir(), 'bench-backup-'));
  const rows: Row[] = [];
  try {
    rows.push(await benchPglite(work));
    try {
      rows.push(await benchPostgres(work));
    } catch (err) {
      console.warn(`[bench:backup] PostgreSQL skipped: ${(err as Error).message}`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const pglite = rows.find((r) => r.liveDumpMs !== undefined);
  const report = [
    '# Backup and restore',
    '',
    `Measured ${when} UTC by \`npm run bench:backup\` on ${cpus().length} cores (load average ${load.toFixed(1)} at the start: other work on the machine slows every figure).`,
    `Each database holds the site's seeded content plus ${ORDERS.toLocaleString('en-US')} orders`,
    `(1–3 lines each) and ${PHOTOS.toLocaleString('en-US')} photos. The photos are inserted with SQL, not uploaded: each is a ${MASTER_BYTES / 1024} KB master and`,
    `${VARIANT_WIDTHS.length * 2} sizes of ${VARIANT_BYTES / 1024} KB of random bytes (as incompressible as real WebP and AVIF), ${formatBytes(MASTER_BYTES + VARIANT_WIDTHS.length * 2 * VARIANT_BYTES)} a photo.`,
    'Times are the commands as she runs them (`node scripts/backup.ts FILE`, `node scripts/restore.ts FILE` into an empty database),',
    'from outside, process start and the printed table counts included. "Match": every table\'s rows and their md5 are the same after the restore.',
    '',
    '| database | size on disk | tables | rows | backup | file | restore | match |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.database} | ${formatBytes(r.databaseSize)} | ${r.tables} | ${r.rows.toLocaleString('en-US')} | ${seconds(r.backupMs)} | ${formatBytes(r.fileBytes)} | ${seconds(r.restoreMs)} | ${r.match ? 'yes' : '**no**'} |`,
    ),
    '',
    ...(pglite
      ? [
          `The running server's own automatic backup of its open database (no process start) took ${seconds(pglite.liveDumpMs!)}. Of that, the`,
          `database is held for ${seconds(pglite.liveHeldMs!)} (a CHECKPOINT and the tarball made in memory): requests wait that long; the`,
          'tarball is then gzipped to the file while they go on. PGlite has no background checkpointer: the first CHECKPOINT after the',
          `bulk load took ${seconds(pglite.checkpointMs!)}; a daily backup writes out only that day's changes.`,
          '',
        ]
      : []),
    rows.some((r) => !r.match) ? '**A restored database did not match its original.**' : 'Every restore matched its original, table by table.',
    '',
  ].join('\n');
  mkdirSync('docs/bench', { recursive: true });
  writeFileSync('docs/bench/backup.md', report);
  console.log(`\n${report}\nWrote docs/bench/backup.md`);
  if (rows.some((r) => !r.match)) process.exit(1);
}

await main();
