import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import type { DB } from '../../db/client.ts';
import { validateJson, validateParams } from '../validation.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { assertSelf, requireUser } from '../middleware/auth.ts';
import { id } from '../schemas/common.ts';
import {
  AMOUNT_OUT_OF_RANGE,
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
  couponRequest,
  type BookResponse,
  inBookingRange,
  paypalOrderRequest,
  toCents,
} from '../schemas/booking.ts';
import { NOT_LOGGED_IN } from '../schemas/user.ts';
import { PayPalError, type CapturedOrder } from '../services/payments/paypal.ts';
import { bookingMails } from '../services/mail/client-mails.ts';
import { deliver } from '../services/mail/templates.ts';
import { claimSlot, findSlotForBooking } from '../../db/queries/booking-claims.ts';
import { findUserById } from '../../db/queries/login-tokens.ts';

/**
 * A client books a paid one-to-one session (SPEC.md sections 4, 5, 7, 8; issue 5). Mounted on
 * /api/bookings beside the slot lists of routes/bookings.ts.
 *
 *   POST /validate-coupon         {code}: is it the booking coupon? (the code never leaves the server)
 *   POST /{slotId}/paypal-order   {amount, sessionType} -> {orderID}: the server creates the order
 *   PUT  /{slotId}/book           {userId, ..., paypalOrderId | couponCode}: claim, then capture
 *
 * Money rule: the slot is claimed first and the order captured only after, inside the same
 * transaction; a client who loses the race is never charged (the order stays APPROVED and
 * lapses), and a failed capture rolls the claim back.
 */

const slotParams = z.object({ slotId: id });

/** The PayPal order a booking must be paid with: made by us for this slot and this client. */
const referenceFor = (slotId: string, userId: string) => `slot:${slotId}:${userId}`;

/** SPEC.md section 5: compared ignoring case and surrounding spaces. */
const isBookingCoupon = (code: string, coupon: string) => code.trim().toLowerCase() === coupon.trim().toLowerCase();

type SlotCheck = { ok: true; date: string; time: string } | { ok: false; status: 400 | 404 | 409; message: string };

/** The slot exists, is free and has not begun. The claim checks the last two again, atomically. */
async function checkSlot(db: DB, slotId: string, takenMessage: string): Promise<SlotCheck> {
  const slot = await findSlotForBooking(db, slotId);
  if (!slot) return { ok: false, status: 404, message: SLOT_NOT_FOUND };
  if (slot.bookedAt !== null) return { ok: false, status: 409, message: takenMessage };
  if (new Date(slot.startsAt).getTime() <= Date.now()) return { ok: false, status: 400, message: SLOT_PAST };
  return { ok: true, date: slot.date, time: slot.time };
}

/** A capture that went through but is not what was approved (never expected from PayPal). */
class CaptureMismatch extends Error {}

