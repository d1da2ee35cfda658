import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { verifyHuman } from '../middleware/human.ts';
import { validateJson } from '../validation.ts';
import { BOOKING_REQUEST_SENT, bookingRequest } from '../../contract/forms.ts';
import { insertBookingRequest } from './messages.repo.ts';
import { bookingRequestMails } from './mails.ts';
import { deliver } from '../mail/send.ts';

/** The home page's request for a free 30-minute meeting (SPEC.md sections 3, 5, 7, 8). */
export const meetingRequests = new Hono<AppEnv>().post(
  '/request',
  rateLimit({ bucket: 'booking-request', max: 5, windowMs: 10 * 60_000 }),
  validateJson(bookingRequest),
  async (c) => {
    const { db, env, mailer } = c.var.services;
    const body = c.req.valid('json');
    // The spec names no action for the home page's stored captchaToken; the island obtains it
    // with 'book_request' and the server checks that action.
    await verifyHuman(c, body.captchaToken, 'book_request');
    const request = { name: body.name, email: body.email, phone: body.phone, sessionType: body.sessionType, message: body.message };
    await insertBookingRequest(db, request);
    await deliver(mailer, bookingRequestMails(env, request));
    return c.json({ message: BOOKING_REQUEST_SENT });
  },
);
