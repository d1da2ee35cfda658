/**
 * Google Calendar over plain REST (Calendar API v3 and Google's OAuth 2.0 endpoints), behind
 * CalendarProvider. The authorization URL is arctic's (the Google sign-in's library), with
 * offline access so Google gives a refresh token. The token requests go through this client's
 * own fetch rather than arctic's global one, so the stand-in can answer them in process, as the
 * PayPal emulator does; the base URLs come from the environment (GOOGLE_AUTH_URL,
 * GOOGLE_TOKEN_URL, GOOGLE_CALENDAR_API_URL) and tests point them at the emulator over HTTP.
 */
import { createHash } from 'node:crypto';
import { CodeChallengeMethod, OAuth2Client, decodeIdToken } from 'arctic';
import {
  CALENDAR_SCOPES,
  CalendarError,
  type CalendarEvent,
  type CalendarEventInput,
  type CalendarInfo,
  type CalendarProvider,
  type FreeBusyAnswer,
  type WatchChannel,
} from './index.ts';

export interface GoogleCalendarConfig {
  clientId: string;
  clientSecret: string;
  /** The consent page the browser goes to. */
  authUrl: string;
  tokenUrl: string;
  /** https://www.googleapis.com/calendar/v3 */
  apiBase: string;
  /** The transport: the emulator's in-process fetch for the stand-in, the global one otherwise. */
  fetch?: typeof fetch;
  /** How long one request may take (a booking's refresh has its own, shorter bound). */
  timeoutMs?: number;
}

type Json = Record<string, unknown>;

/** An access token lives an hour; renewed a minute early so one never lapses mid-request. */
const EARLY_MS = 60_000;

