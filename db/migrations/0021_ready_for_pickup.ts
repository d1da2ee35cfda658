import { sql, type Kysely } from 'kysely';

/**
 * Issue 30: a local-pickup order gets a step between paid and picked up, 'ready_for_pickup' (she
 * has packed it and the buyer has been mailed where and when to collect it). The status check of
 * 0004 is replaced under the same name.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table orders drop constraint orders_status_check`.execute(db);
  await sql`alter table orders add constraint orders_status_check
    check (status in ('payment_pending', 'payment_failed', 'paid', 'ready_for_pickup', 'shipped', 'picked_up', 'refunded'))`.execute(db);
}

/** Orders that are ready go back to paid (what they were before the step existed). */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`update orders set status = 'paid' where status = 'ready_for_pickup'`.execute(db);
  await sql`alter table orders drop constraint orders_status_check`.execute(db);
  await sql`alter table orders add constraint orders_status_check
    check (status in ('payment_pending', 'payment_failed', 'paid', 'shipped', 'picked_up', 'refunded'))`.execute(db);
}
