/**
 * Her Google Calendar, written side (issue 35, decision 0044): every booked session, free
 * meeting, class, tasting and gig becomes an event in the calendar she chose to be written to,
 * moved and cancelled with it.
 *
 * A durable queue, as the mail outbox is, whose wishes are planned from her agenda itself rather
 * than queued by each place that changes it: a plan reads what takes her time (the rule's own
 * query, api/agenda/agenda.repo.ts) from a day back to BUSY_HORIZON_DAYS ahead and records, per
 * thing, the event it should be (calendar_mirror.want); a thing gone from the agenda (cancelled,
 * moved to another slot) becomes "should not be there". No booking path, form or runner can then
 * forget to queue its write, and a change made while Google was away is written when it returns.
 *
 * Sending claims due rows (a crashed process's claim is taken again once older than
 * GOOGLE_CALENDAR_WRITE_STALE_MS) and calls Google
 * with no transaction open. Each event's id is made from our key, and an insert that finds its id
 * updates instead: a write retried after a kill -9 between Google's answer and our record of it
 * finds the event it made, so each thing is in her calendar once. A session's title carries the
 * client's name as she chose (calendarTitle: "Session · Jane D." by default, decision 0058) and
 * never its session type; the event carries the place or the video link; never notes, intake
 * answers or amounts.
 *
 * Disconnecting deletes the queue in the transaction that deletes the token: nothing more is sent.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Services } from '../services/index.ts';
import { PROCESS_ID } from '../lib/process.ts';
import { CalendarError, eventIdFor } from '../services/calendar/index.ts';
import type { Transaction } from 'kysely';
import type { Database, MirroredEvent } from '../../db/schema.ts';
import { onlineLink } from '../settings/meeting-room.ts';
import { readSettings } from '../settings/settings.repo.ts';
import type { CalendarTitle } from '../../contract/settings.ts';
import { calendarTitleOf } from '../../contract/calendar.ts';
import { FREE_MEETING_WORD } from './agenda.repo.ts';
import { sessionMinutes, takenAround, type Taken } from './agenda.ts';
import { BUSY_HORIZON_DAYS, reasonOf, refreshTokenOf, type CalendarDeps } from './calendar.ts';
import { findConnection, lockConnection } from './calendar.repo.ts';
import {
  claimDueWrites,
  forgetErased,
  forgetSettledBefore,
  lockMirrorRowsOf,
  wantErased,
  holdPreparedEvent,
  markPrepared,
  mirrorRowOf,
  slotToPrepare,
  markWriteFailed,
  markWritten,
  mirroredBetween,
  onlineLinksOf,
  takePreparedMeetLink,
  unwantEvents,
  unwantOtherCalendars,
  wantEvents,
  type DueWrite,
  type WantedEvent,
} from './write-back.repo.ts';

const DAY = 86_400_000;
/** A thing this long past whose event is as it should be leaves the queue. */
const FORGET_AFTER_DAYS = 30;
/** Writes claimed at a time. */
const BATCH = 25;
/** The wait before the n-th retry: 30 s doubling, at most an hour. */
const retryDelay = (attempts: number) => Math.min(3_600_000, 30_000 * 2 ** Math.min(attempts, 7));

const KIND_WORDS: Record<Exclude<Taken['kind'], 'busy'>, string> = {
  session: 'Session',
  class: 'Class',
  tasting: 'Private tasting',
  gig: 'Gig',
};

/** Our key for a thing of hers: its kind and its own id (a free meeting is a session with its own table's id). */
const keyOf = (t: Taken) => `${t.kind}:${t.id}`;

/**
 * A thing's title in her calendar. A session or free meeting names the person as she chose
 * (calendarTitle, decision 0058) and never its session type: "Yoga Therapy Session" is health
 * data, and Google is a third party. Classes, gigs and tastings keep their own titles.
 */
function titleOf(t: Taken, calendarTitle: CalendarTitle): string {
  if (t.kind === 'gig') return `${t.title} (gig)`;
  if (t.kind !== 'session') return t.title;
  const word = t.title.startsWith(`${FREE_MEETING_WORD}:`) ? FREE_MEETING_WORD : KIND_WORDS.session;
  return calendarTitleOf(calendarTitle, word, { first: t.personFirst ?? '', last: t.personLast ?? '' });
}

