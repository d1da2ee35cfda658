/**
 * What her time is taken by (issue 35, decision 0044), as rows: her classes and tastings
 * (events), her gigs, booked sessions (and the free meetings visitors booked) and her busy
 * times. One query reads them all for a window; the rule that decides what overlaps is
 * api/agenda/agenda.ts.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';

export type TakenKind = 'class' | 'tasting' | 'session' | 'gig' | 'busy';

/** One thing in her agenda as stored: a gig has its day and time (her zone), the rest an instant. */
export interface TakenRow {
  id: string;
  kind: TakenKind;
  startsAt: Date | null;
  date: string | null;
  time: string | null;
  minutes: number;
  title: string;
  place: string;
  bufferMinutes: number;
  online: boolean;
  /** Her travel miles for the place, round trip from home (her books' locations); null when it is none of them. */
  roundTripTenthMiles: number | null;
  /** A busy time's source; null for the rest. */
  source: 'manual' | 'google' | null;
  /**
   * The person a session or free meeting is with (a free meeting's name in one piece, as typed),
   * for her Google Calendar's title as she chose it (decision 0058); null for the rest.
   */
  personFirst: string | null;
  personLast: string | null;
}

/** A free meeting's word in her agenda ("Free meeting: <name>") and in her Google Calendar's title. */
export const FREE_MEETING_WORD = 'Free meeting';

/** The longest buffer a location may carry (0032's check): what a window is widened by. */
export const MAX_BUFFER_MINUTES = 240;

/**
 * Everything that may overlap [from, to), widened by the longest buffer: events (not called
 * off), gigs (not cancelled; her days `fromDay`..`toDay` with a day's margin), booked sessions,
 * free meetings not cancelled (online sessions titled 'Free meeting: <name>') and busy times. A
 * place matches her books' location of the same name (case aside) for its travel buffer and miles.
 */
export async function takenRows(db: DB, window: { from: Date; to: Date; fromDay: string; toDay: string }): Promise<TakenRow[]> {
  const lo = new Date(window.from.getTime() - MAX_BUFFER_MINUTES * 60_000);
  const hi = new Date(window.to.getTime() + MAX_BUFFER_MINUTES * 60_000);
  const { rows } = await sql<TakenRow>`
    select e.id, case when e.private then 'tasting' else 'class' end as kind, e.starts_at, null as date, null as time,
           e.minutes, e.title, e.location as place, coalesce(l.buffer_minutes, 0) as buffer_minutes, false as online,
           l.round_trip_tenth_miles, null as source, null as person_first, null as person_last
      from events e
      left join lateral (select buffer_minutes, round_trip_tenth_miles from locations where lower(name) = lower(trim(e.location)) limit 1) l on true
     where e.cancelled_at is null and e.starts_at < ${hi} and e.starts_at + make_interval(mins => e.minutes) > ${lo}
    union all
    select g.id, 'gig', null, g.date, g.time, g.minutes, g.class_name, l.name, l.buffer_minutes, false, l.round_trip_tenth_miles, null, null, null
      from gigs g join locations l on l.id = g.location_id
     where not g.cancelled and g.date >= ${window.fromDay} and g.date <= ${window.toDay}
    union all
    select s.id, 'session', s.starts_at, null, null, coalesce(nullif(substring(s.duration from '^[0-9]+'), '')::int, 60),
           trim(coalesce(s.session_type, '') || ': ' || coalesce(s.first_name, '') || ' ' || coalesce(s.last_name, '')),
           case when s.online then 'Online' else s.place end, case when s.online then 0 else coalesce(l.buffer_minutes, 0) end, s.online,
           case when s.online then null else l.round_trip_tenth_miles end, null, coalesce(s.first_name, ''), coalesce(s.last_name, '')
      from slots s
      left join lateral (select buffer_minutes, round_trip_tenth_miles from locations where lower(name) = lower(trim(s.place)) limit 1) l on true
     where s.booked_at is not null and s.starts_at < ${hi} and s.starts_at > ${new Date(lo.getTime() - 1440 * 60_000)}
    union all
    select f.id, 'session', f.starts_at, null, null, f.minutes, ${`${FREE_MEETING_WORD}: `} || f.name, 'Online', 0, true, null, null, f.name, ''
      from free_meetings f
     where f.cancelled_at is null and f.starts_at < ${hi} and f.starts_at + make_interval(mins => f.minutes) > ${lo}
    union all
    select b.id, 'busy', b.starts_at, null, null, greatest(1, ceil(extract(epoch from (b.ends_at - b.starts_at)) / 60))::int, b.title, '', 0, false, null, b.source,
           null, null
      from busy_times b
     where b.starts_at < ${hi} and b.ends_at > ${lo}`.execute(db);
  return rows.map((r) => ({ ...r, startsAt: r.startsAt === null ? null : new Date(r.startsAt) }));
}

/** A free slot as the rule weighs it: its start, length and place. */
export async function slotToWeigh(db: DB, slotId: string) {
  return db.selectFrom('slots').select(['id', 'date', 'startsAt', 'duration', 'place', 'online']).where('id', '=', slotId).executeTakeFirst();
}

/**
 * One lock for everything that takes her time: a claim checks the agenda under it, and a busy
 * time, a gig or an event is added under it, so a claim never misses a time added beside it
 * (held until the transaction ends).
 */
export async function lockAgenda(trx: Transaction<Database>): Promise<void> {
  await sql`select pg_advisory_xact_lock(350035)`.execute(trx);
}

export async function insertBusyTime(trx: Transaction<Database>, row: { startsAt: Date; endsAt: Date; title: string }) {
  return trx
    .insertInto('busyTimes')
    .values({ ...row, source: 'manual' })
    .returning(['id', 'startsAt', 'endsAt', 'title', 'source'])
    .executeTakeFirstOrThrow();
}

/** Deletes one busy time she typed (Google's come and go with the calendar). */
export async function deleteManualBusyTime(db: DB, id: string): Promise<boolean> {
  const row = await db.deleteFrom('busyTimes').where('id', '=', id).where('source', '=', 'manual').returning('id').executeTakeFirst();
  return row !== undefined;
}

/**
 * Replaces the busy times read from her Google calendars with `rows`, in the caller's transaction
 * (under the agenda's lock: a claim sees the old set or the new one, never none).
 */
export async function replaceGoogleBusyTimes(trx: Transaction<Database>, rows: { startsAt: Date; endsAt: Date; calendarId: string }[]): Promise<void> {
  await trx.deleteFrom('busyTimes').where('source', '=', 'google').execute();
  if (rows.length > 0)
    await trx
      .insertInto('busyTimes')
      .values(rows.map((r) => ({ ...r, source: 'google' as const, title: 'Busy' })))
      .execute();
}

/** Her books' locations by lower-cased name: the travel buffer of a slot's place. */
export async function locationBuffers(db: DB): Promise<Map<string, number>> {
  const rows = await db.selectFrom('locations').select(['name', 'bufferMinutes']).execute();
  return new Map(rows.map((r) => [r.name.trim().toLowerCase(), r.bufferMinutes]));
}
