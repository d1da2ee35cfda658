/**
 * What a paid event costs (issue 34, decision 0043): a fixed price, or her sliding scale with
 * pay-what-you-can from the lowest to the highest; no price at all is a free event, as the spec
 * has it. Shared by the admin's event form, the public sign-up page and the API.
 */
import { z } from 'zod';
import { email } from './common.ts';
import { humanToken, personName, phone } from './forms.ts';

export * from './event-price-rules.ts';

/** The most an event place may cost, in cents. */
export const EVENT_PRICE_MAX_CENTS = 100_000;

/** POST /api/signup for a paid event without a payment (402): nothing is held. */
export const EVENT_PAYMENT_REQUIRED = 'This event has a price: choose what you pay and pay for your place to sign up.';
/** Below the lowest, above the highest, or not the fixed price: refused before any PayPal order. */
export const EVENT_AMOUNT_INVALID = 'Please choose an amount within the price range of this event.';
export const EVENT_IS_FREE = 'This event is free: sign up without paying.';
export const EVENT_CANCELLED = 'This event has been cancelled.';
/** Her hold lapsed while she was in PayPal's window and someone took the place: no capture is made. */
export const EVENT_HOLD_LAPSED = 'The place held for your payment was released and the event is now full. Nothing was charged.';
export const EVENT_PAYMENT_FOR_ANOTHER = 'This payment was made for another sign-up. Please start again.';
/** How many unpaid places one client address may hold in one event at a time (issue 47). */
export const HOLDS_PER_ADDRESS = 2;
/** The third hold asked from one address while its two are unpaid (429). */
export const TOO_MANY_HOLDS =
  'Two places in this event are already held from your connection while they are paid for. Finish one of those payments, or wait until a hold lapses, before holding another.';

/** Her day and time in words, on her clocks ("Tuesday, December 8, 2026" and "10:42 AM PST"). */
export interface WhenInWords {
  date: string;
  time: string;
}

/**
 * Every free place is held for someone paying right now (issue 47): not "This class is full.",
 * but how many are held and when the first comes free if its buyer does not pay.
 */
export const placesHeldMessage = (held: number, firstFree: WhenInWords) =>
  held === 1
    ? `The last place is held for someone paying for it right now. If they don't pay, it is free again at ${firstFree.time} on ${firstFree.date}: please try again then.`
    : `The last ${held} places are held for people paying for them right now. If they don't pay, the first is free again at ${firstFree.time} on ${firstFree.date}: please try again then.`;

/** A place is held already for another spelling of this mailbox (ana+1@ for ana@): one hold per buyer. */
export const emailHoldsPlaceMessage = (until: WhenInWords) =>
  `A place in this event is already held for this e-mail address while it is paid for, until ${until.time} on ${until.date}. Finish that payment, or try again after then.`;
/** A paid place is bought, never given by the line: the line is for a full event. */
export const PLACE_FREE_PAY_INSTEAD = 'A place is free in this event: sign up and pay for it instead of joining the waitlist.';
export const EVENT_NOT_FOUND = 'Event not found';
export const CREDIT_LOGIN_NEEDED = 'Please log in to use your class credits.';
export const CREDIT_EMAIL_MISMATCH = "Sign up with your account's e-mail to use its class credits.";
export const GIFT_CARD_SHORT_FOR_PLACE = 'Your gift card holds less than this place costs. Choose an amount it covers, or pay with PayPal.';
export const NO_CLASS_CREDIT = 'You have no class credit left that covers this class. Choose what you pay instead.';
export const EVENT_ALREADY_CANCELLED = 'This event is cancelled already.';
export const EVENT_CANCELLED_DONE = 'Event cancelled. Everyone signed up is mailed, and every paid place is refunded in full.';
export const EVENT_DELETE_HAS_PAID = 'Some of these events have paid places: cancel them first, so everyone is refunded.';

const cents = (label: string) =>
  z
    .number({ error: `${label} must be a whole number of cents` })
    .int(`${label} must be a whole number of cents`)
    .min(100, `${label} must be at least $1`)
    .max(EVENT_PRICE_MAX_CENTS, `${label} must be at most $1,000`);

/** An event's price fields as the admin sends them: all absent (free), one price, or the three of a scale. */
export const eventPriceFields = {
  priceCents: cents('Price').nullable().optional(),
  minPriceCents: cents('Lowest amount').nullable().optional(),
  suggestedPriceCents: cents('Suggested amount').nullable().optional(),
  maxPriceCents: cents('Highest amount').nullable().optional(),
};

/** POST /api/events/{id}/paypal-order: the place held while the buyer pays `amountCents`. */
export const eventOrderRequest = z.object({
  amountCents: z
    .number({ error: EVENT_AMOUNT_INVALID })
    .int(EVENT_AMOUNT_INVALID)
    .min(1, EVENT_AMOUNT_INVALID)
    .max(EVENT_PRICE_MAX_CENTS, EVENT_AMOUNT_INVALID),
  name: personName,
  email,
  phone,
  /** The sign-up form's human check (action 'signup_form_submit'), asked before any place is held (issue 47). */
  recaptchaToken: humanToken,
});
export type EventOrderRequest = z.output<typeof eventOrderRequest>;

/** POST /api/admin/events/{id}/cancel */
export interface EventCancelledView {
  message: string;
  /** How many paid places are refunded. */
  refunds: number;
}
