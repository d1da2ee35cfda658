import { sql, type Kysely } from 'kysely';

/**
 * Issue 48 (decision 0059): her food sales as the cottage-food rules keep them, and the postal
 * address a newsletter went out with.
 *
 * - orders.delivered_at: when she marked the order shipped (a shipped order) or picked up (a
 *   pickup): the records' "date shipped" (OAR 603-025-0328). Null until then, and again if she
 *   moves it back to paid or ready for pickup. Orders delivered before this migration keep null
 *   (the date is not known).
 * - food_sales: a food sale she records by hand (a market, a fair, a box handed over in person):
 *   the day, the food, the quantity, what she was paid, and where it was sold (the rule's
 *   "location of sale", with an event organizer's contact). No buyer: the rule asks none for an
 *   in-person sale, so nothing here names a person an erasure would have to reach.
 * - newsletters.postal_address: the postal address every copy of a newsletter carries (CAN-SPAM),
 *   fixed when its send starts; null for one sent before (its copies carry the current one).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('delivered_at', 'timestamptz').execute();
  await db.schema.alterTable('newsletters').addColumn('postal_address', 'text').execute();
  await db.schema
    .createTable('food_sales')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    // Her day (YYYY-MM-DD in SITE_TIMEZONE), as gigs and trips keep theirs.
    .addColumn('sold_on', 'text', (c) => c.notNull())
    .addColumn('food', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('amount_cents', 'integer', (c) => c.notNull().check(sql`amount_cents >= 0`))
    .addColumn('place', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('food_sales_sold_on').on('food_sales').columns(['sold_on', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('food_sales').execute();
  await db.schema.alterTable('newsletters').dropColumn('postal_address').execute();
  await db.schema.alterTable('orders').dropColumn('delivered_at').execute();
}
