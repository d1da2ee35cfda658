/**
 * Private chocolate tastings (issue 34): the request on /chocolates, her quote, the client's pay
 * page and her list. Shared with the islands: zod only. Each field has a doc line.
 */
import { z } from 'zod';
import { clockTime, email, isoDate, nameText, requiredText } from './common.ts';
import { humanToken, phone } from './forms.ts';
import { giftCardPurchaseRequest } from './gift-cards.ts';

/** The human check's action of the request form (SPEC.md section 7's per-action reCAPTCHA). */
export const TASTING_CAPTCHA_ACTION = 'tasting_request';

export const TASTING_REQUEST_SENT = 'Thank you! Your request was sent. You will get a quote by e-mail soon.';
export const TASTING_DATES_COUNT = 'Please give two or three possible days.';
export const TASTING_DATES_DISTINCT = 'Please give different days.';
export const TASTING_DATE_PAST = 'The days must be today or later.';
export const TASTING_NOT_FOUND = 'No such tasting request.';
export const TASTING_LINK_INVALID = 'This payment link is not valid. Please use the link in your e-mail.';
export const TASTING_DEPOSIT_PAID = 'The deposit is paid: the quote can no longer change.';
export const TASTING_NOT_QUOTED = 'This request has no quote yet.';
export const TASTING_DEPOSIT_FIRST = 'The deposit has not been paid yet.';
export const TASTING_NOTHING_DUE = 'Nothing is due on this tasting.';
export const TASTING_PART_NOT_DUE = 'This payment is not the one due on this tasting. Please reload the page.';
export const TASTING_PAYMENT_FOR_ANOTHER = 'This payment was made for another tasting payment. Please reload the page and pay again.';

/** The most guests a tasting is quoted for. */
export const TASTING_MAX_GUESTS = 200;
/** The most a tasting is quoted at: $20,000. */
export const TASTING_MAX_CENTS = 20_000_00;

/**
 * Her standard tasting (the /chocolates page's "from $520 for two hours for twenty people"): the
 * quote the admin's template fills in, on the client's first day, at 18:00, at the client's place.
 */
export const STANDARD_TASTING = { priceCents: 520_00, depositPercent: 50, time: '18:00', hours: 2, guests: 20 } as const;

/** `POST /api/tastings`: the request form on /chocolates. */
export const tastingRequest = z.object({
  /** Who asks: the quote is addressed to them. */
  name: nameText('Name'),
  /** Where the quote and its pay link go. */
  email,
  /** For her to call about the details. */
  phone,
  /** What it is for (a birthday, a team day): the event in her agenda is named for it. */
  occasion: requiredText('Occasion', 100).refine((s) => !/[\r\n]/.test(s), 'Occasion must be on one line'),
  /** How many people will taste. */
  guests: z
    .number({ error: 'Number of guests must be a whole number' })
    .int('Number of guests must be a whole number')
    .min(1, 'Number of guests must be at least 1')
    .max(TASTING_MAX_GUESTS, `Number of guests must be at most ${TASTING_MAX_GUESTS}`),
  /** Two or three possible days (YYYY-MM-DD, her calendar), today or later: the server checks the day. */
  dates: z
    .array(isoDate, { error: TASTING_DATES_COUNT })
    .min(2, TASTING_DATES_COUNT)
    .max(3, TASTING_DATES_COUNT)
    .refine((days) => new Set(days).size === days.length, TASTING_DATES_DISTINCT),
  /** Where: an address, or "your kitchen". */
  place: requiredText('Place', 300),
  /** The human check's token for the action `tasting_request`. */
  recaptchaToken: humanToken,
});
export type TastingRequest = z.output<typeof tastingRequest>;

/** Cents of a tasting: whole, positive, at most TASTING_MAX_CENTS. */
const tastingCents = (label: string) =>
  z
    .number({ error: `${label} must be a whole number of cents` })
    .int(`${label} must be a whole number of cents`)
    .min(1_00, `${label} must be at least $1`)
    .max(TASTING_MAX_CENTS, `${label} must be at most $20,000`);