export const bookingPayments = new Hono<AppEnv>()
  // The coupon lives only on the server (BOOKING_COUPON); the page asks here.
  .post(
    '/validate-coupon',
    requireUser(),
    rateLimit({ bucket: 'booking-coupon', max: 30, windowMs: 15 * 60_000 }),
    validateJson(couponRequest),
    (c) => {
      const valid = isBookingCoupon(c.req.valid('json').code, c.var.services.env.BOOKING_COUPON);
      return valid ? c.json({ valid: true, message: COUPON_VALID }) : c.json({ valid: false, message: COUPON_INVALID }, 400);
    },
  )

  // The server creates the order, for an amount in range, tied to this slot and this client.
  .post(
    '/:slotId/paypal-order',
    requireUser(),
    rateLimit({ bucket: 'booking-order', max: 20, windowMs: 10 * 60_000 }),
    validateParams(slotParams),
    validateJson(paypalOrderRequest),
    async (c) => {
      const { db, payments } = c.var.services;
      const { slotId } = c.req.valid('param');
      const { amount, sessionType } = c.req.valid('json');
      const slot = await checkSlot(db, slotId, SLOT_TAKEN);
      if (!slot.ok) return c.json({ message: slot.message }, slot.status);
      try {
        const order = await payments.createOrder({
          amountCents: toCents(amount),
          referenceId: referenceFor(slotId, c.var.userId!),
          description: `${sessionType} on ${slot.date} at ${slot.time}`,
        });
        return c.json({ orderID: order.id });
      } catch (err) {
        console.error('[paypal] could not create a booking order:', err instanceof Error ? err.message : err);
        return c.json({ message: PAYMENT_SERVICE_UNAVAILABLE }, 502);
      }
    },
  )

  .put(
    '/:slotId/book',
    requireUser(),
    rateLimit({ bucket: 'booking', max: 20, windowMs: 10 * 60_000 }),
    validateParams(slotParams),
    validateJson(bookRequest),
    async (c) => {
      const { db, env, payments, mailer, realtime } = c.var.services;
      const { slotId } = c.req.valid('param');
      const body = c.req.valid('json');
      assertSelf(c, body.userId);
      const account = await findUserById(db, body.userId);
      if (!account) return c.json({ message: NOT_LOGGED_IN }, 401);

      const slot = await checkSlot(db, slotId, BOOKING_FAILED);
      if (!slot.ok) return c.json({ message: slot.message }, slot.status);

      // The payment: the coupon, or an order that we made for this slot and this client, that
      // the buyer approved, in USD and in range. Nothing is captured yet.
      let payment: { orderId: string; amountCents: number } | undefined;
      if (body.couponCode !== undefined) {
        if (!isBookingCoupon(body.couponCode, env.BOOKING_COUPON)) return c.json({ message: COUPON_INVALID }, 400);
      } else {
        const orderId = body.paypalOrderId!;
        let order: Awaited<ReturnType<typeof payments.getOrder>>;
        try {
          order = await payments.getOrder(orderId);
        } catch (err) {
          if (err instanceof PayPalError && err.status >= 400 && err.status < 500 && err.status !== 401) {
            return c.json({ message: PAYMENT_UNSUCCESSFUL }, 400);
          }
          console.error('[paypal] could not read a booking order:', err instanceof Error ? err.message : err);
          return c.json({ message: PAYMENT_SERVICE_UNAVAILABLE }, 502);
        }
        if (order.referenceId !== referenceFor(slotId, account.id)) return c.json({ message: PAYMENT_FOR_ANOTHER_BOOKING }, 400);
        if (order.status === 'COMPLETED') return c.json({ message: PAYMENT_ALREADY_USED }, 409);
        if (order.status !== 'APPROVED') return c.json({ message: PAYMENT_UNSUCCESSFUL }, 400);
        if (order.currency !== 'USD' || !inBookingRange(order.amountCents)) return c.json({ message: AMOUNT_OUT_OF_RANGE }, 400);
        payment = { orderId, amountCents: order.amountCents };
      }

      // The confirmation goes to the account's own address (proved by its login link or Google),
      // not to the body's copy, which would let anyone send our mail to any address.
      const claim = {
        userId: account.id,
        firstName: body.firstName,
        lastName: body.lastName,
        email: account.email,
        sessionType: body.sessionType,
        message: body.message,
        amountCents: payment?.amountCents ?? null,
        couponUsed: payment === undefined,
        paypalOrderId: payment?.orderId ?? null,
      };

      // Claim first, capture after, in one transaction: the conditional UPDATE holds the slot's
      // row lock until commit, so concurrent finalisations queue behind it and then find the
      // slot booked. Only the one claim that changed the row goes on to capture; the losers
      // return before any capture, and their approved orders lapse uncharged. A failed capture
      // throws, which rolls the claim back and leaves the slot free.
      let captured: CapturedOrder | undefined;
      let booked: Awaited<ReturnType<typeof claimSlot>>;
      try {
        booked = await db.transaction().execute(async (trx) => {
          const row = await claimSlot(trx, slotId, claim);
          if (!row || !payment) return row;
          captured = await payments.captureOrder(payment.orderId);
          // A PENDING capture (e.g. an eCheck) is not money yet: refused like a failed one.
          if (captured.captureStatus !== 'COMPLETED' || captured.currency !== 'USD' || captured.amountCents !== payment.amountCents) {
            throw new CaptureMismatch(`capture ${captured.captureId}: ${captured.captureStatus} ${captured.amountCents} ${captured.currency}`);
          }
          return row;
        });
      } catch (err) {
        // Captured, yet no booking (a mismatch, or the commit failed): the money goes back.
        if (captured) {
          const captureId = captured.captureId;
          await payments.refundCapture(captureId).catch((e: unknown) => {
            console.error(`[paypal] REFUND NEEDED for capture ${captureId}:`, e instanceof Error ? e.message : e);
          });
        }
        if (err instanceof PayPalError || err instanceof CaptureMismatch) {
          console.warn(`[paypal] booking capture failed: ${err.message}`);
          return c.json({ message: PAYMENT_UNSUCCESSFUL }, 402);
        }
        throw err;
      }
      if (!booked) return c.json({ message: BOOKING_FAILED }, 409);

      // Best effort after commit: every open booking page drops the slot; a room that is down
      // never fails the booking (notifySlotBooked logs and never throws).
      void realtime.notifySlotBooked(slotId).catch(() => {});
      await deliver(
        mailer,
        bookingMails(env, {
          slotId,
          startsAt: new Date(booked.startsAt),
          bookedAt: new Date(booked.bookedAt ?? Date.now()),
          duration: booked.duration,
          sessionType: claim.sessionType,
          firstName: claim.firstName,
          lastName: claim.lastName,
          email: claim.email,
          message: claim.message,
          userId: claim.userId,
          amountCents: claim.amountCents,
          couponUsed: claim.couponUsed,
          paypalOrderId: claim.paypalOrderId,
        }),
      );
      // The capture names who paid (SPEC.md section 7: the success message uses the payer's
      // first name); PayPal may leave the name out, then the account's first name stands in.
      const answer: BookResponse = captured
        ? { success: true, message: BOOKING_CONFIRMED, payerFirstName: captured.payer.firstName.trim() || account.firstName }
        : { success: true, message: BOOKING_CONFIRMED };
      return c.json(answer);
    },
  );
