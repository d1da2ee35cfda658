import { sql, type Kysely } from 'kysely';

/**
 * Issue 47 (decision 0054): a paid place is held by a person, not a script. class_signups.hold_client
 * is the client address (as the rate limits see it: api/middleware/client.ts) that asked for a
 * held place, so one address holds at most two unpaid places of a class at a time. It lives as
 * long as the hold: cleared when the place is paid, gone with the row when the hold lapses.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('class_signups').addColumn('hold_client', 'text').execute();
  await sql`create index class_signups_live_holds on class_signups (event_id, hold_client) where payment = 'held'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists class_signups_live_holds`.execute(db);
  await db.schema.alterTable('class_signups').dropColumn('hold_client').execute();
}
