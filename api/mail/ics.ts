/**
 * An iCalendar (RFC 5545) file for one event, attached to class sign-up and session booking
 * confirmations so the student can add it to a calendar, and to a cancelled session's mail
 * (METHOD:CANCEL, same UID) so the calendar can take it off again. Times are written on the
 * teacher's clocks (`DTSTART;TZID=America/Los_Angeles:...`) with a VTIMEZONE built from Intl, so
 * calendars that don't know the zone name (Outlook) still place the class at the right instant.
 * Text is escaped, lines are folded at 75 octets and end with CRLF, as the RFC requires.
 */

import { BRAND } from './layout.ts';
import { wallClock, type WallClock } from '../lib/time.ts';

export interface CalendarEvent {
  /** Globally unique and stable for this event, e.g. `<signup id>@<site host>`. */
  uid: string;
  /** The instant the event starts. */
  start: Date;
  /** Length in minutes (default 60). */
  durationMinutes?: number;
  /** IANA zone the times are written in, e.g. America/Los_Angeles. */
  timezone: string;
  summary: string;
  location?: string;
  description?: string;
  url?: string;
  /** When the file was made (default now). */
  stamp?: Date;
  /**
   * iTIP method (RFC 5546). PUBLISH (default) offers the event; REQUEST updates one sent
   * earlier (a rescheduled session: same UID, higher SEQUENCE); CANCEL withdraws one, matched by its UID.
   */
  method?: 'PUBLISH' | 'REQUEST' | 'CANCEL';
  /** Default CONFIRMED; CANCELLED with METHOD:CANCEL. */
  status?: 'CONFIRMED' | 'TENTATIVE' | 'CANCELLED';
  /**
   * Revision of the event. Calendars apply an update only when its SEQUENCE is above the one
   * they hold; left out it means 0, which the first file of an event needs no line for.
   */
  sequence?: number;
  /**
   * Who holds the event (the teacher). RFC 5546 asks for it with PUBLISH and CANCEL, and Google
   * and Outlook only act on a CANCEL whose ORGANIZER matches the entry they hold.
   */
  organizer?: CalendarPerson;
  /** Whose entry a CANCEL withdraws (RFC 5546 lists the attendees being removed). */
  attendee?: CalendarPerson;
}

export interface CalendarPerson {
  name: string;
  email: string;
}

/** `;CN="Name":mailto:address` for ORGANIZER/ATTENDEE; quotes and line breaks can't break out. */
const person = (p: CalendarPerson) => {
  const name = p.name.replace(/["\r\n\u0000-\u001F\u007F]/g, '').trim();
  return `${name ? `;CN="${name}"` : ''}:mailto:${p.email.replace(/[\s"<>]/g, '')}`;
};

const CRLF = '\r\n';

/** TEXT value escaping (RFC 5545 3.3.11): backslash, semicolon, comma, newlines. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, '');
}

/**
 * Folds a content line so no physical line exceeds 75 octets (UTF-8); continuation lines
 * start with one space. Never splits a character.
 */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let bytes = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch, 'utf8');
    const limit = out.length === 0 ? 75 : 74; // continuation lines spend one octet on the space
    if (bytes + size > limit) {
      out.push(current);
      current = '';
      bytes = 0;
    }
    current += ch;
    bytes += size;
  }
  out.push(current);
  return out.join(`${CRLF} `);
}

