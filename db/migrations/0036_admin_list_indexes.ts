import { sql, type Kysely } from 'kysely';

/**
 * Issue 36 (decision 0046): the indexes the admin's paged lists seek in. Each list pages by a
 * keyset in its own order (the sort columns, then the id), so a page costs the same at a year of
 * data as at a hundred: the index is read from the cursor on and stops at the page's end.
 *
 * - orders newest first, and with one status (the Today panel's links);
 * - clients newest first;
 * - class sign-ups latest class first, then the latest made;
 * - slots: the free ones ahead and the booked ones (to come and passed), by their start.
 *
 * The search `q` filters these ordered scans (no trigram index: pg_trgm would have to be loaded
 * into PGlite as well; the scan stops at the page's end and is bounded by the table).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index orders_created_at_id on orders (created_at, id)`.execute(db);
  await sql`create index orders_status_created_at_id on orders (status, created_at, id)`.execute(db);
  await sql`create index users_created_at_id on users (created_at, id)`.execute(db);
  await sql`create index class_signups_date_created_at_id on class_signups (date, created_at, id)`.execute(db);
  await sql`create index slots_free_starts_at_id on slots (starts_at, id) where booked_at is null`.execute(db);
  await sql`create index slots_booked_starts_at_id on slots (starts_at, id) where booked_at is not null`.execute(db);
  // The composite indexes above lead with what these held alone.
  await sql`drop index if exists orders_created_at`.execute(db);
}
