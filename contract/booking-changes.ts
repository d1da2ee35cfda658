/**
 * A client changing their own booked session (issue 15): cancel, reschedule, and the private
 * calendar feed. Shared with the client island: no server-only imports here.
 */
import { z } from 'zod';
import { id } from './common.ts';

/** POST /api/bookings/{slotId}/reschedule */
export const rescheduleRequest = z.object({ toSlotId: id });

export const BOOKING_NOT_FOUND = 'We couldn’t find this session among your bookings.';
export const PAYMENT_STILL_PROCESSING = 'This session’s payment is still being processed. Please try again in a minute.';
export const SAME_SLOT = 'Please pick a different time.';
export const BOOKING_CANCELLED = 'Your session has been cancelled. Check your email for the details.';
export const BOOKING_CANCELLED_REFUNDED = 'Your session has been cancelled and your payment refunded in full. Check your email for the details.';
/** The refund did not go through at once; the teacher sees it and refunds by hand. */
export const BOOKING_CANCELLED_REFUND_LATER =
  'Your session has been cancelled. Your refund could not be sent right now; the teacher has been told and will refund you shortly.';
/** Issue 32: a session booked with a credit, cancelled before her notice period: the credit is back. */
export const BOOKING_CANCELLED_CREDIT_RETURNED = 'Your session has been cancelled and its session credit returned to you.';
/** Cancelled within her notice period: the credit stays used. */
export const BOOKING_CANCELLED_CREDIT_FORFEITED = 'Your session has been cancelled. It was within the notice period, so its session credit is used.';
export const BOOKING_RESCHEDULED = 'Your session has been moved. Check your email for the updated calendar entry.';
export const CALENDAR_FEED_CREATED = 'A new private calendar address was made. The old one no longer works.';

/** Closer than CANCEL_NOTICE_HOURS to the start: what the API answers and the dashboard shows instead of the buttons. */
export const tooLateToChange = (hours: number, teacherEmail: string) =>
  `It’s too late to cancel or reschedule this session online (changes are possible up to ${hours} hours before it starts). Please e-mail ${teacherEmail} or write through the contact page.`;

/** The answer of a cancel. */
export interface BookingCancelledView {
  success: true;
  message: string;
  /** 'none' (coupon), 'refunded', or 'failed' (the teacher refunds by hand). */
  refund: 'none' | 'refunded' | 'failed';
  /** Booked with a credit (issue 32): returned in time, or forfeited by a late cancel. */
  credit?: 'returned' | 'forfeited';
}

/** The answer of a reschedule. */
export interface BookingRescheduledView {
  success: true;
  message: string;
  slotId: string;
  startsAt: string;
}

/** GET/POST /api/user/{id}/calendar-feed: the private feed's address (null: none made yet). */
export interface CalendarFeedView {
  url: string | null;
  message?: string;
}
