import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { refuse, type Refused } from '../middleware/answers.ts';
import { rateLimit, visitorCopyFor } from '../middleware/rate-limit.ts';
import { LIMITS } from '../services/limits.ts';
import { assertSelf, requireAdmin, requireUser } from '../middleware/auth.ts';
import { verifyHuman } from '../middleware/human.ts';
import { validateJson, validateParams, validateQuery } from '../validation.ts';
import { id } from '../../contract/common.ts';
import { SIGNED_UP, classSignup, decodeSignature, linkToken } from '../../contract/signups.ts';
import {
  CLASS_STARTED,
  LINK_INVALID,
  PLACE_ALREADY_GIVEN_BACK,
  PLACE_GIVEN_BACK,
  SIGNUP_NOT_YOURS,
  WAITLIST_ALREADY_LEFT,
  WAITLIST_JOINED,
  WAITLIST_LEFT,
  type ClassPlaceView,
  type WaitlistEntryView,
  type WaitlistJoinedView,
  type WaitlistRowView,
} from '../../contract/class-places.ts';
import { verifyToken } from '../lib/signed-token.ts';
import { GIVE_BACK_PURPOSE, LEAVE_WAITLIST_PURPOSE } from './mails.ts';
import { giveBackPlace, hasStarted, joinWaitlist, type GiveBack } from './places.ts';
import { deleteWaitlistEntry, findSignupById, findWaitlistEntry, listWaitlists, upcomingPlacesOf } from './places.repo.ts';
import { findClass, type ClassEvent } from './signups.repo.ts';
import { paymentOfSignup } from './event-payments.repo.ts';
import { refundDuePayments, refundSentence } from './refunds.ts';
import { readSettings } from '../settings/settings.repo.ts';
import { changeableAt } from '../lib/time.ts';
import { findUserById } from '../accounts/users.repo.ts';

const giveBackRefusals: Record<Extract<GiveBack, { ok: false }>['kind'], Refused> = {
  started: { status: 409, message: CLASS_STARTED },
  'not-yours': { status: 404, message: SIGNUP_NOT_YOURS },
};

/** Maps a give-back (by link or dashboard) to its answer; its mails left after the commit (commitAnswer). */
async function answerGiveBack(c: Context<AppEnv>, result: GiveBack) {
  if (!result.ok) return refuse(c, giveBackRefusals[result.kind]);
  if (result.already) return c.json({ message: PLACE_ALREADY_GIVEN_BACK, alreadyGivenBack: true });
  // A paid place refunded under her policy: the refund owed with the give-back is made now (issue 34).
  if (result.refund?.refunded) await refundDuePayments(c.var.services);
  return c.json({ message: result.refund ? `${PLACE_GIVEN_BACK} ${refundSentence(result.refund)}` : PLACE_GIVEN_BACK, alreadyGivenBack: false });
}

/** What giving a paid place back now returns, by her policy, said on the page before the student confirms. */
async function refundNoteOf(services: AppEnv['Variables']['services'], signupId: string, event: ClassEvent | undefined): Promise<{ refundNote?: string }> {
  const payment = await paymentOfSignup(services.db, signupId);
  if (!payment || !event) return {};
  const { cancelNoticeHours } = await readSettings(services.db);
  const refunded = payment.refund !== null || changeableAt(cancelNoticeHours, event.startsAt, services.clock.now().getTime());
  return { refundNote: refundSentence({ cents: payment.amountCents, method: payment.method, refunded }) };
}

const tokenQuery = z.object({ token: z.string().max(1024).optional() });

/**
 * Give a place back by the signed link of the confirmation mail: GET shows the place (changes
 * nothing: mail scanners open links), POST /cancel with the token gives it back.
 */
export const classPlaces = new Hono<AppEnv>()
  .get('/', validateQuery(tokenQuery), async (c) => {
    const { db, env } = c.var.services;
    const signupId = verifyToken(env.APP_SECRET, GIVE_BACK_PURPOSE, c.req.valid('query').token);
    if (!signupId) return c.json({ message: LINK_INVALID }, 400);
    const signup = await findSignupById(db, signupId);
    if (!signup) return c.json({ message: PLACE_ALREADY_GIVEN_BACK, alreadyGivenBack: true }, 404);
    const event = await findClass(db, signup.classTitle, signup.date);
    const startsAt = event ? new Date(event.startsAt) : null;
    return c.json({
      _id: signup.id,
      name: signup.name,
      classTitle: signup.classTitle,
      date: signup.date,
      time: event?.time ?? '',
      startsAt: startsAt?.toISOString() ?? '',
      location: event?.location ?? '',
      canGiveBack: event ? !hasStarted(event, c.var.services.clock.now()) : true,
      ...(await refundNoteOf(c.var.services, signup.id, event)),
    } satisfies ClassPlaceView);
  })
  .post('/cancel', rateLimit(LIMITS.classGiveBack), validateJson(linkToken), async (c) => {
    const { env } = c.var.services;
    const signupId = verifyToken(env.APP_SECRET, GIVE_BACK_PURPOSE, c.req.valid('json').token);
    if (!signupId) return c.json({ message: LINK_INVALID }, 400);
    return answerGiveBack(c, await giveBackPlace(c.var.services, signupId));
  });

