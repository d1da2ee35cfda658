import { sql, type Kysely } from 'kysely';

/**
 * Issue 34: private chocolate tastings, sold on /chocolates.
 *
 * - tasting_requests: what a visitor asked for (two or three possible days, her days YYYY-MM-DD,
 *   as a JSON array), until the teacher answers it.
 * - tasting_quotes: her answer, one per request (changed in place until the deposit comes in):
 *   price, deposit, day, time and place. deposit_paid_at: the deposit came in, and event_id is the
 *   private event that then holds the day in her agenda (0030's events.private).
 * - tasting_payments: the money, a deposit and a balance per quote at most (unique (quote_id,
 *   part): a deposit is paid once however many orders try), through PayPal (the payment
 *   lifecycle's 'tasting' kind, 0030; its PayPal order unique) or by her hand (cash, check), by
 *   her day the money came in (paid_on): the books read these rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tasting_requests')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('occasion', 'text', (c) => c.notNull())
    .addColumn('guests', 'integer', (c) => c.notNull().check(sql`guests > 0`))
    .addColumn('dates', 'jsonb', (c) => c.notNull())
    .addColumn('place', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('tasting_quotes')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    .addColumn('request_id', 'text', (c) => c.notNull().unique().references('tasting_requests.id').onDelete('cascade'))
    .addColumn('price_cents', 'integer', (c) => c.notNull().check(sql`price_cents > 0`))
    .addColumn('deposit_cents', 'integer', (c) => c.notNull().check(sql`deposit_cents > 0`))
    .addColumn('date', 'text', (c) => c.notNull().check(sql`date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`))
    .addColumn('time', 'text', (c) => c.notNull().check(sql`time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`))
    .addColumn('place', 'text', (c) => c.notNull())
    .addColumn('deposit_paid_at', 'timestamptz')
    .addColumn('event_id', 'text', (c) => c.references('events.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('tasting_quotes_deposit_within_price', sql`deposit_cents <= price_cents`)
    .execute();

  await db.schema
    .createTable('tasting_payments')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    .addColumn('quote_id', 'text', (c) => c.notNull().references('tasting_quotes.id').onDelete('restrict'))
    .addColumn('part', 'text', (c) => c.notNull().check(sql`part in ('deposit', 'balance')`))
    .addColumn('amount_cents', 'integer', (c) => c.notNull().check(sql`amount_cents >= 0`))
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('paypal', 'cash', 'check')`))
    .addColumn('paypal_order_id', 'text', (c) => c.unique())
    .addColumn('paypal_capture_id', 'text')
    // Her day the money came in (YYYY-MM-DD in SITE_TIMEZONE).
    .addColumn('paid_on', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('tasting_payments_one_per_part', ['quote_id', 'part'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tasting_payments').execute();
  await db.schema.dropTable('tasting_quotes').execute();
  await db.schema.dropTable('tasting_requests').execute();
}
