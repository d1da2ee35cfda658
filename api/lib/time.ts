/**
 * Wall-clock times in the teacher's zone (SITE_TIMEZONE) and the instants they denote.
 * Intl does the zone arithmetic, so there is no time-zone library to ship.
 */

// Making an Intl.DateTimeFormat costs far more than using one (it loads the zone's rules), and
// a request may need several: one per zone, made once.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The clocks of `zone` at `instant`, as numbers (hour 0-23). */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function wallClock(instant: number, zone: string): WallClock {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, format);
  }
  const parts = format.formatToParts(new Date(instant));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

/** Offset of `zone` from UTC at `instant`, in milliseconds (e.g. -7h for PDT). */
function zoneOffset(instant: number, zone: string): number {
  const w = wallClock(instant, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant of `date` (YYYY-MM-DD) at `time` (HH:mm) on the clocks of `zone`.
 * Like JavaScript's own Date and Temporal's "compatible" choice: a time that occurs twice
 * (autumn) is the earlier one; a time skipped in spring moves forward by the gap.
 */
export function zonedInstant(date: string, time: string, zone: string): Date {
  return wallTime(date, time, zone).instant;
}

/**
 * What `date` at `time` is on the clocks of `zone`: 'exact' (one instant), 'ambiguous' (the
 * clocks show it twice when they fall back; `instant` is the first, `later` the second) or
 * 'skipped' (the clocks jump over it when they spring forward; `instant` is moved forward by
 * the gap, as zonedInstant does). Callers that take a time from a person refuse 'skipped'.
 */
export function wallTime(date: string, time: string, zone: string): { kind: 'exact' | 'ambiguous' | 'skipped'; instant: Date; later?: Date } {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  const day = 86_400_000;
  // A zone changes its offset at most once within a day either side: the two offsets around
  // the wall time are the only candidates.
  const before = zoneOffset(wall - day, zone);
  const after = zoneOffset(wall + day, zone);
  const valid = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((instant) => wall - zoneOffset(instant, zone) === instant)
    .sort((a, b) => a - b);
  if (valid.length === 0) return { kind: 'skipped', instant: new Date(wall - before) };
  if (valid.length > 1) return { kind: 'ambiguous', instant: new Date(valid[0]!), later: new Date(valid[1]!) };
  return { kind: 'exact', instant: new Date(valid[0]!) };
}

/** Today's date (YYYY-MM-DD) and the time (HH:mm) on the clocks of `zone`. */
export function zonedNow(zone: string, now: Date = new Date()): { date: string; time: string } {
  const w = wallClock(now.getTime(), zone);
  const pad = (n: number) => String(n).padStart(2, '0');
  return { date: `${w.year}-${pad(w.month)}-${pad(w.day)}`, time: `${pad(w.hour)}:${pad(w.minute)}` };
}

/** `date` plus `days` calendar days (YYYY-MM-DD arithmetic, no zone involved). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Day of the week of a YYYY-MM-DD date, 0 = Sunday. */
export function weekday(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/**
 * `date` plus `months` calendar months, the day kept and clamped to the month's end (Jan 31 + 1
 * month = Feb 28 or 29): a package bought on the 31st lasts to the last day of a shorter month.
 */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, last))).toISOString().slice(0, 10);
}

/**
 * Months `from` to `to` (YYYY-MM, both included) as a half-open range a column's index serves
 * (issue 36): `days` for a text date (YYYY-MM-DD), `first` <= date < `next`; `instants` for a
 * timestamp, from the first instant of `from` on the clocks of `zone` to the first of the month
 * after `to`. The same rows as comparing to_char(column at time zone zone, 'YYYY-MM'), which no
 * index serves.
 */
export function monthRange(from: string, to: string, zone: string): { days: { first: string; next: string }; instants: { start: Date; end: Date } } {
  const first = `${from}-01`;
  const next = addMonths(`${to}-01`, 1);
  return { days: { first, next }, instants: { start: zonedInstant(first, '00:00', zone), end: zonedInstant(next, '00:00', zone) } };
}

/** Whether a session starting at `startsAt` can still be changed online at `now`, under a notice of `noticeHours`. */
export const changeableAt = (noticeHours: number, startsAt: Date | string, now: number) => new Date(startsAt).getTime() - now >= noticeHours * 3_600_000;
