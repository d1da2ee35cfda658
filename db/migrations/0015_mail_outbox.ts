import { sql, type Kysely } from 'kysely';

/**
 * Issue 21: every mail leaves through a durable outbox (decision 0024).
 * - mail_outbox: one row per mail, written in the same transaction as the change it reports
 *   (a booking, an order, a login link…), so a crash after the commit never loses it and a
 *   rollback never sends it. The row holds the mail as it will be sent (rendered in the
 *   transaction, from what the transaction saw). Its id is the Idempotency-Key Resend is sent,
 *   so a retry after a crash is dropped by Resend (and by the local mailbox) if the first try
 *   arrived. state: 'pending' (waiting for next_attempt_at), 'sending' (claimed by claimed_by at
 *   claimed_at; claimed again once stale), 'sent', 'failed' (a permanent refusal or too many
 *   tries: shown to the teacher), 'skipped' (the address bounced or complained).
 * - mail_suppressions: addresses Resend told us bounced or complained (its signed webhook),
 *   stored canonical and lower-case; later mails to them are skipped, not sent.
 * - booking_cancellations.cancelled_by: 'client' (cancelled online) or 'teacher' (she deleted the
 *   booked slot: refunded through PayPal and mailed, as a client's cancel is).
 * - mails.idempotency_key: the local mailbox honours the key as Resend does (a repeat within a
 *   day is not stored twice), so the crash test can count what a real provider would deliver.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const now = sql`now()`;
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    // What the mail is about, for the teacher's list of failures ('booking-confirmation', …).
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('to', 'text', (c) => c.notNull())
    // The mailbox behind the address (limits.ts canonicalMailbox), matched against suppressions.
    .addColumn('canonical_to', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('headers', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('attachments', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`state in ('pending', 'sending', 'sent', 'failed', 'skipped')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('sent_at', 'timestamptz')
    .execute();
  // The sender's question each tick: what is due? Only unfinished rows are indexed.
  await db.schema
    .createIndex('mail_outbox_due')
    .on('mail_outbox')
    .column('next_attempt_at')
    .where(sql.ref('state'), 'in', sql`('pending', 'sending')`)
    .execute();
  // The teacher's list: what failed or was skipped, newest first.
  await db.schema
    .createIndex('mail_outbox_unsent')
    .on('mail_outbox')
    .column('created_at')
    .where(sql.ref('state'), 'in', sql`('failed', 'skipped')`)
    .execute();
  await db.schema
    .createTable('mail_suppressions')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('reason', 'text', (c) => c.notNull().check(sql`reason in ('bounced', 'complained')`))
    .addColumn('detail', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.alterTable('mails').addColumn('idempotency_key', 'text').execute();
  await db.schema
    .alterTable('booking_cancellations')
    .addColumn('cancelled_by', 'text', (c) =>
      c
        .notNull()
        .defaultTo('client')
        .check(sql`cancelled_by in ('client', 'teacher')`),
    )
    .execute();
  await db.schema.createIndex('mails_idempotency_key').unique().on('mails').column('idempotency_key').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('booking_cancellations').dropColumn('cancelled_by').execute();
  await db.schema.dropIndex('mails_idempotency_key').execute();
  await db.schema.alterTable('mails').dropColumn('idempotency_key').execute();
  await db.schema.dropTable('mail_suppressions').execute();
  await db.schema.dropTable('mail_outbox').execute();
}
