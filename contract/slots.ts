/**
 * Bookable slots as the admin adds them. Shared with the admin island: no server-only imports.
 */
import { z } from 'zod';
import { pageQuery } from './paging.ts';
import { clockTime, isCleanText, isoDate } from './common.ts';
import type { OverlapWarning } from './agenda-words.ts';

/** SPEC.md section 5, add slot. */
export const FILL_ALL_SLOT_FIELDS = 'Please fill out all the fields!';
/** SPEC.md section 8. */
export const SLOTS_ADDED = 'Slots added successfully.';
/** Every slot asked for already existed at its date and time: nothing was added (issue 30: not a "✓ added"). */
export const NO_SLOTS_ADDED = 'No slots were added: every one already existed at that date and time.';
export const SLOT_DELETED = 'Slot deleted successfully.';
export const SESSION_DELETED = 'Session deleted successfully';
/** The teacher tried to delete a slot whose payment is still being taken (issue 21): not yet settled. */
export const SLOT_PAYMENT_IN_PROGRESS = 'A payment for this session is in progress. Try again in a minute.';
export const PAST_SLOT = 'Slots must be in the future.';

/** PUT /api/bookings/{slotId}/place (issue 20). */
export const PLACE_SAVED = 'Place saved.';
export const PLACE_SAVED_CLIENT_TOLD = 'Place saved. The client was mailed the new place.';
export const SLOT_NOT_FOUND_ADMIN = 'Slot not found';
export const PLACE_MAX = 500;
const PLACE_LINK_ONLY_HTTP = 'An online link must start with https:// or http://';

