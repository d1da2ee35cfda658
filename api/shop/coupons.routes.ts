import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { validateJson } from '../validation.ts';
import { COUPON_MINIMUM, INVALID_COUPON, validateCouponRequest, type CouponView } from '../../contract/coupons.ts';
import { couponAllowed } from '../../contract/pricing.ts';
import { findActiveCoupon } from './coupons.repo.ts';
import { LIMITS } from '../services/limits.ts';

/**
 * POST /api/chocolates/validate-coupon (SPEC.md sections 5, 7, 8): is this cart coupon valid,
 * and for what fraction. Mounted on /chocolates beside the products sub-app. Rate limited:
 * codes must not be guessable by trying many.
 */
export const coupons = new Hono<AppEnv>().post('/validate-coupon', rateLimit(LIMITS.shopCoupon), validateJson(validateCouponRequest), async (c) => {
  const { code, itemsTotal } = c.req.valid('json');
  const coupon = await findActiveCoupon(c.var.services.db, code);
  if (!coupon) return c.json({ message: INVALID_COUPON }, 404);
  if (itemsTotal !== undefined && !couponAllowed(Math.round(itemsTotal * 100))) return c.json({ message: COUPON_MINIMUM }, 400);
  return c.json({ code: coupon.code, discount: coupon.percentOff / 100 } satisfies CouponView);
});
