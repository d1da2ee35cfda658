import { sql, type Kysely } from 'kysely';

/**
 * Issue 33 (decision 0041): gift cards, held in the one ledger (0023) as lots counted in cents.
 *
 * - gift_cards: what a card is besides its money: the code (only its SHA-256 hash and its last
 *   four characters), who gave it to whom with what message and design, the day it is to be
 *   delivered (her day) and when it was, and whether it was voided. Its balance is its lot's
 *   ledger rows summed, as every balance is.
 * - credit_lots of unit 'cents' with no user: the card's lot; its 'bought' row is the amount.
 * - ledger_entries.order_id: an order a card paid for (the shop's spend), as slot_id names a session.
 * - payment_attempts.kind 'gift_card': a card bought through PayPal is the payment lifecycle's
 *   fourth purchase kind.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('gift_cards')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    .addColumn('lot_id', 'text', (c) => c.notNull().unique().references('credit_lots.id').onDelete('restrict'))
    // SHA-256 of the code's 16 characters: the code itself is never stored.
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('code_last4', 'text', (c) => c.notNull())
    .addColumn('design', 'text', (c) => c.notNull().check(sql`design in ('yoga', 'chocolates')`))
    .addColumn('buyer_name', 'text', (c) => c.notNull())
    .addColumn('buyer_email', 'text')
    .addColumn('recipient_name', 'text', (c) => c.notNull())
    .addColumn('recipient_email', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    // Her day the recipient's mail leaves (YYYY-MM-DD in SITE_TIMEZONE).
    .addColumn('send_on', 'text', (c) => c.notNull().check(sql`send_on ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`))
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('voided_at', 'timestamptz')
    .addColumn('created_by', 'text', (c) => c.notNull().check(sql`created_by in ('buyer', 'admin')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // What the delivery runner looks for each minute.
  await sql`create index gift_cards_due on gift_cards (send_on) where delivered_at is null and voided_at is null`.execute(db);

  await db.schema
    .alterTable('ledger_entries')
    .addColumn('order_id', 'text', (c) => c.references('orders.id').onDelete('set null'))
    .execute();

  await sql`alter table payment_attempts drop constraint payment_attempts_kind_check`.execute(db);
  await sql`alter table payment_attempts add constraint payment_attempts_kind_check check (kind in ('order', 'booking', 'package', 'gift_card'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from payment_attempts where kind = 'gift_card'`.execute(db);
  await sql`alter table payment_attempts drop constraint payment_attempts_kind_check`.execute(db);
  await sql`alter table payment_attempts add constraint payment_attempts_kind_check check (kind in ('order', 'booking', 'package'))`.execute(db);
  await db.schema.alterTable('ledger_entries').dropColumn('order_id').execute();
  const lots = await sql<{ lot_id: string }>`select lot_id from gift_cards`.execute(db);
  await db.schema.dropTable('gift_cards').execute();
  if (lots.rows.length) await sql`delete from credit_lots where id in (${sql.join(lots.rows.map((r) => r.lot_id))})`.execute(db);
}
