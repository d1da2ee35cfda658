/** Month grids and times shared by the class calendar and the booking calendar. */
const pad = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DD of a local date. */
export const isoDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/**
 * YYYY-MM-DD of "now" in an IANA zone. Classes are dated in the teacher's zone, so a visitor
 * elsewhere must see the teacher's today as today, not a day that is already or not yet past there.
 */
export const todayIn = (zone: string, now = new Date()) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);

/** SPEC.md section 9: the grid is 42 days starting on the Sunday on or before the 1st. */
export function monthGrid(year: number, month: number): Date[] {
  const first = new Date(year, month, 1);
  return Array.from({ length: 42 }, (_, i) => new Date(year, month, 1 - first.getDay() + i));
}

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

export const monthLabel = (year: number, month: number) => new Date(year, month, 1).toLocaleDateString('en-US', { month: 'long', year: 'numeric' });

export const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
