import { sql, type Kysely } from 'kysely';

/**
 * Issue 20: the buyer and the client are told; her numbers are hers.
 * - orders.tracking_number / carrier: what the teacher typed when she marked the order shipped.
 *   orders.buyer_told / buyer_told_at: what the buyer was last mailed about its delivery (the
 *   status and the tracking number); the mail goes out only when this changes, claimed with one
 *   conditional UPDATE, so a repeated PUT of the same status never mails twice.
 * - slots.place: where the session happens, an address or an online link ('' for none), set
 *   from her default place when the slot is made and changeable per slot.
 * - settings: her settings, one row per key, the value JSON text (contract/settings.ts says
 *   each; a key not stored reads as its default).
 * - booking_orders: every PayPal order the server made for a booking (POST
 *   /api/bookings/{slotId}/paypal-order), so the server can find one the client approved and
 *   never finalized (the tab closed) and finalize or release it (api/booking/unfinalized.ts).
 *   claimed_by / claimed_at: the process looking at it now (one replica each); resolved_at and
 *   resolution: how it ended.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const now = sql`now()`;
  await db.schema
    .alterTable('orders')
    .addColumn('tracking_number', 'text')
    .addColumn('carrier', 'text')
    .addColumn('buyer_told', 'text')
    .addColumn('buyer_told_at', 'timestamptz')
    .execute();
  await db.schema
    .alterTable('slots')
    .addColumn('place', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createTable('booking_orders')
    .addColumn('paypal_order_id', 'text', (c) => c.primaryKey())
    // No foreign key to the slot: the teacher may delete it meanwhile; the record says which it was.
    .addColumn('slot_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('session_type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('resolution', 'text', (c) => c.check(sql`resolution in ('finalized-by-client', 'finalized-by-server', 'released', 'lapsed')`))
    .addColumn('note', 'text')
    .execute();
  // The resolver's question each pass: which orders are still open, oldest first?
  await db.schema.createIndex('booking_orders_open').on('booking_orders').column('created_at').where(sql.ref('resolved_at'), 'is', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('booking_orders').execute();
  await db.schema.dropTable('settings').execute();
  await db.schema.alterTable('slots').dropColumn('place').execute();
  await db.schema.alterTable('orders').dropColumn('tracking_number').dropColumn('carrier').dropColumn('buyer_told').dropColumn('buyer_told_at').execute();
}
