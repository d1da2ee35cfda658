import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import { limitVisitorCopy, rateLimit } from '../middleware/rate-limit.ts';
import { verifyHuman } from '../middleware/human.ts';
import { validateJson } from '../validation.ts';
import { BOOKING_REQUEST_SENT, bookingRequest } from '../../contract/forms.ts';
import { insertBookingRequest } from './messages.repo.ts';
import { bookingRequestMails } from './mails.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { commitWithMails } from '../mail/commit.ts';
import { brandNames } from '../site/brand.ts';
import { LIMITS } from '../limits/limits.ts';

/** The home page's request for a free 30-minute meeting (SPEC.md sections 3, 5, 7, 8). */
export const meetingRequests = new Hono<AppEnv>().post('/request', rateLimit(LIMITS.meetingRequest), validateJson(bookingRequest), async (c) => {
  const { db, env, limits } = c.var.services;
  const body = c.req.valid('json');
  // The spec names no action for the home page's stored captchaToken; the island obtains it
  // with 'book_request' and the server checks that action.
  await verifyHuman(c, body.captchaToken, 'book_request');
  const request = { name: body.name, email: body.email, phone: body.phone, sessionType: body.sessionType, message: body.message };
  // The limiter counts on a connection of its own: the visitor's copy is decided before the transaction.
  const mails = await limitVisitorCopy(limits, bookingRequestMails(env, (await brandNames(db)).yoga, request), request.email);
  // The request and its mails in one transaction (decision 0024): a crash after the commit never loses them.
  await commitWithMails(c.var.services, async (trx) => {
    await insertBookingRequest(trx, request);
    return { result: undefined, mails: await queueMails(trx, 'meeting-request', mails) };
  });
  return c.json({ message: BOOKING_REQUEST_SENT });
});