/**
 * The waitlist: POST /api/waitlist joins it (the sign-up's fields, waiver and signature);
 * GET /entry?token= shows one's place in line; POST /leave with the token leaves it.
 */
export const waitlist = new Hono<AppEnv>()
  .post('/', rateLimit(LIMITS.waitlist), validateJson(classSignup), async (c) => {
    const { limits } = c.var.services;
    const body = c.req.valid('json');
    const signature = decodeSignature(body.signature);
    if (!signature.ok) return c.json({ message: signature.message }, signature.status);
    await verifyHuman(c, body.recaptchaToken, 'waitlist_form_submit');
    const student = { classTitle: body.classTitle, date: body.date, name: body.name, email: body.email, phone: body.phone };
    const visitorCopy = await visitorCopyFor(limits, student.email);
    // The place or the line, and their mails, in one transaction; the mails leave after its commit.
    const result = await joinWaitlist(c.var.services, { ...student, signaturePng: signature.bytes }, visitorCopy);
    if (!result.ok) return c.json({ message: result.message }, result.status);
    if (result.status === 'signedUp') return c.json({ message: SIGNED_UP, _id: result.id, status: 'signedUp' } satisfies WaitlistJoinedView, 201);
    return c.json({ message: WAITLIST_JOINED, _id: result.id, status: 'waiting', position: result.position } satisfies WaitlistJoinedView, 201);
  })
  .get('/entry', validateQuery(tokenQuery), async (c) => {
    const { db, env } = c.var.services;
    const entryId = verifyToken(env.APP_SECRET, LEAVE_WAITLIST_PURPOSE, c.req.valid('query').token);
    if (!entryId) return c.json({ message: LINK_INVALID }, 400);
    const entry = await findWaitlistEntry(db, entryId);
    if (!entry) return c.json({ message: WAITLIST_ALREADY_LEFT, alreadyLeft: true }, 404);
    return c.json({
      _id: entry.id,
      name: entry.name,
      classTitle: entry.title,
      date: entry.date,
      time: entry.time,
      startsAt: new Date(entry.startsAt).toISOString(),
      location: entry.location,
      position: entry.position ?? 1,
    } satisfies WaitlistEntryView);
  })
  .post('/leave', rateLimit(LIMITS.waitlistLeave), validateJson(linkToken), async (c) => {
    const { db, env } = c.var.services;
    const entryId = verifyToken(env.APP_SECRET, LEAVE_WAITLIST_PURPOSE, c.req.valid('json').token);
    if (!entryId) return c.json({ message: LINK_INVALID }, 400);
    const left = await deleteWaitlistEntry(db, entryId);
    return c.json({ message: left ? WAITLIST_LEFT : WAITLIST_ALREADY_LEFT, alreadyLeft: !left });
  });

const userParams = z.object({ id });
const placeParams = z.object({ id, signupId: id });

/** The account's e-mail, when verified: only then are the class places under it the user's. */
async function verifiedEmailOf(c: Context<AppEnv>, userId: string): Promise<string | null> {
  const user = await findUserById(c.var.services.db, userId);
  return user?.emailVerifiedAt ? user.email : null;
}

/**
 * The client's dashboard (mounted at /api/user): GET /{id}/classes lists the upcoming class
 * places signed up for with the account's e-mail; POST /{id}/classes/{signupId}/cancel gives one back.
 */
export const userClasses = new Hono<AppEnv>()
  .get('/:id/classes', requireUser(), validateParams(userParams), async (c) => {
    const { id: userId } = c.req.valid('param');
    assertSelf(c, userId);
    const email = await verifiedEmailOf(c, userId);
    if (!email) return c.json([]);
    const rows = await upcomingPlacesOf(c.var.services.db, email, c.var.services.clock.now());
    return c.json(
      rows.map((r): ClassPlaceView => ({
        _id: r.id,
        name: r.name,
        classTitle: r.title,
        date: r.date,
        time: r.time,
        startsAt: new Date(r.startsAt).toISOString(),
        location: r.location,
        canGiveBack: true,
      })),
    );
  })
  .post('/:id/classes/:signupId/cancel', requireUser(), validateParams(placeParams), async (c) => {
    const { id: userId, signupId } = c.req.valid('param');
    assertSelf(c, userId);
    const email = await verifiedEmailOf(c, userId);
    if (!email) return c.json({ message: SIGNUP_NOT_YOURS }, 404);
    return answerGiveBack(c, await giveBackPlace(c.var.services, signupId, { onlyEmail: email }));
  });

/** The admin's Classes page: GET /api/admin/waitlist, every upcoming class's line in order. */
export const adminWaitlist = new Hono<AppEnv>().use('*', requireAdmin()).get('/', async (c) => {
  const rows = await listWaitlists(c.var.services.db, c.var.services.clock.now());
  const positions = new Map<string, number>();
  return c.json(
    rows.map((r): WaitlistRowView => {
      const position = (positions.get(r.eventId) ?? 0) + 1;
      positions.set(r.eventId, position);
      return { _id: r.id, eventId: r.eventId, classTitle: r.title, date: r.date, time: r.time, position, name: r.name, email: r.email, phone: r.phone };
    }),
  );
});
