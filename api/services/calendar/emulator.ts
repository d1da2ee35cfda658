/**
 * The Google Calendar stand-in (issue 35, decision 0044): on only while GOOGLE_CLIENT_ID and
 * GOOGLE_CLIENT_SECRET are unset, and never in production (api/env.ts, standIns.calendar). It
 * serves, in memory, the subset of Google the real client (./google.ts) uses:
 *  - the consent page (/o/oauth2/v2/auth), which approves at once and sends the browser back
 *    with a code, and the token endpoint (/token: the code with its PKCE verifier, a refresh
 *    token for an access token);
 *  - Calendar v3: calendarList, freeBusy, events (insert with conferenceData giving a fake Meet
 *    link, patch, delete, get) and watch / channels/stop; after any change to a calendar's events
 *    it POSTs a push notification to every live channel of that calendar, with Google's headers;
 *  - for development and tests, under /emulator: add or delete an event as if she did it in
 *    Google (the answer waits for the push notifications to be delivered), list a calendar's
 *    events, make Google "unreachable", count the requests the site made, reset.
 * Her account is one fixed account with three calendars. Everything lives in memory (one state
 * per process, as the PayPal emulator's).
 */
import { Hono, type Context, type Next } from 'hono';
import { createHash, randomBytes, randomUUID } from 'node:crypto';

export const EMULATOR_CALENDAR_CLIENT_ID = 'emulator-calendar-client';
export const EMULATOR_CALENDAR_CLIENT_SECRET = 'emulator-calendar-secret';
/** Her Google account in the stand-in: also her primary calendar's id. */
export const EMULATOR_ACCOUNT = 'teacher.calendar@example.com';
export const EMULATOR_FAMILY_CALENDAR = 'family@group.calendar.google.com';
export const EMULATOR_HOLIDAYS_CALENDAR = 'en.usa#holiday@group.v.calendar.google.com';

const CALENDARS: readonly { id: string; summary: string; primary: boolean; accessRole: 'owner' | 'writer' | 'reader' }[] = [
  { id: EMULATOR_ACCOUNT, summary: 'Teacher', primary: true, accessRole: 'owner' },
  { id: EMULATOR_FAMILY_CALENDAR, summary: 'Family', primary: false, accessRole: 'owner' },
  { id: EMULATOR_HOLIDAYS_CALENDAR, summary: 'Holidays in United States', primary: false, accessRole: 'reader' },
];

interface EmulatedEvent {
  id: string;
  calendarId: string;
  status: 'confirmed' | 'cancelled';
  summary: string;
  description?: string;
  location?: string;
  start: { dateTime: string; timeZone?: string };
  end: { dateTime: string; timeZone?: string };
  conferenceData?: { conferenceId: string; entryPoints: { entryPointType: 'video'; uri: string }[] };
  hangoutLink?: string;
  updated: string;
}

interface Channel {
  id: string;
  token: string;
  address: string;
  calendarId: string;
  resourceId: string;
  expiration: number;
  messages: number;
}

interface EmulatorState {
  events: Map<string, Map<string, EmulatedEvent>>;
  codes: Map<string, { challenge: string; redirectUri: string }>;
  refreshTokens: Set<string>;
  accessTokens: Map<string, number>;
  channels: Map<string, Channel>;
  unreachable: boolean;
  /** Requests the site made to Google's endpoints (token and Calendar API; not the consent page or /emulator). */
  requests: number;
  /** Event inserts, patches and deletes that reached it (the write-back's calls). */
  writes: number;
  /** Tests: an event write is made, then its answer held back this long (a crash test kills the site meanwhile). */
  holdWritesMs: number;
}

const fresh = (): EmulatorState => ({
  events: new Map(),
  codes: new Map(),
  refreshTokens: new Set(),
  accessTokens: new Map(),
  channels: new Map(),
  unreachable: false,
  requests: 0,
  writes: 0,
  holdWritesMs: 0,
});
const state: EmulatorState = ((globalThis as { __googleCalendarEmulator?: EmulatorState }).__googleCalendarEmulator ??= fresh());

/** Where the emulator's push notifications go: over HTTP by default; the app hands them to itself in process. */
export type PushDelivery = (request: Request) => Promise<Response>;

export interface GoogleEmulator {
  /** Mounted at /dev/google (api/app.ts). */
  app: Hono;
  /** The real client's transport while the stand-in is on: Google's endpoints answered in process. */
  fetch: typeof fetch;
  /** Where push notifications are sent (api/app.ts hands them to the app itself). */
  deliverPushesWith(delivery: PushDelivery): void;
}

