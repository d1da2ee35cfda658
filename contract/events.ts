/**
 * Events (group classes) as the admin adds and edits them. Shared with the admin island:
 * no server-only imports here.
 */
import { z } from 'zod';
import { bidiControlsMessage, clockTime, hasNoBidiControls, id, isCleanText, isoDate, requiredText } from './common.ts';
import { eventPriceFields, priceShapeProblem } from './event-prices.ts';
import { lengthMinutes, type OverlapWarning } from './agenda.ts';

/** SPEC.md section 5, add event. */
export const FILL_ALL_FIELDS = 'Please fill out all fields';
/** Said when a monthly series moved a date to a shorter month's last day. */
export const SHORT_MONTH_NOTE = 'Some dates fell on the last day of shorter months.';

export const REPEATS = ['none', 'weekly', 'monthly'] as const;
export type Repeat = (typeof REPEATS)[number];
/** SPEC.md section 9: weekly 12, monthly 6. */
export const REPEAT_COUNTS: Record<Repeat, number> = { none: 1, weekly: 12, monthly: 6 };

export const isHttpUrl = (s: string): boolean => {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
};

const signUpLink = z
  .string({ error: 'Sign-up link must be text' })
  .trim()
  .max(2000, 'Sign-up link is too long')
  .refine((s) => s === '' || isHttpUrl(s), 'Sign-up link must start with http:// or https://')
  // The URL parser would accept a NUL or a lone surrogate in the path; the database would not.
  .refine(isCleanText, 'Sign-up link contains characters that are not allowed');

const location = z
  .string({ error: 'Location must be text' })
  .trim()
  .max(300, 'Location must be at most 300 characters')
  .refine(hasNoBidiControls, bidiControlsMessage('Location'))
  .refine((s) => isCleanText(s), 'Location contains characters that are not allowed');

const isExternal = z.boolean({ error: 'External must be true or false' });

const capacity = z
  .number({ error: 'Capacity must be a whole number' })
  .int('Capacity must be a whole number')
  .min(1, 'Capacity must be at least 1')
  .max(500, 'Capacity must be at most 500');

/** The most days one GET /api/events?from=&to= may cover: a 42-day month grid with room to spare. */
export const MAX_EVENT_RANGE_DAYS = 62;

/**
 * GET /api/events[?from=YYYY-MM-DD&to=YYYY-MM-DD]: the days (inclusive, in the teacher's zone) a
 * calendar shows, so it loads one month's classes instead of the whole year. Both or neither.
 */
export const eventsRange = z
  .object({ from: isoDate.optional(), to: isoDate.optional() })
  .refine((q) => (q.from === undefined) === (q.to === undefined), 'Give both from and to, or neither')
  .refine((q) => !q.from || !q.to || q.from <= q.to, 'from must not be after to')
  .refine(
    (q) => !q.from || !q.to || (Date.parse(`${q.to}T00:00:00Z`) - Date.parse(`${q.from}T00:00:00Z`)) / 86_400_000 < MAX_EVENT_RANGE_DAYS,
    `Ask for at most ${MAX_EVENT_RANGE_DAYS} days at a time`,
  );

const blank = (x: unknown) => x === undefined || x === null || (typeof x === 'string' && x.trim() === '');

/**
 * A missing title, date or time is one message for the whole form, as the spec words it
 * ('Please fill out all fields'); malformed values get their own messages after that.
 * `given`: only fields that are sent must not be blank (an edit may leave some out).
 */
const requireFilled = (keys: readonly string[], mode: 'all' | 'given') =>
  z.unknown().superRefine((v, ctx) => {
    const o = typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined;
    const ok = o !== undefined && keys.every((k) => (mode === 'given' && o[k] === undefined) || !blank(o[k]));
    if (!ok) ctx.addIssue({ code: 'custom', message: FILL_ALL_FIELDS });
  });

/**
 * The price fields sent must make one shape (issue 34): none, a fixed price, or a whole sliding
 * scale in order. An edit that sends one shape clears the other (the route sets the rest to null).
 */
function priceShapeIssue(v: Record<string, unknown>, ctx: z.RefinementCtx) {
  const problem = priceShapeProblem(v as Parameters<typeof priceShapeProblem>[0]);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['priceCents'] });
}

/** POST /api/admin/events */
export const newEvent = requireFilled(['title', 'date', 'time'], 'all').pipe(
  z
    .object({
      title: requiredText('Title', 200),
      date: isoDate,
      time: clockTime,
      location: location.optional().default(''),
      signUpLink: signUpLink.optional().default(''),
      isExternal: isExternal.optional().default(false),
      capacity: capacity.optional().default(12),
      /** Issue 35: how long it takes her (her agenda's interval). */
      minutes: lengthMinutes.optional().default(60),
      repeat: z.enum(REPEATS, { error: 'Repeat must be none, weekly or monthly' }).optional().default('none'),
      ...eventPriceFields,
    })
    .superRefine(priceShapeIssue),
);
export type NewEvent = z.output<typeof newEvent>;

/** PUT /api/events/{id}: any of the fields; an omitted one stays as it is. */
export const eventUpdate = requireFilled(['title', 'date', 'time'], 'given').pipe(
  z
    .object({
      title: requiredText('Title', 200).optional(),
      date: isoDate.optional(),
      time: clockTime.optional(),
      location: location.optional(),
      signUpLink: signUpLink.optional(),
      isExternal: isExternal.optional(),
      capacity: capacity.optional(),
      minutes: lengthMinutes.optional(),
      ...eventPriceFields,
    })
    .superRefine(priceShapeIssue),
);
export type EventUpdate = z.output<typeof eventUpdate>;

/** DELETE /api/events/bulk */
export const bulkDeleteEvents = z.object({
  eventIds: z.array(id, { error: 'eventIds must be a list of ids' }).min(1, 'Select at least one event').max(500, 'At most 500 events at a time'),
});

/** GET /api/class-status */
export const classStatusQuery = z.object({
  classTitle: requiredText('Class title', 200),
  date: isoDate,
});

/** One event as the API shows it. */
export interface EventView {
  _id: string;
  title: string;
  date: string;
  time: string;
  /** ISO instant of date + time in the teacher's zone. */
  startsAt: string;
  location: string;
  signUpLink: string;
  isExternal: boolean;
  capacity: number;
  /** Issue 35: how long it lasts, in minutes (60 unless she said). */
  minutes: number;
  isPast: boolean;
  /** Issue 34: a fixed price, or a sliding scale; all null: free. */
  priceCents: number | null;
  minPriceCents: number | null;
  suggestedPriceCents: number | null;
  maxPriceCents: number | null;
  /** For a paid event: the last moment a cancellation is refunded (her notice period before the start). */
  refundUntil: string | null;
  /** Only in the admin's list: held in her agenda, not on the public calendar (a tasting she sold). */
  private?: boolean;
  /** Only in the admin's list: she called it off. */
  cancelled?: boolean;
}

/**
 * POST /api/admin/events on success; `note` is SHORT_MONTH_NOTE when a monthly series moved a
 * date; `overlaps`: what its occurrences overlap in her agenda (saved all the same; issue 35).
 */
export interface EventsAddedView extends OverlapWarning {
  message: string;
  events: EventView[];
  note?: string;
  /** One ambiguousTimeNote per date whose time the clocks show twice (the first was taken). */
  warnings?: string[];
}

/** GET /api/class-status */
export interface ClassStatusView {
  isFull: boolean;
  capacity: number;
  taken: number;
}
