/**
 * Teaching gigs (issue 24): one class, or a recurring gig ("every Tuesday 18:00 at Riverside
 * Studio, $60 a class") whose entries are made ahead, each then edited, paid or cancelled alone;
 * the series can be ended. Every entry adds its location's round trip to the mileage unless she
 * says she didn't drive.
 */
import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { GigsTable } from '../../db/schema.ts';
import { addDays, zonedInstant } from '../lib/time.ts';
import { overlapsOfNew } from '../agenda/overlaps.ts';
import type { OverlapWarning } from '../../contract/agenda.ts';
import {
  fromTenths,
  MAX_SERIES_ENTRIES,
  SERIES_DAYS_AHEAD,
  type GigFrequency,
  type GigInput,
  type GigUpdate,
  type GigView,
  type GigsView,
  type UnpaidGigView,
} from '../../contract/books.ts';
import type { z } from 'zod';
import type { gigInput, gigUpdate } from '../../contract/books.ts';
import { underAgendaLock } from '../agenda/lock.ts';
import { endSeries, findGig, findLocation, insertGigs, listGigs, seriesHasDate, unpaidGigs, updateGig, type GigRow } from './books.repo.ts';

/** `date` plus `n` months, the day kept or, in a shorter month, its last day (Jan 31 → Feb 28). */
export function addMonths(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + n, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, last))).toISOString().slice(0, 10);
}

/** The dates of a gig: one for perClass; else from `date` every week, two weeks or month until `until`, at most MAX_SERIES_ENTRIES. */
export function gigDates(date: string, frequency: GigFrequency, until: string | null | undefined): string[] {
  if (frequency === 'perClass') return [date];
  const end = until ?? addDays(date, SERIES_DAYS_AHEAD);
  const out: string[] = [];
  for (let i = 0; out.length < MAX_SERIES_ENTRIES; i++) {
    const d = frequency === 'monthly' ? addMonths(date, i) : addDays(date, i * (frequency === 'weekly' ? 7 : 14));
    if (d > end) break;
    out.push(d);
  }
  return out;
}

export const gigView = (g: GigRow): GigView => ({
  _id: g.id,
  seriesId: g.seriesId,
  date: g.date,
  time: g.time,
  minutes: g.minutes,
  className: g.className,
  locationId: g.locationId,
  location: g.location,
  rateCents: g.rateCents,
  frequency: g.frequency,
  repeatUntil: g.repeatUntil,
  paymentMethod: g.paymentMethod,
  requestSent: g.requestSent,
  paid: g.paid,
  paidOn: g.paidOn,
  taxed: g.taxed,
  cancelled: g.cancelled,
  drove: g.drove,
  miles: g.drove && !g.cancelled ? fromTenths(g.roundTripTenthMiles) : 0,
});

const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** The classes taught (on or before `today`) and not paid, oldest first, with their age in days: the Gigs page's and the Today panel's. */
export async function unpaidOf(db: DB, today: string): Promise<UnpaidGigView[]> {
  return (await unpaidGigs(db, today)).map((g) => ({ ...gigView(g), ageDays: daysBetween(g.date, today) }));
}

/** Every entry (or those from/to), and the classes taught and not paid with their age. */
export async function gigsOf(db: DB, today: string, from?: string, to?: string): Promise<GigsView> {
  const [rows, unpaid] = await Promise.all([listGigs(db, from, to), unpaidOf(db, today)]);
  return { gigs: rows.map(gigView), unpaid, unpaidCents: unpaid.reduce((s, g) => s + g.rateCents, 0) };
}

/**
 * Why a gig was not changed: 'unknown-location'; 'gig-not-found'; 'date-taken', another class of
 * the same recurring gig is on that date already.
 */
export type GigRefusal = 'unknown-location' | 'gig-not-found' | 'date-taken';

/**
 * Makes a gig's entries (one, or a series'): the ids made, and what they overlap in her agenda
 * (issue 35: saved all the same, she may go ahead), each class weighed on her clocks (`zone`).
 */
export async function addGig(
  db: DB,
  zone: string,
  input: z.output<typeof gigInput>,
): Promise<({ ok: true; ids: string[] } & OverlapWarning) | { ok: false; kind: GigRefusal }> {
  const location = await findLocation(db, input.locationId);
  if (!location) return { ok: false, kind: 'unknown-location' };
  const dates = gigDates(input.date, input.frequency, input.repeatUntil);
  const seriesId = input.frequency === 'perClass' ? null : randomUUID();
  const repeatUntil = input.frequency === 'perClass' ? null : (input.repeatUntil ?? dates[dates.length - 1]!);
  const rows: Insertable<GigsTable>[] = dates.map((date, i) => ({
    seriesId,
    date,
    time: input.time,
    minutes: input.minutes,
    className: input.className,
    locationId: input.locationId,
    rateCents: input.rateCents,
    frequency: input.frequency,
    repeatUntil,
    paymentMethod: input.paymentMethod,
    // What she says about payment goes with the first class; the later ones are not taught yet.
    requestSent: i === 0 ? input.requestSent : false,
    paid: i === 0 ? input.paid : false,
    paidOn: i === 0 && input.paid ? (input.paidOn ?? date) : null,
    taxed: input.taxed,
    cancelled: i === 0 ? (input.cancelled ?? false) : false,
    drove: input.drove ?? true,
  }));
  // Under the agenda's lock (issue 35): a slot claimed at this moment sees the gig, or was booked first.
  const made = await underAgendaLock(db, (trx) => insertGigs(trx, rows));
  const warning = await overlapsOfNew(
    db,
    zone,
    made.map((g) => {
      const start = zonedInstant(g.date, input.time, zone);
      return { id: g.id, start, end: new Date(start.getTime() + input.minutes * 60_000), place: location.name, online: false };
    }),
  );
  return { ok: true, ids: made.map((g) => g.id), ...warning };
}

/** Changes one entry; paid without a date means paid today, unpaid clears the date. */
export async function changeGig(
  db: DB,
  id: string,
  changes: z.output<typeof gigUpdate>,
  today: string,
): Promise<{ ok: true; gig: GigView } | { ok: false; kind: GigRefusal }> {
  const current = await findGig(db, id);
  if (!current) return { ok: false, kind: 'gig-not-found' };
  if (changes.locationId && !(await findLocation(db, changes.locationId))) return { ok: false, kind: 'unknown-location' };
  if (changes.date && changes.date !== current.date && current.seriesId && (await seriesHasDate(db, current.seriesId, changes.date))) {
    return { ok: false, kind: 'date-taken' };
  }
  // A paid-on date alone means paid on that day.
  const paid = changes.paid ?? (changes.paidOn ? true : current.paid);
  const paidOn = paid ? (changes.paidOn ?? (changes.paid === true && !current.paid ? today : (current.paidOn ?? today))) : null;
  const { paidOn: _ignored, ...rest } = changes;
  void _ignored;
  await updateGig(db, id, { ...rest, paid, paidOn });
  return { ok: true, gig: gigView((await findGig(db, id))!) };
}

/** Ends the recurring gig of entry `id` after `after` (default the entry's date); how many entries went. */
export async function endGig(db: DB, id: string, after: string | undefined): Promise<{ ok: true; removed: number } | { ok: false; kind: GigRefusal }> {
  const current = await findGig(db, id);
  if (!current) return { ok: false, kind: 'gig-not-found' };
  if (!current.seriesId) return { ok: true, removed: 0 };
  return { ok: true, removed: await endSeries(db, current.seriesId, after ?? current.date) };
}

export type { GigInput, GigUpdate };
