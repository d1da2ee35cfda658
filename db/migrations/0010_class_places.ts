import { sql, type Kysely } from 'kysely';

/**
 * Students manage their class places (issue 15): a full class keeps a waitlist, in the order
 * people joined (`seq`, never reused), one entry per e-mail and class; the entry carries what a
 * sign-up needs (name, phone, the accepted waiver and its signature) so a freed place becomes
 * a sign-up in the same transaction. `class_signups.reminder_sent_at` is the day-before
 * reminder's claim: set in one conditional UPDATE, so it goes out once across processes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('class_waitlist')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    // A deleted class takes its waitlist with it: nobody can be promoted into it any more.
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('waiver_accepted', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('signature_png', 'bytea')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('class_waitlist_once_per_class', ['event_id', 'email'])
    .addCheckConstraint('class_waitlist_email_lower', sql`email = lower(email)`)
    .execute();
  await db.schema.createIndex('class_waitlist_event_seq').on('class_waitlist').columns(['event_id', 'seq']).execute();
  await db.schema.alterTable('class_signups').addColumn('reminder_sent_at', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('class_signups').dropColumn('reminder_sent_at').execute();
  await db.schema.dropTable('class_waitlist').execute();
}
