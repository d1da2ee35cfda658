/**
 * The free 30-minute online meeting, scheduled (issue 35, decision 0044). The home page offers
 * her next free times: candidates from her meeting hours (a setting), every half hour, kept only
 * when the agenda's one rule leaves an online 30-minute meeting there clear. Booking one checks
 * the rule again under the agenda's lock, in the transaction that writes the meeting and queues
 * its invitation; its cancel link frees the time.
 */
import { randomUUID } from 'node:crypto';
import type { DB } from '../../db/client.ts';
import type { Services } from '../services/index.ts';
import { addDays, wallTime, weekday, zonedNow } from '../lib/time.ts';
import { classWhen } from '../mail/layout.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { commitWithMails } from '../mail/commit.ts';
import { verifyToken } from '../lib/signed-token.ts';
import { brandNames } from '../site/brand.ts';
import { readSettings } from '../settings/settings.repo.ts';
import type { VisitorCopy } from '../middleware/rate-limit.ts';
import type { OutgoingMail } from '../services/mail/index.ts';
import type { MeetingHours } from '../../contract/settings.ts';
import { FREE_MEETING_MINUTES, FREE_MEETING_TIMES_MAX, type FreeMeetingTime, type FreeMeetingView } from '../../contract/free-meetings.ts';
import { clashesOf, takenAround, type Candidate } from './agenda.ts';
import { lockAgenda } from './agenda.repo.ts';
import { freeMeetingLink, prepareFreeMeetingLink } from './write-back.ts';
import { cancelFreeMeetingRow, findFreeMeeting, insertFreeMeeting, type FreeMeeting } from './free-meetings.repo.ts';
import { FREE_MEETING_CANCEL_PURPOSE, freeMeetingCancelledMails, freeMeetingMails } from './free-meeting-mails.ts';

const MINUTE = 60_000;
const STEP_MINUTES = 30;

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Her meeting hours as instants from `now` on: every half hour of her days that ends by `to`, at least `noticeHours` ahead. */
export function meetingCandidates(hours: MeetingHours, zone: string, now: Date): Date[] {
  const today = zonedNow(zone, now).date;
  const earliest = now.getTime() + hours.noticeHours * 60 * MINUTE;
  const out: Date[] = [];
  for (let d = 0; d < hours.daysAhead; d++) {
    const date = addDays(today, d);
    // weekday() counts Sunday as 0; her days count it as 7 (ISO).
    if (!hours.days.includes(weekday(date) || 7)) continue;
    for (let m = toMinutes(hours.from); m + FREE_MEETING_MINUTES <= toMinutes(hours.to); m += STEP_MINUTES) {
      const at = wallTime(date, hhmm(m), zone);
      // A half hour the clocks skip in spring is not offered.
      if (at.kind === 'skipped' || at.instant.getTime() < earliest) continue;
      out.push(at.instant);
    }
  }
  return out;
}

/** A meeting at `start` as the rule weighs it: online, so no travel buffer of its own. */
const meetingCandidate = (start: Date): Candidate => ({
  start,
  end: new Date(start.getTime() + FREE_MEETING_MINUTES * MINUTE),
  place: 'Online',
  bufferMinutes: 0,
  online: true,
});

/** The time's words on her clocks: "Tuesday, December 1, 2026, 9:30 AM PST". */
const label = (at: Date, zone: string) => {
  const w = classWhen(at, zone);
  return `${w.date}, ${w.time}`;
};

/** Her next free meeting times (at most `limit`): one read of her agenda for the whole span. */
export async function freeMeetingTimes(db: DB, zone: string, now: Date, limit = FREE_MEETING_TIMES_MAX): Promise<FreeMeetingTime[]> {
  const { meetingHours } = await readSettings(db);
  const candidates = meetingCandidates(meetingHours, zone, now);
  if (candidates.length === 0) return [];
  const taken = await takenAround(db, zone, candidates[0]!, new Date(candidates.at(-1)!.getTime() + FREE_MEETING_MINUTES * MINUTE));
  const free: FreeMeetingTime[] = [];
  for (const at of candidates) {
    if (clashesOf(meetingCandidate(at), taken).length > 0) continue;
    free.push({ startsAt: at.toISOString(), label: label(at, zone) });
    if (free.length >= limit) break;
  }
  return free;
}

export interface FreeMeetingRequest {
  name: string;
  email: string;
  phone: string;
  sessionType: string;
  message: string;
  startsAt: Date;
}

export type BookFreeMeetingRefusal = 'not-offered' | 'taken';
export type BookFreeMeetingResult = { ok: true; meeting: FreeMeeting } | { ok: false; kind: BookFreeMeetingRefusal };

class Taken extends Error {}

