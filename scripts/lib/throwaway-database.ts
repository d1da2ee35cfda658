/**
 * A new, empty PostgreSQL database on the server `adminUrl` points at, and a function that drops
 * it: what every benchmark and the PostgreSQL test files run on, so none of them touches a
 * database another uses.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The server benchmarks use: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local default. */
export const benchAdminUrl = () => process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** `template`: a database to copy (PostgreSQL's CREATE DATABASE … TEMPLATE), say one already migrated. */
export async function throwawayDatabase(adminUrl: string, prefix: string, template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
