/** Month grids and times shared by the class calendar and the booking calendar. */
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Days are YYYY-MM-DD strings and their arithmetic is done at noon UTC, never in the browser's
 * zone: a grid drawn by the server and hydrated in Kiritimati or Pago Pago is the same grid.
 */
const noonUtc = (day: string) => new Date(`${day}T12:00:00Z`);
const ymd = (d: Date) => d.toISOString().slice(0, 10);

/** YYYY-MM-DD of `now` on the clocks of `zone` (her day: classes and slots are dated there). */
export const todayIn = (zone: string, now: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);

/** How far `zone`'s clocks are ahead of UTC at `instant`, in milliseconds. */
function offsetAt(instant: number, zone: string): number {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    })
      .formatToParts(new Date(instant))
      .map((x) => [x.type, Number(x.value)]),
  );
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!) - Math.floor(instant / 60_000) * 60_000;
}

/**
 * The instant of `day` at `time` (HH:mm) on the clocks of `zone`, whatever the browser's zone
 * (her Week's busy times are typed on her clocks). The offset is read twice, the second time at
 * the first guess, so a day the clocks change on lands right; a time they skip moves on by the gap.
 */
export function instantIn(day: string, time: string, zone: string): Date {
  const wall = Date.parse(`${day}T${time}:00Z`);
  const guess = wall - offsetAt(wall, zone);
  return new Date(wall - offsetAt(guess, zone));
}

/** The day of `instant` on the clocks of `zone`. */
export const dayOf = (instant: string | Date, zone: string) => todayIn(zone, new Date(instant));

/** The month (0–11) and year a YYYY-MM-DD day falls in. */
export const monthOfDay = (day: string) => ({ year: Number(day.slice(0, 4)), month: Number(day.slice(5, 7)) - 1 });

/** The month `delta` months from `cursor`. */
export function addMonths(cursor: { year: number; month: number }, delta: number): { year: number; month: number } {
  const d = new Date(Date.UTC(cursor.year, cursor.month + delta, 1));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() };
}

/** `day` plus `n` days. */
export const addDaysTo = (day: string, n: number) => ymd(new Date(noonUtc(day).getTime() + n * 86_400_000));

/** SPEC.md section 9: the grid is 42 days starting on the Sunday on or before the 1st. */
export function monthGrid(year: number, month: number): string[] {
  const first = new Date(Date.UTC(year, month, 1, 12));
  return Array.from({ length: 42 }, (_, i) => ymd(new Date(Date.UTC(year, month, 1 - first.getUTCDay() + i, 12))));
}

/** The day of the month of a YYYY-MM-DD day. */
export const dayNumber = (day: string) => Number(day.slice(8, 10));

/**
 * `day` `n` months on, its day of the month kept where that month has it, else the month's last
 * day: the server's reckoning of "a year ahead" (api/lib/time.ts addMonths).
 */
export function addMonthsToDay(day: string, n: number): string {
  const { year, month } = addMonths(monthOfDay(day), n);
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return ymd(new Date(Date.UTC(year, month, Math.min(dayNumber(day), last), 12)));
}

/** A zone as people name it: "Pacific Time" for America/Los_Angeles (its IANA name where the browser has no words). */
export const zoneWords = (zone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longGeneric' }).formatToParts(new Date()).find((p) => p.type === 'timeZoneName')?.value ??
  zone;

/** "Monday, November 30". */
export const dayLabel = (day: string) => noonUtc(day).toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** "18:00" -> "6:00 PM" */
export function twelveHour(time: string): string {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return `${h % 12 || 12}:${pad(m)} ${h < 12 ? 'AM' : 'PM'}`;
}

/**
 * An instant, 12-hour, with the zone's abbreviation: "10:00 AM PST". In the visitor's zone, or in
 * `timeZone` (the teacher's, for classes, which are dated on her clocks).
 */
export const localTimeWithZone = (instant: string | Date, timeZone?: string) =>
  new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZoneName: 'short', ...(timeZone ? { timeZone } : {}) }).format(new Date(instant));

/** "Thursday, December 3, 2026, 6:00 PM PST": a class's day and time with the zone's abbreviation. */
export const classDateTime = (instant: string | Date, timeZone?: string) =>
  new Intl.DateTimeFormat('en-US', {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(instant));

export const monthLabel = (year: number, month: number) =>
  new Date(Date.UTC(year, month, 1, 12)).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

export const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