/**
 * Books the free meeting at `r.startsAt` if it is one of her hours and still clear: under the
 * agenda's lock, the rule checked again, the row and its mails in one transaction (the mails
 * leave after the commit). `visitorCopy` decides whether the visitor's invitation may go to the
 * address typed (the limiter, asked before the transaction).
 */
export async function bookFreeMeeting(
  services: Pick<Services, 'db' | 'env' | 'mailer' | 'clock'> & Partial<Pick<Services, 'calendar'>>,
  r: FreeMeetingRequest,
  visitorCopy: VisitorCopy,
): Promise<BookFreeMeetingResult> {
  const { env } = services;
  const zone = env.SITE_TIMEZONE;
  const { meetingHours } = await readSettings(services.db);
  const offered = meetingCandidates(meetingHours, zone, services.clock.now()).some((c) => c.getTime() === r.startsAt.getTime());
  if (!offered) return { ok: false, kind: 'not-offered' };
  const candidate = meetingCandidate(r.startsAt);
  // Taken already: refused before anything is made at Google (checked again under the lock below).
  if (clashesOf(candidate, await takenAround(services.db, zone, candidate.start, candidate.end)).length > 0) return { ok: false, kind: 'taken' };
  // Its Google Meet link first when her calendar is connected (issue 35), for the id it will have.
  const id = randomUUID();
  await prepareFreeMeetingLink(services, { id, start: candidate.start, end: candidate.end });
  try {
    const done = await commitWithMails(services, async (trx) => {
      await lockAgenda(trx);
      if (clashesOf(candidate, await takenAround(trx, zone, candidate.start, candidate.end)).length > 0) throw new Taken();
      const meeting = await insertFreeMeeting(trx, {
        id,
        startsAt: r.startsAt,
        minutes: FREE_MEETING_MINUTES,
        name: r.name,
        email: r.email,
        phone: r.phone,
        sessionType: r.sessionType,
        message: r.message,
        link: await freeMeetingLink(trx, id),
      });
      const mails: OutgoingMail[] = visitorCopy(freeMeetingMails(env, (await brandNames(trx)).yoga, meeting));
      return { result: meeting, mails: await queueMails(trx, 'free-meeting', mails) };
    });
    return { ok: true, meeting: done.result };
  } catch (err) {
    // The unique index of live starts is the database's own word, should the lock ever be bypassed.
    if (err instanceof Taken || (err as { code?: string }).code === '23505') return { ok: false, kind: 'taken' };
    throw err;
  }
}

/** The meeting a cancel link opens, or undefined when the token is not one of ours. */
async function meetingOfToken(db: DB, secret: string, token: string): Promise<FreeMeeting | undefined> {
  const id = verifyToken(secret, FREE_MEETING_CANCEL_PURPOSE, token);
  return id ? findFreeMeeting(db, id) : undefined;
}

/** What the cancel page shows. */
export async function freeMeetingOfToken(services: Pick<Services, 'db' | 'env' | 'clock'>, token: string): Promise<FreeMeetingView | undefined> {
  const m = await meetingOfToken(services.db, services.env.APP_SECRET, token);
  if (!m) return undefined;
  const startsAt = new Date(m.startsAt);
  const cancelled = m.cancelledAt !== null;
  return {
    name: m.name,
    startsAt: startsAt.toISOString(),
    label: label(startsAt, services.env.SITE_TIMEZONE),
    cancelled,
    canCancel: !cancelled && startsAt.getTime() > services.clock.now().getTime(),
  };
}

export type CancelFreeMeetingResult = { ok: true } | { ok: false; kind: 'invalid' | 'already-cancelled' | 'over' };

/** The cancel link's POST: frees the time and tells both (the mails with the change). */
export async function cancelFreeMeeting(services: Pick<Services, 'db' | 'env' | 'mailer'>, token: string): Promise<CancelFreeMeetingResult> {
  const { db, env } = services;
  const m = await meetingOfToken(db, env.APP_SECRET, token);
  if (!m) return { ok: false, kind: 'invalid' };
  if (m.cancelledAt !== null) return { ok: false, kind: 'already-cancelled' };
  const done = await commitWithMails(services, async (trx) => {
    const cancelled = await cancelFreeMeetingRow(trx, m.id);
    if (!cancelled) return { result: false, mails: [] };
    return { result: true, mails: await queueMails(trx, 'free-meeting-cancelled', freeMeetingCancelledMails(env, (await brandNames(trx)).yoga, cancelled)) };
  });
  if (done.result) return { ok: true };
  // Another press won, or its time has come.
  const again = await findFreeMeeting(db, m.id);
  return { ok: false, kind: again?.cancelledAt ? 'already-cancelled' : 'over' };
}
