/**
 * A weekly series (issue 32): a client holding session credits, or the teacher for them, holds the
 * same weekday and time (her clock) for N weeks. Every week whose slot is free is booked with one
 * credit through the booking's own credit path (booking-claims.ts claimWithCredit); the weeks
 * that could not be booked come back with the free times nearest them; each session is then a
 * booking of its own (moved or cancelled alone), sharing only a series id.
 *
 * One transaction, a savepoint per week (decision 0040): a week lost to a concurrent booking, or
 * past the last credit, is rolled back alone, its spend with it, so no credit is ever spent
 * without its session; the weeks booked and the one confirmation listing them commit together
 * (commitWithMails). Weeks are claimed in time order under the client's row lock, the order a
 * single booking takes its locks, so two series never wait on each other in a circle.
 */
import { randomUUID } from 'node:crypto';
import type { Services } from '../services/index.ts';
import type { MissedReason, SeriesView } from '../../contract/series.ts';
import { MISSED_WORDS } from '../../contract/series.ts';
import { addDays, wallTime, zonedNow } from '../lib/time.ts';
import { findUserById } from '../accounts/users.repo.ts';
import { intakeMissingForFirstBooking } from '../practice/gate.ts';
import { balanceOf } from '../money/ledger.ts';
import { commitWithMails } from '../mail/commit.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { readSettings } from '../settings/settings.repo.ts';
import { brandNames } from '../site/brand.ts';
import { findSlotForBooking, type BookedSlot } from './booking.repo.ts';
import { insertSlots } from './slots.repo.ts';
import { bookedSession } from './finalize-booking.ts';
import { claimWithCredit } from './booking-claims.ts';
import { seriesMails } from './mails.ts';
import { slotTime } from './slot-times.ts';
import { markSeries, nearestFreeSlots, releaseSavepoint, rollbackToSavepoint, savepoint, slotAt, slotOverlapping } from './series.repo.ts';
import { nudgeWriteBack } from '../agenda/write-back.ts';

/** A slot lasts her session's hour: a slot made for a series keeps that far from any other. */
const SLOT_MINUTES = 60;
/** How many free times are offered beside a week that could not be booked. */
const NEAREST = 3;

type Deps = Pick<Services, 'db' | 'env' | 'mailer' | 'realtime' | 'clock'> & Partial<Pick<Services, 'calendar'>>;

export interface SeriesInput {
  userId: string;
  sessionType: string;
  weeks: number;
  message: string;
  /** The first week: the client's chosen free slot, or her date and time. */
  first: { slotId: string } | { date: string; time: string };
  /** She makes the slot of each week that has none (the teacher only). */
  createSlots: boolean;
  by: 'client' | 'admin';
}

export type SeriesRefusal = 'unknown-account' | 'slot-not-found' | 'slot-past' | 'intake-missing' | 'no-credit';

export type SeriesResult = { ok: true; series: Omit<SeriesView, 'message'> } | { ok: false; kind: SeriesRefusal };

interface Week {
  date: string;
  time: string;
  startsAt: Date;
}