/** The event a thing of hers is in her calendar: its title and place or video link, and where she manages it. */
function eventOf(t: Taken, links: Map<string, string>, siteUrl: string, calendarTitle: CalendarTitle): MirroredEvent {
  const kind = KIND_WORDS[t.kind as Exclude<Taken['kind'], 'busy'>];
  return {
    summary: titleOf(t, calendarTitle),
    description: `${kind}, from ${siteUrl}/admin/week`,
    location: t.online ? (links.get(t.id) ?? 'Online') : t.place,
    start: t.start.toISOString(),
    end: t.end.toISOString(),
    meet: false,
  };
}

const hashOf = (e: MirroredEvent) => createHash('sha256').update(JSON.stringify(e)).digest('base64url');

/**
 * Records what her calendar should hold now: an event per thing in her agenda over the window,
 * and "not there" for each one written before and gone since. Nothing when she is not connected;
 * writing to no calendar takes out what was written. Rows of things long past, written as they
 * should be, are forgotten (the queue stays the size of her coming months).
 */
export async function planWrites(deps: CalendarDeps): Promise<void> {
  const { db, env, clock } = deps;
  const row = await findConnection(db);
  if (!row) return;
  const now = clock.now();
  const from = new Date(now.getTime() - DAY);
  const to = new Date(now.getTime() + BUSY_HORIZON_DAYS * DAY);
  const things = (await takenAround(db, env.SITE_TIMEZONE, from, to)).filter(
    (t) => t.kind !== 'busy' && t.start.getTime() >= from.getTime() && t.start.getTime() < to.getTime(),
  );
  const links = await onlineLinksOf(
    db,
    things.filter((t) => t.online).map((t) => t.id),
  );
  // Her choice of titles: a change of it changes every session's wish, so each is written again.
  const { calendarTitle } = await readSettings(db);
  const wanted: WantedEvent[] = things.map((t) => {
    const want = eventOf(t, links, env.SITE_URL, calendarTitle);
    return { key: keyOf(t), eventId: eventIdFor(keyOf(t)), startsAt: t.start, want, wantHash: hashOf(want) };
  });
  await db.transaction().execute(async (trx) => {
    // Disconnected (or connected again) since the read above: this plan is for a connection that is gone.
    const current = await lockConnection(trx);
    if (!current || current.connectedAt.getTime() !== row.connectedAt.getTime()) return;
    await unwantOtherCalendars(trx, row.writeCalendarId, now);
    if (row.writeCalendarId === null) return;
    const keys = new Set(wanted.map((w) => w.key));
    const gone = (await mirroredBetween(trx, row.writeCalendarId, from, to)).filter(
      (m) => m.wantHash !== null && !keys.has(m.key) && !(m.heldUntil && new Date(m.heldUntil).getTime() > now.getTime()),
    );
    await unwantEvents(
      trx,
      row.writeCalendarId,
      gone.map((m) => m.key),
      now,
    );
    await wantEvents(trx, row.writeCalendarId, wanted, now);
    await forgetSettledBefore(trx, new Date(now.getTime() - FORGET_AFTER_DAYS * DAY));
  });
}

/**
 * Sends the due writes, a batch at a time, with no transaction open. Google away: the rest wait
 * for the next round. Not connected: nothing is sent.
 */
export async function sendWrites(deps: CalendarDeps): Promise<{ written: number; failed: number }> {
  const { db, env, clock, calendar } = deps;
  let written = 0;
  let failed = 0;
  for (;;) {
    const row = await findConnection(db);
    if (!row || !calendar) break;
    const token = refreshTokenOf(env, row);
    const now = clock.now();
    const due = await claimDueWrites(db, { by: PROCESS_ID, now, staleBefore: new Date(now.getTime() - env.GOOGLE_CALENDAR_WRITE_STALE_MS), limit: BATCH });
    if (due.length === 0) break;
    let away = false;
    for (const write of due) {
      if (away) {
        await markWriteFailed(db, write, PROCESS_ID, 'Google Calendar could not be reached', new Date(now.getTime() + retryDelay(write.attempts)));
        continue;
      }
      try {
        if (write.erased) {
          await sendErased(deps, token, write);
          await forgetErased(db, write, PROCESS_ID);
        } else {
          const meetLink = await send(deps, token, write);
          await markWritten(db, write, PROCESS_ID, meetLink, clock.now());
        }
        written += 1;
      } catch (err) {
        failed += 1;
        away = err instanceof CalendarError && err.status === 0;
        console.warn(`[calendar] writing ${write.key} failed: ${reasonOf(err)}`);
        await markWriteFailed(db, write, PROCESS_ID, reasonOf(err), new Date(now.getTime() + retryDelay(write.attempts)));
      }
    }
    if (away || due.length < BATCH) break;
  }
  return { written, failed };
}

