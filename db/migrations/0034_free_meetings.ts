import { sql, type Kysely } from 'kysely';

/**
 * Issue 35 (decision 0044): the free 30-minute online meeting, scheduled. A visitor picks one of
 * her free times on the home page and it is booked at once: a row here takes her time in her
 * agenda (api/agenda/agenda.repo.ts takenRows) until its cancel link frees it (cancelled_at).
 *
 * - link: her meeting room as it was at the booking (null: it will follow).
 * - One live meeting per start: the agenda's lock already keeps two visitors off one time; the
 *   unique index is the database's own word on it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('free_meetings')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('minutes', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(30)
        .check(sql`minutes > 0 and minutes <= 240`),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('session_type', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('link', 'text')
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index free_meetings_live_start on free_meetings (starts_at) where cancelled_at is null`.execute(db);
}
