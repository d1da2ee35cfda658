import { sql, type Kysely } from 'kysely';

/**
 * The teacher's back office (issue 16, decisions 0018 and 0019).
 * - `newsletters`: one per mail the teacher writes; 'draft' until she sends it, then 'sending'
 *   while the outbox drains, then 'sent'. The counts are kept by the sender as it goes.
 * - `newsletter_outbox`: one row per recipient, made when the send starts (every current
 *   subscriber, once: the primary key). The sender claims rows ('pending' → 'sending' with
 *   claimed_at) in one statement, sends outside any transaction, then marks them 'sent' or
 *   'failed'; a row 'skipped' was unsubscribed by the time it was claimed. A 'sending' row whose
 *   claim is older than the stale window was left by a dead sender and is claimed again.
 * - `announcements`: the one site-wide message (id 1), with an optional link and window.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const now = sql`now()`;
  await db.schema
    .createTable('newsletters')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body_markdown', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('draft')
        .check(sql`status in ('draft', 'sending', 'sent')`),
    )
    .addColumn('total_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sent_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('send_started_at', 'timestamptz')
    .addColumn('sent_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('newsletter_outbox')
    .addColumn('newsletter_id', 'text', (c) => c.notNull().references('newsletters.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`state in ('pending', 'sending', 'sent', 'skipped', 'failed')`),
    )
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sent_at', 'timestamptz')
    .addColumn('error', 'text')
    .addPrimaryKeyConstraint('newsletter_outbox_pkey', ['newsletter_id', 'email'])
    .execute();
  // The sender's question each tick: which rows are waiting (or were left claimed)?
  await db.schema
    .createIndex('newsletter_outbox_open')
    .on('newsletter_outbox')
    .columns(['state', 'claimed_at'])
    .where(sql.ref('state'), 'in', sql`('pending', 'sending')`)
    .execute();

  await db.schema
    .createTable('announcements')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('link', 'text')
    .addColumn('starts_at', 'timestamptz')
    .addColumn('ends_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('announcements').execute();
  await db.schema.dropTable('newsletter_outbox').execute();
  await db.schema.dropTable('newsletters').execute();
}
