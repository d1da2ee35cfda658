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

export * from './agenda-words.ts';

/** How long a class, a tasting or a gig takes her (issue 35): whole minutes, a day at most; 60 unless she says. */
export const lengthMinutes = z
  .number({ error: 'Length must be a whole number of minutes' })
  .int('Length must be a whole number of minutes')
  .min(1, 'Length must be at least 1 minute')
  .max(1440, 'Length must be at most 1440 minutes (a day)');

/** The travel time she keeps free before and after anything at a place (issue 35): 0 to 240 minutes. */
export const bufferMinutes = z
  .number({ error: 'Travel buffer must be a whole number of minutes' })
  .int('Travel buffer must be a whole number of minutes')
  .min(0, 'Travel buffer must not be negative')
  .max(240, 'Travel buffer must be at most 240 minutes');