/** Offset of the zone's clocks from UTC at `instant`, in minutes. */
function offsetMinutes(instant: number, zone: string): number {
  const w = wallClock(instant, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** DATE-TIME in local form: 20260108T100000. */
function formatLocal(w: WallClock): string {
  return `${pad(w.year, 4)}${pad(w.month)}${pad(w.day)}T${pad(w.hour)}${pad(w.minute)}${pad(w.second)}`;
}

/** DATE-TIME in UTC form: 20260108T180000Z. */
function formatUtc(instant: number): string {
  return `${formatLocal(wallAtOffset(instant, 0))}Z`;
}

/** UTC-OFFSET: -0800, +0530. */
function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
}

/** Wall clock of an instant given the offset in minutes (no Intl: the offset is known). */
function wallAtOffset(instant: number, offset: number): WallClock {
  const d = new Date(instant + offset * 60_000);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

interface Transition {
  at: number;
  from: number;
  to: number;
}

/** The zone's offset changes between two instants, found day by day then to the minute. */
function transitions(zone: string, from: number, to: number): Transition[] {
  const day = 86_400_000;
  const found: Transition[] = [];
  let previous = offsetMinutes(from, zone);
  for (let t = from + day; t <= to; t += day) {
    const current = offsetMinutes(t, zone);
    if (current !== previous) {
      // Whole minutes (from is on the hour): hi ends on the first minute of the new offset.
      let lo = t - day;
      let hi = t;
      while (hi - lo > 60_000) {
        const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
        if (offsetMinutes(mid, zone) === previous) lo = mid;
        else hi = mid;
      }
      found.push({ at: hi, from: previous, to: current });
      previous = current;
    }
  }
  return found;
}

/** Quotes a parameter value when it holds characters that would end it. */
function paramValue(value: string): string {
  return /[;:,]/.test(value) ? `"${value.replace(/"/g, '')}"` : value;
}

/**
 * VTIMEZONE covering a year either side of `around`: one observance for the offset in force at
 * the start of that range, then one per change (STANDARD when clocks go back, DAYLIGHT when
 * they go forward). Each DTSTART is on the clocks in force before the change.
 */
function vtimezone(zone: string, around: number): string[] {
  const year = 366 * 86_400_000;
  const rangeStart = Math.floor((around - year) / 3_600_000) * 3_600_000;
  const changes = transitions(zone, rangeStart, around + year);
  const initial = offsetMinutes(rangeStart, zone);
  const firstChange = changes[0];
  const initialKind = firstChange && firstChange.to < firstChange.from ? 'DAYLIGHT' : 'STANDARD';
  const lines = [`BEGIN:VTIMEZONE`, `TZID:${zone}`];
  const observance = (kind: string, start: WallClock, from: number, to: number) =>
    lines.push(`BEGIN:${kind}`, `DTSTART:${formatLocal(start)}`, `TZOFFSETFROM:${formatOffset(from)}`, `TZOFFSETTO:${formatOffset(to)}`, `END:${kind}`);
  observance(initialKind, wallAtOffset(rangeStart, initial), initial, initial);
  for (const change of changes) {
    observance(change.to > change.from ? 'DAYLIGHT' : 'STANDARD', wallAtOffset(change.at, change.from), change.from, change.to);
  }
  lines.push('END:VTIMEZONE');
  return lines;
}

/** The VEVENT of one event (its TZID's VTIMEZONE goes once in the calendar around it). */
function veventLines(event: CalendarEvent): string[] {
  const start = event.start.getTime();
  if (Number.isNaN(start)) throw new Error('buildIcs: invalid start');
  const sequence = event.sequence;
  if (sequence !== undefined && !(Number.isInteger(sequence) && sequence >= 0)) throw new Error('buildIcs: invalid sequence');
  const end = start + (event.durationMinutes ?? 60) * 60_000;
  const tzid = paramValue(event.timezone);
  return [
    'BEGIN:VEVENT',
    `UID:${escapeText(event.uid)}`,
    ...(sequence !== undefined ? [`SEQUENCE:${sequence}`] : []),
    ...(event.organizer ? [`ORGANIZER${person(event.organizer)}`] : []),
    ...(event.attendee ? [`ATTENDEE${person(event.attendee)}`] : []),
    `DTSTAMP:${formatUtc((event.stamp ?? new Date()).getTime())}`,
    `DTSTART;TZID=${tzid}:${formatLocal(wallClock(start, event.timezone))}`,
    `DTEND;TZID=${tzid}:${formatLocal(wallClock(end, event.timezone))}`,
    `SUMMARY:${escapeText(event.summary)}`,
    ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
    ...(event.description ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
    ...(event.url ? [`URL:${event.url.replace(/[\r\n]/g, '')}`] : []),
    `STATUS:${event.status ?? 'CONFIRMED'}`,
    'END:VEVENT',
  ];
}

/** The whole .ics file, CRLF line endings, folded. */
export function buildIcs(event: CalendarEvent): string {
  const start = event.start.getTime();
  if (Number.isNaN(start)) throw new Error('buildIcs: invalid start');
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Yoga & Chocolates//Class sign-up//EN',
    'CALSCALE:GREGORIAN',
    `METHOD:${event.method ?? 'PUBLISH'}`,
    ...vtimezone(event.timezone, start),
    ...veventLines(event),
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join(CRLF) + CRLF;
}

/**
 * A subscribable calendar (a feed): many events on one zone's clocks, one VTIMEZONE covering
 * a year either side of now, so every upcoming event falls in it. No METHOD: a feed is not an
 * iTIP message. An empty feed is still a valid calendar.
 */
export function buildIcsFeed(feed: { name: string; timezone: string; events: Omit<CalendarEvent, 'timezone' | 'method'>[]; now?: Date }): string {
  const now = (feed.now ?? new Date()).getTime();
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Yoga & Chocolates//Sessions feed//EN',
    'CALSCALE:GREGORIAN',
    `X-WR-CALNAME:${escapeText(feed.name)}`,
    `X-WR-TIMEZONE:${feed.timezone.replace(/[\r\n]/g, '')}`,
    ...vtimezone(feed.timezone, now),
    ...feed.events.flatMap((e) => veventLines({ ...e, timezone: feed.timezone })),
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join(CRLF) + CRLF;
}

/** The teacher as the organizer of every calendar file the site sends, under her brand (api/site/brand.ts). */
export const icsOrganizer = (env: { TEACHER_EMAIL: string }, brand: string = BRAND): CalendarPerson => ({ name: brand, email: env.TEACHER_EMAIL });

/** One event of a feed (buildFeed): the fields of CalendarEvent a published calendar needs. */
export type FeedEvent = Pick<CalendarEvent, 'uid' | 'start' | 'durationMinutes' | 'summary' | 'location' | 'description' | 'url'>;

/**
 * A subscribable calendar (the public class feed, GET /calendar.ics): many VEVENTs, written as
 * UTC instants, so a feed spanning any number of clock changes needs no VTIMEZONE and every
 * calendar places each class right; X-WR-TIMEZONE names the teacher's zone for display. The
 * same escaping and folding as buildIcs.
 */
export function buildFeed(feed: { name: string; timezone: string; events: FeedEvent[]; stamp?: Date }): string {
  const stamp = formatUtc((feed.stamp ?? new Date()).getTime());
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Yoga & Chocolates//Class calendar//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(feed.name)}`,
    `X-WR-TIMEZONE:${feed.timezone.replace(/[\r\n]/g, '')}`,
  ];
  for (const event of feed.events) {
    const start = event.start.getTime();
    if (Number.isNaN(start)) throw new Error('buildFeed: invalid start');
    lines.push(
      'BEGIN:VEVENT',
      `UID:${escapeText(event.uid)}`,
      `DTSTAMP:${stamp}`,
      `DTSTART:${formatUtc(start)}`,
      `DTEND:${formatUtc(start + (event.durationMinutes ?? 60) * 60_000)}`,
      `SUMMARY:${escapeText(event.summary)}`,
      ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
      ...(event.description ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
      ...(event.url ? [`URL:${event.url.replace(/[\r\n]/g, '')}`] : []),
      'STATUS:CONFIRMED',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.map(foldLine).join(CRLF) + CRLF;
}
