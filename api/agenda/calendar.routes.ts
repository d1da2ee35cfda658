import { Hono, type Context } from 'hono';
import type { AppEnv } from '../types.ts';
import { validateJson } from '../validation.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { keepRoundTrip, takeRoundTrip } from '../middleware/oauth-round-trip.ts';
import {
  CALENDAR_DISCONNECTED,
  CALENDAR_NOT_CONNECTED,
  CALENDAR_NOT_WRITABLE,
  CALENDAR_PUSH_UNKNOWN,
  CALENDAR_SAVED,
  CALENDAR_UNAVAILABLE,
  CALENDAR_UNKNOWN,
  calendarChoice,
  type ConnectOutcome,
} from '../../contract/calendar.ts';
import { acceptPush, calendarView, chooseCalendars, disconnect, finishConnect, startConnect, type ChoiceRefusal, type ConnectRefusal } from './calendar.ts';

/**
 * Her Google Calendar (issue 35, decision 0044), mounted on /api/admin/calendar:
 *
 *   GET    /            connected?, her account, her calendars (busy, written to), last refresh, last error
 *   GET    /connect     302 to Google's consent page (state and PKCE verifier kept in cookies of this path)
 *   GET    /callback    Google's redirect back: stores the connection, then 302 to /admin/settings?calendar=…
 *   PUT    /            {busyCalendarIds, writeCalendarId}: saved, watched and read at once
 *   DELETE /            disconnects: the connection and her Google busy times deleted, channels stopped
 *
 * and on /api/google/calendar:
 *
 *   POST   /push        Google's push notification: X-Goog-Channel-ID and -Token of one of her channels
 */

/** The consent's round trip keeps state and the PKCE verifier in short-lived cookies of this path. */
const ROUND_TRIP = { state: 'yc_calendar_state', verifier: 'yc_calendar_verifier', path: '/api/admin/calendar' };

type Refused = { status: 404 | 409; message: string };

const disconnectRefusals: Record<'not-connected', Refused> = { 'not-connected': { status: 404, message: CALENDAR_NOT_CONNECTED } };
/** A push that is none of her channels answers as any unknown one. */
const pushRefusals: Record<'unknown-channel', Refused> = { 'unknown-channel': { status: 404, message: CALENDAR_PUSH_UNKNOWN } };

const choiceRefusals: Record<ChoiceRefusal, Refused> = {
  'not-connected': { status: 404, message: CALENDAR_NOT_CONNECTED },
  'unknown-calendar': { status: 409, message: CALENDAR_UNKNOWN },
  'not-writable': { status: 409, message: CALENDAR_NOT_WRITABLE },
};

/** Where the consent round trip lands her: the Settings page, which says how it went. */
const connectOutcomes: Record<ConnectRefusal, ConnectOutcome> = { unavailable: 'failed', refused: 'refused' };
const backToSettings = (outcome: ConnectOutcome) => `/admin/settings?calendar=${outcome}#google-calendar`;

/** A short id or token as Google sends them; anything longer is not one of ours. */
const header = (c: Context, name: string) => {
  const v = c.req.header(name) ?? '';
  return v.length > 0 && v.length <= 256 ? v : undefined;
};

export const adminCalendar = new Hono<AppEnv>()
  .get('/', requireAdmin(), async (c) => c.json(await calendarView(c.var.services)))

  .get('/connect', requireAdmin(), (c) => {
    const started = startConnect(c.var.services);
    if (!started.ok) return c.json({ message: CALENDAR_UNAVAILABLE }, 404);
    keepRoundTrip(c, ROUND_TRIP, started);
    return c.redirect(started.url, 302);
  })

  .get('/callback', requireAdmin(), async (c) => {
    const code = c.req.query('code');
    const verifier = takeRoundTrip(c, ROUND_TRIP, c.req.query('state'));
    // She said no on Google's page (error=access_denied), or the round trip is not the one we started.
    if (!code || !verifier || code.length > 2048) return c.redirect(backToSettings('refused'), 302);
    const result = await finishConnect(c.var.services, { code, codeVerifier: verifier });
    return c.redirect(backToSettings(result.ok ? 'connected' : connectOutcomes[result.kind]), 302);
  })

  .put('/', requireAdmin(), validateJson(calendarChoice), async (c) => {
    const result = await chooseCalendars(c.var.services, c.req.valid('json'));
    if (!result.ok) {
      const refused = choiceRefusals[result.kind];
      return c.json({ message: refused.message }, refused.status);
    }
    return c.json({ message: CALENDAR_SAVED, calendar: await calendarView(c.var.services) });
  })

  .delete('/', requireAdmin(), async (c) => {
    const result = await disconnect(c.var.services);
    if (!result.ok) return c.json({ message: disconnectRefusals[result.kind].message }, disconnectRefusals[result.kind].status);
    return c.json({ message: CALENDAR_DISCONNECTED, calendar: await calendarView(c.var.services) });
  });

export const googlePush = new Hono<AppEnv>().post('/push', async (c) => {
  const channelId = header(c, 'x-goog-channel-id');
  const token = header(c, 'x-goog-channel-token');
  if (!channelId || !token) return c.json({ message: CALENDAR_PUSH_UNKNOWN }, 404);
  const result = await acceptPush(c.var.services, { channelId, token, state: c.req.header('x-goog-resource-state') });
  if (!result.ok) return c.json({ message: pushRefusals[result.kind].message }, pushRefusals[result.kind].status);
  return c.body(null, 200);
});
