/**
 * A weekly series (issue 32): the same weekday and time, her clock, for a number of weeks, each
 * week booked with one of the client's session credits. Shared with the islands: zod only.
 */
import { z } from 'zod';
import { clockTime, id, isoDate, optionalText } from './common.ts';
import { sessionType } from './booking.ts';

export const SERIES_MIN_WEEKS = 2;
export const SERIES_MAX_WEEKS = 12;

const weeks = z
  .number({ error: 'Weeks must be a whole number' })
  .int('Weeks must be a whole number')
  .min(SERIES_MIN_WEEKS, `Weeks must be at least ${SERIES_MIN_WEEKS}`)
  .max(SERIES_MAX_WEEKS, `Weeks must be at most ${SERIES_MAX_WEEKS}`);

/** POST /api/user/{id}/series: the client holds the first session's free slot's weekday and time. */
export const seriesRequest = z.object({
  /** The free slot of the first week. */
  slotId: id,
  /** How many weeks, the first included. */
  weeks,
  sessionType,
  message: optionalText('Message', 2000).default(''),
});
export type SeriesRequest = z.input<typeof seriesRequest>;

/** POST /api/admin/users/{id}/series: she books a series for a client, making the slots missing if she asks. */
export const adminSeriesRequest = z.object({
  /** The first week's date, her day. */
  date: isoDate,
  /** The time, on her clock, every week. */
  time: clockTime,
  weeks,
  sessionType,
  /** Make the slot of each week that has none (the slot form's rules; never over another slot). */
  createSlots: z.boolean({ error: 'createSlots must be true or false' }).default(false),
});
export type AdminSeriesRequest = z.input<typeof adminSeriesRequest>;

/**
 * Why a week was not booked: its slot was taken, there is no slot then (or, making it, the time
 * does not exist on her clock or another slot overlaps it), or the credits ran out.
 */
export type MissedReason = 'taken' | 'no-slot' | 'no-such-time' | 'overlap' | 'no-credit';

export const MISSED_WORDS: Record<MissedReason, string> = {
  taken: 'already booked',
  'no-slot': 'no session offered then',
  'no-such-time': 'that time does not exist that day (the clocks change)',
  overlap: 'another session is too close',
  'no-credit': 'no session credit left',
};

export interface SeriesSlot {
  slotId: string;
  startsAt: string;
}

/** The answer of both series routes. */
export interface SeriesView {
  message: string;
  /** Shared by the sessions booked (null when none was). */
  seriesId: string | null;
  booked: SeriesSlot[];
  /** Each week not booked, when it would have been, why, and the free times nearest it. */
  missed: { startsAt: string; reason: MissedReason; nearest: SeriesSlot[] }[];
}

export const seriesBooked = (booked: number, weeks: number) =>
  booked === weeks ? `All ${weeks} weeks are booked.` : `${booked} of ${weeks} weeks are booked.`;
