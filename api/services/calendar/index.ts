/**
 * Her Google Calendar behind one interface (issue 35, decision 0044): the real client
 * (./google.ts, Calendar REST v3 over fetch) and the local stand-in (./emulator.ts, the same
 * endpoints in memory under /dev/google) both answer it, so the wing that keeps the connection
 * (api/agenda/calendar.ts) never knows which one it talks to.
 *
 * Every call but the two of the OAuth round trip takes her refresh token: the client trades it
 * for an access token itself (kept in memory until it lapses), so no access token is ever
 * stored. A failure is a CalendarError whose message names the endpoint and the status, never a
 * token.
 */

/** What the consent screen asks for: her calendars' free/busy, events written back, and her address. */
export const CALENDAR_SCOPES = ['openid', 'email', 'https://www.googleapis.com/auth/calendar.readonly', 'https://www.googleapis.com/auth/calendar.events'];

export interface CalendarAccount {
  /** The token that lets the site act for her later (sealed before it is stored). */
  refreshToken: string;
  /** Her Google account's address, shown on the Settings page. */
  email: string;
}

export interface CalendarInfo {
  id: string;
  /** Her name for it ("Family"). */
  summary: string;
  primary: boolean;
  /** owner | writer | reader | freeBusyReader: the site writes only to owner or writer calendars. */
  accessRole: string;
}

export interface BusyInterval {
  calendarId: string;
  start: Date;
  end: Date;
}

export interface FreeBusyAnswer {
  busy: BusyInterval[];
  /** Calendars Google could not read (deleted, no longer shared): their busy times are unknown. */
  errors: { calendarId: string; reason: string }[];
}

/** An event the site writes, keyed by our own id so that a retry finds it instead of doubling it. */
export interface CalendarEventInput {
  /** Google's event id, from eventIdFor(our key). */
  id: string;
  summary: string;
  description?: string;
  location?: string;
  start: Date;
  end: Date;
  /** The zone Google shows it in (SITE_TIMEZONE). */
  timeZone: string;
  /** Ask for a Google Meet link (conferenceData.createRequest, conferenceDataVersion=1). */
  meet?: boolean;
}

export interface CalendarEvent {
  id: string;
  /** The Meet link, when one was asked for and made. */
  meetLink?: string;
  htmlLink?: string;
}

export interface WatchRequest {
  /** Our channel id (a UUID): the push notifications carry it back in X-Goog-Channel-ID. */
  id: string;
  /** A secret the push notifications carry back in X-Goog-Channel-Token. */
  token: string;
  /** Where Google posts: $SITE_URL/api/google/calendar/push. */
  address: string;
  ttlSeconds: number;
}

export interface WatchChannel {
  id: string;
  resourceId: string;
  expiresAt: Date;
}

export interface CalendarProvider {
  /** 'emulator' while the stand-in answers (the Settings page says so). */
  readonly name: 'google' | 'emulator';
  /** Where the browser goes to consent: offline access, PKCE (S256), state. */
  authorizationUrl(input: { state: string; codeVerifier: string; redirectUri: string }): URL;
  /** The code from the consent's redirect, for her refresh token and address. */
  exchangeCode(input: { code: string; codeVerifier: string; redirectUri: string }): Promise<CalendarAccount>;
  listCalendars(refreshToken: string): Promise<CalendarInfo[]>;
  /** One freeBusy request for every calendar named, over [from, to). */
  freeBusy(refreshToken: string, input: { calendarIds: string[]; from: Date; to: Date }): Promise<FreeBusyAnswer>;
  /** Inserts the event; when its id is already there (a retry), updates it instead. */
  insertEvent(refreshToken: string, calendarId: string, event: CalendarEventInput): Promise<CalendarEvent>;
  patchEvent(refreshToken: string, calendarId: string, event: CalendarEventInput): Promise<CalendarEvent>;
  /** Deletes the event; one already gone counts as deleted. */
  deleteEvent(refreshToken: string, calendarId: string, eventId: string): Promise<void>;
  /** Asks Google to post to `address` whenever the calendar's events change. */
  watch(refreshToken: string, calendarId: string, request: WatchRequest): Promise<WatchChannel>;
  /** Ends a channel; one already ended counts as stopped. */
  stopChannel(refreshToken: string, channel: { id: string; resourceId: string }): Promise<void>;
}

/** A refused or failed call; `status` 0 when Google could not be reached at all. */
export class CalendarError extends Error {
  override name = 'CalendarError';
  /** Google's HTTP status; 0 when no answer came. */
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

const BASE32HEX = '0123456789abcdefghijklmnopqrstuv';

/**
 * Google's event id for our own key (e.g. `yc-slot-{id}`): event ids may hold only the base32hex
 * letters a–v and digits, so the key's bytes are written in that alphabet. The same key always
 * gives the same id, which is what makes an insert retried after a crash find its event.
 */
export function eventIdFor(key: string): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of Buffer.from(key, 'utf8')) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32HEX[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32HEX[(value << (5 - bits)) & 31];
  return out.padEnd(5, '0');
}
