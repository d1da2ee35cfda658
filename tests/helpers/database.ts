/**
 * A fresh, empty database per test file: PGlite in memory, or (TEST_DB=postgres) a new
 * database on the server TEST_DATABASE_URL points at, dropped afterwards.
 */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';
import { throwawayDatabase } from '../../scripts/lib/throwaway-database.ts';

export type TestDbKind = 'pglite' | 'postgres';

export const testDbKind = (): TestDbKind => (process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite');

export interface FreshDatabase {
  /** Environment entries that select it. */
  env: { DATABASE_URL?: string; PGLITE_DIR: string };
  drop(): Promise<void>;
}

export async function freshDatabase(kind: TestDbKind = testDbKind()): Promise<FreshDatabase> {
  if (kind === 'pglite') return { env: { PGLITE_DIR: 'memory://' }, drop: async () => {} };
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const database = await throwawayDatabase(adminUrl, 't');
  return { env: { DATABASE_URL: database.url, PGLITE_DIR: 'memory://' }, drop: database.drop };
}

/** The rows of one of the seeded tables (the seed's test). */
export async function countRows(db: DB, table: 'products' | 'events' | 'slots' | 'coupons' | 'admins'): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}
