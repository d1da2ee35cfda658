import type { Kysely } from 'kysely';

/**
 * Where a shipped order goes, as the buyer chose it in PayPal's window: copied from the capture so
 * the teacher can pack and label without opening PayPal. Null for local pickup, and for orders
 * placed before this column existed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('ship_to_name', 'text').addColumn('ship_to_address', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('ship_to_address').dropColumn('ship_to_name').execute();
}
