import { sql, type Kysely } from 'kysely';

/**
 * Issue 35 (decision 0044): her Google Calendar, connected from the admin. One row, for her one
 * account (the id is fixed to 'google', so a second connection replaces the first):
 *
 * - account_email: her Google account, shown on the Settings page.
 * - refresh_token_sealed + key_id: the token that lets the site read and write her calendars,
 *   sealed with the private records' key (api/practice/keys.ts), bound to this row.
 * - calendars: her calendars as Google listed them at the last connect or save (id, name,
 *   primary, access), so the Settings page needs no call to Google to draw.
 * - busy_calendar_ids: the calendars whose events mean "busy"; write_calendar_id: the one the
 *   site writes its events to (null: none).
 * - channel_token + watch_channels: Google's push channels, one per busy calendar ({calendarId,
 *   id, resourceId, expiresAt}), each notification checked against the token.
 * - fetched_at: the last refresh that succeeded (the busy times in busy_times are from then);
 *   last_error + error_since: why the last refresh failed, and since when they fail.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('calendar_connections')
    .addColumn('id', 'text', (c) =>
      c
        .primaryKey()
        .defaultTo('google')
        .check(sql`id = 'google'`),
    )
    .addColumn('account_email', 'text', (c) => c.notNull())
    .addColumn('refresh_token_sealed', 'text', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('calendars', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('busy_calendar_ids', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('write_calendar_id', 'text')
    .addColumn('channel_token', 'text', (c) => c.notNull())
    .addColumn('watch_channels', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('fetched_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('error_since', 'timestamptz')
    .addColumn('connected_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}
