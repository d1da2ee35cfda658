import { purchaseRefusals } from '../money/settle.ts';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { requireAdmin, signedInUser } from '../middleware/auth.ts';
import { verifyHuman } from '../middleware/human.ts';
import { clientAddress } from '../middleware/client.ts';
import { classWhen } from '../mail/layout.ts';
import { UNTRUSTED_FILE_CSP } from '../middleware/security-headers.ts';
import { validateJson, validateParams, validateQuery } from '../validation.ts';
import { id } from '../../contract/common.ts';
import {
  ALREADY_SIGNED_UP,
  CLASS_EXTERNAL,
  CLASS_FULL,
  CLASS_PAST,
  CLASS_NOT_FOUND,
  EMAIL_NOT_FOUND,
  REGISTRATION_CONFIRMED,
  SIGNED_UP,
  classSignup,
  decodeSignature,
  returningStudent,
  adminSignupsQuery,
  type SignupRowView,
  type TakenPlacesView,
} from '../../contract/signups.ts';
import { findClass, findSignature, latestStudentProfile, pageSignups, takenPlacesFrom } from './signups.repo.ts';
import { PAST_DAYS_SHOWN } from './events.routes.ts';
import { addDays, zonedNow } from '../lib/time.ts';
import { answerPage } from '../lib/pages.ts';
import { enrol } from './enrol.ts';
import { LIMITS } from '../services/limits.ts';
import { giveBackPlace } from './places.ts';
import { visitorCopyFor } from '../middleware/rate-limit.ts';
import { refundDuePayments } from './refunds.ts';
import { takePlaceWithCard, takePlaceWithCredit, type LedgerPlaceRefusal, type LedgerPlaceRefused } from './ledger-places.ts';
import { findUserById } from '../accounts/users.repo.ts';
import { holdPlace, payForPlace, type HoldRefusal, type HoldRefused, type PayForPlaceRefusal } from './paid-places.ts';
import {
  CREDIT_EMAIL_MISMATCH,
  CREDIT_LOGIN_NEEDED,
  EVENT_AMOUNT_INVALID,
  GIFT_CARD_SHORT_FOR_PLACE,
  NO_CLASS_CREDIT,
  EVENT_CANCELLED,
  EVENT_HOLD_LAPSED,
  EVENT_IS_FREE,
  EVENT_PAYMENT_FOR_ANOTHER,
  TOO_MANY_HOLDS,
  emailHoldsPlaceMessage,
  eventOrderRequest,
  placesHeldMessage,
} from '../../contract/event-prices.ts';
import { PAYMENT_SERVICE_UNAVAILABLE, type BookingOrderView } from '../../contract/booking.ts';
import { CARD_CODE_REFUSALS } from '../money/cards.ts';

type Refused = { status: 400 | 401 | 402 | 404 | 409 | 502; message: string };

const payRefusals: Record<PayForPlaceRefusal, Refused> = {
  'hold-lapsed': { status: 409, message: EVENT_HOLD_LAPSED },
  cancelled: { status: 400, message: EVENT_CANCELLED },
  past: { status: 400, message: CLASS_PAST },
  ...purchaseRefusals(EVENT_PAYMENT_FOR_ANOTHER),
};

/** The refusals of a place that carry no data, shared by the hold and the ledger's place. */
const placeRefusals = {
  'not-found': { status: 404, message: CLASS_NOT_FOUND },
  cancelled: { status: 400, message: EVENT_CANCELLED },
  external: { status: 400, message: CLASS_EXTERNAL },
  past: { status: 400, message: CLASS_PAST },
  free: { status: 400, message: EVENT_IS_FREE },
  amount: { status: 400, message: EVENT_AMOUNT_INVALID },
  already: { status: 409, message: ALREADY_SIGNED_UP },
  full: { status: 409, message: CLASS_FULL },
} satisfies Record<string, Refused>;

/** Her instant in words, on her clocks (decision 0030): the one date formatter. */
const inWords = (c: Context<AppEnv>, at: Date) => classWhen(at, c.var.services.env.SITE_TIMEZONE);

const refuse = (c: Context<AppEnv>, refused: Refused) => c.json({ message: refused.message }, refused.status);
/** Every place held for a payment that may lapse (issue 47): how many and when the first frees, not "full". */
const heldAnswer = (c: Context<AppEnv>, r: { held: number; freeAt: Date }) => c.json({ message: placesHeldMessage(r.held, inWords(c, r.freeAt)) }, 409);

const holdRefusals: Record<Exclude<HoldRefusal, 'held' | 'too-many-holds' | 'email-holds-one'>, Refused> = {
  ...placeRefusals,
  'payment-unavailable': { status: 502, message: PAYMENT_SERVICE_UNAVAILABLE },
};

