import { describe, expect, it } from 'vitest';
import { COUPON_MINIMUM_CENTS, couponAllowed, discountCents, itemsTotalCents, priceCart, SHIPPING_CENTS } from '../../../contract/pricing.ts';

const tins = (...lines: [number, number][]) => lines.map(([unitPriceCents, quantity]) => ({ unitPriceCents, quantity }));

describe('cart pricing in cents', () => {
  it('adds price × quantity per line', () => {
    expect(itemsTotalCents(tins([1800, 2], [1250, 3]))).toBe(3600 + 3750);
    expect(itemsTotalCents([])).toBe(0);
  });

  it('refuses prices and quantities a cart can not have', () => {
    expect(() => itemsTotalCents(tins([-1, 1]))).toThrow(RangeError);
    expect(() => itemsTotalCents(tins([18.5, 1]))).toThrow(RangeError);
    expect(() => itemsTotalCents(tins([1800, 0]))).toThrow(RangeError);
    expect(() => itemsTotalCents(tins([1800, 1.5]))).toThrow(RangeError);
  });

  it('charges $5 shipping, nothing with local pickup', () => {
    expect(SHIPPING_CENTS).toBe(500);
    expect(priceCart(tins([1800, 1]), { isLocalPickup: false })).toEqual({
      ok: true,
      totals: { itemsTotalCents: 1800, discountCents: 0, shippingCents: 500, totalCents: 2300 },
    });
    expect(priceCart(tins([1800, 1]), { isLocalPickup: true })).toEqual({
      ok: true,
      totals: { itemsTotalCents: 1800, discountCents: 0, shippingCents: 0, totalCents: 1800 },
    });
  });

  it('takes the coupon off the items only, never off shipping', () => {
    const priced = priceCart(tins([1800, 2], [2000, 1]), { percentOff: 15, isLocalPickup: false });
    // 5600 × 15% = 840
    expect(priced).toEqual({ ok: true, totals: { itemsTotalCents: 5600, discountCents: 840, shippingCents: 500, totalCents: 5260 } });
  });

  it('rounds the discount to the nearest cent, half a cent up', () => {
    expect(discountCents(1999, 10)).toBe(200); // 199.9
    expect(discountCents(1505, 10)).toBe(151); // 150.5
    expect(discountCents(1504, 10)).toBe(150); // 150.4
    expect(discountCents(1633, 15)).toBe(245); // 244.95
    expect(discountCents(1500, 100)).toBe(1500);
  });

  it('applies a coupon from $15.00 of items, and refuses it below', () => {
    expect(COUPON_MINIMUM_CENTS).toBe(1500);
    expect(couponAllowed(1500)).toBe(true);
    expect(couponAllowed(1499)).toBe(false);
    expect(priceCart(tins([1500, 1]), { percentOff: 10, isLocalPickup: true })).toEqual({
      ok: true,
      totals: { itemsTotalCents: 1500, discountCents: 150, shippingCents: 0, totalCents: 1350 },
    });
    // Shipping does not count towards the minimum.
    expect(priceCart(tins([1200, 1]), { percentOff: 10, isLocalPickup: false })).toEqual({ ok: false, reason: 'coupon_minimum' });
    expect(priceCart(tins([1499, 1]), { percentOff: 10, isLocalPickup: true })).toEqual({ ok: false, reason: 'coupon_minimum' });
  });

  it('prices without a coupon whatever the total', () => {
    expect(priceCart(tins([1200, 1]), { percentOff: null, isLocalPickup: false })).toEqual({
      ok: true,
      totals: { itemsTotalCents: 1200, discountCents: 0, shippingCents: 500, totalCents: 1700 },
    });
  });
});
