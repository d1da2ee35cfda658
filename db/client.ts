/**
 * The connection factory: PostgreSQL through `pg` when a URL is given, otherwise the embedded
 * PGlite (real PostgreSQL compiled to WebAssembly) stored in a folder.
 */
import { CamelCasePlugin, Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import type { Database } from './schema.ts';

export type DB = Kysely<Database>;

export interface DatabaseOptions {
  /** postgres://… ; when absent, PGlite in `pgliteDir`. */
  url?: string | undefined;
  /** A folder, or `memory://` for a throwaway database. */
  pgliteDir?: string;
  poolMax?: number;
}

export interface DatabaseHandle {
  db: DB;
  kind: 'postgres' | 'pglite';
  /** Human-readable location for the start banner (never includes a password). */
  where: string;
  /** PostgreSQL's connection pool (the shared limits count on it); absent on PGlite. */
  pool?: import('pg').Pool;
  close(): Promise<void>;
}

// One PGlite per folder per process: two bundles importing this module must not open the
// same files twice (PGlite is single-process and would corrupt them).
const openPglites: Map<string, Promise<PGlite>> = ((globalThis as { __pgliteInstances?: Map<string, Promise<PGlite>> }).__pgliteInstances ??= new Map());

async function openPglite(dir: string): Promise<PGlite> {
  const key = dir === 'memory://' ? `memory://${Math.random()}` : dir;
  let instance = openPglites.get(key);
  if (!instance) {
    instance = (async () => {
      const { PGlite } = await import('@electric-sql/pglite');
      if (dir !== 'memory://') {
        const { mkdirSync } = await import('node:fs');
        mkdirSync(dir, { recursive: true });
      }
      return PGlite.create(dir === 'memory://' ? {} : { dataDir: dir });
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
  const pglite = await openPglite(dir);
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }), plugins });
  return {
    db,
    kind: 'pglite',
    where: dir === 'memory://' ? 'PGlite in memory' : `PGlite in ${dir}`,
    // Closing the Kysely instance closes PGlite too; forget it so a later open starts fresh.
    close: async () => {
      await db.destroy();
      for (const [key, p] of openPglites) if ((await p) === pglite) openPglites.delete(key);
    },
  };
}
