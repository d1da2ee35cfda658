import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { answer, answersOf, type Answers, type Refused } from '../middleware/answers.ts';
import { validateJson, validateParams } from '../validation.ts';
import { rateLimit, takeLimit } from '../middleware/rate-limit.ts';
import { GIFT_CARD_EMPTY, GIFT_CARD_NOT_FOUND } from '../../contract/gift-cards.ts';
import { assertSelf, requireAdmin, requireUser } from '../middleware/auth.ts';
import { findUserById } from '../accounts/users.repo.ts';
import { id } from '../../contract/common.ts';
import {
  BOOKING_CONFIRMED,
  BOOKING_FAILED,
  COUPON_INVALID,
  COUPON_VALID,
  PAYMENT_ALREADY_USED,
  PAYMENT_FOR_ANOTHER_BOOKING,
  PAYMENT_SERVICE_UNAVAILABLE,
  PAYMENT_UNSUCCESSFUL,
  SLOT_NOT_FOUND,
  SLOT_PAST,
  SLOT_TAKEN,
  bookRequest,
  GIFT_CARD_CHANGED_BOOKING,
  GIFT_CARD_PAYS_ALL,
  giftCardShort,
  noCreditFor,
  couponRequest,
  couponLimitReached,
  type BookingCouponView,
  type BookingOrderView,
  type BookResponse,
  paypalOrderRequest,
  toCents,
} from '../../contract/booking.ts';
import { NOT_LOGGED_IN } from '../../contract/user.ts';
import { amountOutOfRange } from '../../contract/settings.ts';
import { readSettings } from '../settings/settings.repo.ts';
import type { DB } from '../../db/client.ts';
import { INTAKE_REQUIRED_MESSAGE } from '../../contract/practice.ts';
import {
  BOOKING_CANCELLED,
  BOOKING_CANCELLED_REFUNDED,
  BOOKING_CANCELLED_CREDIT_FORFEITED,
  BOOKING_CANCELLED_CREDIT_RETURNED,
  BOOKING_CANCELLED_REFUND_LATER,
  BOOKING_NOT_FOUND,
  BOOKING_RESCHEDULED,
  PAYMENT_STILL_PROCESSING,
  SAME_SLOT,
  rescheduleRequest,
  tooLateToChange,
  type BookingCancelledView,
  type BookingRescheduledView,
} from '../../contract/booking-changes.ts';
import type { Env } from '../env.ts';
import { cancelBooking, type ChangeRefusal } from './cancel-booking.ts';
import { rescheduleBooking, type RescheduleRefusal } from './reschedule-booking.ts';
import { finalizeBooking, type BookingRefusal, type BookingResult } from './finalize-booking.ts';
import { startBookingPayment, type BookingPaymentRefusal, type BookingPaymentResult } from './start-booking-payment.ts';
import { isBookingCoupon } from './booking-claims.ts';
import { LIMITS } from '../services/limits.ts';
import { ADMIN_BOOKED, CLIENT_HAS_NO_CREDIT, CLIENT_NOT_FOUND, adminBooking } from '../../contract/packages.ts';

/**
 * A client books a paid one-to-one session (SPEC.md sections 4, 5, 7, 8; issue 5). Mounted on
 * /api/bookings beside the slot lists of api/booking/slots.routes.ts. The money flow itself is
 * in api/booking/ (start-booking-payment.ts, finalize-booking.ts and its ways to pay, booking-claims.ts);
 * these handlers validate, call it and answer its refusals.
 *
 *   POST /validate-coupon         {code}: is it the booking coupon? (the code never leaves the server)
 *   POST /{slotId}/paypal-order   {amount, sessionType, giftCardCode?} -> {orderID}: the server creates the order (for what the card does not pay)
 *   PUT  /{slotId}/book           {userId, ..., paypalOrderId | couponCode}: claim, then capture
 *   POST /{slotId}/cancel         the client cancels their session (refunded in full when paid; issue 15)
 *   POST /{slotId}/reschedule     {toSlotId}: the client moves their session, payment and all (issue 15)
 *
 * and, mounted on /api/admin, the teacher's booking for a client (issue 32):
 *   POST /users/{id}/sessions     {slotId, sessionType, pay: {credit: true} | {method, amountCents, paidOn}}
 */