function answerHold(c: Context<AppEnv>, r: HoldRefused): Response {
  switch (r.kind) {
    case 'held':
      return heldAnswer(c, r);
    case 'too-many-holds':
      // One address, two unpaid places at a time (issue 47): the third is 429 until one of them lapses.
      c.header('retry-after', String(Math.max(1, Math.ceil((r.freeAt.getTime() - Date.now()) / 1000))));
      return c.json({ message: TOO_MANY_HOLDS }, 429);
    case 'email-holds-one':
      return c.json({ message: emailHoldsPlaceMessage(inWords(c, r.freeAt)) }, 409);
    default:
      return refuse(c, holdRefusals[r.kind]);
  }
}

const ledgerRefusals: Record<Exclude<LedgerPlaceRefusal, 'held'>, Refused> = {
  ...placeRefusals,
  'no-credit': { status: 402, message: NO_CLASS_CREDIT },
  'unknown-account': { status: 401, message: CREDIT_LOGIN_NEEDED },
  ...CARD_CODE_REFUSALS,
  'gift-card-short': { status: 402, message: GIFT_CARD_SHORT_FOR_PLACE },
};

const answerLedger = (c: Context<AppEnv>, r: LedgerPlaceRefused) => (r.kind === 'held' ? heldAnswer(c, r) : refuse(c, ledgerRefusals[r.kind]));

/**
 * POST /api/events/{id}/paypal-order {amountCents, name, email, phone, recaptchaToken} -> {orderID}:
 * a place in a paid event held while its buyer pays what she chose (issue 34); POST /api/signup
 * with the order's id then signs her up. Held by a person, not a script (issue 47): the sign-up
 * form's human check first, then holdPlace's rules per mailbox and per address.
 */
export const eventOrders = new Hono<AppEnv>().post(
  '/:id/paypal-order',
  rateLimit(LIMITS.checkout),
  validateParams(z.object({ id })),
  validateJson(eventOrderRequest),
  async (c) => {
    const body = c.req.valid('json');
    await verifyHuman(c, body.recaptchaToken, 'signup_form_submit');
    const held = await holdPlace(c.var.services, c.req.valid('param').id, body, clientAddress(c, c.var.services.env));
    if (!held.ok) return answerHold(c, held);
    return c.json({ orderID: held.orderId } satisfies BookingOrderView);
  },
);

/**
 * POST /api/signup: a new student signs up with the waiver and a drawn signature.
 * DELETE /api/signup/{id}: the admin removes a sign-up.
 */
export const signups = new Hono<AppEnv>()
  .post('/', rateLimit(LIMITS.classSignup), validateJson(classSignup), async (c) => {
    const { limits } = c.var.services;
    const body = c.req.valid('json');
    const signature = decodeSignature(body.signature);
    if (!signature.ok) return c.json({ message: signature.message }, signature.status);
    await verifyHuman(c, body.recaptchaToken, 'signup_form_submit');
    const student = { classTitle: body.classTitle, date: body.date, name: body.name, email: body.email, phone: body.phone };
    if (body.useCredit) {
      // One of her class credits pays (issue 34): only her own, with her account's e-mail.
      const userId = await signedInUser(c);
      if (!userId) return c.json({ message: CREDIT_LOGIN_NEEDED }, 401);
      if ((await findUserById(c.var.services.db, userId))?.email !== student.email) return c.json({ message: CREDIT_EMAIL_MISMATCH }, 400);
      const taken = await takePlaceWithCredit(c.var.services, userId, { ...student, signaturePng: signature.bytes });
      if (!taken.ok) return answerLedger(c, taken);
      return c.json({ message: SIGNED_UP, _id: taken.id }, 201);
    }
    if (body.giftCardCode) {
      // A gift card that holds the whole place pays it (issue 34); less, and PayPal pays instead.
      const taken = await takePlaceWithCard(
        c.var.services,
        { ...student, signaturePng: signature.bytes },
        { code: body.giftCardCode, amountCents: body.amountCents },
      );
      if (!taken.ok) return answerLedger(c, taken);
      return c.json({ message: SIGNED_UP, _id: taken.id }, 201);
    }
    if (body.paypalOrderId) {
      // A paid place (issue 34): the held place signed and paid for; its mails leave after the commit.
      const paid = await payForPlace(c.var.services, body.paypalOrderId, { ...student, signaturePng: signature.bytes });
      if (!paid.ok) return c.json({ message: payRefusals[paid.kind].message }, payRefusals[paid.kind].status);
      return c.json({ message: SIGNED_UP, _id: paid.id }, 201);
    }
    const visitorCopy = await visitorCopyFor(limits, student.email);
    // The sign-up and its mails in one transaction; the mails leave after its commit.
    const result = await enrol(c.var.services, { ...student, signaturePng: signature.bytes }, { alreadyStatus: 409, returning: false, visitorCopy });
    if (!result.ok) return c.json({ message: result.message }, result.status);
    return c.json({ message: SIGNED_UP, _id: result.id }, 201);
  })
  .delete('/:id', requireAdmin(), validateParams(z.object({ id })), async (c) => {
    // The freed place goes to the first on the class's waitlist in the same transaction, with their mails.
    const removed = await giveBackPlace(c.var.services, c.req.valid('param').id, { byAdmin: true });
    if (!removed.ok || removed.already) return c.json({ message: 'Sign-up not found.' }, 404);
    // A paid place she removed is refunded (unless marked a no-show): made after the commit.
    if (removed.refund?.refunded) await refundDuePayments(c.var.services);
    return c.json({ message: 'Sign-up deleted.' });
  });