const token = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;
const base64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
/** An ID token as Google's token endpoint gives it (unsigned here: the client reads it from its own request). */
const idToken = () =>
  `${base64url({ alg: 'RS256', kid: 'emulator' })}.${base64url({
    iss: 'https://accounts.google.com',
    aud: EMULATOR_CALENDAR_CLIENT_ID,
    sub: '100000000000000000001',
    email: EMULATOR_ACCOUNT,
    email_verified: true,
    exp: Math.floor(Date.now() / 1000) + 3600,
    iat: Math.floor(Date.now() / 1000),
  })}.c2lnbmF0dXJl`;

const eventsOf = (calendarId: string) => {
  let m = state.events.get(calendarId);
  if (!m) state.events.set(calendarId, (m = new Map()));
  return m;
};
const knownCalendar = (id: string) => CALENDARS.some((c) => c.id === id);
const writable = (id: string) => CALENDARS.some((c) => c.id === id && (c.accessRole === 'owner' || c.accessRole === 'writer'));

const googleError = (status: number, reason: string, message: string) =>
  Response.json({ error: { code: status, message, errors: [{ domain: 'global', reason, message }] } }, { status });

/** A Meet code as Google writes one: abc-defg-hij. */
const meetCode = (seed: string) => {
  const h = createHash('sha256').update(seed).digest();
  const letters = [...h.subarray(0, 10)].map((b) => String.fromCharCode(97 + (b % 26))).join('');
  return `${letters.slice(0, 3)}-${letters.slice(3, 7)}-${letters.slice(7, 10)}`;
};

const dateTimeOf = (v: unknown): { dateTime: string; timeZone?: string } | undefined => {
  const o = v as { dateTime?: unknown; timeZone?: unknown } | undefined;
  if (typeof o?.dateTime !== 'string' || !Number.isFinite(Date.parse(o.dateTime))) return undefined;
  return { dateTime: new Date(o.dateTime).toISOString(), ...(typeof o.timeZone === 'string' ? { timeZone: o.timeZone } : {}) };
};

/** Google's event id rule: base32hex letters and digits, 5 to 1024 of them. */
const validEventId = (id: string) => /^[a-v0-9]{5,1024}$/.test(id);

