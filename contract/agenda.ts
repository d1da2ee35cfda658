/**
 * Her agenda (issue 35, decision 0044): what takes her time, the busy times she types, and the
 * warnings when something new overlaps. Shared with the admin island: no server-only imports.
 */
import { z } from 'zod';
import { isCleanText, isoDate } from './common.ts';

const instant = z.iso.datetime({ offset: true, error: 'must be a date and time with its offset' });

export const BUSY_SAVED = 'Busy time saved.';
export const BUSY_DELETED = 'Busy time deleted.';
export const BUSY_NOT_FOUND = 'Busy time not found';
export const BUSY_TOO_LONG_DAYS = 31;

/** POST /api/admin/busy: a time she is not to be booked (the dentist, a trip), up to a month long. */
export const busyRequest = z
  .object({
    start: instant,
    end: instant,
    title: z
      .string({ error: 'Title must be text' })
      .trim()
      .max(200, 'Title must be at most 200 characters')
      .refine(isCleanText, 'Title contains characters that are not allowed')
      .default(''),
  })
  .refine((b) => Date.parse(b.end) > Date.parse(b.start), { message: 'The end must come after the start', path: ['end'] })
  .refine((b) => Date.parse(b.end) - Date.parse(b.start) <= BUSY_TOO_LONG_DAYS * 86_400_000, {
    message: `A busy time may last at most ${BUSY_TOO_LONG_DAYS} days`,
    path: ['end'],
  });
export type BusyRequest = z.output<typeof busyRequest>;

/** GET /api/admin/agenda?from=&to=: her days (YYYY-MM-DD, inclusive) or instants; at most 92 days. */
export const agendaQuery = z.object({ from: z.union([isoDate, instant]), to: z.union([isoDate, instant]) });
export const AGENDA_MAX_DAYS = 92;
export const AGENDA_RANGE_INVALID = `from must not come after to, and the range may span at most ${AGENDA_MAX_DAYS} days`;

export type AgendaKind = 'class' | 'tasting' | 'session' | 'gig' | 'busy';

/** One thing in her agenda. */
export interface AgendaItem {
  id: string;
  kind: AgendaKind;
  /** ISO instants. */
  start: string;
  end: string;
  title: string;
  /** Where (an address, a location, 'Online'); absent for a busy time. */
  place?: string;
  /** Typed by her ('manual') or read from her Google Calendar ('google'); busy times only. */
  source?: 'manual' | 'google';
  /** The ids of the items it overlaps, the travel buffer between places counted. */
  conflictsWith: string[];
  /** Miles from the place before it that day (half of each place's round trip from home), when both are her locations and differ. */
  milesFromPrevious?: number;
}

/** What something new overlaps: one line per item, for "it overlaps …; save anyway?". */
export interface Overlap {
  id: string;
  kind: AgendaKind;
  title: string;
  start: string;
  end: string;
}

export const overlapWords = (o: Overlap, when: string) => `${o.title || KIND_WORDS[o.kind]} (${KIND_WORDS[o.kind].toLowerCase()}, ${when})`;

export const KIND_WORDS: Record<AgendaKind, string> = {
  class: 'Class',
  tasting: 'Tasting',
  session: 'Session',
  gig: 'Gig',
  busy: 'Busy',
};
