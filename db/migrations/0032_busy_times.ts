import { sql, type Kysely } from 'kysely';

/**
 * Issue 35 (decision 0044): her time, one availability rule.
 *
 * - busy_times: a time she is not to be booked, as two instants. source 'manual' (she typed it:
 *   the dentist) or 'google' (read from her chosen calendars by freeBusy; calendar_id names the
 *   calendar, and a refresh replaces that source's rows in one transaction).
 * - events.minutes, gigs.minutes: how long a class or a gig takes her (60 unless she says), so
 *   they are intervals and not only starts.
 * - locations.buffer_minutes: the travel time she keeps free before and after anything at that
 *   place (0: none).
 * - slots.online: the session is given online; its video link is made when it is booked.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('busy_times')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('manual', 'google')`))
    .addColumn('calendar_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('busy_times_ends_after_start', sql`ends_at > starts_at`)
    .execute();
  await db.schema.createIndex('busy_times_starts_at').on('busy_times').column('starts_at').execute();

  const minutes = (table: string) =>
    db.schema
      .alterTable(table)
      .addColumn('minutes', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(60)
          .check(sql`minutes > 0 and minutes <= 1440`),
      )
      .execute();
  await minutes('events');
  await minutes('gigs');
  await db.schema
    .alterTable('locations')
    .addColumn('buffer_minutes', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`buffer_minutes >= 0 and buffer_minutes <= 240`),
    )
    .execute();
  await db.schema
    .alterTable('slots')
    .addColumn('online', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}