export function createGoogleEmulator(): GoogleEmulator {
  const app = new Hono();
  /** An event write's answer held back while a test asks (the write itself is made). */
  const held = () => (state.holdWritesMs > 0 ? new Promise((resolve) => setTimeout(resolve, state.holdWritesMs)) : Promise.resolve());
  let deliver: PushDelivery = (request) => fetch(request);

  /** Posts a push notification to every live channel on the calendar; resolves when each was answered (or failed). */
  async function notify(calendarId: string, resourceState: 'sync' | 'exists', only?: Channel) {
    const now = Date.now();
    const channels = only ? [only] : [...state.channels.values()].filter((ch) => ch.calendarId === calendarId && ch.expiration > now);
    await Promise.all(
      channels.map(async (ch) => {
        ch.messages += 1;
        const headers = {
          'x-goog-channel-id': ch.id,
          'x-goog-channel-token': ch.token,
          'x-goog-channel-expiration': new Date(ch.expiration).toUTCString(),
          'x-goog-message-number': String(ch.messages),
          'x-goog-resource-id': ch.resourceId,
          'x-goog-resource-state': resourceState,
          'x-goog-resource-uri': `https://www.googleapis.com/calendar/v3/calendars/${encodeURIComponent(ch.calendarId)}/events?alt=json`,
        };
        try {
          const res = await deliver(new Request(ch.address, { method: 'POST', headers }));
          await res.body?.cancel();
        } catch (err) {
          // Google retries later; the stand-in only says so. The site's periodic refresh covers a lost one.
          console.warn(`[google emulator] push to ${ch.address} failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      }),
    );
  }

  // Google's endpoints: counted, and refused while "unreachable".
  const google = new Hono();
  const gate = async (c: Context, next: Next) => {
    state.requests += 1;
    if (state.unreachable) return c.text('Service Unavailable (emulator: unreachable)', 503);
    await next();
  };
  google.use('/token', gate);
  google.use('/calendar/v3/*', gate);

  google.post('/token', async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const field = (k: string) => (typeof form[k] === 'string' ? (form[k] as string) : '');
    if (field('client_id') !== EMULATOR_CALENDAR_CLIENT_ID || field('client_secret') !== EMULATOR_CALENDAR_CLIENT_SECRET) {
      return c.json({ error: 'invalid_client', error_description: 'The OAuth client was not found.' }, 401);
    }
    if (field('grant_type') === 'authorization_code') {
      const grant = state.codes.get(field('code'));
      state.codes.delete(field('code'));
      const challenge = createHash('sha256').update(field('code_verifier')).digest('base64url');
      if (!grant || grant.redirectUri !== field('redirect_uri') || grant.challenge !== challenge) {
        return c.json({ error: 'invalid_grant', error_description: 'Bad Request' }, 400);
      }
      const refresh = token('1//emu-');
      const access = token('ya29.emu-');
      state.refreshTokens.add(refresh);
      state.accessTokens.set(access, Date.now() + 3600_000);
      return c.json({ access_token: access, expires_in: 3599, refresh_token: refresh, scope: 'calendar', token_type: 'Bearer', id_token: idToken() });
    }
    if (field('grant_type') === 'refresh_token') {
      if (!state.refreshTokens.has(field('refresh_token')))
        return c.json({ error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }, 400);
      const access = token('ya29.emu-');
      state.accessTokens.set(access, Date.now() + 3600_000);
      return c.json({ access_token: access, expires_in: 3599, scope: 'calendar', token_type: 'Bearer' });
    }
    return c.json({ error: 'unsupported_grant_type' }, 400);
  });

  const api = new Hono();
  api.use('*', async (c, next) => {
    const bearer = (c.req.header('authorization') ?? '').replace(/^Bearer /, '');
    if (!((state.accessTokens.get(bearer) ?? 0) > Date.now())) return googleError(401, 'authError', 'Invalid Credentials');
    await next();
  });

  api.get('/users/me/calendarList', (c) =>
    c.json({ kind: 'calendar#calendarList', items: CALENDARS.map((cal) => ({ kind: 'calendar#calendarListEntry', ...cal })) }),
  );

  api.post('/freeBusy', async (c) => {
    const body = (await c.req.json().catch(() => null)) as { timeMin?: string; timeMax?: string; items?: { id?: string }[] } | null;
    const from = Date.parse(body?.timeMin ?? '');
    const to = Date.parse(body?.timeMax ?? '');
    if (!Number.isFinite(from) || !Number.isFinite(to) || !Array.isArray(body?.items)) return googleError(400, 'badRequest', 'Bad Request');
    const calendars: Record<string, unknown> = {};
    for (const item of body.items) {
      const id = String(item.id ?? '');
      if (!knownCalendar(id)) {
        calendars[id] = { errors: [{ domain: 'global', reason: 'notFound' }], busy: [] };
        continue;
      }
      // Google merges a calendar's overlapping events into busy blocks, cut to the window.
      const spans = [...eventsOf(id).values()]
        .filter((e) => e.status === 'confirmed')
        .map((e) => [Math.max(Date.parse(e.start.dateTime), from), Math.min(Date.parse(e.end.dateTime), to)] as [number, number])
        .filter(([s, e]) => e > s)
        .sort((a, b) => a[0] - b[0]);
      const merged: [number, number][] = [];
      for (const s of spans) {
        const last = merged.at(-1);
        if (last && s[0] <= last[1]) last[1] = Math.max(last[1], s[1]);
        else merged.push([...s]);
      }
      calendars[id] = { busy: merged.map(([s, e]) => ({ start: new Date(s).toISOString(), end: new Date(e).toISOString() })) };
    }
    return c.json({ kind: 'calendar#freeBusy', timeMin: new Date(from).toISOString(), timeMax: new Date(to).toISOString(), calendars });
  });

  const eventJson = (e: EmulatedEvent) => ({ kind: 'calendar#event', htmlLink: `https://calendar.google.com/calendar/event?eid=${e.id}`, ...e });

  api.post('/calendars/:calendarId/events/watch', async (c) => {
    const calendarId = c.req.param('calendarId');
    if (!knownCalendar(calendarId)) return googleError(404, 'notFound', 'Not Found');
    const body = (await c.req.json().catch(() => null)) as { id?: string; type?: string; address?: string; token?: string; params?: { ttl?: string } } | null;
    if (!body?.id || body.type !== 'web_hook' || !body.address || !/^https?:\/\//.test(body.address)) return googleError(400, 'badRequest', 'Bad Request');
    if (state.channels.has(body.id)) return googleError(400, 'channelIdNotUnique', 'Channel id not unique');
    const ttl = Math.min(Number(body.params?.ttl ?? 604800) || 604800, 2_592_000);
    const channel: Channel = {
      id: body.id,
      token: body.token ?? '',
      address: body.address,
      calendarId,
      resourceId: `emu-resource-${createHash('sha256').update(calendarId).digest('hex').slice(0, 16)}`,
      expiration: Date.now() + ttl * 1000,
      messages: 0,
    };
    state.channels.set(channel.id, channel);
    // Google's first message on a channel says it is in place ("sync"), sent after the answer.
    setTimeout(() => void notify(calendarId, 'sync', channel), 0);
    return c.json({
      kind: 'api#channel',
      id: channel.id,
      resourceId: channel.resourceId,
      resourceUri: `calendars/${calendarId}/events`,
      expiration: String(channel.expiration),
    });
  });

  api.post('/channels/stop', async (c) => {
    const body = (await c.req.json().catch(() => null)) as { id?: string; resourceId?: string } | null;
    const channel = state.channels.get(body?.id ?? '');
    if (!channel || channel.resourceId !== body?.resourceId) return googleError(404, 'notFound', 'Channel not found');
    state.channels.delete(channel.id);
    return c.body(null, 204);
  });

  api.post('/calendars/:calendarId/events', async (c) => {
    const calendarId = c.req.param('calendarId');
    if (!knownCalendar(calendarId)) return googleError(404, 'notFound', 'Not Found');
    if (!writable(calendarId)) return googleError(403, 'requiredAccessLevel', 'You need to have writer access to this calendar.');
    const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
    const start = dateTimeOf(body?.start);
    const end = dateTimeOf(body?.end);
    if (!body || !start || !end || Date.parse(end.dateTime) <= Date.parse(start.dateTime)) return googleError(400, 'badRequest', 'Bad Request');
    const id = typeof body.id === 'string' ? body.id : randomUUID().replace(/-/g, '').replace(/[w-z]/g, 'a');
    if (!validEventId(id)) return googleError(400, 'invalid', 'Invalid resource id value.');
    if (eventsOf(calendarId).has(id)) return googleError(409, 'duplicate', 'The requested identifier already exists.');
    const event: EmulatedEvent = {
      id,
      calendarId,
      status: 'confirmed',
      summary: typeof body.summary === 'string' ? body.summary : '',
      ...(typeof body.description === 'string' ? { description: body.description } : {}),
      ...(typeof body.location === 'string' ? { location: body.location } : {}),
      start,
      end,
      updated: new Date().toISOString(),
    };
    // A Meet link only with conferenceDataVersion=1, as Google ignores conferenceData otherwise.
    const wantsMeet = (body.conferenceData as { createRequest?: unknown } | undefined)?.createRequest !== undefined;
    if (wantsMeet && c.req.query('conferenceDataVersion') === '1') {
      const code = meetCode(`${calendarId}/${id}`);
      event.conferenceData = { conferenceId: code, entryPoints: [{ entryPointType: 'video', uri: `https://meet.google.com/${code}` }] };
      event.hangoutLink = `https://meet.google.com/${code}`;
    }
    eventsOf(calendarId).set(id, event);
    state.writes += 1;
    void notify(calendarId, 'exists');
    await held();
    return c.json(eventJson(event));
  });

  api.get('/calendars/:calendarId/events/:eventId', (c) => {
    const event = eventsOf(c.req.param('calendarId')).get(c.req.param('eventId'));
    return event ? c.json(eventJson(event)) : googleError(404, 'notFound', 'Not Found');
  });

  api.patch('/calendars/:calendarId/events/:eventId', async (c) => {
    const calendarId = c.req.param('calendarId');
    const event = eventsOf(calendarId).get(c.req.param('eventId'));
    if (!event) return googleError(404, 'notFound', 'Not Found');
    const body = ((await c.req.json().catch(() => null)) ?? {}) as Record<string, unknown>;
    const start = body.start === undefined ? event.start : dateTimeOf(body.start);
    const end = body.end === undefined ? event.end : dateTimeOf(body.end);
    if (!start || !end || Date.parse(end.dateTime) <= Date.parse(start.dateTime)) return googleError(400, 'badRequest', 'Bad Request');
    Object.assign(event, {
      status: 'confirmed',
      start,
      end,
      updated: new Date().toISOString(),
      ...(typeof body.summary === 'string' ? { summary: body.summary } : {}),
      ...(typeof body.description === 'string' ? { description: body.description } : {}),
      ...(typeof body.location === 'string' ? { location: body.location } : {}),
    });
    state.writes += 1;
    void notify(calendarId, 'exists');
    await held();
    return c.json(eventJson(event));
  });

  api.delete('/calendars/:calendarId/events/:eventId', async (c) => {
    const calendarId = c.req.param('calendarId');
    const event = eventsOf(calendarId).get(c.req.param('eventId'));
    if (!event) return googleError(404, 'notFound', 'Not Found');
    if (event.status === 'cancelled') return googleError(410, 'deleted', 'Resource has been deleted');
    event.status = 'cancelled';
    state.writes += 1;
    void notify(calendarId, 'exists');
    await held();
    return c.body(null, 204);
  });

  google.route('/calendar/v3', api);

  // The consent page: approves at once and goes back with a code, as Google does once she says yes.
  app.get('/o/oauth2/v2/auth', (c) => {
    const q = c.req.query();
    if (q.client_id !== EMULATOR_CALENDAR_CLIENT_ID || q.response_type !== 'code' || !q.redirect_uri || !q.state)
      return c.text('Error 400: invalid_request', 400);
    if (q.code_challenge_method !== 'S256' || !q.code_challenge) return c.text('Error 400: invalid_request (PKCE required)', 400);
    const code = token('4/emu-');
    state.codes.set(code, { challenge: q.code_challenge, redirectUri: q.redirect_uri });
    const back = new URL(q.redirect_uri);
    back.searchParams.set('code', code);
    back.searchParams.set('state', q.state);
    back.searchParams.set('scope', q.scope ?? '');
    return c.redirect(back.toString(), 302);
  });

  app.route('/', google);

  // --- development and tests -----------------------------------------------------------------
  app.post('/emulator/events', async (c) => {
    const body = (await c.req.json().catch(() => null)) as { calendarId?: string; start?: string; end?: string; summary?: string } | null;
    const calendarId = body?.calendarId ?? EMULATOR_ACCOUNT;
    const start = Date.parse(body?.start ?? '');
    const end = Date.parse(body?.end ?? '');
    if (!knownCalendar(calendarId) || !Number.isFinite(start) || !(end > start))
      return c.json({ message: 'calendarId (known), start and end (ISO, end after start) are needed' }, 400);
    const id = createHash('sha256').update(randomUUID()).digest('hex').slice(0, 26);
    const event: EmulatedEvent = {
      id,
      calendarId,
      status: 'confirmed',
      summary: body?.summary ?? 'Busy',
      start: { dateTime: new Date(start).toISOString() },
      end: { dateTime: new Date(end).toISOString() },
      updated: new Date().toISOString(),
    };
    eventsOf(calendarId).set(id, event);
    // Waits for the push notifications, so a test that added an event knows they went out.
    await notify(calendarId, 'exists');
    return c.json(eventJson(event), 201);
  });

  app.delete('/emulator/events/:calendarId/:eventId', async (c) => {
    const calendarId = c.req.param('calendarId');
    const event = eventsOf(calendarId).get(c.req.param('eventId'));
    if (!event) return c.json({ message: 'No such event' }, 404);
    event.status = 'cancelled';
    await notify(calendarId, 'exists');
    return c.body(null, 204);
  });

  app.get('/emulator/events', (c) => {
    const calendarId = c.req.query('calendarId') ?? EMULATOR_ACCOUNT;
    return c.json([...eventsOf(calendarId).values()].map(eventJson));
  });

  app.put('/emulator/unreachable', async (c) => {
    const body = (await c.req.json().catch(() => null)) as { unreachable?: unknown } | null;
    state.unreachable = body?.unreachable === true;
    return c.json({ unreachable: state.unreachable });
  });

  app.get('/emulator/requests', (c) => c.json({ count: state.requests, channels: state.channels.size, writes: state.writes }));

  app.put('/emulator/hold-writes', async (c) => {
    const body = (await c.req.json().catch(() => null)) as { ms?: unknown } | null;
    state.holdWritesMs = typeof body?.ms === 'number' && body.ms >= 0 ? body.ms : 0;
    return c.json({ holdWritesMs: state.holdWritesMs });
  });

  app.post('/emulator/reset', (c) => {
    Object.assign(state, fresh());
    return c.json({ reset: true });
  });

  return {
    app,
    fetch: async (input, init) => {
      // Unreachable means no answer at all in process, as a network failure is.
      if (state.unreachable) {
        state.requests += 1;
        throw new TypeError('fetch failed (emulator: unreachable)');
      }
      return google.fetch(new Request(input, init));
    },
    deliverPushesWith(delivery) {
      deliver = delivery;
    },
  };
}
