/**
 * Bookable slots as the admin adds them. Shared with the admin island: no server-only imports.
 */
import { z } from 'zod';
import { clockTime, isoDate } from './common.ts';

/** SPEC.md section 5, add slot. */
export const FILL_ALL_SLOT_FIELDS = 'Please fill out all the fields!';
/** SPEC.md section 8. */
export const SLOTS_ADDED = 'Slots added successfully.';
export const SLOT_DELETED = 'Slot deleted successfully.';
export const SESSION_DELETED = 'Session deleted successfully';
export const PAST_SLOT = 'Slots must be in the future.';

/** At most a year of daily slots in one request. */
export const MAX_SLOTS_PER_REQUEST = 366;

const blank = (x: unknown) => x === undefined || x === null || (typeof x === 'string' && x.trim() === '');

/** POST /api/bookings: {slots: [{date, time}, ...]} */
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
        .array(z.object({ date: isoDate, time: clockTime }), { error: 'slots must be a list of {date, time}' })
        .max(MAX_SLOTS_PER_REQUEST, `At most ${MAX_SLOTS_PER_REQUEST} slots at a time`),
    }),
  );
export type NewSlots = z.output<typeof newSlots>;

/** GET /api/bookings[?userId=] */
export const bookingsQuery = z.object({ userId: z.string().max(64).optional() });

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
  /** Sessions clients cancelled themselves, newest first, with their refunds (issue 15). */
  cancellations?: CancellationView[];
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

/** POST /api/bookings on success: a slot that already existed at that date and time is skipped. */
export interface SlotsAddedView {
  message: string;
  added: number;
  skipped: number;
  slots: SlotView[];
  /** One ambiguousTimeNote per slot at a time the clocks show twice (the first was taken). */
  warnings?: string[];
}
