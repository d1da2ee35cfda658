import { sql, type Kysely } from 'kysely';

/**
 * Issue 32 (decision 0035): packages she sells, and one ledger of what a client holds with her.
 *
 * - packages: what she offers (a number of sessions of some session types, on her sliding scale,
 *   valid some months after purchase).
 * - credit_lots: one purchase or grant a client holds (a package bought or sold by hand, a credit
 *   she gave): its words, types and expiry copied at the sale, so a later change of the package
 *   changes nothing held; the sale's money and how it was paid (the books read it). `unit` says
 *   what a lot counts: sessions now, dollars (cents) for gift cards next.
 * - ledger_entries: every change of a lot, append-only; a lot's balance is the sum of its rows
 *   and nothing else. One 'bought', 'expired' or 'refunded' row per lot at most (the unique index),
 *   so a purchase is granted once and an expiry written once across replicas.
 * - slots.credit_lot_id: the lot a session was booked with.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('packages')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('session_types', 'jsonb', (c) => c.notNull())
    .addColumn('sessions', 'integer', (c) => c.notNull().check(sql`sessions between 1 and 100`))
    .addColumn('min_price_cents', 'integer', (c) => c.notNull())
    .addColumn('suggested_price_cents', 'integer', (c) => c.notNull())
    .addColumn('max_price_cents', 'integer', (c) => c.notNull())
    .addColumn('months_valid', 'integer', (c) => c.notNull().check(sql`months_valid between 1 and 60`))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('packages_prices', sql`0 <= min_price_cents and min_price_cents <= suggested_price_cents and suggested_price_cents <= max_price_cents`)
    .execute();

  await db.schema
    .createTable('credit_lots')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    // Kept for the books when the client is erased (the lot's money stays, without the person).
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('package_id', 'text', (c) => c.references('packages.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('unit', 'text', (c) =>
      c
        .notNull()
        .defaultTo('session')
        .check(sql`unit in ('session', 'cents')`),
    )
    .addColumn('session_types', 'jsonb', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('price_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('paypal', 'cash', 'check', 'venmo', 'zelle', 'card', 'free', 'adjustment')`))
    // Her days (YYYY-MM-DD in SITE_TIMEZONE), as every date of hers is kept (0001).
    .addColumn('paid_on', 'text', (c) => c.notNull().check(sql`paid_on ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`))
    // The last day it can be used; null: never lapses (a credit she gave).
    .addColumn('expires_on', 'text', (c) => c.check(sql`expires_on ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`))
    .addColumn('paypal_order_id', 'text', (c) => c.unique())
    .addColumn('created_by', 'text', (c) => c.notNull().check(sql`created_by in ('client', 'admin')`))
    .addColumn('expiry_reminded_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('credit_lots_user').on('credit_lots').columns(['user_id', 'expires_on']).execute();

  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('lot_id', 'text', (c) => c.notNull().references('credit_lots.id').onDelete('cascade'))
    .addColumn('change', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().check(sql`reason in ('bought', 'used', 'returned', 'forfeited', 'expired', 'refunded', 'adjusted')`))
    .addColumn('slot_id', 'text', (c) => c.references('slots.id').onDelete('set null'))
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'text', (c) => c.notNull().check(sql`created_by in ('client', 'admin', 'system')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('ledger_entries_lot').on('ledger_entries').columns(['lot_id', 'created_at']).execute();
  await db.schema.createIndex('ledger_entries_user').on('ledger_entries').columns(['user_id', 'created_at']).execute();
  await sql`create unique index ledger_entries_once on ledger_entries (lot_id, reason) where reason in ('bought', 'expired', 'refunded')`.execute(db);

  // The two she offers from the start, inside her seeded ranges (yoga therapy $10–$80 a session,
  // individual yoga $80–$110): she changes or retires them under Packages.
  await db
    .insertInto('packages')
    .values([
      {
        name: 'Eight weeks of yoga therapy',
        session_types: JSON.stringify(['Yoga Therapy Session (60 min)']),
        sessions: 8,
        min_price_cents: 8_000,
        suggested_price_cents: 36_000,
        max_price_cents: 60_000,
        months_valid: 4,
      },
      {
        name: 'Five individual yoga sessions',
        session_types: JSON.stringify(['Individual Yoga Session (60 min)']),
        sessions: 5,
        min_price_cents: 40_000,
        suggested_price_cents: 45_000,
        max_price_cents: 50_000,
        months_valid: 6,
      },
    ])
    .execute();

  await db.schema
    .alterTable('slots')
    .addColumn('credit_lot_id', 'text', (c) => c.references('credit_lots.id').onDelete('set null'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('slots').dropColumn('credit_lot_id').execute();
  await db.schema.dropTable('ledger_entries').execute();
  await db.schema.dropTable('credit_lots').execute();
  await db.schema.dropTable('packages').execute();
}
