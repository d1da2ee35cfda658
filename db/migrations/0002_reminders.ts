import { sql, type Kysely } from 'kysely';

/**
 * Session reminders (a day and two hours before): when each was sent. A reminder is claimed by
 * setting its column in one conditional UPDATE, so it goes out once even with several server
 * processes sending.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('slots').addColumn('reminder_day_sent_at', 'timestamptz').addColumn('reminder_soon_sent_at', 'timestamptz').execute();
  await db.schema.createIndex('slots_booked_starts_at').on('slots').column('starts_at').where(sql.ref('booked_at'), 'is not', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('slots_booked_starts_at').ifExists().execute();
  await db.schema.alterTable('slots').dropColumn('reminder_soon_sent_at').dropColumn('reminder_day_sent_at').execute();
}
