/**
 * Cart coupons (SPEC.md sections 4, 5, 8). Shared with the cart island: no server-only imports.
 * The codes and their fractions live only in the database; the browser learns a fraction by
 * asking POST /api/chocolates/validate-coupon.
 */
import { z } from 'zod';
import { isCleanText } from './common.ts';
import { INVALID_COUPON, MAX_COUPON_LENGTH, normalizeCouponCode } from './pricing.ts';

// The cart's words and the code's form, without zod, are in contract/pricing.ts (issue 36).
export { COUPON_MINIMUM, INVALID_COUPON, MAX_COUPON_LENGTH, normalizeCouponCode } from './pricing.ts';

/**
 * POST /api/chocolates/validate-coupon: {code, itemsTotal?}. `itemsTotal` (dollars) lets the
 * server say 'Coupons valid only on orders $15 or more' before checkout; checkout checks again
 * against database prices. A missing, empty or overlong code is 'Invalid coupon code' (400).
 */
export const validateCouponRequest = z
  .object({
    code: z.unknown().optional(),
    itemsTotal: z
      .number({ error: 'itemsTotal must be a number of dollars' })
      .min(0, 'itemsTotal cannot be negative')
      .max(10_000_000, 'itemsTotal is too large')
      .nullish(),
  })
  .superRefine((o, ctx) => {
    const ok =
      typeof o.code === 'string' &&
      normalizeCouponCode(o.code) !== '' &&
      normalizeCouponCode(o.code).length <= MAX_COUPON_LENGTH &&
      // A NUL can't be looked up in PostgreSQL (the query fails): no code has one.
      isCleanText(o.code);
    // No path: the message is exactly the one the cart shows.
    if (!ok) ctx.addIssue({ code: 'custom', message: INVALID_COUPON });
  })
  .transform((o) => ({ code: normalizeCouponCode(o.code as string), itemsTotal: o.itemsTotal ?? undefined }));
export type ValidateCouponRequest = z.input<typeof validateCouponRequest>;

/** 200 answer: the code as stored and its discount as a fraction of the items total (0.15). */
export interface CouponView {
  code: string;
  discount: number;
}
