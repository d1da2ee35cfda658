import { sql, type Kysely } from 'kysely';

/**
 * Payment attempts (issue 12, decision 0012): the record of a PayPal payment between the claim
 * (tins taken or slot booked, committed) and its outcome (order stored or booking confirmed, or
 * the claim given back). PayPal is called with no transaction open, so a crash or a slow PayPal
 * can leave an attempt half way; this row is what the reconciler, the buyer's retry and the
 * webhook find it by. One attempt per PayPal order (unique): the order id is also what makes a
 * replay idempotent.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const now = sql`now()`;
  await db.schema
    .createTable('payment_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('order', 'booking')`))
    .addColumn('paypal_order_id', 'text', (c) => c.notNull().unique())
    // Sent with every capture of this attempt: PayPal answers a repeated capture with the first one.
    .addColumn('paypal_request_id', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    // What it pays for: a booking's slot and client; an order's priced cart is in details.
    .addColumn('slot_id', 'text', (c) => c.references('slots.id').onDelete('set null'))
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('details', 'jsonb', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('claimed')
        .check(sql`state in ('claimed', 'capturing', 'completed', 'released')`),
    )
    // Who may release it now (a server process), and since when: the reconciler takes over an
    // open attempt whose holder has been silent longer than PAYMENT_ATTEMPT_STALE_MS.
    .addColumn('claimed_by', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    // Set when someone else than the checkout that opened it settled it: 'retry', 'reconciler' or 'webhook'.
    .addColumn('settled_by', 'text', (c) => c.check(sql`settled_by in ('checkout', 'retry', 'reconciler', 'webhook')`))
    .addColumn('outcome', 'text')
    .addColumn('order_id', 'text', (c) => c.references('orders.id').onDelete('set null'))
    .addColumn('paypal_capture_id', 'text')
    .addColumn('payer_first_name', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  // The reconciler's question each minute: which open attempts have gone quiet?
  await db.schema
    .createIndex('payment_attempts_open')
    .on('payment_attempts')
    .column('claimed_at')
    .where(sql.ref('state'), 'in', sql`('claimed', 'capturing')`)
    .execute();
  await db.schema.createIndex('payment_attempts_order_id').on('payment_attempts').column('order_id').execute();
  await db.schema.createIndex('payment_attempts_slot_id').on('payment_attempts').column('slot_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payment_attempts').execute();
}
