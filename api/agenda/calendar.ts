/**
 * Her Google Calendar, read side (issue 35, decision 0044): connecting it, choosing which of
 * her calendars mean busy and which one the site writes to, and keeping her Google busy times
 * as rows of busy_times, which the one availability rule (api/agenda/agenda.ts) reads like any
 * other busy time.
 *
 * A refresh asks freeBusy once for every chosen calendar over the next 120 days and replaces the
 * 'google' rows in one transaction under the agenda's lock, so a booking being claimed sees the
 * old set or the new one, never none. Google is only ever called with no transaction open. A
 * refresh runs when she connects or saves, on Google's push notification, from each process's
 * runner, and at a booking attempt when the rows are older than GOOGLE_CALENDAR_REFRESH_MS
 * (bounded by GOOGLE_CALENDAR_BOOKING_WAIT_MS). When Google can't be reached the rows stand and
 * the connection records the error and since when.
 *
 * Her refresh token is sealed with the private records' key (api/lib/keys.ts), bound to
 * the connection's row; it is opened only to call Google and never logged or answered.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { generateCodeVerifier, generateState } from 'arctic';
import type { Services } from '../services/index.ts';
import { systemClock } from '../lib/clock.ts';
import { CalendarError, type CalendarInfo } from '../services/calendar/index.ts';
import { keyringOf, open, seal, SealError, type Keyring } from '../lib/keys.ts';
import type { CalendarListEntry, WatchChannelRow } from '../../db/schema.ts';
import { CALENDAR_UNREACHABLE, type CalendarChoice, type CalendarView } from '../../contract/calendar.ts';
import { lockAgenda, replaceGoogleBusyTimes } from './agenda.repo.ts';
import {
  deleteConnection,
  findConnection,
  googleBusyOf,
  lockConnection,
  markFailed,
  markFetched,
  resealToken,
  saveChannels,
  saveConnection,
  updateChoice,
  type ConnectionRow,
} from './calendar.repo.ts';
import { clearMirror, writeBackState, writtenEventsIn } from './write-back.repo.ts';

export type CalendarDeps = Pick<Services, 'db' | 'env' | 'clock' | 'calendar'>;

/** How far ahead her busy times are read: slots are opened at most this far ahead. */
export const BUSY_HORIZON_DAYS = 120;
/** A push channel lives a week (Google's own limit for events is about a month); renewed a day before it ends. */
const CHANNEL_TTL_SECONDS = 7 * 86_400;
const RENEW_BEFORE_MS = 86_400_000;
/** Stopping channels on a disconnect is polite, not needed: it never holds her up longer than this. */
const STOP_WAIT_MS = 3_000;

/** The additional data that binds the sealed token to its row. */
const TOKEN_CONTEXT = 'calendar_connections:google:refresh_token';

export const PUSH_PATH = '/api/google/calendar/push';
export const CALLBACK_PATH = '/api/admin/calendar/callback';

const writable = (c: { accessRole: string }) => c.accessRole === 'owner' || c.accessRole === 'writer';
const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
/** What is recorded and shown of a failure: the client's message (an endpoint and a status), never a token. */
export const reasonOf = (err: unknown) =>
  err instanceof CalendarError
    ? err.status === 0
      ? CALENDAR_UNREACHABLE
      : err.message
    : // PRIVATE_RECORDS_KEY changed without its old key in PRIVATE_RECORDS_OLD_KEYS: only a new consent mends it.
      err instanceof SealError
      ? 'The stored Google token no longer opens with the private records key: disconnect and connect again'
      : 'Google Calendar failed';

export function refreshTokenOf(env: CalendarDeps['env'], row: ConnectionRow): string {
  return open(keyringOf(env), TOKEN_CONTEXT, row.keyId, row.refreshTokenSealed);
}

const listEntry = (c: CalendarInfo): CalendarListEntry => ({ id: c.id, summary: c.summary, primary: c.primary, accessRole: c.accessRole });

// ---------------------------------------------------------------------------------------------
// Connecting

