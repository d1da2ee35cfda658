/**
 * The queue of writes to her Google Calendar (issue 35, migration 0035): what should be there,
 * what Google holds, and the claims of the process sending it. api/agenda/write-back.ts plans
 * and sends; this file holds its SQL.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database, MirroredEvent } from '../../db/schema.ts';

export interface WantedEvent {
  key: string;
  eventId: string;
  startsAt: Date;
  want: MirroredEvent;
  wantHash: string;
}

export interface DueWrite {
  calendarId: string;
  key: string;
  eventId: string;
  want: MirroredEvent | null;
  wantHash: string | null;
  attempts: number;
  /** An erased person's event (decision 0053): renamed to its neutral wish, then taken out. */
  erased: boolean;
}

/** The keys written (or to be written) to `calendarId` for things starting in [from, to), with their state. */
export async function mirroredBetween(trx: Transaction<Database>, calendarId: string, from: Date, to: Date) {
  return trx
    .selectFrom('calendarMirror')
    .select(['key', 'wantHash', 'heldUntil'])
    .where('calendarId', '=', calendarId)
    .where('startsAt', '>=', from)
    .where('startsAt', '<', to)
    .execute();
}

/** Sets what should be in her calendar for each key; a key whose wish is unchanged is left as it is (its retries too). */
export async function wantEvents(trx: Transaction<Database>, calendarId: string, rows: WantedEvent[], now: Date): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) {
    await trx
      .insertInto('calendarMirror')
      .values(
        rows.slice(i, i + 200).map((r) => ({
          calendarId,
          key: r.key,
          eventId: r.eventId,
          startsAt: r.startsAt,
          want: JSON.stringify(r.want),
          wantHash: r.wantHash,
          nextAttemptAt: now,
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['calendarId', 'key'])
          .doUpdateSet((eb) => ({
            want: eb.ref('excluded.want'),
            wantHash: eb.ref('excluded.wantHash'),
            startsAt: eb.ref('excluded.startsAt'),
            attempts: 0,
            nextAttemptAt: now,
            updatedAt: now,
          }))
          .where(sql<boolean>`calendar_mirror.want_hash is distinct from excluded.want_hash`)
          // An erased person's event keeps its neutral wish until it is taken out (decision 0053).
          .where('calendarMirror.erased', '=', false),
      )
      .execute();
  }
}

/** These keys should no longer be in `calendarId` (the thing was cancelled or moved away). */
export async function unwantEvents(trx: Transaction<Database>, calendarId: string, keys: string[], now: Date): Promise<void> {
  if (keys.length === 0) return;
  await trx
    .updateTable('calendarMirror')
    .set({ wantHash: null, attempts: 0, nextAttemptAt: now, updatedAt: now })
    .where('calendarId', '=', calendarId)
    .where('key', 'in', keys)
    .execute();
}

/** Every event written to a calendar other than `calendarId` (her choice changed, or writing is off) is to be taken out. */
export async function unwantOtherCalendars(trx: Transaction<Database>, calendarId: string | null, now: Date): Promise<void> {
  let q = trx.updateTable('calendarMirror').set({ wantHash: null, attempts: 0, nextAttemptAt: now, updatedAt: now }).where('wantHash', 'is not', null);
  if (calendarId !== null) q = q.where('calendarId', '<>', calendarId);
  await q.execute();
}

/**
 * Claims up to `limit` due writes for `by`: due (the wish differs from what Google holds), their
 * time come, and not claimed by a process alive (a claim older than `staleBefore` was a crash's).
 */
export async function claimDueWrites(db: DB, options: { by: string; now: Date; staleBefore: Date; limit: number }): Promise<DueWrite[]> {
  const { rows } = await sql<DueWrite>`
    update calendar_mirror m set claimed_by = ${options.by}, claimed_at = ${options.now}
      from (select calendar_id, key from calendar_mirror
             where want_hash is distinct from written_hash and next_attempt_at <= ${options.now}
               and (claimed_at is null or claimed_at < ${options.staleBefore})
             order by next_attempt_at, key limit ${options.limit}
             for update skip locked) due
     where m.calendar_id = due.calendar_id and m.key = due.key
    returning m.calendar_id, m.key, m.event_id, m.want, m.want_hash, m.attempts, m.erased`.execute(db);
  return rows;
}

/**
 * Google answered the write of `hash` (null: the delete): recorded as what it holds, the claim
 * let go. A row wanted nowhere and held nowhere is deleted.
 */
export async function markWritten(db: DB, row: DueWrite, by: string, meetLink: string | undefined, now: Date): Promise<void> {
  await db
    .updateTable('calendarMirror')
    .set({ writtenHash: row.wantHash, claimedBy: null, claimedAt: null, attempts: 0, lastError: null, updatedAt: now, ...(meetLink ? { meetLink } : {}) })
    .where('calendarId', '=', row.calendarId)
    .where('key', '=', row.key)
    .where('claimedBy', '=', by)
    .execute();
  await db
    .deleteFrom('calendarMirror')
    .where('calendarId', '=', row.calendarId)
    .where('key', '=', row.key)
    .where('wantHash', 'is', null)
    .where('writtenHash', 'is', null)
    .execute();
}

/**
 * The rows of these keys in every calendar (an erased person's things, decision 0053), held
 * until the erasure commits: what each event was wished to be, for its neutral twin.
 */
export async function lockMirrorRowsOf(trx: Transaction<Database>, keys: readonly string[]) {
  if (keys.length === 0) return [];
  return trx.selectFrom('calendarMirror').select(['calendarId', 'key', 'startsAt', 'want']).where('key', 'in', keys).forUpdate().execute();
}

/** The row's wish made `want` (no name, place or words), marked erased: written so, then taken out. */
export async function wantErased(trx: Transaction<Database>, row: { calendarId: string; key: string }, want: MirroredEvent, wantHash: string, now: Date) {
  await trx
    .updateTable('calendarMirror')
    .set({ want: JSON.stringify(want), wantHash, erased: true, meetLink: null, attempts: 0, nextAttemptAt: now, lastError: null, updatedAt: now })
    .where('calendarId', '=', row.calendarId)
    .where('key', '=', row.key)
    .execute();
}

/** An erased person's event was renamed and taken out: its row goes (if still claimed by `by`). */
export async function forgetErased(db: DB, row: DueWrite, by: string): Promise<void> {
  await db.deleteFrom('calendarMirror').where('calendarId', '=', row.calendarId).where('key', '=', row.key).where('claimedBy', '=', by).execute();
}

/** Google refused or was away: tried again at `retryAt`, the reason kept. */
export async function markWriteFailed(db: DB, row: DueWrite, by: string, reason: string, retryAt: Date): Promise<void> {
  await db
    .updateTable('calendarMirror')
    .set({ claimedBy: null, claimedAt: null, attempts: row.attempts + 1, nextAttemptAt: retryAt, lastError: reason.slice(0, 500), updatedAt: new Date() })
    .where('calendarId', '=', row.calendarId)
    .where('key', '=', row.key)
    .where('claimedBy', '=', by)
    .execute();
}

/** The video links of these online sessions and free meetings, by id (the event's place). */
export async function onlineLinksOf(db: DB, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('slots')
    .select(['id', 'link'])
    .where('id', 'in', ids)
    .where('link', 'is not', null)
    .unionAll(db.selectFrom('freeMeetings').select(['id', 'link']).where('id', 'in', ids).where('link', 'is not', null))
    .execute();
  return new Map(rows.map((r) => [r.id, r.link ?? '']));
}

/** How many writes wait, and the last reason one failed: what the Settings page shows. */
export async function writeBackState(db: DB): Promise<{ due: number; lastError: string | null }> {
  // The reason of the write that failed last (not the greatest text of them), with the count, in one query.
  const { rows } = await sql<{ due: number | string; lastError: string | null }>`
    select count(*) as due,
           (array_agg(last_error order by updated_at desc) filter (where last_error is not null))[1] as "lastError"
      from calendar_mirror
     where want_hash is distinct from written_hash`.execute(db);
  return { due: Number(rows[0]?.due ?? 0), lastError: rows[0]?.lastError ?? null };
}

/**
 * The events the site has written to these calendars (its last wish for each: a thing cancelled
 * keeps the times it had until its delete is sent): not her busy times, but ours.
 */
export async function writtenEventsIn(db: DB, calendarIds: string[]): Promise<{ calendarId: string; start: Date; end: Date }[]> {
  if (calendarIds.length === 0) return [];
  const rows = await db
    .selectFrom('calendarMirror')
    .select(['calendarId', 'want'])
    .where('calendarId', 'in', calendarIds)
    .where('writtenHash', 'is not', null)
    .execute();
  return rows.flatMap((r) => (r.want ? [{ calendarId: r.calendarId, start: new Date(r.want.start), end: new Date(r.want.end) }] : []));
}

/** The row of `key` in `calendarId`: the event a Meet link's preparation takes out first. */
export async function mirrorRowOf(db: DB, calendarId: string, key: string) {
  return db.selectFrom('calendarMirror').select(['eventId', 'writtenHash']).where('calendarId', '=', calendarId).where('key', '=', key).executeTakeFirst();
}

/** A slot as a Meet link's preparation reads it: online, free, and when. */
export async function slotToPrepare(db: DB, slotId: string) {
  return db.selectFrom('slots').select(['id', 'online', 'startsAt', 'duration', 'bookedAt']).where('id', '=', slotId).executeTakeFirst();
}

/**
 * A session's event made before its claim (its Meet link): recorded before Google is called, held
 * until `heldUntil` so the plan leaves it alone while the claim commits; a claim that fails leaves
 * it unwanted after that, and it is taken out.
 */
export async function holdPreparedEvent(db: DB, row: WantedEvent & { calendarId: string; heldUntil: Date }): Promise<void> {
  const values = {
    eventId: row.eventId,
    startsAt: row.startsAt,
    want: JSON.stringify(row.want),
    wantHash: row.wantHash,
    writtenHash: null,
    meetLink: null,
    heldUntil: row.heldUntil,
    claimedBy: null,
    claimedAt: null,
    attempts: 0,
    nextAttemptAt: row.heldUntil,
    lastError: null,
    updatedAt: new Date(),
  };
  await db
    .insertInto('calendarMirror')
    .values({ calendarId: row.calendarId, key: row.key, ...values })
    .onConflict((oc) => oc.columns(['calendarId', 'key']).doUpdateSet(values))
    .execute();
}

/** The prepared event was made: what Google holds, and its Meet link. */
export async function markPrepared(db: DB, row: { calendarId: string; key: string; eventId: string; wantHash: string; meetLink: string | null }) {
  await db
    .updateTable('calendarMirror')
    .set({ writtenHash: row.wantHash, meetLink: row.meetLink, updatedAt: new Date() })
    .where('calendarId', '=', row.calendarId)
    .where('key', '=', row.key)
    .where('eventId', '=', row.eventId)
    .execute();
}

/**
 * The Meet link prepared for this key's booking ('session:<slot or free meeting id>') within its
 * hold (null: none; the room link is used), taken in the claim's transaction: the hold ends with
 * the claim's commit (a rollback keeps it), so a cancel soon after is written at once.
 */
export async function takePreparedMeetLink(trx: Transaction<Database>, key: string, now: Date): Promise<string | null> {
  const row = await trx
    .updateTable('calendarMirror')
    .set({ heldUntil: null })
    .where('key', '=', key)
    .where('meetLink', 'is not', null)
    .where('heldUntil', '>', now)
    .returning('meetLink')
    .executeTakeFirst();
  return row?.meetLink ?? null;
}

/** Rows of things that started before `before`, written as they should be: done with for good. */
export async function forgetSettledBefore(trx: Transaction<Database>, before: Date): Promise<void> {
  await trx
    .deleteFrom('calendarMirror')
    .where('startsAt', '<', before)
    .where(sql<boolean>`want_hash is not distinct from written_hash`)
    .execute();
}

/** Disconnecting, in its transaction: nothing more is written (events already in her calendar stay hers). */
export async function clearMirror(trx: Transaction<Database>): Promise<void> {
  await trx.deleteFrom('calendarMirror').execute();
}
