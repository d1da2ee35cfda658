/**
 * The visitors' simple forms: the home page's free-meeting request and the contact form
 * (SPEC.md sections 3, 5 and 7). Shared with the islands: no server-only imports here.
 */
import { z } from 'zod';
import { email, nameText, optionalText, requiredText } from './common.ts';

/** SPEC.md section 3: sessionType values of the home page's request. */
export const SESSION_TYPES = ['private yoga', 'group yoga', 'yoga therapy', 'chocolates'] as const;

/** Answers the islands show (SPEC.md section 8). */
export const BOOKING_REQUEST_SENT = 'Your form has been submitted successfully.';
export const CONTACT_MESSAGE_SENT = 'Message sent successfully!';

/** A name goes into mail subjects: one line only, nothing invisible. */
export const personName = nameText('Name', 100);

/** Digits with the usual separators (hint 123-456-7890), 7 to 15 digits. */
export const phone = requiredText('Phone', 30).refine((s) => {
  if (!/^\+?[0-9().\s-]+$/.test(s)) return false;
  const digits = s.replace(/\D/g, '').length;
  return digits >= 7 && digits <= 15;
}, 'Please enter a valid phone number, e.g. 123-456-7890.');

/**
 * The human-check token (reCAPTCHA v3, or `dev:<action>` with the stand-in). The server
 * verifies it; the schema only bounds it, so a missing one gets the verification message.
 */
export const humanToken = z.string({ error: 'Verification token must be text' }).max(4096, 'Verification token is too long').optional();

/** POST /api/publicBookings/request: the free 30-minute meeting request on the home page. */
export const bookingRequest = z.object({
  name: personName,
  email,
  phone,
  sessionType: z.enum(SESSION_TYPES, { error: 'Please choose a session type.' }),
  message: optionalText('Message', 2000),
  captchaToken: humanToken,
  /**
   * Issue 35: the free time the visitor picked (an instant from GET /api/publicBookings/times);
   * with it the meeting is booked at once, without it the request is mailed to her as before.
   */
  startsAt: z.iso.datetime({ offset: true, error: 'Please choose one of the times listed.' }).optional(),
});
export type BookingRequest = z.output<typeof bookingRequest>;

/** POST /api/contact */
export const contactMessage = z.object({
  name: personName,
  email,
  message: requiredText('Message', 5000),
  recaptchaToken: humanToken,
});
export type ContactMessage = z.output<typeof contactMessage>;
