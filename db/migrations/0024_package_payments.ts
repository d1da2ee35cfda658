import { sql, type Kysely } from 'kysely';

/**
 * Issue 32 (decision 0038): a package bought through PayPal is a payment attempt of its own kind,
 * settled by the one lifecycle (api/payments/) like an order or a booking: the reconciler and the
 * webhook find it by its row. The lot it grants names its PayPal order (credit_lots.paypal_order_id,
 * unique since 0023), so a purchase is granted once whoever completes it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table payment_attempts drop constraint payment_attempts_kind_check`.execute(db);
  await sql`alter table payment_attempts add constraint payment_attempts_kind_check check (kind in ('order', 'booking', 'package'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from payment_attempts where kind = 'package'`.execute(db);
  await sql`alter table payment_attempts drop constraint payment_attempts_kind_check`.execute(db);
  await sql`alter table payment_attempts add constraint payment_attempts_kind_check check (kind in ('order', 'booking'))`.execute(db);
}
