import { sql, type Kysely } from 'kysely';

/**
 * Issue 47 (decision 0052): no secret at rest in clear. A mail's words (subject, text, html,
 * headers, attachments) carry bearer secrets (a gift card's code and print link, change, login,
 * deletion and pay links, unsubscribe tokens): from now on the outbox keeps them sealed with the
 * private records' key, bound to the row's id (api/mail/sealed-mail.ts), and drops them once the
 * mail is sent.
 * - mail_outbox.key_id: the key that sealed the row's words; null for a clear row (one queued
 *   before this migration: still pending, it is sent as it stands) and for a sent one.
 * - mail_outbox.sealed: the sealed words; the clear columns of a sealed row stay empty.
 * - Rows already sent lose their words here (text, html, headers, attachments); their subject
 *   is kept (subjects name people and what happened, never a code or a link). Failed and skipped
 *   legacy rows keep theirs, for her to see and try again; they are few and short-lived.
 *
 * A dead tuple of an emptied row may linger in the data files until PostgreSQL's autovacuum
 * reuses its space; a `VACUUM FULL mail_outbox` after this migration rewrites the table at once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').addColumn('key_id', 'text').addColumn('sealed', 'text').execute();
  await db.schema
    .alterTable('mail_outbox')
    .addCheckConstraint('mail_outbox_sealed_with_key', sql`(key_id is null) = (sealed is null)`)
    .execute();
  await sql`update mail_outbox set text = '', html = '', headers = '{}'::jsonb, attachments = '[]'::jsonb where state = 'sent'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropConstraint('mail_outbox_sealed_with_key').execute();
  await db.schema.alterTable('mail_outbox').dropColumn('sealed').dropColumn('key_id').execute();
}
