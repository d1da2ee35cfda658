import { sql, type Kysely } from 'kysely';

/**
 * Issue 34 (decision 0043): paid workshops and tastings, cancellations by her policy, the roster.
 *
 * - events: a price, fixed (price_cents) or a sliding scale (min/suggested/max_price_cents);
 *   all null is a free event as before. private: held in her agenda (a tasting she sold), never
 *   on the public calendar or open to sign-ups. cancelled_at: she called it off; its paid places
 *   are refunded by the refund runner, each once.
 * - event_payments: the money for a place (PayPal, a credit, a gift card, cash at the door), kept
 *   when the place is given back so the books still see money she kept. refund: 'due' when a
 *   refund is owed (cancelled in time, the event called off), 'done' once PayPal or the ledger
 *   gave it back; the refund runner takes only 'due' rows and PayPal's refund is keyed by the
 *   capture, so a crash between the two refunds once.
 * - class_signups.payment: null for a free place; 'held' while its buyer pays (counted until
 *   held_until, then released for the next in line; hold_order_id is the PayPal order made for
 *   it, hold_amount_cents what she chose to pay); 'paid' once the money is in (payment_id).
 * - class_signups.attendance ('present' | 'noShow'), walk_in: the roster on her phone.
 * - ledger_entries.signup_id: a class place a credit paid, as slot_id names a session; one
 *   'used', one 'returned' and one 'forfeited' row at most per place.
 * - payment_attempts.kind 'event' and 'tasting': two more purchase kinds of the one lifecycle.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const cents = (name: string) => sql.raw(`${name} is null or ${name} >= 0`);
  await db.schema
    .alterTable('events')
    .addColumn('price_cents', 'integer', (c) => c.check(cents('price_cents')))
    .addColumn('min_price_cents', 'integer', (c) => c.check(cents('min_price_cents')))
    .addColumn('suggested_price_cents', 'integer', (c) => c.check(cents('suggested_price_cents')))
    .addColumn('max_price_cents', 'integer', (c) => c.check(cents('max_price_cents')))
    .addColumn('private', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('cancelled_at', 'timestamptz')
    .execute();
  await sql`alter table events add constraint events_price_shape check (
    (price_cents is null and min_price_cents is null and suggested_price_cents is null and max_price_cents is null)
    or (price_cents is not null and min_price_cents is null and suggested_price_cents is null and max_price_cents is null)
    or (price_cents is null and min_price_cents is not null and suggested_price_cents is not null and max_price_cents is not null
        and min_price_cents <= suggested_price_cents and suggested_price_cents <= max_price_cents))`.execute(db);

  await db.schema
    .createTable('event_payments')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    .addColumn('event_id', 'text', (c) => c.references('events.id').onDelete('set null'))
    .addColumn('event_title', 'text', (c) => c.notNull())
    .addColumn('event_date', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull().check(sql`amount_cents >= 0`))
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('paypal', 'credit', 'gift_card', 'cash', 'check')`))
    .addColumn('paypal_order_id', 'text', (c) => c.unique())
    .addColumn('paypal_capture_id', 'text')
    .addColumn('lot_id', 'text', (c) => c.references('credit_lots.id').onDelete('set null'))
    // The client whose credit paid (a signed-in sign-up); null for PayPal and cash.
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    // Her day the money came in (YYYY-MM-DD in SITE_TIMEZONE).
    .addColumn('paid_on', 'text', (c) => c.notNull())
    .addColumn('refund', 'text', (c) => c.check(sql`refund in ('due', 'done')`))
    .addColumn('refund_reason', 'text', (c) => c.check(sql`refund_reason in ('cancelled-in-time', 'event-cancelled', 'removed')`))
    .addColumn('refunded_on', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index event_payments_refund_due on event_payments (created_at) where refund = 'due'`.execute(db);
  await sql`create index event_payments_event on event_payments (event_id)`.execute(db);

  await db.schema
    .alterTable('class_signups')
    .addColumn('payment', 'text', (c) => c.check(sql`payment in ('held', 'paid')`))
    .addColumn('held_until', 'timestamptz')
    .addColumn('hold_order_id', 'text', (c) => c.unique())
    .addColumn('hold_amount_cents', 'integer', (c) => c.check(sql`hold_amount_cents >= 0`))
    .addColumn('payment_id', 'text', (c) => c.references('event_payments.id').onDelete('set null'))
    .addColumn('attendance', 'text', (c) => c.check(sql`attendance in ('present', 'noShow')`))
    .addColumn('attendance_at', 'timestamptz')
    .addColumn('walk_in', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  // What the hold runner looks for.
  await sql`create index class_signups_held on class_signups (held_until) where payment = 'held'`.execute(db);

  await db.schema
    .alterTable('ledger_entries')
    // No foreign key: the ledger is append-only history and keeps naming a place given back (deleted).
    .addColumn('signup_id', 'text')
    .execute();

  // A class place's credit is used, given back or forfeited once each (a double tap writes one row).
  await sql`create unique index ledger_entries_signup_once on ledger_entries (signup_id, reason) where signup_id is not null`.execute(db);

  await sql`alter table payment_attempts drop constraint payment_attempts_kind_check`.execute(db);
  await sql`alter table payment_attempts add constraint payment_attempts_kind_check check (kind in ('order', 'booking', 'package', 'gift_card', 'event', 'tasting'))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from payment_attempts where kind in ('event', 'tasting')`.execute(db);
  await sql`alter table payment_attempts drop constraint payment_attempts_kind_check`.execute(db);
  await sql`alter table payment_attempts add constraint payment_attempts_kind_check check (kind in ('order', 'booking', 'package', 'gift_card'))`.execute(db);
  await sql`drop index ledger_entries_signup_once`.execute(db);
  await db.schema.alterTable('ledger_entries').dropColumn('signup_id').execute();
  await sql`drop index class_signups_held`.execute(db);
  await sql`delete from class_signups where payment = 'held'`.execute(db);
  for (const c of ['payment', 'held_until', 'hold_order_id', 'hold_amount_cents', 'payment_id', 'attendance', 'attendance_at', 'walk_in'])
    await db.schema.alterTable('class_signups').dropColumn(c).execute();
  await db.schema.dropTable('event_payments').execute();
  await sql`alter table events drop constraint events_price_shape`.execute(db);
  for (const c of ['price_cents', 'min_price_cents', 'suggested_price_cents', 'max_price_cents', 'private', 'cancelled_at'])
    await db.schema.alterTable('events').dropColumn(c).execute();
}
