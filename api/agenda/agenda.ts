/**
 * Her time, one rule (issue 35, decision 0044). Her classes and tastings, her gigs, booked
 * sessions and her busy times (typed, or read from her Google Calendar) take her time; an
 * in-person one also takes its place's travel buffer on either side, unless the next thing is at
 * the same place. A free slot is offered only when it clashes with none of them, and a claim
 * checks again under the agenda's lock (lockAgenda), so a busy time added a minute ago wins.
 */
import type { Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';
import { addDays, zonedInstant, zonedNow } from '../lib/time.ts';
import type { AgendaItem, Overlap } from '../../contract/agenda.ts';
import { locationBuffers, lockAgenda, MAX_BUFFER_MINUTES, slotToWeigh, takenRows, type TakenRow } from './agenda.repo.ts';

/** Something that takes her time, as an interval (a stored row with its start and end as instants). */
export interface Taken extends Omit<TakenRow, 'startsAt' | 'date' | 'time' | 'minutes'> {
  start: Date;
  end: Date;
}

/** A time that could be booked, as the rule weighs it. */
export interface Candidate {
  id?: string;
  start: Date;
  end: Date;
  place: string;
  bufferMinutes: number;
  online: boolean;
}

const MINUTE = 60_000;

/** A session's length from its label ('60 mins', her default); 60 when it says none. */
export const sessionMinutes = (duration: string) => {
  const n = Number.parseInt(duration, 10);
  return Number.isFinite(n) && n > 0 ? n : 60;
};

const placeKey = (p: string) => p.trim().toLowerCase();

/**
 * The minutes that must lie between two things: none online to online or at one place, else the
 * longer of their travel buffers (an online thing travels nowhere, but she may have to come home
 * from the other).
 */
export function gapMinutes(a: Pick<Candidate, 'place' | 'bufferMinutes' | 'online'>, b: Pick<Candidate, 'place' | 'bufferMinutes' | 'online'>): number {
  if (a.online && b.online) return 0;
  if (!a.online && !b.online && placeKey(a.place) !== '' && placeKey(a.place) === placeKey(b.place)) return 0;
  return Math.max(a.online ? 0 : a.bufferMinutes, b.online ? 0 : b.bufferMinutes);
}

/** Whether two things overlap once the gap between them is kept. */
export function clash(a: Candidate, b: Candidate): boolean {
  const gap = gapMinutes(a, b) * MINUTE;
  return a.start.getTime() < b.end.getTime() + gap && b.start.getTime() < a.end.getTime() + gap;
}

/** Stored rows as intervals: a gig's day and time read on her clocks. */
export function asTaken(rows: TakenRow[], zone: string): Taken[] {
  return rows.map((r) => {
    const start = r.startsAt ?? zonedInstant(r.date!, r.time!, zone);
    return {
      id: r.id,
      kind: r.kind,
      start,
      end: new Date(start.getTime() + r.minutes * MINUTE),
      title: r.title,
      place: r.place ?? '',
      bufferMinutes: r.bufferMinutes,
      online: r.online,
      roundTripTenthMiles: r.roundTripTenthMiles,
      source: r.source,
      personFirst: r.personFirst,
      personLast: r.personLast,
    };
  });
}

/** Everything taken around [from, to) (the window's own days on her clocks, a day either side). */
export async function takenAround(db: DB, zone: string, from: Date, to: Date): Promise<Taken[]> {
  const fromDay = addDays(zonedNow(zone, from).date, -1);
  const toDay = addDays(zonedNow(zone, to).date, 1);
  return asTaken(await takenRows(db, { from, to, fromDay, toDay }), zone);
}

/** A slot row as a candidate: its length, and its place's buffer unless it is online. */
export function slotCandidate(
  s: { id: string; startsAt: Date | string; duration: string; place: string; online: boolean },
  buffers: Map<string, number>,
): Candidate {
  const start = new Date(s.startsAt);
  return {
    id: s.id,
    start,
    end: new Date(start.getTime() + sessionMinutes(s.duration) * MINUTE),
    place: s.online ? 'Online' : s.place,
    bufferMinutes: s.online ? 0 : (buffers.get(placeKey(s.place)) ?? 0),
    online: s.online,
  };
}

/** What `c` clashes with (never itself: a booked slot is in the agenda as its session). */
export const clashesOf = (c: Candidate, taken: Taken[]) => taken.filter((t) => t.id !== c.id && clash(c, t));

/**
 * The ids of the slots among `slots` that her agenda leaves free: one read of the agenda for
 * their whole span.
 */
export async function clearSlots<S extends { id: string; startsAt: Date | string; duration: string; place: string; online: boolean }>(
  db: DB,
  zone: string,
  slots: S[],
): Promise<S[]> {
  if (slots.length === 0) return slots;
  const starts = slots.map((s) => new Date(s.startsAt).getTime());
  const from = new Date(Math.min(...starts));
  const to = new Date(Math.max(...starts) + 1440 * MINUTE);
  const [taken, buffers] = await Promise.all([takenAround(db, zone, from, to), locationBuffers(db)]);
  taken.sort((a, b) => a.start.getTime() - b.start.getTime());
  // How far before a slot something may start and still reach it: the longest thing (a week away) and buffer.
  const reach = Math.max(1440 * MINUTE, ...taken.map((t) => t.end.getTime() - t.start.getTime())) + MAX_BUFFER_MINUTES * MINUTE;
  return slots.filter((s) => clashesOf(slotCandidate(s, buffers), nearby(taken, new Date(s.startsAt), reach)).length === 0);
}

/** The taken intervals (sorted by start) that could touch a slot starting at `at`: from `reach` before it to a day after. */
function nearby(sorted: Taken[], at: Date, reach: number): Taken[] {
  const lo = at.getTime() - reach;
  const hi = at.getTime() + (1440 + MAX_BUFFER_MINUTES) * MINUTE;
  let first = 0;
  let last = sorted.length;
  while (first < last) {
    const mid = (first + last) >> 1;
    if (sorted[mid]!.start.getTime() < lo) first = mid + 1;
    else last = mid;
  }
  const out: Taken[] = [];
  for (let i = first; i < sorted.length && sorted[i]!.start.getTime() <= hi; i++) out.push(sorted[i]!);
  return out;
}

/**
 * Inside a claim's transaction: takes the agenda's lock, then tells whether the slot is still
 * clear of everything taken (but `ignoring`: the session a move takes away). A busy time, gig or
 * event added under the same lock before it wins.
 */
export async function slotIsClear(trx: Transaction<Database>, zone: string, slotId: string, ignoring: string[] = []): Promise<boolean> {
  await lockAgenda(trx);
  const slot = await slotToWeigh(trx, slotId);
  if (!slot) return true; // The claim itself finds it gone.
  const candidate = slotCandidate(slot, await locationBuffers(trx));
  const taken = await takenAround(trx, zone, candidate.start, candidate.end);
  return clashesOf(candidate, taken).every((t) => ignoring.includes(t.id));
}

/** Her agenda from `from` to `to`: everything in it in order, what each overlaps, and the miles between places. */
export async function agendaBetween(db: DB, zone: string, from: Date, to: Date): Promise<AgendaItem[]> {
  const taken = (await takenAround(db, zone, from, to)).sort((a, b) => a.start.getTime() - b.start.getTime() || a.id.localeCompare(b.id));
  const shown = taken.filter((t) => t.start.getTime() < to.getTime() && t.end.getTime() > from.getTime());
  let previous: Taken | undefined;
  return shown.map((t) => {
    const sameDay = previous !== undefined && zonedNow(zone, previous.start).date === zonedNow(zone, t.start).date;
    const miles =
      sameDay && previous!.roundTripTenthMiles !== null && t.roundTripTenthMiles !== null && placeKey(previous!.place) !== placeKey(t.place)
        ? Math.round((previous!.roundTripTenthMiles + t.roundTripTenthMiles) / 2) / 10
        : undefined;
    if (!t.online && t.place !== '') previous = t;
    else if (!sameDay) previous = undefined;
    return {
      id: t.id,
      kind: t.kind,
      start: t.start.toISOString(),
      end: t.end.toISOString(),
      title: t.title,
      ...(t.kind === 'busy' ? { source: t.source ?? 'manual' } : { place: t.place }),
      conflictsWith: clashesOf(t, taken).map((o) => o.id),
      ...(miles !== undefined ? { milesFromPrevious: miles } : {}),
    };
  });
}

/** What a new thing at [start, end) at `place` would overlap, for her warning (she may go ahead). */
export async function overlapsOf(db: DB, zone: string, c: Omit<Candidate, 'bufferMinutes'>): Promise<Overlap[]> {
  const [taken, buffers] = await Promise.all([takenAround(db, zone, c.start, c.end), locationBuffers(db)]);
  const candidate = { ...c, bufferMinutes: c.online ? 0 : (buffers.get(placeKey(c.place)) ?? 0) };
  return clashesOf(candidate, taken).map((t) => ({ id: t.id, kind: t.kind, title: t.title, start: t.start.toISOString(), end: t.end.toISOString() }));
}
