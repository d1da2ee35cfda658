/**
 * A fresh, empty database per test file: PGlite in memory, or (TEST_DB=postgres) a new
 * database on the server TEST_DATABASE_URL points at, dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

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
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString(), PGLITE_DIR: 'memory://' },
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}