async function send(deps: CalendarDeps, token: string, write: DueWrite): Promise<string | undefined> {
  const calendar = deps.calendar!;
  if (write.wantHash === null || write.want === null) {
    await calendar.deleteEvent(token, write.calendarId, write.eventId);
    return undefined;
  }
  const event = await calendar.insertEvent(token, write.calendarId, eventToWrite(deps, write.eventId, write.want, write.want.meet));
  return event.meetLink;
}

/** The event Google is given for a planned write (`meet`: whether it asks for a Meet link). */
function eventToWrite(deps: CalendarDeps, id: string, e: NonNullable<DueWrite['want']>, meet: boolean) {
  return {
    id,
    summary: e.summary,
    description: e.description,
    location: e.location,
    start: new Date(e.start),
    end: new Date(e.end),
    timeZone: deps.env.SITE_TIMEZONE,
    meet,
  };
}

/**
 * An erased person's event (decision 0053): Google first holds its neutral title, with no place
 * and no words, then it is taken out, so the cancelled event left in her calendar names no one.
 * Both calls are repeatable: a retry after a crash renames and deletes again.
 */
async function sendErased(deps: CalendarDeps, token: string, write: DueWrite): Promise<void> {
  const calendar = deps.calendar!;
  if (write.want) await calendar.insertEvent(token, write.calendarId, eventToWrite(deps, write.eventId, write.want, false));
  await calendar.deleteEvent(token, write.calendarId, write.eventId);
}

/** The things of an erased person whose events the site may have written: sessions (and free meetings) and tastings. */
export interface ErasedThings {
  sessionIds: readonly string[];
  tastingEventIds: readonly string[];
}

/**
 * In the erasure's transaction (decision 0053): each event written (or to be written) for her
 * things is wished neutral (its kind's word, her time kept, no place, no description) and
 * marked erased; the write-back renames it in Google and then takes it out. Nothing else of the
 * queue changes, and the plan no longer wishes it otherwise.
 */
export async function eraseEventsOf(trx: Transaction<Database>, things: ErasedThings, now: Date): Promise<number> {
  const keys = [...things.sessionIds.map((id) => `session:${id}`), ...things.tastingEventIds.map((id) => `tasting:${id}`)];
  const rows = await lockMirrorRowsOf(trx, keys);
  for (const row of rows) {
    const kind = row.key.startsWith('tasting:') ? KIND_WORDS.tasting : KIND_WORDS.session;
    const start = row.want?.start ?? new Date(row.startsAt).toISOString();
    const want: MirroredEvent = { summary: kind, description: '', location: '', start, end: row.want?.end ?? start, meet: false };
    await wantErased(trx, row, want, hashOf(want), now);
  }
  return rows.length;
}

/** How long an event made before its booking's claim is left to that claim. */
const PREPARED_HOLD_MS = 10 * 60_000;
/** The longest a booking waits for Google to make its Meet link before it takes her room link instead. */
const MEET_WAIT_MS = 5_000;

/**
 * Before an online session's claim, once the slot is found free, with no transaction open: when she is connected and writes
 * to a calendar, its event is made now with a Google Meet link, so the claim can give the
 * booking that link (sessionLink) and the confirmation carries it. Each booking gets an
 * event (and a Meet) of its own: a link made for an earlier booking of the slot, since
 * cancelled, is taken out first and never handed on. Any failure leaves the room link.
 */
export async function prepareMeetLink(given: MeetDeps, slotId: string): Promise<void> {
  try {
    const slot = await slotToPrepare(given.db, slotId);
    // In person, gone, or booked (an event there is that booking's own): nothing to make.
    if (!slot?.online || slot.bookedAt !== null) return;
    const start = new Date(slot.startsAt);
    await prepareMeet(given, `session:${slot.id}`, start, new Date(start.getTime() + sessionMinutes(slot.duration) * 60_000));
  } catch (err) {
    console.warn(`[calendar] no Meet link for a booking, her room link instead: ${reasonOf(err)}`);
  }
}

