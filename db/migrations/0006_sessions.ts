import { sql, type Kysely } from 'kysely';

/**
 * Sessions after the current Lucia guide (docs/decisions/0013). The cookie token becomes
 * `<id>.<secret>`: `id` now holds the random session id itself and the new `secret_hash` the
 * SHA-256 (hex) of the secret. Sessions of the old format (id = SHA-256 of the whole token)
 * can never validate again, so they are deleted: everyone logs in once more. `created_at`
 * (from 0001) starts to matter: the absolute lifetime counts from it.
 */
const tables = ['user_sessions', 'admin_sessions'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of tables) {
    await sql`delete from ${sql.table(table)}`.execute(db);
    await db.schema
      .alterTable(table)
      .addColumn('secret_hash', 'text', (c) => c.notNull().check(sql`secret_hash ~ '^[0-9a-f]{64}$'`))
      .execute();
  }
}

/** New-format sessions mean nothing to the old code: they go too. */
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of tables) {
    await sql`delete from ${sql.table(table)}`.execute(db);
    await db.schema.alterTable(table).dropColumn('secret_hash').execute();
  }
}