const slotParams = z.object({ slotId: id });

/** The status and message (SPEC.md sections 5 and 8) each refusal of finalizeBooking answers. */
const bookingRefusals: Record<Exclude<BookingRefusal, 'coupon-limit' | 'amount-out-of-range' | 'no-credit'>, Refused> = {
  'unknown-account': { status: 401, message: NOT_LOGGED_IN },
  'slot-not-found': { status: 404, message: SLOT_NOT_FOUND },
  'slot-taken': { status: 409, message: BOOKING_FAILED },
  'slot-past': { status: 400, message: SLOT_PAST },
  // Issue 35: her agenda took the time (a class, a gig, a busy time) since the page showed it.
  'slot-busy': { status: 409, message: SLOT_TAKEN },
  'coupon-invalid': { status: 400, message: COUPON_INVALID },
  'order-unknown': { status: 400, message: PAYMENT_UNSUCCESSFUL },
  'payment-unavailable': { status: 502, message: PAYMENT_SERVICE_UNAVAILABLE },
  'order-for-another-booking': { status: 400, message: PAYMENT_FOR_ANOTHER_BOOKING },
  'order-already-used': { status: 409, message: PAYMENT_ALREADY_USED },
  'order-not-approved': { status: 400, message: PAYMENT_UNSUCCESSFUL },
  'claim-lost': { status: 409, message: BOOKING_FAILED },
  'capture-failed': { status: 402, message: PAYMENT_UNSUCCESSFUL },
  // Issue 23: the intake she requires comes before a first session.
  'intake-missing': { status: 409, message: INTAKE_REQUIRED_MESSAGE },
  // Issue 33: one message for every code that is no card's, the balance look-up's.
  'unknown-gift-card': { status: 400, message: GIFT_CARD_NOT_FOUND },
  'gift-card-empty': { status: 400, message: GIFT_CARD_EMPTY },
  'gift-card-changed': { status: 409, message: GIFT_CARD_CHANGED_BOOKING },
};

/** Before an order exists a taken slot says so; at the booking it is the generic failure above. */
const paymentRefusals: Record<BookingPaymentRefusal, Refused> = {
  'slot-not-found': bookingRefusals['slot-not-found'],
  'slot-taken': { status: 409, message: SLOT_TAKEN },
  'slot-past': bookingRefusals['slot-past'],
  'slot-busy': bookingRefusals['slot-busy'],
  'payment-unavailable': bookingRefusals['payment-unavailable'],
  'intake-missing': bookingRefusals['intake-missing'],
  'unknown-gift-card': bookingRefusals['unknown-gift-card'],
  'gift-card-empty': bookingRefusals['gift-card-empty'],
  'gift-card-pays-all': { status: 400, message: GIFT_CARD_PAYS_ALL },
};

/** An order's refusal; her range for this session type (her settings) names the amounts she accepts. */
const paymentAnswers: Answers<Extract<BookingPaymentResult, { ok: false }>> = {
  ...answersOf(paymentRefusals),
  'amount-out-of-range': (c, r) => c.json({ message: amountOutOfRange(r.range, r.typeWords) }, 400),
};

type BookingRefused = Extract<BookingResult, { ok: false }>;

/** Each refusal of the client's booking; the words of the cap, of her range and of the session type name them. */
const bookAnswers = (sessionType: string): Answers<BookingRefused> => ({
  ...answersOf(bookingRefusals),
  // The cap's words name it; 409: the account's coupon bookings, not the request, stand in the way.
  'coupon-limit': (c) => c.json({ message: couponLimitReached(c.var.services.env.BOOKING_COUPON_LIMIT) }, 409),
  'amount-out-of-range': (c, r) => c.json({ message: amountOutOfRange(r.range, r.typeWords) }, 400),
  // Issue 32: no credit fits; the words name the session type. Nothing was booked.
  'no-credit': (c) => c.json({ message: noCreditFor(sessionType) }, 409),
  // Issue 33: the card holds less than the amount chosen; 402, as any payment still due.
  'gift-card-short': (c, r) => c.json({ message: giftCardShort(r.balanceCents, r.amountCents) }, 402),
});