/** The free meeting's Meet link (its id chosen before its row is written), as prepareMeetLink makes a session's. */
export async function prepareFreeMeetingLink(given: MeetDeps, meeting: { id: string; start: Date; end: Date }): Promise<void> {
  try {
    await prepareMeet(given, `session:${meeting.id}`, meeting.start, meeting.end);
  } catch (err) {
    console.warn(`[calendar] no Meet link for a free meeting, her room link instead: ${reasonOf(err)}`);
  }
}

type MeetDeps = Pick<Services, 'db' | 'env'> & Partial<Pick<Services, 'calendar'>>;

async function prepareMeet(given: MeetDeps, key: string, start: Date, end: Date): Promise<void> {
  const { db, env, calendar } = given;
  if (!calendar) return;
  // The hold is a span of real time the claim follows within (not a date anyone reads).
  const now = new Date();
  const row = await findConnection(db);
  if (!row?.writeCalendarId) return;
  const calendarId = row.writeCalendarId;
  const token = refreshTokenOf(env, row);
  const before = await mirrorRowOf(db, calendarId, key);
  // The time is free (the caller checked): an event there is an earlier booking's (cancelled, its
  // delete not sent yet) or an attempt's that lost. Out first, so its link is never handed on.
  if (before && before.writtenHash !== null) await within(calendar.deleteEvent(token, calendarId, before.eventId));
  const want: MirroredEvent = {
    summary: 'Online session',
    description: `Session, from ${env.SITE_URL}/admin/week`,
    location: 'Google Meet',
    start: start.toISOString(),
    end: end.toISOString(),
    meet: true,
  };
  // An id of its own per booking, recorded before Google is called: a crash leaves a row that finds it.
  const eventId = eventIdFor(`${key}:${randomBytes(6).toString('hex')}`);
  const prepared = { calendarId, key, eventId, startsAt: start, want, wantHash: hashOf(want) };
  await holdPreparedEvent(db, { ...prepared, heldUntil: new Date(now.getTime() + PREPARED_HOLD_MS) });
  const made = await within(
    calendar.insertEvent(token, calendarId, {
      id: eventId,
      summary: want.summary,
      description: want.description,
      location: want.location,
      start,
      end,
      timeZone: env.SITE_TIMEZONE,
      meet: true,
    }),
  );
  await markPrepared(db, { ...prepared, meetLink: made.meetLink ?? null });
}

/**
 * The video link an online booking of `slotId` takes in its claim (issue 35): the Meet link made
 * for it by prepareMeetLink within its hold (which the claim's commit ends), else her own room
 * (null: none; it will follow).
 */
export async function sessionLink(trx: Transaction<Database>, slotId: string): Promise<string | null> {
  return (await takePreparedMeetLink(trx, `session:${slotId}`, new Date())) ?? (await onlineLink(trx));
}

/** The free meeting's link: its Meet link (prepareFreeMeetingLink), else her room. */
export const freeMeetingLink = sessionLink;

/** Google's answer within MEET_WAIT_MS, or a CalendarError (unreachable) after it. */
function within<T>(call: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CalendarError('Google Calendar did not answer in time', 0)), MEET_WAIT_MS);
  });
  return Promise.race([call, late]).finally(() => clearTimeout(timer));
}

/** One write-back at a time per database in this process; a call during one waits for the next. */
const running = new WeakMap<object, Promise<void>>();
const again = new WeakMap<object, Promise<void>>();

/** Plans and sends (the runner's tick, and the nudge after a change): never throws. */
export function mirrorCalendar(deps: CalendarDeps): Promise<void> {
  const now = running.get(deps.db);
  if (now) {
    let next = again.get(deps.db);
    if (!next) {
      next = now.then(() => {
        again.delete(deps.db);
        return mirrorCalendar(deps);
      });
      again.set(deps.db, next);
    }
    return next;
  }
  const started = (async () => {
    if (!deps.calendar) return;
    await planWrites(deps);
    await sendWrites(deps);
  })()
    .catch((err: unknown) => console.warn(`[calendar] the write-back failed: ${err instanceof Error ? err.message : String(err)}`))
    .finally(() => running.delete(deps.db));
  running.set(deps.db, started);
  return started;
}

/** After a change to her agenda (a booking, a move, a cancel): the write-back runs now, not awaited. */
export function nudgeWriteBack(deps: Pick<Services, 'db' | 'env'> & Partial<Pick<Services, 'calendar' | 'clock'>>): void {
  if (!deps.calendar || !deps.clock) return;
  void mirrorCalendar({ db: deps.db, env: deps.env, clock: deps.clock, calendar: deps.calendar });
}
