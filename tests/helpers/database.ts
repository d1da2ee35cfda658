/**
 * A fresh, empty database per test file: PGlite in memory, or (TEST_DB=postgres) a new
 * database on the server TEST_DATABASE_URL points at, dropped afterwards.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { throwawayDatabase } from '../../scripts/lib/throwaway-database.ts';
import type { DB } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';
import type { BootOptions } from '../../api/boot.ts';
import { pgliteCopyPath, postgresCopyName } from './migrated-copies.ts';

export type TestDbKind = 'pglite' | 'postgres';

export const testDbKind = (): TestDbKind => (process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite');

export interface FreshDatabase {
  /** Environment entries that select it. */
  env: { DATABASE_URL?: string; PGLITE_DIR: string };
  /** With `migrated`, what the server's boot is told: the database is a migrated copy (tests/helpers/migrated-copies.ts). */
  migratedCopy?: BootOptions['migratedCopy'];
  drop(): Promise<void>;
}

/**
 * A new database. `migrated`: a copy of the run's migrated database (made by tests/global-setup.ts)
 * when there is one, so the server that opens it has no migration to run; else an empty one.
 */
export async function freshDatabase(kind: TestDbKind = testDbKind(), { migrated = false } = {}): Promise<FreshDatabase> {
  if (kind === 'pglite') {
    const copy = pgliteCopyPath();
    const migratedCopy = migrated && existsSync(copy) ? { pgliteTemplate: copy } : undefined;
    return { env: { PGLITE_DIR: 'memory://' }, ...(migratedCopy ? { migratedCopy } : {}), drop: async () => {} };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const copy = migrated && process.env.TEST_POSTGRES_COPY === postgresCopyName() ? process.env.TEST_POSTGRES_COPY : undefined;
  const database = await throwawayDatabase(adminUrl, 't', copy);
  return { env: { DATABASE_URL: database.url, PGLITE_DIR: 'memory://' }, ...(copy ? { migratedCopy: {} } : {}), drop: database.drop };
}

/**
 * A database a test's servers can restart on: a PGlite folder of its own (and the private
 * records' key made beside it), or a fresh PostgreSQL database; `drop` removes it.
 */
export async function restartableDatabase(prefix: string, kind: TestDbKind = testDbKind()): Promise<FreshDatabase> {
  if (kind === 'postgres') return freshDatabase('postgres');
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    env: { PGLITE_DIR: dir },
    drop: async () => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(`${dir}.private-records-key`, { force: true });
    },
  };
}

/** How many rows `table` holds now: what a test compares before and after a request that must change nothing. */
export async function rowCount(db: DB, table: keyof Database & string): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

/**
 * Polls until a backend of `db` waits on a lock (a claim waiting for a row or the agenda's lock
 * that a test holds in an open transaction), at most 10 s; PostgreSQL only.
 */
export async function someoneWaitsOnALock(db: DB, what = 'a lock') {
  for (let i = 0; i < 500; i++) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock'`.execute(db);
    if (rows[0]!.n > 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`nobody ever waited on ${what}`);
}
