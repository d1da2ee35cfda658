import { sql, type Kysely } from 'kysely';

/**
 * Issue 30, decision 0031: a cancelled session keeps the instant it was booked (and paid), so the
 * books count its money in the month it came in, kept or refunded, as they count an order by the
 * month it was placed: cancelling in January a session paid in December leaves December's figures
 * as they were. Cancellations recorded before this migration take the instant of their booking's
 * payment attempt (0005's attempts, matched by PayPal order); with none, they stay null and the
 * books date them by the cancellation.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('booking_cancellations').addColumn('booked_at', 'timestamptz').execute();
  await sql`update booking_cancellations c set booked_at = a.created_at
    from payment_attempts a
    where a.kind = 'booking' and c.paypal_order_id is not null and a.paypal_order_id = c.paypal_order_id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('booking_cancellations').dropColumn('booked_at').execute();
}
