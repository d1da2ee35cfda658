/**
 * The connection factory: PostgreSQL through `pg` when a URL is given, otherwise the embedded
 * PGlite (real PostgreSQL compiled to WebAssembly) stored in a folder.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CamelCasePlugin, Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import type { Database } from './schema.ts';
import { useNativeBytea } from './pglite-bytea.ts';
import { readPgliteTemplate } from './pglite-template.ts';

export type DB = Kysely<Database>;

export interface DatabaseOptions {
  /** postgres://… ; when absent, PGlite in `pgliteDir`. */
  url?: string | undefined;
  /** A folder, or `memory://` for a throwaway database. */
  pgliteDir?: string;
  /**
   * A fresh cluster's tarball (db/pglite-template.ts) a new PGlite database is loaded from instead
   * of running initdb; when absent (no build, another PGlite version), initdb runs as before.
   */
  pgliteTemplate?: string | undefined;
  poolMax?: number;
}

export interface DatabaseHandle {
  db: DB;
  kind: 'postgres' | 'pglite';
  /** Human-readable location for the start banner (never includes a password). */
  where: string;
  /** PostgreSQL's connection pool (the shared limits count on it); absent on PGlite. */
  pool?: import('pg').Pool;
  /** The embedded database itself (its data dump is the backup); absent on PostgreSQL. */
  pglite?: PGlite;
  close(): Promise<void>;
}

// One PGlite per folder per process: two bundles importing this module must not open the
// same files twice (PGlite is single-process and would corrupt them).
const openPglites: Map<string, Promise<PGlite>> = ((globalThis as { __pgliteInstances?: Map<string, Promise<PGlite>> }).__pgliteInstances ??= new Map());

/**
 * Beside a PGlite folder, `<folder>.lock` names the process that has it open (PGlite's own
 * postmaster.pid carries no real pid). The backup and restore commands read it so they never
 * open the files of a running server; a lock left by a crashed process names a dead pid.
 */
export const pgliteLockPath = (dir: string): string => `${resolve(dir)}.lock`;

/** The pid of another live process that has the PGlite folder open, or null. */
export function pgliteOpenedBy(dir: string): number | null {
  let pid: number;
  try {
    pid = Number((JSON.parse(readFileSync(pgliteLockPath(dir), 'utf8')) as { pid?: unknown }).pid);
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    // EPERM: alive, but someone else's.
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

/**
 * The embedded database tuned for a small site (issue 25, decision 0027). PGlite's memory is one
 * WebAssembly memory that grows and never gives pages back, so PostgreSQL's defaults, sized for
 * a server of its own, were paid for in the Node process for good: 128 MB of shared buffers
 * (the whole database of a small site is a few MB, its photos aside), 64 MB for maintenance.
 * Smaller buffers keep the process near PostgreSQL's client-side figure when idle; queries of a
 * small site never needed more (same API throughput, `npm run bench`).
 */
export const PGLITE_SMALL_SITE = [
  '-c',
  'shared_buffers=16MB',
  '-c',
  'temp_buffers=2MB',
  '-c',
  'work_mem=2MB',
  '-c',
  'maintenance_work_mem=16MB',
  '-c',
  'wal_buffers=1MB',
];

async function openPglite(dir: string, template?: string): Promise<PGlite> {
  const key = dir === 'memory://' ? `memory://${Math.random()}` : dir;
  let instance = openPglites.get(key);
  if (!instance) {
    instance = (async () => {
      const { PGlite } = await import('@electric-sql/pglite');
      // A new database is loaded from the build's fresh cluster rather than made by initdb (decision 0051).
      const fresh = dir === 'memory://' || !existsSync(join(dir, 'PG_VERSION'));
      const loadDataDir = fresh ? readPgliteTemplate(template) : undefined;
      const from = loadDataDir ? { loadDataDir } : {};
      if (dir === 'memory://') return PGlite.create({ ...from, startParams: [...PGlite.defaultStartParams, ...PGLITE_SMALL_SITE] });
      mkdirSync(dir, { recursive: true });
      // WAL segments a checkpoint no longer needs are deleted, not kept for reuse with their old
      // bytes: the folder stays smaller and so does its backup (api/backups/; about half).
      const pglite = await PGlite.create({
        dataDir: dir,
        ...from,
        startParams: [...PGlite.defaultStartParams, '-c', 'wal_recycle=off', '-c', 'min_wal_size=32MB', ...PGLITE_SMALL_SITE],
      });
      try {
        writeFileSync(pgliteLockPath(dir), JSON.stringify({ pid: process.pid, openedAt: new Date().toISOString() }) + '\n');
      } catch {
        // A folder whose parent is not ours to write (a mount's root): the database opens all the same.
      }
      return pglite;
    })();
    openPglites.set(key, instance);
    instance.catch(() => openPglites.delete(key));
  }
  return instance;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const plugins = [new CamelCasePlugin()];
  if (options.url) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolMax ?? 10 });
    // A dropped idle connection must not crash the process; the pool replaces it.
    pool.on('error', (err) => console.error('[db] idle client error:', err.message));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins });
    const u = new URL(options.url);
    return { db, kind: 'postgres', where: `postgresql://${u.host}${u.pathname}`, pool, close: () => db.destroy() };
  }
  const dir = options.pgliteDir ?? '.data/pglite';
  const pglite = await openPglite(dir, options.pgliteTemplate);
  // Photos' bytes as binary parameters, not hex text built a byte at a time (db/pglite-bytea.ts).
  useNativeBytea(pglite);
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }), plugins });
  return {
    db,
    kind: 'pglite',
    where: dir === 'memory://' ? 'PGlite in memory' : `PGlite in ${dir}`,
    pglite,
    // Closing the Kysely instance closes PGlite too; forget it so a later open starts fresh.
    close: async () => {
      await db.destroy();
      for (const [key, p] of openPglites) if ((await p) === pglite) openPglites.delete(key);
      if (dir !== 'memory://' && pgliteOpenedBy(dir) === null) {
        try {
          rmSync(pgliteLockPath(dir), { force: true });
        } catch {
          // Never written (see openPglite).
        }
      }
    },
  };
}
