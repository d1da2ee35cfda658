/**
 * One file holds the whole database (issue 21):
 *
 * - the embedded database (PGlite): its data folder as a gzipped tarball (`dumpDataDir`), taken
 *   after a CHECKPOINT while no transaction is open, so it opens like a cleanly stopped database
 *   (PGlite's `loadDataDir` reads it into an empty folder);
 * - PostgreSQL: `pg_dump`'s custom format (`-Fc`: compressed, restored with `pg_restore`).
 *
 * `npm run backup` (scripts/backup.ts) opens the database PGLITE_DIR or DATABASE_URL names, as
 * `npm start` does; the running server backs its own PGlite up (schedule.ts) through the same
 * `backupPglite`.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, readdirSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { createGzip } from 'node:zlib';
import { delimiter, join, resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { Env } from '../env.ts';
import { openDatabase, pgliteLockPath, pgliteOpenedBy } from '../../db/client.ts';
import { tableCountsOf, type TableCount } from './backups.repo.ts';
import { EXTENSION, backupName, writeAtomically } from './files.ts';

/** A refusal or failure said for people; the scripts print its message and exit 1. */
export class BackupError extends Error {
  override name = 'BackupError';
}

export interface BackupResult {
  file: string;
  bytes: number;
  database: 'pglite' | 'postgres';
  /** The database as the start banner names it (no password). */
  where: string;
  ms: number;
  tables: TableCount[];
}

/**
 * The data folder of a live PGlite as a tarball, consistent (see the module's comment). The
 * database is held only while the tar is made in memory; compressing it is the caller's, after.
 */
export async function tarPglite(pglite: PGlite): Promise<Blob> {
  // Written out to the data files, so the restored copy needs no recovery from the WAL.
  await pglite.exec('CHECKPOINT');
  // Queries take the transaction lock too: holding it, the tar waits for an open transaction
  // to end and no other starts meanwhile. (dumpDataDir itself takes only the query lock.)
  return pglite._runExclusiveTransaction(() => pglite.dumpDataDir('none'));
}

/**
 * Writes the live PGlite's folder to `file` as a gzipped tarball (what PGlite's own
 * `dumpDataDir('gzip')` makes and `loadDataDir` reads), whole or not at all; its size in bytes.
 * Node's zlib compresses off the main thread, after the database is released; at its fastest
 * level, since photos (most of the bytes) are compressed already.
 */
export async function backupPglite(pglite: PGlite, file: string): Promise<number> {
  const tar = await tarPglite(pglite);
  return writeAtomically(file, (tmp) =>
    pipeline(Readable.fromWeb(tar.stream() as NodeReadableStream<Uint8Array>), createGzip({ level: 1 }), createWriteStream(tmp)),
  );
}

/** Writes `pg_dump -Fc` of the database at `url` to `file` (whole or not at all); its size. */
export function backupPostgres(url: string, file: string): Promise<number> {
  return writeAtomically(file, (tmp) => runPgTool('pg_dump', ['--format=custom', '--no-owner', '--no-acl', `--file=${tmp}`], url));
}

/**
 * `npm run backup [-- FILE]`: the database the environment names, into FILE (default: a
 * `manual-…` file in BACKUP_DIR). Refuses an embedded database a running server has open.
 */
export async function backupDatabase(env: Env, file?: string): Promise<BackupResult> {
  const started = Date.now();
  const kind = env.DATABASE_URL ? 'postgres' : 'pglite';
  // A folder given (`npm run backup -- /mnt/usb`) gets the default name inside it.
  const given = file && existsSync(file) && statSync(file).isDirectory() ? file : undefined;
  const target = resolve(given || !file ? join(given ?? env.BACKUP_DIR, backupName('manual', kind, new Date())) : file);
  if (env.DATABASE_URL) {
    const bytes = await backupPostgres(env.DATABASE_URL, target);
    const handle = await openDatabase({ url: env.DATABASE_URL, poolMax: 1 });
    try {
      return { file: target, bytes, database: 'postgres', where: handle.where, ms: Date.now() - started, tables: await tableCountsOf(handle.db) };
    } finally {
      await handle.close();
    }
  }
  const dir = env.PGLITE_DIR;
  assertPgliteFolderFree(dir);
  if (!isNonEmptyFolder(dir)) throw new BackupError(`There is no database in ${dir} (PGLITE_DIR) to back up.`);
  const handle = await openDatabase({ pgliteDir: dir });
  try {
    const bytes = await backupPglite(handle.pglite!, target);
    return { file: target, bytes, database: 'pglite', where: handle.where, ms: Date.now() - started, tables: await tableCountsOf(handle.db) };
  } finally {
    await handle.close();
  }
}

/** Refuses a folder that is in memory only, or open in another process (PGlite is one process per folder). */
export function assertPgliteFolderFree(dir: string): void {
  if (dir === 'memory://')
    throw new BackupError('PGLITE_DIR is memory://: a database in memory ends with its process; there is nothing on disk to back up or restore into.');
  const pid = pgliteOpenedBy(dir);
  if (pid !== null) {
    throw new BackupError(
      `The database in ${dir} is open in another process (pid ${pid}: a running server?). PGlite allows one process per folder: ` +
        `stop the server first (Ctrl-C or kill ${pid}), or copy its newest automatic backup from BACKUP_DIR. ` +
        `If no such process is yours, delete ${pgliteLockPath(dir)}.`,
    );
  }
}

export function isNonEmptyFolder(dir: string): boolean {
  try {
    return readdirSync(dir).length > 0;
  } catch {
    return false;
  }
}

/** What a file holds, from its first bytes: pg_dump's custom format or a gzipped tarball (PGlite). */
export function formatOf(head: Uint8Array): 'postgres' | 'pglite' | null {
  if (Buffer.from(head.subarray(0, 5)).toString('latin1') === 'PGDMP') return 'postgres';
  if (head[0] === 0x1f && head[1] === 0x8b) return 'pglite';
  return null;
}

export const FORMAT_NAME = { postgres: `pg_dump's custom format (.${EXTENSION.postgres})`, pglite: `a PGlite data dump (.${EXTENSION.pglite})` } as const;

/**
 * Where pg_dump / pg_restore are: on PATH (Debian's wrapper picks the version the server
 * needs), else the newest /usr/lib/postgresql/<version>/bin.
 */
export function pgTool(name: 'pg_dump' | 'pg_restore'): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  try {
    const versions = readdirSync('/usr/lib/postgresql')
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) {
      const path = join('/usr/lib/postgresql', v, 'bin', name);
      if (existsSync(path)) return path;
    }
  } catch {
    // No PostgreSQL packages.
  }
  throw new BackupError(
    `${name} was not found: install PostgreSQL's client tools (Debian/Ubuntu: apt-get install postgresql-client) in a version at least the server's.`,
  );
}

/**
 * Runs pg_dump or pg_restore against `url`. The password goes through PGPASSWORD, never on the
 * command line (where `ps` would show it); their own message is the error's.
 */
export function runPgTool(name: 'pg_dump' | 'pg_restore', args: string[], url: string): Promise<void> {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  const bin = pgTool(name);
  return new Promise((done, fail) => {
    const child = spawn(bin, [...args, `--dbname=${u.toString()}`], {
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', (err) => fail(new BackupError(`${name} could not run: ${err.message}`)));
    child.once('exit', (code, signal) => {
      if (code === 0) done();
      else fail(new BackupError(`${name} failed (${signal ?? `exit ${code}`}): ${stderr.trim() || 'no message'}`));
    });
  });
}
