import { sql, type Kysely } from 'kysely';

/**
 * Issue 33 (decision 0042): a gift card spent in the cart.
 *
 * - orders.paypal_order_id may be null: an order the card paid in full never went to PayPal.
 *   It stays unique where set, so a replayed capture still makes one order.
 * - orders.gift_card_cents and gift_card_lot_id: what a card paid of the order's total, and which
 *   card; the rest (total - gift_card_cents) is what PayPal captured.
 * - ledger_entries.attempt_id: the card's debit for an order still being paid through PayPal,
 *   written with the claim of the tins; the order's id is set on it when the order is recorded.
 *   A released attempt gives it back in a 'returned' row and lets go of it (the attempt may be
 *   claimed again, with a new debit).
 * - credit_lots.method 'gift_card': a session a gift card paid in full, sold as a lot of one and
 *   spent on its booking at once (the books read the lot: the card's money is income when spent).
 * - One 'returned' row per order at most: a refund seen by her button and by PayPal's webhook
 *   gives the card's part back once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table orders alter column paypal_order_id drop not null`.execute(db);
  await db.schema
    .alterTable('orders')
    .addColumn('gift_card_cents', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`gift_card_cents >= 0`),
    )
    .addColumn('gift_card_lot_id', 'text', (c) => c.references('credit_lots.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('ledger_entries')
    .addColumn('attempt_id', 'text', (c) => c.references('payment_attempts.id').onDelete('set null'))
    .execute();
  await sql`create unique index ledger_entries_returned_order on ledger_entries (order_id) where reason = 'returned' and order_id is not null`.execute(db);
  await sql`create index ledger_entries_attempt on ledger_entries (attempt_id) where attempt_id is not null`.execute(db);
  // A session a gift card paid is sold as a lot of one and spent at once, as one she was paid for by hand.
  await sql`alter table credit_lots drop constraint credit_lots_method_check`.execute(db);
  await sql`alter table credit_lots add constraint credit_lots_method_check check (method in ('paypal', 'cash', 'check', 'venmo', 'zelle', 'card', 'free', 'adjustment', 'gift_card'))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table credit_lots drop constraint credit_lots_method_check`.execute(db);
  await sql`alter table credit_lots add constraint credit_lots_method_check check (method in ('paypal', 'cash', 'check', 'venmo', 'zelle', 'card', 'free', 'adjustment')) not valid`.execute(
    db,
  );
  await sql`drop index ledger_entries_attempt`.execute(db);
  await sql`drop index ledger_entries_returned_order`.execute(db);
  await db.schema.alterTable('ledger_entries').dropColumn('attempt_id').execute();
  await db.schema.alterTable('orders').dropColumn('gift_card_lot_id').dropColumn('gift_card_cents').execute();
  await sql`delete from orders where paypal_order_id is null`.execute(db);
  await sql`alter table orders alter column paypal_order_id set not null`.execute(db);
}