/** `POST /api/admin/tastings/{id}/quote`: her answer to a request. */
export const tastingQuote = z
  .object({
    /** The whole price, in cents. */
    priceCents: tastingCents('Price'),
    /** What the client pays now to hold the day, in cents: at most the price. */
    depositCents: tastingCents('Deposit'),
    /** The day (YYYY-MM-DD, her calendar), today or later. */
    date: isoDate,
    /** The start (HH:mm, her clocks). */
    time: clockTime,
    /** Where it happens. */
    place: requiredText('Place', 300),
  })
  .refine((q) => q.depositCents <= q.priceCents, { message: 'The deposit must not be more than the price', path: ['depositCents'] });
export type TastingQuoteInput = z.output<typeof tastingQuote>;

/** What the quote form holds before she sends it: her standard tasting for this request. */
export function standardQuote(request: { dates: readonly string[]; place: string }): TastingQuoteInput {
  const { priceCents, depositPercent, time } = STANDARD_TASTING;
  return { priceCents, depositCents: Math.round((priceCents * depositPercent) / 100), date: request.dates[0] ?? '', time, place: request.place };
}

/** The token of the pay link (as the quote's mail carries it). */
export const tastingLinkToken = z.string({ error: TASTING_LINK_INVALID }).trim().min(1, TASTING_LINK_INVALID).max(100, TASTING_LINK_INVALID);

export const TASTING_PARTS = ['deposit', 'balance'] as const;
export type TastingPart = (typeof TASTING_PARTS)[number];
const part = z.enum(TASTING_PARTS, { error: 'Part must be deposit or balance' });

/** `POST /api/tastings/quotes/{id}/paypal-order`: the order for what is due now. */
export const tastingOrderRequest = z.object({
  /** The pay link's token. */
  token: tastingLinkToken,
  /** Which payment: the deposit, then the balance. */
  part,
});

/** `POST /api/tastings/quotes/{id}/pay`: that payment, with the PayPal order the client approved. */
export const tastingPaymentRequest = tastingOrderRequest.extend({
  /** The approved PayPal order, made by the paypal-order call. */
  paypalOrderId: giftCardPurchaseRequest.shape.paypalOrderId,
});

/** `POST /api/admin/tastings/{id}/balance`: the balance she was paid by hand on the day. */
export const tastingBalanceRequest = z.object({
  /** How she was paid. */
  method: z.enum(['cash', 'check'], { error: 'Method must be cash or check' }),
});

/** `GET /api/tastings/quotes/{id}?token=`: what the pay page shows. */
export interface TastingQuoteView {
  _id: string;
  name: string;
  occasion: string;
  guests: number;
  date: string;
  time: string;
  place: string;
  priceCents: number;
  depositCents: number;
  /** Paid so far (deposit and balance). */
  paidCents: number;
  /** What is due now, or null when all is paid. */
  due: { part: TastingPart; amountCents: number } | null;
}

/** A payment of a tasting, as her list shows it. */
export interface TastingPaymentView {
  part: TastingPart;
  amountCents: number;
  method: 'paypal' | 'cash' | 'check';
  paidOn: string;
}

/** `GET /api/admin/tastings`: a request with her quote and its payments, newest first. */
export interface AdminTastingView {
  _id: string;
  createdAt: string;
  name: string;
  email: string;
  phone: string;
  occasion: string;
  guests: number;
  dates: string[];
  place: string;
  quote: {
    _id: string;
    priceCents: number;
    depositCents: number;
    date: string;
    time: string;
    place: string;
    depositPaid: boolean;
    /** The private event holding the day in her agenda, once the deposit is in. */
    eventId: string | null;
    paidCents: number;
    payments: TastingPaymentView[];
  } | null;
}

/** `POST /api/tastings/quotes/{id}/pay` → 201. */
export interface TastingPaidView {
  part: TastingPart;
  amountCents: number;
  payerFirstName: string;
}
