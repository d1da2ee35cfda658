/**
 * Her Google Calendar connection's row (issue 35, migration 0033): one row, id 'google'. The
 * sealed refresh token is read here only for api/agenda/calendar.ts to open it and call Google.
 */
import type { Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { CalendarListEntry, Database, WatchChannelRow } from '../../db/schema.ts';

export const CONNECTION_ID = 'google';

export interface ConnectionRow {
  accountEmail: string;
  refreshTokenSealed: string;
  keyId: string;
  calendars: CalendarListEntry[];
  busyCalendarIds: string[];
  writeCalendarId: string | null;
  channelToken: string;
  watchChannels: WatchChannelRow[];
  fetchedAt: Date | null;
  lastError: string | null;
  errorSince: Date | null;
  connectedAt: Date;
}

const COLUMNS = [
  'accountEmail',
  'refreshTokenSealed',
  'keyId',
  'calendars',
  'busyCalendarIds',
  'writeCalendarId',
  'channelToken',
  'watchChannels',
  'fetchedAt',
  'lastError',
  'errorSince',
  'connectedAt',
] as const;

const dated = (r: ConnectionRow): ConnectionRow => ({
  ...r,
  fetchedAt: r.fetchedAt === null ? null : new Date(r.fetchedAt),
  errorSince: r.errorSince === null ? null : new Date(r.errorSince),
  connectedAt: new Date(r.connectedAt),
});

export async function findConnection(db: DB): Promise<ConnectionRow | undefined> {
  const row = await db.selectFrom('calendarConnections').select(COLUMNS).where('id', '=', CONNECTION_ID).executeTakeFirst();
  return row && dated(row as ConnectionRow);
}

/** The row under its lock, in the caller's transaction: a refresh writes only for the connection it read. */
export async function lockConnection(trx: Transaction<Database>): Promise<{ connectedAt: Date } | undefined> {
  const row = await trx.selectFrom('calendarConnections').select('connectedAt').where('id', '=', CONNECTION_ID).forUpdate().executeTakeFirst();
  return row && { connectedAt: new Date(row.connectedAt) };
}

/** A new connection (a second one replaces the first): her account, its sealed token and her calendars. */
export async function saveConnection(
  db: DB,
  row: Omit<ConnectionRow, 'watchChannels' | 'fetchedAt' | 'lastError' | 'errorSince' | 'connectedAt'>,
): Promise<void> {
  // Set here, in whole milliseconds: a refresh or a channel save matches the connection it read by it.
  const connectedAt = new Date();
  const values = {
    accountEmail: row.accountEmail,
    refreshTokenSealed: row.refreshTokenSealed,
    keyId: row.keyId,
    calendars: JSON.stringify(row.calendars),
    busyCalendarIds: JSON.stringify(row.busyCalendarIds),
    writeCalendarId: row.writeCalendarId,
    channelToken: row.channelToken,
    watchChannels: '[]',
    fetchedAt: null,
    lastError: null,
    errorSince: null,
    updatedAt: new Date(),
  };
  await db
    .insertInto('calendarConnections')
    .values({ id: CONNECTION_ID, ...values, connectedAt })
    .onConflict((oc) => oc.column('id').doUpdateSet({ ...values, connectedAt } as never))
    .execute();
}

export async function updateChoice(
  db: DB,
  choice: { calendars: CalendarListEntry[]; busyCalendarIds: string[]; writeCalendarId: string | null },
): Promise<boolean> {
  const r = await db
    .updateTable('calendarConnections')
    .set({
      calendars: JSON.stringify(choice.calendars),
      busyCalendarIds: JSON.stringify(choice.busyCalendarIds),
      writeCalendarId: choice.writeCalendarId,
      updatedAt: new Date(),
    })
    .where('id', '=', CONNECTION_ID)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function saveChannels(db: DB, connectedAt: Date, channels: WatchChannelRow[]): Promise<void> {
  await db
    .updateTable('calendarConnections')
    .set({ watchChannels: JSON.stringify(channels), updatedAt: new Date() })
    .where('id', '=', CONNECTION_ID)
    .where('connectedAt', '=', connectedAt)
    .execute();
}

/** A refresh that succeeded, in its transaction. */
export async function markFetched(trx: Transaction<Database>, at: Date): Promise<void> {
  await trx.updateTable('calendarConnections').set({ fetchedAt: at, lastError: null, errorSince: null }).where('id', '=', CONNECTION_ID).execute();
}

/** A refresh that failed: the reason, and the first failure's time kept while they go on failing. */
export async function markFailed(db: DB, connectedAt: Date, message: string, at: Date): Promise<void> {
  const row = await db.selectFrom('calendarConnections').select('errorSince').where('id', '=', CONNECTION_ID).executeTakeFirst();
  await db
    .updateTable('calendarConnections')
    .set({ lastError: message.slice(0, 500), errorSince: row?.errorSince ?? at })
    .where('id', '=', CONNECTION_ID)
    .where('connectedAt', '=', connectedAt)
    .execute();
}

/** Her token re-sealed with another key, unless the row changed meanwhile: whether it was. */
export async function resealToken(db: DB, from: { keyId: string; sealed: string }, to: { keyId: string; sealed: string }): Promise<boolean> {
  const r = await db
    .updateTable('calendarConnections')
    .set({ keyId: to.keyId, refreshTokenSealed: to.sealed })
    .where('id', '=', CONNECTION_ID)
    .where('keyId', '=', from.keyId)
    .where('refreshTokenSealed', '=', from.sealed)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Disconnects, in the caller's transaction: the row and every busy time read from Google. */
export async function deleteConnection(trx: Transaction<Database>): Promise<boolean> {
  const r = await trx.deleteFrom('calendarConnections').where('id', '=', CONNECTION_ID).executeTakeFirst();
  await trx.deleteFrom('busyTimes').where('source', '=', 'google').execute();
  return Number(r.numDeletedRows) === 1;
}

/** The busy times last read from these calendars: kept when Google could not read them this time. */
export async function googleBusyOf(trx: Transaction<Database>, calendarIds: string[]): Promise<{ startsAt: Date; endsAt: Date; calendarId: string }[]> {
  if (calendarIds.length === 0) return [];
  const rows = await trx
    .selectFrom('busyTimes')
    .select(['startsAt', 'endsAt', 'calendarId'])
    .where('source', '=', 'google')
    .where('calendarId', 'in', calendarIds)
    .execute();
  return rows.map((r) => ({ startsAt: new Date(r.startsAt), endsAt: new Date(r.endsAt), calendarId: r.calendarId ?? '' }));
}
