/**
 * A gift card's code as a buyer types it to pay (issue 33), apart from the rest of
 * contract/gift-cards.ts so that the cart's and the booking's schemas take it without a circle
 * (gift-cards.ts reads the booking's payment words).
 */
import { z } from 'zod';

/** The one answer for every code that is no card's (the balance, the cart, the booking). */
export const GIFT_CARD_NOT_FOUND = 'We couldn’t find a gift card with that code. Please check it and try again.';

/** A code to pay with (the cart, the booking): empty or absent is none (null). */
export const payingGiftCardCode = z
  .string({ error: 'Enter the gift card code' })
  .trim()
  .max(40, GIFT_CARD_NOT_FOUND)
  .nullish()
  .transform((s) => (s ? s : null));
