/**
 * The teacher's view of mail that did not leave (issue 21): GET /api/admin/mail/unsent and the
 * Today panel's "Mails that did not leave". Only who, what about and why: never a mail's text.
 */

/** A mail the outbox gave up on ('failed': the provider refused it, or it kept failing) or skipped (the address bounced or complained). */
export interface UnsentMailView {
  id: string;
  /** What the mail reports, e.g. 'booking-confirmation' (mailKindLabel names it). */
  kind: string;
  to: string;
  subject: string;
  state: 'failed' | 'skipped';
  /** Why, as the provider or the outbox said it. */
  error: string;
  attempts: number;
  createdAt: string;
}

const LABELS: Record<string, string> = {
  'booking-confirmation': 'Booking confirmation',
  'booking-cancelled': 'Cancelled session',
  'booking-rescheduled': 'Moved session',
  'booking-released': 'Payment not finished',
  'session-cancelled-by-teacher': 'Session you cancelled',
  'session-place-changed': 'New place of a session',
  'reminder-day': 'Reminder (the day before)',
  'reminder-soon': 'Reminder (two hours before)',
  'order-confirmation': 'Order confirmation',
  'order-shipped': 'Order shipped',
  'order-picked-up': 'Order picked up',
  'payment-completed': 'Payment completed',
  'payment-denied': 'Payment denied',
  'payment-refunded': 'Order refunded',
  'payment-reversed': 'Payment reversed',
};

/** "booking-confirmation" → "Booking confirmation"; an unknown kind reads as its words. */
export function mailKindLabel(kind: string): string {
  const known = LABELS[kind];
  if (known) return known;
  const words = kind.replaceAll('-', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