/**
 * POST /api/check-student: a returning student signs up with the e-mail alone. Known means a
 * previous sign-up with an accepted waiver, whose name, phone and signature are reused; anyone
 * else signs up as a new student, which is where the waiver gets signed. The answer tells
 * whether an e-mail is known, hence the tight limit.
 */
export const checkStudent = new Hono<AppEnv>().post('/', rateLimit(LIMITS.checkStudent), validateJson(returningStudent), async (c) => {
  const { db, limits } = c.var.services;
  const { email, classTitle, date } = c.req.valid('json');
  if (!(await findClass(db, classTitle, date))) return c.json({ message: CLASS_NOT_FOUND }, 404);
  const profile = await latestStudentProfile(db, email);
  if (!profile) return c.json({ message: EMAIL_NOT_FOUND }, 404);
  const student = { classTitle, date, name: profile.name, email, phone: profile.phone };
  const visitorCopy = await visitorCopyFor(limits, student.email);
  // The sign-up and its mails in one transaction; the mails leave after its commit.
  const result = await enrol(
    c.var.services,
    { ...student, signaturePng: profile.signaturePng, waiver: { waiverRevision: profile.waiverRevision, waiverHash: profile.waiverHash } },
    { alreadyStatus: 400, returning: true, visitorCopy },
  );
  if (!result.ok) return c.json({ message: result.message }, result.status);
  return c.json({ message: REGISTRATION_CONFIRMED, _id: result.id });
});

/** The admin's Classes page: GET /api/admin/signups, GET /api/admin/signups/{id}/signature. */
export const adminSignups = new Hono<AppEnv>()
  .use('*', requireAdmin())
  // A page of them (issue 36, decision 0046): the body the spec's list, the next page's cursor in X-Next-Cursor.
  .get('/', validateQuery(adminSignupsQuery), async (c) => {
    const { cursor, ...query } = c.req.valid('query');
    const rows = await pageSignups(c.var.services.db, { ...query, after: cursor });
    return answerPage(
      c,
      rows,
      query.limit,
      (r) => [r.date, r.cursorAt, r.id],
      (r): SignupRowView => ({
        _id: r.id,
        date: r.date,
        classTitle: r.classTitle,
        name: r.name,
        email: r.email,
        phone: r.phone,
        hasSignature: Boolean(r.hasSignature),
        waiverRevision: r.waiverRevision,
        waiverHash: r.waiverHash,
        createdAt: new Date(r.createdAt).toISOString(),
      }),
    );
  })
  // The events page's "n of m places taken" (issue 36): counted in SQL for the classes it shows
  // (from PAST_DAYS_SHOWN back), not from the whole list of sign-ups.
  .get('/taken', async (c) => {
    const { db, env } = c.var.services;
    const from = addDays(zonedNow(env.SITE_TIMEZONE, c.var.services.clock.now()).date, -PAST_DAYS_SHOWN);
    return c.json((await takenPlacesFrom(db, from)) satisfies TakenPlacesView[]);
  })
  .get('/:id/signature', validateParams(z.object({ id })), async (c) => {
    const row = await findSignature(c.var.services.db, c.req.valid('param').id);
    if (!row?.signaturePng) return c.json({ message: 'No signature for this sign-up.' }, 404);
    return c.body(new Uint8Array(row.signaturePng), 200, {
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'content-security-policy': UNTRUSTED_FILE_CSP,
      'cache-control': 'private, no-store',
      'content-disposition': 'inline; filename="signature.png"',
    });
  });
