/**
 * A client booking a paid one-to-one session (SPEC.md sections 3, 5, 7, 8). Shared with the
 * booking island: no server-only imports here.
 */
import { z } from 'zod';
import { email, nameText, optionalText } from './common.ts';
import { payingGiftCardCode } from './gift-card-code.ts';

/** SPEC.md section 3: the booking page's session types. */
export const SESSION_TYPES = ['Individual Yoga Session (60 min)', 'Yoga Therapy Session (60 min)'] as const;
export type SessionType = (typeof SESSION_TYPES)[number];

/*
 * The amount a paid session accepts is one range per session type, hers to set (issue 30,
 * decision 0032): contract/settings.ts (bookingAmounts, amountRange), read by the booking page
 * and the server alike (api/booking/finalize-booking.ts acceptedAmounts).
 */

/** Messages (SPEC.md sections 5 and 8 where it gives them). */
export const COUPON_VALID = 'Coupon valid. Click Continue to apply.';
export const COUPON_INVALID = 'Invalid code. Double-check or continue without one.';
export const BOOKING_CONFIRMED = 'Booking successful. Check your email for confirmation and details.';
export const BOOKING_FAILED = 'We couldn’t confirm your booking. Please try again or contact support if the issue persists.';
export const PAYMENT_UNSUCCESSFUL = 'Your payment could not be processed. Please check your payment details and try again.';
export const PAYMENT_SERVICE_UNAVAILABLE = 'We couldn’t load the payment provider. Please try again later.';
export const MISSING_PAYMENT = 'Please choose time, session type and/or complete payment before finalizing your appointment.';
export const PAYMENT_AND_COUPON = 'Use either a payment or the coupon, not both.';
/** Issue 33: a session paid with a gift card. */
export const GIFT_CARD_CHANGED_BOOKING = 'Your gift card’s balance changed while you were booking. Nothing was taken from it. Please check it and try again.';
/** POST …/paypal-order with a card that holds the whole amount: nothing to pay through PayPal. */
export const GIFT_CARD_PAYS_ALL = 'Your gift card pays the whole session, so there is nothing to pay through PayPal: book it with the card.';
export const GIFT_CARD_AMOUNT_REQUIRED = 'Please enter the amount the gift card pays for the session.';
export const giftCardShort = (balanceCents: number, amountCents: number) =>
  `Your gift card holds $${(balanceCents / 100).toFixed(2)}, less than the $${(amountCents / 100).toFixed(2)} you chose. Choose an amount it covers, or pay with PayPal.`;
/** PUT /book with useCredit and no credit that fits (issue 32): names the session type. */
export const noCreditFor = (sessionType: string) => `You have no session credit for a ${sessionType}. Please pay for it or use a coupon instead.`;
export const SESSION_TYPE_REQUIRED = 'Please choose a session type.';
export const AMOUNT_INVALID = 'Please enter the amount in dollars, e.g. 80 or 80.50.';
export const PAYMENT_FOR_ANOTHER_BOOKING = 'This payment was made for another booking. Please pay for this time slot.';
export const PAYMENT_ALREADY_USED = 'This payment has already been used.';
export const SLOT_NOT_FOUND = 'This time slot doesn’t exist anymore. Please pick another.';
export const SLOT_TAKEN = 'This time slot is no longer available. Please pick another.';
export const SLOT_PAST = 'This time slot has passed. Please pick another.';
/** Past BOOKING_COUPON_LIMIT coupon bookings of one client (issue 12): nothing is booked. */
export const couponLimitReached = (limit: number) =>
  `The coupon covers ${limit} ${limit === 1 ? 'session' : 'sessions'}, and you have used it for all of them. Please pay for this session, or contact me.`;
/** Under Finalize Booking once PayPal's window approved the payment (issue 20): nothing is booked or charged yet. */
export const ONE_STEP_REMAINS = 'Payment approved. One step remains: press Finalize Booking to book your session.';
/**
 * SPEC.md section 5: the check on Continue, in its words for the seeded yoga therapy range; the
 * page writes it with the chosen type's range (contract/settings.ts invalidPaymentAmount).
 */
export const INVALID_PAYMENT_AMOUNT = 'The amount must be at least $10. Please adjust your entry and try again.';
export const USER_ID_REQUIRED = 'We couldn’t find your User ID. Please log in again or contact me if the issue persists.';

