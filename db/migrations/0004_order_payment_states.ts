import { sql, type Kysely } from 'kysely';

/**
 * Two states for a chocolate order whose PayPal payment is not settled when it is placed: a
 * capture PayPal reports PENDING (an eCheck, a payment under review) is stored as
 * 'payment_pending' and may later complete ('paid') or be denied ('payment_failed').
 * The check constraint of 0001 was created inline, so PostgreSQL named it orders_status_check;
 * it is replaced under the same name.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table orders drop constraint orders_status_check`.execute(db);
  await sql`alter table orders add constraint orders_status_check
    check (status in ('payment_pending', 'payment_failed', 'paid', 'shipped', 'picked_up', 'refunded'))`.execute(db);
}

/** Fails while an order is pending or failed: those rows have no honest older status to fall back to. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table orders drop constraint orders_status_check`.execute(db);
  await sql`alter table orders add constraint orders_status_check
    check (status in ('paid', 'shipped', 'picked_up', 'refunded'))`.execute(db);
}
