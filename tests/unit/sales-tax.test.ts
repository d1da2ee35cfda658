/**
 * Issue 24: the sales tax arithmetic (contract/tax.ts, used by api/shop/sales-tax.ts and the
 * cart): half a cent rounds up, the coupon comes off before the tax, shipping is taxed only where
 * the state taxes it, a rate applies from its start date, pickup pays none.
 */
import { describe, expect, it } from 'vitest';
import { addTax, formatRate, percentToPpm, rateInEffect, taxLabel, taxOn, usState } from '../../contract/tax.ts';
import { priceCart } from '../../contract/pricing.ts';
import { shipStateChanged } from '../../api/shop/sales-tax.ts';

const WA = { state: 'WA', ratePpm: 65_000, shippingTaxable: false };

describe('the tax on an amount', () => {
  it('rounds half a cent up, and below half down', () => {
    // $1.00 at 6.5% = 6.5¢ → 7¢; $0.10 at 5% = 0.5¢ → 1¢; $0.09 at 5% = 0.45¢ → 0¢.
    expect(taxOn(100, 65_000)).toBe(7);
    expect(taxOn(10, 50_000)).toBe(1);
    expect(taxOn(9, 50_000)).toBe(0);
    // $18.00 at 7.25% = 130.5¢ → 131¢; at Missouri's 4.225%: 76.05¢ → 76¢.
    expect(taxOn(1800, 72_500)).toBe(131);
    expect(taxOn(1800, 42_250)).toBe(76);
    expect(taxOn(0, 65_000)).toBe(0);
    expect(() => taxOn(-1, 65_000)).toThrow(RangeError);
    expect(() => taxOn(100, 1.5)).toThrow(RangeError);
  });

  it('takes the coupon off before the tax', () => {
    const priced = priceCart([{ unitPriceCents: 1800, quantity: 2 }], { percentOff: 15, isLocalPickup: false });
    if (!priced.ok) throw new Error('priced');
    // Items 36.00 − 5.40 = 30.60 taxable; 6.5% = 198.9¢ → 199¢; shipping 5.00 not taxed in WA.
    const t = addTax(priced.totals, 'WA', WA);
    expect(t).toEqual({
      itemsTotalCents: 3600,
      discountCents: 540,
      shippingCents: 500,
      taxCents: 199,
      taxRatePpm: 65_000,
      taxState: 'WA',
      taxOnShipping: false,
      totalCents: 3600 - 540 + 500 + 199,
    });
  });

  it('taxes shipping only where the state taxes it', () => {
    const totals = { itemsTotalCents: 2000, discountCents: 0, shippingCents: 500, totalCents: 2500 };
    expect(addTax(totals, 'WA', WA).taxCents).toBe(130);
    const taxed = addTax(totals, 'TX', { state: 'TX', ratePpm: 62_500, shippingTaxable: true });
    // (20.00 + 5.00) × 6.25% = 156.25¢ → 156¢.
    expect(taxed).toMatchObject({ taxCents: 156, taxOnShipping: true, totalCents: 2656 });
    // Pickup: no shipping, no tax; a state without sales tax: 0.
    expect(addTax({ ...totals, shippingCents: 0, totalCents: 2000 }, null, null)).toMatchObject({ taxCents: 0, taxState: null, totalCents: 2000 });
    expect(addTax(totals, 'OR', { state: 'OR', ratePpm: 0, shippingTaxable: false })).toMatchObject({ taxCents: 0, taxState: 'OR', totalCents: 2500 });
  });
});

describe('the rate of a day', () => {
  const rates = [
    { state: 'WA', ratePpm: 65_000, shippingTaxable: false, startsOn: '2026-01-01' },
    { state: 'WA', ratePpm: 70_000, shippingTaxable: true, startsOn: '2026-07-01' },
    { state: 'CA', ratePpm: 72_500, shippingTaxable: false, startsOn: '2026-01-01' },
  ];

  it('is the latest start not after the day; none before the first', () => {
    expect(rateInEffect(rates, 'WA', '2026-06-30')?.ratePpm).toBe(65_000);
    expect(rateInEffect(rates, 'WA', '2026-07-01')?.ratePpm).toBe(70_000);
    expect(rateInEffect(rates, 'WA', '2027-03-01')?.ratePpm).toBe(70_000);
    expect(rateInEffect(rates, 'WA', '2025-12-31')).toBeUndefined();
    expect(rateInEffect(rates, 'NY', '2026-07-01')).toBeUndefined();
  });
});

describe('words and states', () => {
  it('writes the rate as the cart shows it', () => {
    expect(taxLabel('WA', 65_000)).toBe('Tax (WA 6.5%)');
    expect(formatRate(42_250)).toBe('4.225%');
    expect(formatRate(70_000)).toBe('7%');
    expect(formatRate(0)).toBe('0%');
    expect(percentToPpm(6.875)).toBe(68_750);
  });

  it('knows the states, and a PayPal address in another one', () => {
    expect(usState.parse(' wa ')).toBe('WA');
    expect(usState.safeParse('XX').success).toBe(false);
    expect(usState.safeParse('Washington').success).toBe(false);
    expect(shipStateChanged('WA', { country: 'US', state: 'WA' })).toBe(false);
    expect(shipStateChanged('WA', { country: 'US', state: 'WASHINGTON' })).toBe(false);
    expect(shipStateChanged('WA', { country: 'US', state: 'OR' })).toBe(true);
    expect(shipStateChanged('WA', { country: 'CA', state: 'BC' })).toBe(true);
    expect(shipStateChanged(null, { country: 'US', state: 'OR' })).toBe(false);
    expect(shipStateChanged('WA', null)).toBe(false);
  });
});