/** A refusal her booking cannot meet: it has no PayPal, no coupon and no card. */
const unexpected = (_c: unknown, r: { kind: string }): never => {
  throw new Error(`unexpected refusal ${r.kind}`);
};

/** Each refusal of her booking for a client: no credit and no client in her words; only the slot's refusals are left. */
const adminBookAnswers = (sessionType: string): Answers<BookingRefused> => ({
  ...answersOf(bookingRefusals),
  'no-credit': (c) => c.json({ message: CLIENT_HAS_NO_CREDIT(sessionType) }, 409),
  'unknown-account': (c) => c.json({ message: CLIENT_NOT_FOUND }, 404),
  'amount-out-of-range': unexpected,
  'coupon-limit': unexpected,
  'gift-card-short': unexpected,
});

/** The status and message of each refusal to change a session (issue 15), under her notice period. */
const changeRefusals = (env: Env, noticeHours: number): Record<RescheduleRefusal, Refused> => ({
  // Someone else's session reads as not found: whose it is stays unsaid.
  'not-found': { status: 404, message: BOOKING_NOT_FOUND },
  'too-late': { status: 409, message: tooLateToChange(noticeHours, env.TEACHER_EMAIL) },
  'payment-processing': { status: 409, message: PAYMENT_STILL_PROCESSING },
  'same-slot': { status: 400, message: SAME_SLOT },
  'target-not-found': { status: 404, message: SLOT_NOT_FOUND },
  'target-taken': { status: 409, message: SLOT_TAKEN },
  'target-past': { status: 400, message: SLOT_PAST },
});
/** A refusal's answer; the notice period it names is her setting as it is now. */
const refusedChange = async (services: { env: Env; db: DB }, kind: ChangeRefusal | RescheduleRefusal) =>
  changeRefusals(services.env, (await readSettings(services.db)).cancelNoticeHours)[kind];

