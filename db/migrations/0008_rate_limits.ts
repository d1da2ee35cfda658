import { sql, type Kysely } from 'kysely';

/**
 * The shared request limits (api/limits/limits.ts): rate-limiter-flexible's PostgreSQL store,
 * made here rather than by the library at start so replicas starting together never race to
 * create it. Its own shape: key (a hashed bucket key), points used, expiry in epoch ms.
 * PGlite keeps its limits in memory and leaves this table empty.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS rate_limits (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS rate_limits_expire ON rate_limits (expire)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS rate_limits`.execute(db);
}
