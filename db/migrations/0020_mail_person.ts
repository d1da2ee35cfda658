import { sql, type Kysely } from 'kysely';

/**
 * Issue 29: erasing one account touches that person's mails only (decision 0029). The erasure
 * used to find mails by searching every text column for the address, the id and the full name,
 * so `ann@…` took `joann@…`'s mails with it. Each outbox row now says whom it is about:
 * - mail_outbox.about: the mailbox (limits.ts canonicalMailbox) of the person the mail concerns:
 *   its recipient, or for a mail to the teacher the client it tells her about. Rows queued
 *   before this migration get their recipient's.
 * - mail_outbox.account_id: the account that held that address when the mail was queued (null:
 *   none). No foreign key: the erasure deletes the rows before the account, and an account
 *   deleted some other way must not leave its mails looking like nobody's.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').addColumn('about', 'text').addColumn('account_id', 'text').execute();
  await sql`update mail_outbox set about = canonical_to`.execute(db);
  await db.schema
    .alterTable('mail_outbox')
    .alterColumn('about', (c) => c.setNotNull())
    .execute();
  await db.schema.createIndex('mail_outbox_about').on('mail_outbox').column('about').execute();
  await db.schema.createIndex('mail_outbox_account').on('mail_outbox').column('account_id').where(sql.ref('account_id'), 'is not', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('mail_outbox_account').execute();
  await db.schema.dropIndex('mail_outbox_about').execute();
  await db.schema.alterTable('mail_outbox').dropColumn('account_id').dropColumn('about').execute();
}
