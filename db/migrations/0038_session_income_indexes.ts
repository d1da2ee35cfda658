import { sql, type Kysely } from 'kysely';

/**
 * Issue 36: the tax year's and the finances' session income (api/books/income.repo.ts,
 * sessionPayments) asks for a range of each kind's own date: slots by when they were booked,
 * cancellations by when they had been booked (else made), packages and hand-paid sessions by the
 * day paid. No index served those ranges, so each report read every slot of her history: at 100×
 * a year of data its p50 was twice its 1× (bench-lists). These serve them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index slots_booked_at on slots (booked_at) where booked_at is not null`.execute(db);
  await sql`create index booking_cancellations_booked_or_made on booking_cancellations ((coalesce(booked_at, created_at)))`.execute(db);
  await sql`create index credit_lots_paid_on on credit_lots (paid_on)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists credit_lots_paid_on`.execute(db);
  await sql`drop index if exists booking_cancellations_booked_or_made`.execute(db);
  await sql`drop index if exists slots_booked_at`.execute(db);
}
