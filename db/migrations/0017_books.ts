import { sql, type Kysely } from 'kysely';

/**
 * Her books (issue 24, decision 0026).
 * - tax_rates: a sales tax rate per destination state from a start date (rate_ppm: parts per
 *   million of the taxable amount, 6.5% = 65000), and whether shipping is taxed there. The rate
 *   in effect on a day is the one with the latest starts_on not after it. Seeded with each
 *   state's 2026 base (state-level) rate from 2026-01-01; the five states without a state sales
 *   tax (AK, DE, MT, NH, OR) at 0.
 * - orders.tax_cents / tax_rate_ppm / tax_state / tax_on_shipping: the tax an order was charged,
 *   at what rate, for which state, and whether its shipping was part of the taxable amount.
 * - locations: where she teaches, with the round trip from home in tenths of a mile.
 * - gigs: one row per class she teaches elsewhere; a recurring gig's entries share series_id.
 *   drove: the entry adds its location's round trip to her mileage. paid_on: the day the money
 *   came in (the books count gig income on it).
 * - trips: miles she drove for work besides the gigs, in tenths of a mile.
 * - mileage_rates: the standard mileage rate per year in tenths of a cent a mile, named.
 */
const STATE_RATES: [string, string, number][] = [
  ['AL', 'Alabama', 40000],
  ['AK', 'Alaska', 0],
  ['AZ', 'Arizona', 56000],
  ['AR', 'Arkansas', 65000],
  ['CA', 'California', 72500],
  ['CO', 'Colorado', 29000],
  ['CT', 'Connecticut', 63500],
  ['DE', 'Delaware', 0],
  ['DC', 'District of Columbia', 60000],
  ['FL', 'Florida', 60000],
  ['GA', 'Georgia', 40000],
  ['HI', 'Hawaii', 40000],
  ['ID', 'Idaho', 60000],
  ['IL', 'Illinois', 62500],
  ['IN', 'Indiana', 70000],
  ['IA', 'Iowa', 60000],
  ['KS', 'Kansas', 65000],
  ['KY', 'Kentucky', 60000],
  ['LA', 'Louisiana', 50000],
  ['ME', 'Maine', 55000],
  ['MD', 'Maryland', 60000],
  ['MA', 'Massachusetts', 62500],
  ['MI', 'Michigan', 60000],
  ['MN', 'Minnesota', 68750],
  ['MS', 'Mississippi', 70000],
  ['MO', 'Missouri', 42250],
  ['MT', 'Montana', 0],
  ['NE', 'Nebraska', 55000],
  ['NV', 'Nevada', 68500],
  ['NH', 'New Hampshire', 0],
  ['NJ', 'New Jersey', 66250],
  ['NM', 'New Mexico', 48750],
  ['NY', 'New York', 40000],
  ['NC', 'North Carolina', 47500],
  ['ND', 'North Dakota', 50000],
  ['OH', 'Ohio', 57500],
  ['OK', 'Oklahoma', 45000],
  ['OR', 'Oregon', 0],
  ['PA', 'Pennsylvania', 60000],
  ['RI', 'Rhode Island', 70000],
  ['SC', 'South Carolina', 60000],
  ['SD', 'South Dakota', 42000],
  ['TN', 'Tennessee', 70000],
  ['TX', 'Texas', 62500],
  ['UT', 'Utah', 48500],
  ['VT', 'Vermont', 60000],
  ['VA', 'Virginia', 43000],
  ['WA', 'Washington', 65000],
  ['WV', 'West Virginia', 60000],
  ['WI', 'Wisconsin', 50000],
  ['WY', 'Wyoming', 40000],
];

/** The most recent IRS business standard mileage rate known when this was written: 70¢ a mile for 2025 (IRS notice 2025-5). */
export const SEEDED_MILEAGE = { year: 2026, rateTenthCents: 700, name: 'IRS business standard mileage rate for 2025 (70¢ a mile), carried to 2026' };

export async function up(db: Kysely<any>): Promise<void> {
  const now = sql`now()`;
  await db.schema
    .createTable('tax_rates')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state ~ '^[A-Z]{2}$'`))
    .addColumn('state_name', 'text', (c) => c.notNull())
    .addColumn('rate_ppm', 'integer', (c) => c.notNull().check(sql`rate_ppm between 0 and 200000`))
    .addColumn('shipping_taxable', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('starts_on', 'text', (c) => c.notNull().check(sql`starts_on ~ '^\\d{4}-\\d{2}-\\d{2}$'`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('tax_rates_state_starts_on', ['state', 'starts_on'])
    .execute();
  await db
    .insertInto('tax_rates')
    .values(STATE_RATES.map(([state, name, ppm]) => ({ state, state_name: name, rate_ppm: ppm, starts_on: '2026-01-01' })))
    .execute();

  await db.schema
    .alterTable('orders')
    .addColumn('tax_cents', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`tax_cents >= 0`),
    )
    .addColumn('tax_rate_ppm', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tax_state', 'text')
    .addColumn('tax_on_shipping', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  await db.schema
    .createTable('locations')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('round_trip_tenth_miles', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`round_trip_tenth_miles between 0 and 100000`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('gigs')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    .addColumn('series_id', 'text')
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('time', 'text', (c) => c.notNull())
    .addColumn('class_name', 'text', (c) => c.notNull())
    .addColumn('location_id', 'text', (c) => c.notNull().references('locations.id').onDelete('restrict'))
    .addColumn('rate_cents', 'integer', (c) => c.notNull().check(sql`rate_cents >= 0`))
    .addColumn('frequency', 'text', (c) => c.notNull().check(sql`frequency in ('perClass', 'weekly', 'biweekly', 'monthly')`))
    .addColumn('repeat_until', 'text')
    .addColumn('payment_method', 'text', (c) => c.notNull().check(sql`payment_method in ('cash', 'check', 'venmo', 'paypal', 'zelle', 'card')`))
    .addColumn('request_sent', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('paid', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('paid_on', 'text')
    .addColumn('taxed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('cancelled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('drove', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addCheckConstraint('gigs_paid_on', sql`(paid and paid_on is not null) or (not paid and paid_on is null)`)
    .execute();
  await db.schema.createIndex('gigs_date').on('gigs').column('date').execute();
  await db.schema.createIndex('gigs_series_date').on('gigs').columns(['series_id', 'date']).unique().execute();

  await db.schema
    .createTable('trips')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('tenth_miles', 'integer', (c) => c.notNull().check(sql`tenth_miles between 1 and 100000`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('trips_date').on('trips').column('date').execute();

  await db.schema
    .createTable('mileage_rates')
    .addColumn('year', 'integer', (c) => c.primaryKey())
    .addColumn('rate_tenth_cents', 'integer', (c) => c.notNull().check(sql`rate_tenth_cents between 0 and 10000`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db
    .insertInto('mileage_rates')
    .values({ year: SEEDED_MILEAGE.year, rate_tenth_cents: SEEDED_MILEAGE.rateTenthCents, name: SEEDED_MILEAGE.name })
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mileage_rates').execute();
  await db.schema.dropTable('trips').execute();
  await db.schema.dropTable('gigs').execute();
  await db.schema.dropTable('locations').execute();
  await db.schema.alterTable('orders').dropColumn('tax_on_shipping').dropColumn('tax_state').dropColumn('tax_rate_ppm').dropColumn('tax_cents').execute();
  await db.schema.dropTable('tax_rates').execute();
}