/** Dollars to cents; the amount may have at most two decimals. */
export const toCents = (dollars: number) => Math.round(dollars * 100);

/**
 * An amount in dollars, as a number or a decimal string, with at most two decimals. Whether it is
 * in the range she accepts is the server's to check against her settings (contract/settings.ts).
 */
export const bookingAmount = z
  .union(
    [
      z.number({ error: AMOUNT_INVALID }),
      z
        .string()
        .trim()
        .regex(/^\d{1,6}(\.\d{1,2})?$/, AMOUNT_INVALID)
        .transform(Number),
    ],
    {
      error: AMOUNT_INVALID,
    },
  )
  .refine((n) => Number.isFinite(n) && n > 0 && n < 1e6 && Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, AMOUNT_INVALID);

export const sessionType = z.enum(SESSION_TYPES, { error: SESSION_TYPE_REQUIRED });

/** POST /api/bookings/{slotId}/paypal-order */
export const paypalOrderRequest = z.object({
  amount: bookingAmount,
  sessionType,
  /** Issue 33: a gift card pays what it holds of `amount`; the order is made for the rest. */
  giftCardCode: payingGiftCardCode.transform((s) => s ?? undefined),
});
export type PaypalOrderRequest = z.input<typeof paypalOrderRequest>;

/** POST /api/bookings/validate-coupon */
export const couponRequest = z.object({ code: z.string({ error: COUPON_INVALID }).max(64, COUPON_INVALID) });
export type CouponRequest = z.input<typeof couponRequest>;

const blankToUndefined = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);

/**
 * PUT /api/bookings/{slotId}/book: exactly one of a PayPal order (approved in the browser) or
 * the booking coupon.
 */
export const bookRequest = z
  .object({
    userId: z.string({ error: USER_ID_REQUIRED }).trim().min(1, USER_ID_REQUIRED).max(64, USER_ID_REQUIRED),
    firstName: nameText('First name', 100),
    lastName: nameText('Last name', 100),
    email,
    sessionType,
    message: optionalText('Message', 2000),
    paypalOrderId: z.preprocess(
      blankToUndefined,
      z
        .string({ error: PAYMENT_UNSUCCESSFUL })
        .trim()
        .regex(/^[A-Za-z0-9-]{1,64}$/, PAYMENT_UNSUCCESSFUL)
        .optional(),
    ),
    couponCode: z.preprocess(blankToUndefined, z.string({ error: COUPON_INVALID }).max(64, COUPON_INVALID).optional()),
    /** Issue 32: one of the client's session credits pays for it (no PayPal, no coupon). */
    useCredit: z.literal(true, { error: 'useCredit must be true when given' }).optional(),
    /** Issue 33: a gift card pays `amount` (dollars, in her range for the session type). */
    giftCardCode: payingGiftCardCode.transform((s) => s ?? undefined),
    amount: bookingAmount.optional(),
  })
  .superRefine((b, ctx) => {
    // A gift card with a PayPal order is one way: the card pays what it holds, PayPal the rest.
    const ways = [b.paypalOrderId ?? b.giftCardCode, b.couponCode, b.useCredit].filter((w) => w !== undefined).length;
    if (ways === 0) ctx.addIssue({ code: 'custom', message: MISSING_PAYMENT });
    if (ways > 1) ctx.addIssue({ code: 'custom', message: PAYMENT_AND_COUPON });
    if (b.giftCardCode !== undefined && b.amount === undefined) ctx.addIssue({ code: 'custom', message: GIFT_CARD_AMOUNT_REQUIRED, path: ['amount'] });
  });
export type BookRequest = z.input<typeof bookRequest>;

/**
 * The answer of PUT /api/bookings/{slotId}/book on success. `payerFirstName` comes with a paid
 * booking only (a coupon has no payer): the first name PayPal reports for the buyer who paid,
 * which SPEC.md section 7 puts in the page's 'Payment Successful' dialog; the account's first
 * name when PayPal sends none. The payer may be someone else than the account holder.
 */
export interface BookResponse {
  success: true;
  message: string;
  payerFirstName?: string;
}

/** POST /api/bookings/validate-coupon: 200 when valid, 400 when not, with COUPON_VALID / COUPON_INVALID. */
export interface BookingCouponView {
  valid: boolean;
  message: string;
}

/** POST /api/bookings/{slotId}/paypal-order on success: the PayPal order the buyer approves. */
export interface BookingOrderView {
  orderID: string;
}
