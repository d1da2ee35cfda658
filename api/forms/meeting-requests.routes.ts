import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { limitVisitorCopy, rateLimit, visitorCopyFor } from '../middleware/rate-limit.ts';
import { verifyHuman } from '../middleware/human.ts';
import { validateJson, validateQuery } from '../validation.ts';
import { BOOKING_REQUEST_SENT, bookingRequest, type BookingRequest } from '../../contract/forms.ts';
import {
  FREE_MEETING_ALREADY_CANCELLED,
  FREE_MEETING_BOOKED,
  FREE_MEETING_CANCELLED,
  FREE_MEETING_LINK_INVALID,
  FREE_MEETING_NOT_OFFERED,
  FREE_MEETING_OVER,
  FREE_MEETING_TAKEN,
  type FreeMeetingTimesView,
} from '../../contract/free-meetings.ts';
import { insertBookingRequest } from './messages.repo.ts';
import { bookingRequestMails } from './mails.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { commitWithMails } from '../mail/commit.ts';
import { brandNames } from '../site/brand.ts';
import { LIMITS } from '../services/limits.ts';
import {
  bookFreeMeeting,
  cancelFreeMeeting,
  freeMeetingOfToken,
  freeMeetingTimes,
  type BookFreeMeetingRefusal,
  type CancelFreeMeetingResult,
} from '../agenda/free-meetings.ts';

/** Each refusal of a booked time, with its status and words (the compiler checks every kind is here). */
const BOOK_REFUSALS: Record<BookFreeMeetingRefusal, { status: 400 | 409; message: string }> = {
  'not-offered': { status: 400, message: FREE_MEETING_NOT_OFFERED },
  taken: { status: 409, message: FREE_MEETING_TAKEN },
};

const CANCEL_REFUSALS: Record<Exclude<CancelFreeMeetingResult, { ok: true }>['kind'], { status: 404 | 409; message: string }> = {
  invalid: { status: 404, message: FREE_MEETING_LINK_INVALID },
  'already-cancelled': { status: 409, message: FREE_MEETING_ALREADY_CANCELLED },
  over: { status: 409, message: FREE_MEETING_OVER },
};

const tokenBody = z.object({ token: z.string({ error: FREE_MEETING_LINK_INVALID }).min(1, FREE_MEETING_LINK_INVALID).max(1024, FREE_MEETING_LINK_INVALID) });

/**
 * The home page's free 30-minute meeting (SPEC.md sections 3, 5, 7, 8), mounted on /publicBookings.
 * With a `startsAt` (issue 35) the visitor's chosen time is booked at once; without one the
 * request is mailed to her as the spec has it.
 *
 *   GET  /times               her next free times -> FreeMeetingTimesView (public: no link, no names)
 *   POST /request, POST /     the request (SPEC's path), or with startsAt the booking (409 when taken since)
 *   GET  /meeting?token=      what a cancel link opens
 *   POST /cancel {token}      the cancel link's press: frees the time
 */
async function request(c: Context<AppEnv, string, { out: { json: BookingRequest } }>) {
  const { db, env, limits } = c.var.services;
  const body = c.req.valid('json');
  // The spec names no action for the home page's stored captchaToken; the island obtains it
  // with 'book_request' and the server checks that action.
  await verifyHuman(c, body.captchaToken, 'book_request');
  const request = { name: body.name, email: body.email, phone: body.phone, sessionType: body.sessionType, message: body.message };
  if (body.startsAt) {
    // The limiter counts on a connection of its own: the visitor's copy is decided before the transaction.
    const booked = await bookFreeMeeting(c.var.services, { ...request, startsAt: new Date(body.startsAt) }, await visitorCopyFor(limits, request.email));
    if (!booked.ok) return c.json({ message: BOOK_REFUSALS[booked.kind].message }, BOOK_REFUSALS[booked.kind].status);
    return c.json({ message: FREE_MEETING_BOOKED, startsAt: new Date(booked.meeting.startsAt).toISOString() }, 201);
  }
  const mails = await limitVisitorCopy(limits, bookingRequestMails(env, (await brandNames(db)).yoga, request), request.email);
  // The request and its mails in one transaction (decision 0024): a crash after the commit never loses them.
  await commitWithMails(c.var.services, async (trx) => {
    await insertBookingRequest(trx, request);
    return { result: undefined, mails: await queueMails(trx, 'meeting-request', mails) };
  });
  return c.json({ message: BOOKING_REQUEST_SENT });
}

export const meetingRequests = new Hono<AppEnv>()
  .get('/times', async (c) => {
    const { db, env, clock } = c.var.services;
    return c.json({ timeZone: env.SITE_TIMEZONE, times: await freeMeetingTimes(db, env.SITE_TIMEZONE, clock.now()) } satisfies FreeMeetingTimesView);
  })
  .post('/request', rateLimit(LIMITS.meetingRequest), validateJson(bookingRequest), request)
  .post('/', rateLimit(LIMITS.meetingRequest), validateJson(bookingRequest), request)
  .get('/meeting', validateQuery(tokenBody), async (c) => {
    const view = await freeMeetingOfToken(c.var.services, c.req.valid('query').token);
    if (!view) return c.json({ message: FREE_MEETING_LINK_INVALID }, 404);
    return c.json(view);
  })
  .post('/cancel', rateLimit(LIMITS.meetingRequest), validateJson(tokenBody), async (c) => {
    const done = await cancelFreeMeeting(c.var.services, c.req.valid('json').token);
    if (!done.ok) return c.json({ message: CANCEL_REFUSALS[done.kind].message }, CANCEL_REFUSALS[done.kind].status);
    return c.json({ message: FREE_MEETING_CANCELLED });
  });