export async function bookSeries(deps: Deps, input: SeriesInput): Promise<SeriesResult> {
  const { db, env } = deps;
  const now = deps.clock.now();
  const today = zonedNow(env.SITE_TIMEZONE, now).date;
  const account = await findUserById(db, input.userId);
  if (!account) return { ok: false, kind: 'unknown-account' };

  let start: { date: string; time: string };
  if ('slotId' in input.first) {
    const slot = await findSlotForBooking(db, input.first.slotId);
    if (!slot) return { ok: false, kind: 'slot-not-found' };
    start = { date: slot.date, time: slot.time };
  } else start = input.first;
  if (wallTime(start.date, start.time, env.SITE_TIMEZONE).instant.getTime() <= now.getTime()) return { ok: false, kind: 'slot-past' };
  // Issue 23: a client's first session waits for her intake; she booking for them has it in hand.
  if (input.by === 'client' && (await intakeMissingForFirstBooking(db, account.id, input.sessionType))) return { ok: false, kind: 'intake-missing' };
  // No credit at all is a refusal; fewer credits than weeks books what they cover.
  if (!(await balanceOf(db, account.id, today)).credits.some((l) => l.sessionTypes.includes(input.sessionType))) return { ok: false, kind: 'no-credit' };

  // The same wall-clock time each week: across a change of the clocks the instant moves, the hour does not.
  const weeks: Week[] = Array.from({ length: input.weeks }, (_, k) => {
    const date = addDays(start.date, 7 * k);
    return { date, time: start.time, startsAt: wallTime(date, start.time, env.SITE_TIMEZONE).instant };
  });
  const seriesId = randomUUID();
  const claim = {
    userId: account.id,
    firstName: account.firstName,
    lastName: account.lastName,
    email: account.email,
    sessionType: input.sessionType,
    message: input.message,
  };

  const done = await commitWithMails(deps, async (trx) => {
    const booked: BookedSlot[] = [];
    const missed: { week: Week; reason: MissedReason }[] = [];
    const { defaultPlace } = await readSettings(trx);
    for (const [k, week] of weeks.entries()) {
      let slot = await slotAt(trx, week.date, week.time);
      if (!slot && input.createSlots) {
        const at = slotTime(week.date, week.time, env.SITE_TIMEZONE, now);
        if (!at.ok) {
          missed.push({ week, reason: at.kind === 'skipped' ? 'no-such-time' : 'no-slot' });
          continue;
        }
        if (await slotOverlapping(trx, at.startsAt, SLOT_MINUTES)) {
          missed.push({ week, reason: 'overlap' });
          continue;
        }
        await insertSlots(trx, [{ date: week.date, time: week.time, startsAt: at.startsAt, place: defaultPlace }]);
        slot = await slotAt(trx, week.date, week.time);
      }
      if (!slot) {
        missed.push({ week, reason: 'no-slot' });
        continue;
      }
      if (slot.bookedAt !== null) {
        missed.push({ week, reason: 'taken' });
        continue;
      }
      const name = `series_week_${k}`;
      await savepoint(trx, name);
      const result = await claimWithCredit(trx, slot.id, claim, today, { zone: deps.env.SITE_TIMEZONE, by: input.by });
      if (result.ok) {
        await releaseSavepoint(trx, name);
        booked.push(result.row);
      } else {
        // Lost to a concurrent booking, or the credits ran out: this week's spend is undone, the others stand.
        await rollbackToSavepoint(trx, name);
        missed.push({ week, reason: result.kind === 'no-credit' ? 'no-credit' : 'taken' });
      }
    }
    if (booked.length === 0) return { result: { booked, missed }, mails: [] };
    await markSeries(
      trx,
      booked.map((b) => b.id),
      seriesId,
    );
    const brand = (await brandNames(trx)).yoga;
    const mails = await queueMails(
      trx,
      'series-confirmation',
      seriesMails(env, brand, {
        sessions: booked.map(bookedSession),
        missed: missed.map((m) => ({ startsAt: m.week.startsAt, why: MISSED_WORDS[m.reason] })),
        bookedByTeacher: input.by === 'admin',
      }),
    );
    return { result: { booked, missed }, mails };
  });

  const { booked, missed } = done.result;
  // Every open booking page drops the slots now taken (a room that is down never fails the series).
  for (const b of booked) void deps.realtime.notifySlotBooked(b.id).catch(() => {});
  // Her Google Calendar gets the weeks now (issue 35).
  if (booked.length > 0) nudgeWriteBack(deps);
  return {
    ok: true,
    series: {
      seriesId: booked.length ? seriesId : null,
      booked: booked.map((b) => ({ slotId: b.id, startsAt: new Date(b.startsAt).toISOString() })),
      missed: await Promise.all(
        missed.map(async ({ week, reason }) => ({
          startsAt: week.startsAt.toISOString(),
          reason,
          nearest: (await nearestFreeSlots(db, week.startsAt, now, NEAREST)).map((s) => ({ slotId: s.id, startsAt: new Date(s.startsAt).toISOString() })),
        })),
      ),
    },
  };
}
