import { sql, type Kysely } from 'kysely';

/**
 * Sales tax as she owes it (issue 29, decision 0028).
 * - tax_zip_rates: her imported copy of a state's published rate table, per 5-digit ZIP: the
 *   combined rate in parts per million, the state's location code and the jurisdiction's name.
 *   The fallback of the state's rate service, and the rate of a state that has none.
 * - tax_rate_lookups: the rate service's answers per state and ZIP (as asked: 5 digits or ZIP+4),
 *   shared by every replica: an answer younger than the cache's time is used without asking
 *   again; `failed_at` remembers a failed or unknown lookup for a few minutes, so the checkout's
 *   two quotes agree and a service that is down is not asked on every cart.
 * - orders.tax_zip / tax_location_code / tax_jurisdiction / tax_rate_source: the place an order's
 *   rate is the rate of, and where the rate came from ('service', 'table' or 'fallback'; null:
 *   no tax collected). Orders taxed before this were charged the state table's rate: 'table'.
 * Her registrations and her shop's address are settings (key 'tax'), read with their default.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const now = sql`now()`;
  await db.schema
    .createTable('tax_zip_rates')
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state ~ '^[A-Z]{2}$'`))
    .addColumn('zip', 'text', (c) => c.notNull().check(sql`zip ~ '^[0-9]{5}$'`))
    .addColumn('rate_ppm', 'integer', (c) => c.notNull().check(sql`rate_ppm between 0 and 200000`))
    .addColumn('location_code', 'text', (c) => c.notNull())
    .addColumn('jurisdiction', 'text', (c) => c.notNull())
    .addColumn('imported_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('tax_zip_rates_pkey', ['state', 'zip'])
    .execute();

  await db.schema
    .createTable('tax_rate_lookups')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('zip', 'text', (c) => c.notNull())
    .addColumn('rate_ppm', 'integer', (c) => c.check(sql`rate_ppm between 0 and 200000`))
    .addColumn('location_code', 'text')
    .addColumn('jurisdiction', 'text')
    .addColumn('looked_up_at', 'timestamptz')
    .addColumn('failed_at', 'timestamptz')
    .addColumn('asked', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('tax_rate_lookups_pkey', ['state', 'zip'])
    .execute();

  await db.schema
    .alterTable('orders')
    .addColumn('tax_zip', 'text')
    .addColumn('tax_location_code', 'text')
    .addColumn('tax_jurisdiction', 'text')
    .addColumn('tax_rate_source', 'text', (c) => c.check(sql`tax_rate_source in ('service', 'table', 'fallback')`))
    .execute();
  await db
    .updateTable('orders')
    .set({ tax_rate_source: 'table' })
    .where((w) => w.or([w('tax_cents', '>', 0), w('tax_rate_ppm', '>', 0)]))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('orders')
    .dropColumn('tax_rate_source')
    .dropColumn('tax_jurisdiction')
    .dropColumn('tax_location_code')
    .dropColumn('tax_zip')
    .execute();
  await db.schema.dropTable('tax_rate_lookups').execute();
  await db.schema.dropTable('tax_zip_rates').execute();
}
