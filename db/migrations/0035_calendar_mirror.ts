import { sql, type Kysely } from 'kysely';

/**
 * Issue 35 (decision 0044): what the site writes to her Google Calendar, as a durable queue (the
 * mail outbox's shape). One row per thing of hers in the calendar she chose to be written to:
 *
 * - (calendar_id, key): the calendar, and our own key ('session:<slot id>', 'class:<event id>',
 *   'tasting:…', 'gig:…', 'meeting:<free meeting id>'); event_id is Google's id made from the key
 *   (api/services/calendar/index.ts eventIdFor), so a write retried after a crash finds its event.
 * - want / want_hash: the event as it should be now, and its hash; want_hash null: it should not
 *   be there (cancelled, moved off this slot, or her choice of calendar changed), want then
 *   keeping its last times (the busy read takes the site's own events out by them).
 * - written_hash: what Google holds of it since our last write that answered; null: nothing.
 *   A row is due while want_hash is distinct from written_hash.
 * - starts_at: the thing's start, so that a thing gone from her agenda is found by its window.
 * - claimed_by / claimed_at: the process sending it now; a claim older than a few minutes (a
 *   crash mid-write) is taken again. attempts, next_attempt_at, last_error: retries when Google
 *   is away, with a growing wait.
 * - meet_link: the Google Meet link made with the event (an online session's video link);
 *   held_until: a row made at a booking's claim (its Meet link) is left alone until then, in
 *   case the claim is still being committed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('calendar_mirror')
    .addColumn('calendar_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('want', 'jsonb')
    .addColumn('want_hash', 'text')
    .addColumn('written_hash', 'text')
    .addColumn('meet_link', 'text')
    .addColumn('held_until', 'timestamptz')
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_error', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('calendar_mirror_pkey', ['calendar_id', 'key'])
    .execute();
  await sql`create index calendar_mirror_due on calendar_mirror (next_attempt_at) where want_hash is distinct from written_hash`.execute(db);
  await db.schema.createIndex('calendar_mirror_starts').on('calendar_mirror').column('starts_at').execute();
}
