import { type Kysely } from 'kysely';

/**
 * Issue 32: a weekly series. The sessions a client (or the teacher for them) booked at once as
 * "the same weekday and time for N weeks" share a series id, so "My Bookings" can show them
 * together. Each session stays a booking of its own (moved or cancelled alone); the id only
 * groups them, and a freed slot drops it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('slots').addColumn('series_id', 'text').execute();
  await db.schema.createIndex('slots_series_id').on('slots').column('series_id').where('series_id', 'is not', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('slots_series_id').execute();
  await db.schema.alterTable('slots').dropColumn('series_id').execute();
}