export const booking = new Hono<AppEnv>()
  // The coupon lives only on the server (BOOKING_COUPON); the page asks here.
  .post('/validate-coupon', requireUser(), rateLimit({ ...LIMITS.bookingCoupon, per: 'account' }), validateJson(couponRequest), (c) => {
    const valid = isBookingCoupon(c.req.valid('json').code, c.var.services.env.BOOKING_COUPON);
    return valid
      ? c.json({ valid: true, message: COUPON_VALID } satisfies BookingCouponView)
      : c.json({ valid: false, message: COUPON_INVALID } satisfies BookingCouponView, 400);
  })

  // The server creates the order, for an amount in range, tied to this slot and this client.
  .post(
    '/:slotId/paypal-order',
    requireUser(),
    rateLimit({ ...LIMITS.bookingOrder, per: 'account' }),
    validateParams(slotParams),
    validateJson(paypalOrderRequest),
    async (c) => {
      const { amount, sessionType, giftCardCode } = c.req.valid('json');
      // A gift card's code tried counts per account, as at PUT /book (issue 33).
      const limited = giftCardCode ? await takeLimit(c, { ...LIMITS.giftCardCode, per: 'account' }) : undefined;
      if (limited) return limited;
      const result = await startBookingPayment(c.var.services, {
        slotId: c.req.valid('param').slotId,
        userId: c.var.userId!,
        amountCents: toCents(amount),
        sessionType,
        ...(giftCardCode !== undefined ? { giftCardCode } : {}),
      });
      if (!result.ok) return answer(c, paymentAnswers, result);
      return c.json({ orderID: result.orderId } satisfies BookingOrderView);
    },
  )

  .put('/:slotId/book', requireUser(), rateLimit({ ...LIMITS.booking, per: 'account' }), validateParams(slotParams), validateJson(bookRequest), async (c) => {
    const body = c.req.valid('json');
    assertSelf(c, body.userId);
    // A gift card's code tried counts per account, as the balance look-up counts per address (issue 33).
    const limited = body.giftCardCode ? await takeLimit(c, { ...LIMITS.giftCardCode, per: 'account' }) : undefined;
    if (limited) return limited;
    const result = await finalizeBooking(c.var.services, {
      slotId: c.req.valid('param').slotId,
      userId: body.userId,
      firstName: body.firstName,
      lastName: body.lastName,
      sessionType: body.sessionType,
      message: body.message,
      // The schema lets exactly one way through (a gift card with a PayPal order for the rest is one).
      payment: body.useCredit
        ? { kind: 'credit' }
        : body.paypalOrderId !== undefined
          ? {
              kind: 'paypal',
              orderId: body.paypalOrderId,
              ...(body.giftCardCode !== undefined ? { card: { code: body.giftCardCode, amountCents: toCents(body.amount!) } } : {}),
            }
          : body.giftCardCode !== undefined
            ? { kind: 'gift-card', code: body.giftCardCode, amountCents: toCents(body.amount!) }
            : { kind: 'coupon', code: body.couponCode! },
    });
    if (!result.ok) return answer(c, bookAnswers(body.sessionType), result);
    // SPEC.md section 7: the success message uses the payer's first name.
    const booked: BookResponse =
      result.payerFirstName !== undefined
        ? { success: true, message: BOOKING_CONFIRMED, payerFirstName: result.payerFirstName }
        : { success: true, message: BOOKING_CONFIRMED };
    return c.json(booked);
  })

  .post('/:slotId/cancel', requireUser(), rateLimit({ ...LIMITS.bookingChange, per: 'account' }), validateParams(slotParams), async (c) => {
    const result = await cancelBooking(c.var.services, { slotId: c.req.valid('param').slotId, userId: c.var.userId! });
    if (!result.ok) {
      const { status, message } = await refusedChange(c.var.services, result.kind);
      return c.json({ message }, status);
    }
    const message =
      result.credit === 'returned'
        ? BOOKING_CANCELLED_CREDIT_RETURNED
        : result.credit === 'forfeited'
          ? BOOKING_CANCELLED_CREDIT_FORFEITED
          : result.refund === 'refunded'
            ? BOOKING_CANCELLED_REFUNDED
            : result.refund === 'failed'
              ? BOOKING_CANCELLED_REFUND_LATER
              : BOOKING_CANCELLED;
    return c.json({ success: true, message, refund: result.refund, ...(result.credit ? { credit: result.credit } : {}) } satisfies BookingCancelledView);
  })

  .post(
    '/:slotId/reschedule',
    requireUser(),
    rateLimit({ ...LIMITS.bookingChange, per: 'account' }),
    validateParams(slotParams),
    validateJson(rescheduleRequest),
    async (c) => {
      const result = await rescheduleBooking(c.var.services, {
        slotId: c.req.valid('param').slotId,
        toSlotId: c.req.valid('json').toSlotId,
        userId: c.var.userId!,
      });
      if (!result.ok) {
        const { status, message } = await refusedChange(c.var.services, result.kind);
        return c.json({ message }, status);
      }
      return c.json({
        success: true,
        message: BOOKING_RESCHEDULED,
        slotId: result.slotId,
        startsAt: result.startsAt.toISOString(),
      } satisfies BookingRescheduledView);
    },
  );

const clientParams = z.object({ id });

/**
 * The teacher books a free slot for a client (issue 32): the same claim as the client's booking
 * (finalizeBooking, under the same locks; the slot vanishes from every open page), paid by one of
 * the client's credits or by a payment she records. Each route guards itself: mounted on /api/admin.
 */
export const adminClientBookings = new Hono<AppEnv>().post(
  '/users/:id/sessions',
  requireAdmin(),
  validateParams(clientParams),
  validateJson(adminBooking),
  async (c) => {
    const { db } = c.var.services;
    const body = c.req.valid('json');
    const client = await findUserById(db, c.req.valid('param').id);
    if (!client) return c.json({ message: CLIENT_NOT_FOUND }, 404);
    const result = await finalizeBooking(c.var.services, {
      slotId: body.slotId,
      userId: client.id,
      firstName: client.firstName,
      lastName: client.lastName,
      sessionType: body.sessionType,
      message: body.message,
      payment: 'credit' in body.pay ? { kind: 'credit' } : { kind: 'recorded', ...body.pay },
      byAdmin: { mailClient: body.sendConfirmation },
    });
    if (!result.ok) return answer(c, adminBookAnswers(body.sessionType), result);
    return c.json({ success: true, message: ADMIN_BOOKED, slotId: result.booking.id }, 201);
  },
);
