import { sql, type Kysely } from 'kysely';

/**
 * Issue 23: her therapy practice (decision 0025).
 * - intake_forms: every version of the intake form she writes; the questions are JSON text
 *   (not private: they are her words). A new version each time the questions change.
 * - intake_answers: a client's answers to one version, sealed by the application (AES-256-GCM,
 *   api/practice/keys.ts): `sealed` is ciphertext, `key_id` names the key. Each update is a new
 *   row; the latest is the client's current answer, the older ones their history.
 * - session_notes: her notes of a booked session, sealed the same way; each save is a new row
 *   (the history). No foreign key to the slot: a deleted slot keeps its notes until the
 *   client's account goes.
 * - private_access_log: every read of a client's private records (who, what, when).
 * - private_record_keys: one sealed canary per key, so the server can tell at start that its
 *   key opens what is stored.
 * All of a client's rows go with their account (on delete cascade).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const now = sql`now()`;
  await db.schema
    .createTable('intake_forms')
    .addColumn('version', 'integer', (c) => c.primaryKey())
    .addColumn('questions', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createTable('intake_answers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('form_version', 'integer', (c) => c.notNull().references('intake_forms.version'))
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('intake_answers_user').on('intake_answers').columns(['user_id', 'created_at']).execute();
  await db.schema
    .createTable('session_notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slot_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('session_notes_slot').on('session_notes').columns(['slot_id', 'created_at']).execute();
  await db.schema.createIndex('session_notes_user').on('session_notes').column('user_id').execute();
  await db.schema
    .createTable('private_access_log')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('actor', 'text', (c) => c.notNull().check(sql`actor in ('admin', 'client')`))
    .addColumn('admin_id', 'text')
    .addColumn('what', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('private_access_log_user').on('private_access_log').columns(['user_id', 'created_at']).execute();
  await db.schema
    .createTable('private_record_keys')
    .addColumn('key_id', 'text', (c) => c.primaryKey())
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('private_record_keys').execute();
  await db.schema.dropTable('private_access_log').execute();
  await db.schema.dropTable('session_notes').execute();
  await db.schema.dropTable('intake_answers').execute();
  await db.schema.dropTable('intake_forms').execute();
}
