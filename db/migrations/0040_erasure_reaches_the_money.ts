import { sql, type Kysely } from 'kysely';

/**
 * Issue 47 (decision 0053): the erasure reaches what the money wrote about a person.
 *
 * - mail_outbox.names: the canonical mailboxes of the people a mail names besides the one it is
 *   about (the gift card to the recipient names its buyer; the buyer's receipt and delivery note
 *   name the recipient). An erasure finds a mail that names her by this, never by its words.
 * - calendar_mirror.erased: the event was of an erased person. Its wish is a neutral title with no
 *   place or description; once Google holds that, it is taken out (renamed before cancelled).
 * - tasting_quotes.cancelled_at and tasting_payments.refund: a booked tasting is called off (its
 *   client erased) and what was paid through PayPal is owed back ('due'), then 'refunded'. The
 *   books count a tasting payment as income only while it is kept (refund null).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table mail_outbox add column names jsonb not null default '[]'::jsonb`.execute(db);
  await sql`alter table calendar_mirror add column erased boolean not null default false`.execute(db);
  await sql`alter table tasting_quotes add column cancelled_at timestamptz`.execute(db);
  await sql`alter table tasting_payments add column refund text check (refund in ('due', 'refunded'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table tasting_payments drop column if exists refund`.execute(db);
  await sql`alter table tasting_quotes drop column if exists cancelled_at`.execute(db);
  await sql`alter table calendar_mirror drop column if exists erased`.execute(db);
  await sql`alter table mail_outbox drop column if exists names`.execute(db);
}