/** The place as a link: the whole place when it is an http(s) address, else null (an address stays text). */
export function placeLink(place: string): string | null {
  const p = place.trim();
  if (!/^https?:\/\//i.test(p) || /\s/.test(p)) return null;
  try {
    const u = new URL(p);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '' ? p : null;
  } catch {
    return null;
  }
}

/**
 * Where a session happens (issue 20): a street address or an online link, one line, '' for none.
 * Anything that reads as a link (a scheme and //) must be an http(s) address, so the mails and the
 * dashboard only ever link to the web.
 */
export const place = z
  .string({ error: 'Place must be text' })
  .trim()
  .max(PLACE_MAX, `Place must be at most ${PLACE_MAX} characters`)
  .refine(isCleanText, 'Place contains characters that are not allowed')
  .refine((s) => !/[\r\n]/.test(s), 'Place must be on one line')
  .refine((s) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(s) || placeLink(s) !== null, PLACE_LINK_ONLY_HTTP);

/** PUT /api/bookings/{slotId}/place: {place} ('' for none). */
export const slotPlaceRequest = z.object({ place });

/** At most a year of daily slots in one request. */
export const MAX_SLOTS_PER_REQUEST = 366;

const blank = (x: unknown) => x === undefined || x === null || (typeof x === 'string' && x.trim() === '');

/** POST /api/bookings: {slots: [{date, time, place?, online?}, ...]}; a slot without a place gets her default place (settings); online (issue 35) gets a video link when booked. */
export const newSlots = z
  .unknown()
  .superRefine((v, ctx) => {
    const slots = typeof v === 'object' && v !== null ? (v as { slots?: unknown }).slots : undefined;
    const blankSlot = (s: unknown) => typeof s !== 'object' || s === null || blank((s as { date?: unknown }).date) || blank((s as { time?: unknown }).time);
    const missing = Array.isArray(slots) && (slots.length === 0 || slots.some(blankSlot));
    if (missing) ctx.addIssue({ code: 'custom', message: FILL_ALL_SLOT_FIELDS });
  })
  .pipe(
    z.object({
      slots: z
        .array(z.object({ date: isoDate, time: clockTime, place: place.optional(), online: z.boolean({ error: 'online must be true or false' }).optional() }), {
          error: 'slots must be a list of {date, time}',
        })
        .max(MAX_SLOTS_PER_REQUEST, `At most ${MAX_SLOTS_PER_REQUEST} slots at a time`),
    }),
  );
export type NewSlots = z.output<typeof newSlots>;

/**
 * The admin's view pages each of its lists (issue 36, decision 0046; contract/paging.ts): without
 * `list`, the object of AdminSlotsView with the first page of each (`limit` rows; `q`, a client's
 * name or e-mail, and `from`/`to` narrow the sessions, not the free slots) and `next`, each list's cursor when more
 * follow; with `list` (and its `cursor`), that list's page alone, an array, the next cursor in
 * X-Next-Cursor. Slots ahead and sessions to come run soonest first, passed sessions latest first.
 * The client's view (`userId`) is not paged.
 */
export const ADMIN_SLOT_LISTS = ['availableSlots', 'bookedSlots', 'passedSessions'] as const;
export type AdminSlotList = (typeof ADMIN_SLOT_LISTS)[number];
export const CURSOR_NEEDS_LIST = 'A cursor continues one list: say which with list=';

/**
 * GET /api/bookings[?userId=][&from=&to=]. `from`/`to` (the teacher's dates, inclusive) narrow a
 * client's free slots to the days her booking calendar shows (issue 25: a year of slots was
 * 133 KB); without them every free slot comes, as SPEC.md has it. The admin's view (no userId)
 * takes the paging above.
 */
export const bookingsQuery = pageQuery(['instant', 'id']).extend({
  userId: z.string().max(64).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  list: z.enum(ADMIN_SLOT_LISTS, { error: `List must be one of ${ADMIN_SLOT_LISTS.join(', ')}` }).optional(),
});

/** The add-slot form's repeat: that many slots, a day or a week apart (SPEC.md section 5). */
export function repeatSlots(date: string, time: string, repeat: 'none' | 'daily' | 'weekly', occurrences: number) {
  const n = repeat === 'none' ? 1 : Math.max(1, Math.min(MAX_SLOTS_PER_REQUEST, Math.floor(occurrences)));
  const step = repeat === 'weekly' ? 7 : 1;
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Array.from({ length: n }, (_, i) => ({
    date: new Date(Date.UTC(y, m - 1, d + i * step)).toISOString().slice(0, 10),
    time,
  }));
}

/** A free slot as the API shows it. */
export interface SlotView {
  _id: string;
  date: string;
  time: string;
  /** ISO instant of date + time in the teacher's zone. */
  startsAt: string;
  /** Where the session happens: an address or an online link (placeLink); '' for none (issue 20). */
  place: string;
  /** Given online (issue 35): its video link is made when it is booked and shown only to its client. */
  online: boolean;
}

/** A booked slot in the admin's lists. */
export interface BookedSlotView extends SlotView {
  userId: string | null;
  firstName: string;
  lastName: string;
  email: string;
  sessionType: string;
  message: string;
  duration: string;
  link: string;
  bookedAt: string | null;
  /** Booked with the booking coupon (no payment); BOOKING_COUPON_LIMIT caps these per client. */
  couponUsed: boolean;
  /** Paid amount in dollars; null with the coupon. */
  amount: number | null;
  /**
   * 'Payment in progress' while PayPal's capture is under way (the slot is held for the client),
   * or who recorded a payment whose checkout did not (a crash): the client's retry, the
   * reconciler or PayPal's webhook. Null otherwise.
   */
  paymentNote: string | null;
}

/** A booked slot in the client's own list (SPEC.md section 3). */
export interface ClientSessionView extends SlotView {
  sessionType: string;
  duration: string;
  link: string;
  isPast: boolean;
  /** Far enough ahead (CANCEL_NOTICE_HOURS) to cancel or reschedule online (issue 15). */
  canChange?: boolean;
  /** The weekly series it was booked in (issue 32): "My Bookings" shows a series' sessions together. */
  seriesId?: string;
  /**
   * Booked with a session credit (issue 32): inside her notice period it may still be cancelled
   * online, the credit then staying used (the client is told before confirming).
   */
  withCredit?: true;
}

/** GET /api/bookings?userId={the session's user}: the free slots and the client's own sessions. */
export interface ClientSlotsView {
  availableSlots: SlotView[];
  bookedSlots: ClientSessionView[];
  /** What the dashboard shows instead of Cancel/Reschedule on a session too close to change (issue 15). */
  tooLateMessage?: string;
}

/** GET /api/bookings (the admin): free slots, booked sessions to come, and passed ones. */
export interface AdminSlotsView {
  availableSlots: SlotView[];
  bookedSlots: BookedSlotView[];
  passedSessions: BookedSlotView[];
  /** Sessions clients cancelled themselves, newest first, with their refunds (issue 15); the latest `limit`. */
  cancellations?: CancellationView[];
  /** Issue 36: the cursor of each list's next page (GET …&list=<name>&cursor=), absent on its last. */
  next?: Partial<Record<AdminSlotList, string>>;
}

/** A session its client cancelled, in the admin's bookings (issue 15). */
export interface CancellationView {
  _id: string;
  startsAt: string;
  sessionType: string;
  firstName: string;
  lastName: string;
  email: string;
  /** Dollars; null with the coupon. */
  amount: number | null;
  couponUsed: boolean;
  paypalOrderId: string | null;
  /** 'failed': PayPal refused the refund, the teacher must refund by hand. */
  refundState: 'none' | 'pending' | 'refunded' | 'failed';
  refundNote: string | null;
  cancelledAt: string;
}

/** PUT /api/bookings/{slotId}/place on success. */
export interface SlotPlaceView {
  message: string;
  slot: SlotView;
  /** The slot is a booked session to come and its client was mailed the new place. */
  clientMailed: boolean;
}

/** POST /api/bookings on success: a slot that already existed at that date and time is skipped. */
/** POST /api/bookings; `overlaps`: what the new slots overlap in her agenda (added all the same, not offered while it lasts; issue 35). */
export interface SlotsAddedView extends OverlapWarning {
  message: string;
  added: number;
  skipped: number;
  slots: SlotView[];
  /** One ambiguousTimeNote per slot at a time the clocks show twice (the first was taken). */
  warnings?: string[];
}
