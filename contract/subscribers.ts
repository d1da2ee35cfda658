/**
 * The newsletter: subscribe from the footer form, unsubscribe from /unsubscribe (SPEC.md
 * sections 2, 5, 7 and 8). Shared with the islands: no server-only imports here.
 */
import { z } from 'zod';
import { email } from './common.ts';

/** Messages of SPEC.md section 8, word for word. */
export const ALREADY_SUBSCRIBED = 'This email is already on our list.';
export const SUBSCRIBED = 'Thanks for signing up!';
export const UNSUBSCRIBED = "You’ve been unsubscribed successfully. I'm sorry to see you go!";
export const NO_EMAIL_PROVIDED = 'Invalid request. No email provided.';
export const INVALID_UNSUBSCRIBE_LINK = 'This unsubscribe link is not valid. Please use the link from your latest email.';

/** POST /api/subscribers/subscribe */
export const newSubscriber = z.object({ email });
export type NewSubscriber = z.output<typeof newSubscriber>;

const blank = (x: unknown) => x === undefined || x === null || (typeof x === 'string' && x.trim() === '');

/**
 * POST /api/subscribers/unsubscribe: `{email}` as the spec's page sends it (/unsubscribe?email=),
 * or `{token}` from the signed link in every newsletter mail (/unsubscribe?token=).
 */
export const unsubscribeRequest = z
  .unknown()
  .transform((v, ctx) => {
    const o = typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
    const given: { email?: unknown; token?: unknown } = {};
    if (!blank(o.email)) given.email = o.email;
    if (!blank(o.token)) given.token = o.token;
    if (given.email === undefined && given.token === undefined) {
      ctx.addIssue({ code: 'custom', message: NO_EMAIL_PROVIDED });
      return z.NEVER;
    }
    return given;
  })
  .pipe(
    z.object({
      email: email.optional(),
      token: z.string({ error: INVALID_UNSUBSCRIBE_LINK }).trim().max(1024, INVALID_UNSUBSCRIBE_LINK).optional(),
    }),
  );
export type UnsubscribeRequest = z.output<typeof unsubscribeRequest>;

/** One row of the admin's subscribers list (GET /api/admin/subscribers). */
export interface SubscriberView {
  _id: string;
  email: string;
  /** ISO instant. */
  subscribedAt: string;
}