export type ConnectRefusal = 'unavailable' | 'refused';

/** Where her browser goes to consent, and the two values the callback must get back (kept in cookies). */
export function startConnect(deps: CalendarDeps): { ok: true; url: string; state: string; codeVerifier: string } | { ok: false; kind: 'unavailable' } {
  if (!deps.calendar) return { ok: false, kind: 'unavailable' };
  const state = generateState();
  const codeVerifier = generateCodeVerifier();
  const url = deps.calendar.authorizationUrl({ state, codeVerifier, redirectUri: `${deps.env.SITE_URL}${CALLBACK_PATH}` });
  return { ok: true, url: url.toString(), state, codeVerifier };
}

/**
 * The consent came back with a code: her token and calendars are stored (her primary calendar
 * busy and written to, until she chooses), then watched and read at once.
 */
export async function finishConnect(
  deps: CalendarDeps,
  input: { code: string; codeVerifier: string },
): Promise<{ ok: true } | { ok: false; kind: ConnectRefusal }> {
  const { calendar, db, env } = deps;
  if (!calendar) return { ok: false, kind: 'unavailable' };
  let account: { refreshToken: string; email: string };
  let calendars: CalendarInfo[];
  try {
    account = await calendar.exchangeCode({ code: input.code, codeVerifier: input.codeVerifier, redirectUri: `${env.SITE_URL}${CALLBACK_PATH}` });
    calendars = await calendar.listCalendars(account.refreshToken);
  } catch (err) {
    console.warn(`[calendar] connecting failed: ${reasonOf(err)}`);
    return { ok: false, kind: 'refused' };
  }
  const primary = calendars.find((c) => c.primary);
  const { keyId, sealed } = seal(keyringOf(env), TOKEN_CONTEXT, account.refreshToken);
  // A reconnection replaces the old one: its channels end as they expire (their token no longer matches).
  await saveConnection(db, {
    accountEmail: account.email || primary?.id || '',
    refreshTokenSealed: sealed,
    keyId,
    calendars: calendars.map(listEntry),
    busyCalendarIds: primary ? [primary.id] : [],
    writeCalendarId: primary && writable(primary) ? primary.id : null,
    channelToken: randomBytes(24).toString('base64url'),
  });
  await watchBusyCalendars(deps);
  await refreshBusyTimes(deps, { fresh: true });
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------
// Her choice of calendars

export type ChoiceRefusal = 'not-connected' | 'unknown-calendar' | 'not-writable';

/** Saves which calendars mean busy and the one written to, then watches those and reads them at once. */
export async function chooseCalendars(deps: CalendarDeps, choice: CalendarChoice): Promise<{ ok: true } | { ok: false; kind: ChoiceRefusal }> {
  const row = await findConnection(deps.db);
  if (!row || !deps.calendar) return { ok: false, kind: 'not-connected' };
  // Her calendars as Google lists them now (one she just made counts); the stored list when Google is away.
  let calendars = row.calendars;
  try {
    calendars = (await deps.calendar.listCalendars(refreshTokenOf(deps.env, row))).map(listEntry);
  } catch (err) {
    console.warn(`[calendar] listing her calendars failed, using the stored list: ${reasonOf(err)}`);
  }
  const byId = new Map(calendars.map((c) => [c.id, c]));
  const busy = [...new Set(choice.busyCalendarIds)];
  if (busy.some((id) => !byId.has(id))) return { ok: false, kind: 'unknown-calendar' };
  if (choice.writeCalendarId !== null) {
    const target = byId.get(choice.writeCalendarId);
    if (!target) return { ok: false, kind: 'unknown-calendar' };
    if (!writable(target)) return { ok: false, kind: 'not-writable' };
  }
  if (!(await updateChoice(deps.db, { calendars, busyCalendarIds: busy, writeCalendarId: choice.writeCalendarId })))
    return { ok: false, kind: 'not-connected' };
  await watchBusyCalendars(deps);
  await refreshBusyTimes(deps, { fresh: true });
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------
// Push channels

/**
 * Makes the channels match her busy calendars: stops those of calendars no longer chosen, opens
 * one for each chosen calendar without a live one (or with one ending within a day). A failure
 * is logged and left to the next round: the periodic refresh still reads her calendars.
 */
export async function watchBusyCalendars(deps: CalendarDeps): Promise<void> {
  const row = await findConnection(deps.db);
  if (!row || !deps.calendar) return;
  let token: string;
  try {
    token = refreshTokenOf(deps.env, row);
  } catch (err) {
    console.warn(`[calendar] no channels: ${reasonOf(err)}`);
    return;
  }
  const now = deps.clock.now().getTime();
  const kept: WatchChannelRow[] = [];
  for (const ch of row.watchChannels) {
    const live = Date.parse(ch.expiresAt) - now > RENEW_BEFORE_MS;
    if (live && row.busyCalendarIds.includes(ch.calendarId)) {
      kept.push(ch);
      continue;
    }
    await deps.calendar.stopChannel(token, ch).catch((err: unknown) => console.warn(`[calendar] stopping a channel failed: ${reasonOf(err)}`));
  }
  for (const calendarId of row.busyCalendarIds) {
    if (kept.some((ch) => ch.calendarId === calendarId)) continue;
    try {
      const ch = await deps.calendar.watch(token, calendarId, {
        id: randomUUID(),
        token: row.channelToken,
        address: `${deps.env.SITE_URL}${PUSH_PATH}`,
        ttlSeconds: CHANNEL_TTL_SECONDS,
      });
      kept.push({ calendarId, id: ch.id, resourceId: ch.resourceId, expiresAt: ch.expiresAt.toISOString() });
    } catch (err) {
      console.warn(`[calendar] watching a calendar failed: ${reasonOf(err)}`);
    }
  }
  await saveChannels(deps.db, row.connectedAt, kept);
}

/**
 * Google's push notification (X-Goog-Channel-ID and -Token): one of her channels with its token
 * starts a refresh, not awaited, so Google hears 200 at once. Anything else is unknown.
 */
export async function acceptPush(
  deps: CalendarDeps,
  push: { channelId: string; token: string; state?: string },
): Promise<{ ok: true } | { ok: false; kind: 'unknown-channel' }> {
  const row = await findConnection(deps.db);
  if (!row || !sameText(push.token, row.channelToken) || !row.watchChannels.some((ch) => ch.id === push.channelId)) {
    return { ok: false, kind: 'unknown-channel' };
  }
  // 'sync' only says a new channel is in place: the save that made it reads her calendars itself.
  if (push.state === 'sync') return { ok: true };
  void refreshBusyTimes(deps, { fresh: true }).catch((err: unknown) =>
    console.warn(`[calendar] refresh after a push failed: ${err instanceof Error ? err.message : String(err)}`),
  );
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------
// Refreshing her busy times

export type RefreshOutcome = 'refreshed' | 'failed' | 'not-connected';

/** One refresh at a time per database in this process: a burst of bookings or pushes shares it. */
const inflight = new WeakMap<object, Promise<RefreshOutcome>>();
/** The one refresh queued behind it, for news that came after the running one asked Google. */
const queued = new WeakMap<object, Promise<RefreshOutcome>>();

/**
 * Reads her chosen calendars' busy times now, or joins the read under way. `fresh`: the caller
 * knows of a change the read under way may have missed (a push, her new choice), so it waits for
 * one that starts after it (several such callers share that one).
 */
export function refreshBusyTimes(deps: CalendarDeps, options: { fresh?: boolean } = {}): Promise<RefreshOutcome> {
  const running = inflight.get(deps.db);
  if (!running) {
    const started = readAndStore(deps).finally(() => inflight.delete(deps.db));
    inflight.set(deps.db, started);
    return started;
  }
  if (!options.fresh) return running;
  let next = queued.get(deps.db);
  if (!next) {
    next = running
      .catch(() => 'failed' as const)
      .then(() => {
        queued.delete(deps.db);
        return refreshBusyTimes(deps);
      });
    queued.set(deps.db, next);
  }
  return next;
}

async function readAndStore(deps: CalendarDeps): Promise<RefreshOutcome> {
  const { db, env, calendar, clock } = deps;
  const row = await findConnection(db);
  if (!row || !calendar) return 'not-connected';
  const from = clock.now();
  const to = new Date(from.getTime() + BUSY_HORIZON_DAYS * 86_400_000);
  let answer: { busy: { calendarId: string; start: Date; end: Date }[]; errors: { calendarId: string; reason: string }[] } = { busy: [], errors: [] };
  try {
    // No calendar chosen: nothing to ask Google; her Google busy times are none.
    if (row.busyCalendarIds.length > 0) answer = await calendar.freeBusy(refreshTokenOf(env, row), { calendarIds: row.busyCalendarIds, from, to });
  } catch (err) {
    // The rows stand; the Settings page says since when they could not be read.
    await markFailed(db, row.connectedAt, reasonOf(err), clock.now());
    return 'failed';
  }
  // The site's own events in a calendar she also marked busy are her agenda already, not Google's busy time.
  answer = { ...answer, busy: withoutOurs(answer.busy, await writtenEventsIn(db, row.busyCalendarIds)) };
  const stored = await db.transaction().execute(async (trx) => {
    await lockAgenda(trx);
    // Disconnected or reconnected while Google answered: this answer is for a connection that is gone.
    const current = await lockConnection(trx);
    if (!current || current.connectedAt.getTime() !== row.connectedAt.getTime()) return false;
    // A calendar Google could not read this time keeps its last busy times.
    const kept = await googleBusyOf(
      trx,
      answer.errors.map((e) => e.calendarId),
    );
    await replaceGoogleBusyTimes(trx, [...answer.busy.map((b) => ({ startsAt: b.start, endsAt: b.end, calendarId: b.calendarId })), ...kept]);
    await markFetched(trx, clock.now());
    return true;
  });
  if (!stored) return 'not-connected';
  if (answer.errors.length > 0) {
    const names = answer.errors.map((e) => `${row.calendars.find((c) => c.id === e.calendarId)?.summary ?? e.calendarId} (${e.reason})`);
    await markFailed(db, row.connectedAt, `Google could not read ${names.join(', ')}`, clock.now());
  }
  return 'refreshed';
}

/**
 * Her busy intervals with the site's own events taken out (per calendar). freeBusy merges what
 * touches: an event of ours inside a longer busy interval cuts it, so only her own part stays.
 */
export function withoutOurs<B extends { calendarId: string; start: Date; end: Date }>(busy: B[], ours: { calendarId: string; start: Date; end: Date }[]): B[] {
  const out: B[] = [];
  for (const b of busy) {
    let parts: [number, number][] = [[b.start.getTime(), b.end.getTime()]];
    for (const o of ours) {
      if (o.calendarId !== b.calendarId) continue;
      const [os, oe] = [o.start.getTime(), o.end.getTime()];
      parts = parts.flatMap(([s, e]): [number, number][] =>
        oe <= s || os >= e ? [[s, e]] : [...(os > s ? ([[s, os]] as [number, number][]) : []), ...(oe < e ? ([[oe, e]] as [number, number][]) : [])],
      );
    }
    for (const [s, e] of parts) out.push({ ...b, start: new Date(s), end: new Date(e) });
  }
  return out;
}

/** True when her Google busy times are older than GOOGLE_CALENDAR_REFRESH_MS (or were never read). */
const stale = (deps: CalendarDeps, row: ConnectionRow) =>
  row.fetchedAt === null || deps.clock.now().getTime() - row.fetchedAt.getTime() >= deps.env.GOOGLE_CALENDAR_REFRESH_MS;

/**
 * At a booking attempt, before its transaction: when her Google busy times are stale, reads them
 * again, waiting at most GOOGLE_CALENDAR_BOOKING_WAIT_MS; a slower or failed read leaves the
 * booking to the rows stored (the read goes on and stores its answer when it comes). Never throws.
 */
export async function refreshBusyTimesIfStale(given: Pick<Services, 'db' | 'env'> & Partial<Pick<Services, 'calendar' | 'clock'>>): Promise<void> {
  try {
    if (!given.calendar) return;
    const deps: CalendarDeps = { ...given, clock: given.clock ?? systemClock };
    const row = await findConnection(deps.db);
    if (!row || !stale(deps, row)) return;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, deps.env.GOOGLE_CALENDAR_BOOKING_WAIT_MS);
    });
    await Promise.race([refreshBusyTimes(deps).catch(() => {}), waited]);
    clearTimeout(timer);
  } catch (err) {
    console.warn(`[calendar] the refresh before a booking failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The runner's tick: channels renewed before they end, busy times read when stale. */
export async function calendarTick(deps: CalendarDeps): Promise<void> {
  if (!deps.calendar) return;
  const row = await findConnection(deps.db);
  if (!row) return;
  await watchBusyCalendars(deps);
  if (stale(deps, row)) await refreshBusyTimes(deps);
}

// ---------------------------------------------------------------------------------------------
// Disconnecting

/**
 * Deletes the connection and every busy time read from Google (under the agenda's lock), waits
 * for a refresh under way (its answer is then dropped), and stops the channels. Nothing is sent
 * to Google after.
 */
export async function disconnect(deps: CalendarDeps): Promise<{ ok: true } | { ok: false; kind: 'not-connected' }> {
  const row = await findConnection(deps.db);
  if (!row) return { ok: false, kind: 'not-connected' };
  await deps.db.transaction().execute(async (trx) => {
    await lockAgenda(trx);
    await deleteConnection(trx);
    await clearMirror(trx);
  });
  await inflight.get(deps.db)?.catch(() => {});
  if (deps.calendar && row.watchChannels.length > 0) {
    const calendar = deps.calendar;
    let token: string | undefined;
    try {
      token = refreshTokenOf(deps.env, row);
    } catch {
      token = undefined;
    }
    if (token !== undefined) {
      const stops = Promise.allSettled(row.watchChannels.map((ch) => calendar.stopChannel(token, ch)));
      await Promise.race([stops, new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref())]);
    }
  }
  return { ok: true };
}

/**
 * `npm run rotate-keys`: her refresh token re-sealed with the current private records key (it is
 * sealed with that key, like the records). Answers 1 when it was, 0 when there was nothing to do.
 */
export async function resealCalendarToken(db: CalendarDeps['db'], ring: Keyring): Promise<number> {
  const row = await findConnection(db);
  if (!row || row.keyId === ring.current.id) return 0;
  const next = seal(ring, TOKEN_CONTEXT, open(ring, TOKEN_CONTEXT, row.keyId, row.refreshTokenSealed));
  return (await resealToken(db, { keyId: row.keyId, sealed: row.refreshTokenSealed }, next)) ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// What the Settings page shows

export async function calendarView(deps: CalendarDeps): Promise<CalendarView> {
  const row = await findConnection(deps.db);
  const base = { available: deps.calendar !== undefined, standIn: deps.calendar?.name === 'emulator' };
  if (!row) return { ...base, connected: false, calendars: [], fetchedAt: null, error: null, writes: { waiting: 0, lastError: null } };
  const writes = await writeBackState(deps.db);
  return {
    ...base,
    connected: true,
    account: row.accountEmail,
    calendars: row.calendars.map((c) => ({
      id: c.id,
      summary: c.summary,
      primary: c.primary,
      busy: row.busyCalendarIds.includes(c.id),
      write: row.writeCalendarId === c.id,
      writable: writable(c),
    })),
    fetchedAt: row.fetchedAt?.toISOString() ?? null,
    error: row.lastError && row.errorSince ? { message: row.lastError, since: row.errorSince.toISOString() } : null,
    writes: { waiting: writes.due, lastError: writes.lastError },
  };
}