export function createGoogleCalendar(config: GoogleCalendarConfig, name: CalendarProvider['name'] = 'google'): CalendarProvider {
  const doFetch = config.fetch ?? fetch;
  const timeoutMs = config.timeoutMs ?? 10_000;
  const apiBase = config.apiBase.replace(/\/$/, '');
  // Keyed by a hash of the refresh token, so the map never holds the token itself.
  const accessTokens = new Map<string, { token: string; expiresAt: number }>();

  async function send(what: string, url: string, init: RequestInit): Promise<Response> {
    try {
      return await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      const why = err instanceof Error && err.name === 'TimeoutError' ? 'timed out' : 'could not be reached';
      throw new CalendarError(`Google ${what} ${why}`, 0);
    }
  }

  /** A token request: the form body, our client's credentials; the answer's JSON or a CalendarError. */
  async function tokenRequest(what: string, body: URLSearchParams): Promise<Json> {
    body.set('client_id', config.clientId);
    body.set('client_secret', config.clientSecret);
    const res = await send(what, config.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
    });
    const data = (await res.json().catch(() => ({}))) as Json;
    // Google's error names (invalid_grant: the token was revoked or the code used) say nothing secret.
    if (!res.ok) throw new CalendarError(`Google ${what} refused (${res.status}${typeof data.error === 'string' ? ` ${data.error}` : ''})`, res.status);
    return data;
  }

  async function accessToken(refreshToken: string): Promise<string> {
    const key = createHash('sha256').update(refreshToken).digest('hex');
    const cached = accessTokens.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.token;
    const data = await tokenRequest('token refresh', new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }));
    if (typeof data.access_token !== 'string') throw new CalendarError('Google token refresh gave no access token', 502);
    const lifeMs = (typeof data.expires_in === 'number' ? data.expires_in : 3600) * 1000;
    accessTokens.set(key, { token: data.access_token, expiresAt: Date.now() + lifeMs - EARLY_MS });
    return data.access_token;
  }

  /** One Calendar API call with her access token: the answer's JSON (empty for 204), or a CalendarError. */
  async function api(refreshToken: string, what: string, method: string, path: string, body?: unknown, okStatuses: number[] = []): Promise<Json> {
    const token = await accessToken(refreshToken);
    const res = await send(what, `${apiBase}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (res.status === 401) accessTokens.delete(createHash('sha256').update(refreshToken).digest('hex'));
    if (okStatuses.includes(res.status)) return { status: res.status };
    if (!res.ok) throw new CalendarError(`Google ${what} answered ${res.status}`, res.status);
    if (res.status === 204) return {};
    return (await res.json().catch(() => ({}))) as Json;
  }

  const eventBody = (e: CalendarEventInput) => ({
    id: e.id,
    summary: e.summary,
    ...(e.description === undefined ? {} : { description: e.description }),
    ...(e.location === undefined ? {} : { location: e.location }),
    start: { dateTime: e.start.toISOString(), timeZone: e.timeZone },
    end: { dateTime: e.end.toISOString(), timeZone: e.timeZone },
    // The request id is the event's own: a retried create asks for the same conference, not a second one.
    ...(e.meet ? { conferenceData: { createRequest: { requestId: e.id, conferenceSolutionKey: { type: 'hangoutsMeet' } } } } : {}),
  });

  const eventOf = (data: Json): CalendarEvent => {
    const conference = data.conferenceData as { entryPoints?: { entryPointType?: string; uri?: string }[] } | undefined;
    const video = conference?.entryPoints?.find((p) => p.entryPointType === 'video')?.uri;
    const meetLink = video ?? (typeof data.hangoutLink === 'string' ? data.hangoutLink : undefined);
    return {
      id: String(data.id),
      ...(meetLink ? { meetLink } : {}),
      ...(typeof data.htmlLink === 'string' ? { htmlLink: data.htmlLink } : {}),
    };
  };

  const calendarPath = (calendarId: string) => `/calendars/${encodeURIComponent(calendarId)}`;

  const provider: CalendarProvider = {
    name,

    authorizationUrl({ state, codeVerifier, redirectUri }) {
      const client = new OAuth2Client(config.clientId, config.clientSecret, redirectUri);
      const url = client.createAuthorizationURLWithPKCE(config.authUrl, state, CodeChallengeMethod.S256, codeVerifier, CALENDAR_SCOPES);
      // offline: a refresh token; consent: Google gives one again when she connects a second time.
      url.searchParams.set('access_type', 'offline');
      url.searchParams.set('prompt', 'consent');
      url.searchParams.set('include_granted_scopes', 'true');
      return url;
    },

    async exchangeCode({ code, codeVerifier, redirectUri }) {
      const data = await tokenRequest(
        'code exchange',
        new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: codeVerifier, redirect_uri: redirectUri }),
      );
      if (typeof data.refresh_token !== 'string') throw new CalendarError('Google gave no refresh token (offline access was not granted)', 502);
      // The ID token comes straight from the token endpoint in our own request: its address is read, not verified (api/accounts/google.ts says why).
      let email = '';
      try {
        const claims = decodeIdToken(String(data.id_token)) as Json;
        email = typeof claims.email === 'string' ? claims.email.toLowerCase() : '';
      } catch {
        email = '';
      }
      return { refreshToken: data.refresh_token, email };
    },

    async listCalendars(refreshToken) {
      const calendars: CalendarInfo[] = [];
      let pageToken: string | undefined;
      do {
        const query = new URLSearchParams({ minAccessRole: 'freeBusyReader', maxResults: '250', ...(pageToken ? { pageToken } : {}) });
        const data = await api(refreshToken, 'calendar list', 'GET', `/users/me/calendarList?${query}`);
        for (const item of (data.items as Json[] | undefined) ?? []) {
          if (typeof item.id !== 'string') continue;
          calendars.push({
            id: item.id,
            summary: typeof item.summaryOverride === 'string' ? item.summaryOverride : String(item.summary ?? item.id),
            primary: item.primary === true,
            accessRole: String(item.accessRole ?? 'reader'),
          });
        }
        pageToken = typeof data.nextPageToken === 'string' ? data.nextPageToken : undefined;
      } while (pageToken);
      return calendars;
    },

    async freeBusy(refreshToken, { calendarIds, from, to }): Promise<FreeBusyAnswer> {
      const data = await api(refreshToken, 'freeBusy', 'POST', '/freeBusy', {
        timeMin: from.toISOString(),
        timeMax: to.toISOString(),
        items: calendarIds.map((id) => ({ id })),
      });
      const answer: FreeBusyAnswer = { busy: [], errors: [] };
      const calendars = (data.calendars ?? {}) as Record<string, { busy?: { start: string; end: string }[]; errors?: { reason?: string }[] }>;
      for (const calendarId of calendarIds) {
        const c = calendars[calendarId];
        if (!c || c.errors?.length) {
          answer.errors.push({ calendarId, reason: c?.errors?.[0]?.reason ?? 'missing' });
          continue;
        }
        for (const b of c.busy ?? []) {
          const start = new Date(b.start);
          const end = new Date(b.end);
          if (Number.isFinite(start.getTime()) && end > start) answer.busy.push({ calendarId, start, end });
        }
      }
      return answer;
    },

    async insertEvent(refreshToken, calendarId, event) {
      const data = await api(refreshToken, 'event insert', 'POST', `${calendarPath(calendarId)}/events?conferenceDataVersion=1`, eventBody(event), [409]);
      // 409: an event with this id is there already (our earlier try went through): update it instead.
      if (data.status === 409) return provider.patchEvent(refreshToken, calendarId, event);
      return eventOf(data);
    },

    async patchEvent(refreshToken, calendarId, event) {
      const { id, ...rest } = eventBody(event);
      // Confirmed: a session booked again after a cancel brings its event (same id) back.
      const path = `${calendarPath(calendarId)}/events/${encodeURIComponent(id)}?conferenceDataVersion=1`;
      return eventOf(await api(refreshToken, 'event patch', 'PATCH', path, { ...rest, status: 'confirmed' }));
    },

    async deleteEvent(refreshToken, calendarId, eventId) {
      // 410 Gone / 404: deleted already (by her, or by our earlier try).
      await api(refreshToken, 'event delete', 'DELETE', `${calendarPath(calendarId)}/events/${encodeURIComponent(eventId)}`, undefined, [404, 410]);
    },

    async watch(refreshToken, calendarId, request): Promise<WatchChannel> {
      const data = await api(refreshToken, 'watch', 'POST', `${calendarPath(calendarId)}/events/watch`, {
        id: request.id,
        type: 'web_hook',
        address: request.address,
        token: request.token,
        params: { ttl: String(request.ttlSeconds) },
      });
      const expiration = Number(data.expiration);
      return {
        id: String(data.id ?? request.id),
        resourceId: String(data.resourceId ?? ''),
        expiresAt: new Date(Number.isFinite(expiration) && expiration > 0 ? expiration : Date.now() + request.ttlSeconds * 1000),
      };
    },

    async stopChannel(refreshToken, channel) {
      await api(refreshToken, 'channel stop', 'POST', '/channels/stop', { id: channel.id, resourceId: channel.resourceId }, [404]);
    },
  };
  return provider;
}
