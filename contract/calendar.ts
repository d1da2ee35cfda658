/**
 * Her Google Calendar on the Settings page (issue 35, decision 0044): what the admin reads and
 * saves, and the words the routes answer with. Shared with the admin island: zod only.
 */
import { z } from 'zod';
import type { CalendarTitle } from './settings.ts';

/** A Google calendar id: her address, or Google's name for a shared or group calendar. */
const calendarId = z
  .string({ error: 'A calendar id must be text' })
  .trim()
  .min(1, 'A calendar id must not be empty')
  .max(1024, 'A calendar id must be at most 1024 characters')
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'A calendar id contains characters that are not allowed');

/** PUT /api/admin/calendar: which of her calendars mean busy, and the one the site writes to (null: none). */
export const calendarChoice = z.object({
  busyCalendarIds: z.array(calendarId, { error: 'busyCalendarIds must be a list of calendar ids' }).max(50, 'At most 50 calendars'),
  writeCalendarId: calendarId.nullable(),
});
export type CalendarChoice = z.output<typeof calendarChoice>;

export interface CalendarView {
  /** Whether the site can connect a calendar at all (production without Google's OAuth client: no). */
  available: boolean;
  /** True while the local stand-in answers instead of Google. */
  standIn: boolean;
  connected: boolean;
  /** Her Google account. */
  account?: string;
  calendars: { id: string; summary: string; primary: boolean; busy: boolean; write: boolean; writable: boolean }[];
  /** The last refresh of her busy times that succeeded (ISO). */
  fetchedAt: string | null;
  /** Why the last refresh failed, and since when they fail (ISO); null while they succeed. */
  error: { message: string; since: string } | null;
  /** Changes not yet written to her calendar (Google away, or a moment after a change), and why the last try failed. */
  writes: { waiting: number; lastError: string | null };
}

export const CALENDAR_SAVED = 'Calendar choices saved.';
export const CALENDAR_DISCONNECTED = 'Google Calendar disconnected.';
export const CALENDAR_NOT_CONNECTED = 'No Google Calendar is connected';
export const CALENDAR_UNAVAILABLE = 'Google Calendar is not set up on this server';
export const CALENDAR_UNKNOWN = 'That is not one of your calendars';
export const CALENDAR_NOT_WRITABLE = 'The site can only write to a calendar you own or can edit';
export const CALENDAR_PUSH_UNKNOWN = 'Unknown channel';
/** What the Settings page says when Google could not be reached: the busy times kept are the last ones read. */
export const CALENDAR_UNREACHABLE = 'Google Calendar could not be reached';

/** Where the connect round trip lands: /admin/settings?calendar=<outcome>. */
export type ConnectOutcome = 'connected' | 'refused' | 'failed';

/**
 * The title a session (or a free meeting) has in her Google Calendar, by her `calendarTitle`
 * setting (issue 48, decision 0058): the kind's word and the person as she chose, never the
 * session type's words. 'initial': "Session · Jane D."; 'fullName': "Session · Jane Doe";
 * 'none': "Session". A name given in one piece ("Jane Doe") is cut at its last space.
 */
export function calendarTitleOf(setting: CalendarTitle, word: string, person: { first: string; last: string }): string {
  let first = person.first.trim();
  let last = person.last.trim();
  if (last === '' && /\s/.test(first)) {
    const cut = first.lastIndexOf(' ');
    [first, last] = [first.slice(0, cut).trim(), first.slice(cut + 1)];
  }
  const initial = Array.from(last)[0]?.toLocaleUpperCase('en-US');
  const name = setting === 'none' ? '' : setting === 'fullName' ? `${first} ${last}`.trim() : [first, initial ? `${initial}.` : ''].filter(Boolean).join(' ');
  return name ? `${word} · ${name}` : word;
}

/** What her calendar's titles look like under each choice, for the Settings page. */
export const CALENDAR_TITLE_CHOICES: Record<CalendarTitle, string> = {
  initial: 'Session · Jane D. (first name and initial)',
  fullName: 'Session · Jane Doe (full name)',
  none: 'Session (no name)',
};
export const CALENDAR_TITLE_SAVED = 'Titles saved: the sessions in your calendar are renamed on their own shortly.';
