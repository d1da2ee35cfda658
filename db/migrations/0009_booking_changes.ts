import { sql, type Kysely } from 'kysely';

/**
 * Clients change their own bookings (issue 15, decision 0016).
 *
 * - slots.calendar_uid / calendar_sequence: the booking's calendar entry. A reschedule moves the
 *   booking to another slot row, so the UID can no longer be derived from the slot; it is stored
 *   when a booking first changes (null: the UID derived from slot id and booked_at, as every
 *   confirmation so far was sent with) and the SEQUENCE counts its revisions.
 * - users.calendar_secret: the client's private calendar feed URL secret (null: no feed yet).
 * - booking_cancellations: a session a client cancelled, with what happened to its payment, so
 *   the teacher sees a refund that PayPal refused and can make it by hand.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('slots')
    .addColumn('calendar_uid', 'text')
    .addColumn('calendar_sequence', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('calendar_secret', 'text', (c) => c.unique())
    .execute();
  await db.schema
    .createTable('booking_cancellations')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    // No foreign key: the teacher may delete the slot later; the record stays.
    .addColumn('slot_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('session_type', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer')
    .addColumn('coupon_used', 'boolean', (c) => c.notNull())
    .addColumn('paypal_order_id', 'text')
    .addColumn('paypal_capture_id', 'text')
    // none: nothing was paid (coupon); pending: the refund is under way; refunded; failed: refund by hand.
    .addColumn('refund_state', 'text', (c) => c.notNull().check(sql`refund_state in ('none', 'pending', 'refunded', 'failed')`))
    .addColumn('refund_id', 'text')
    .addColumn('refund_note', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('booking_cancellations_created_at').on('booking_cancellations').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('booking_cancellations').execute();
  await db.schema.alterTable('users').dropColumn('calendar_secret').execute();
  await db.schema.alterTable('slots').dropColumn('calendar_uid').dropColumn('calendar_sequence').execute();
}
