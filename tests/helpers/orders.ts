import type { DB } from '../../db/client.ts';

/**
 * An order's tax fields where the shop collects none: a fresh site (issue 29) shipping to Oregon,
 * which has no sales tax (issue 24). No tax line is named, and there is no place or source.
 */
export const UNTAXED_OREGON = {
  tax: 0,
  taxCents: 0,
  taxState: 'OR',
  taxRatePercent: 0,
  taxLabel: '',
  taxOnShipping: false,
  taxZip: null,
  taxLocationCode: null,
  taxJurisdiction: null,
  taxRateSource: null,
} as const;

/**
 * The money of the cart both checkout suites buy (two tins at $18 and one at $20 with WELCOME10,
 * shipped to Oregon, paid in full through PayPal): 2 × $18 + $20 = $56; 10% off = $5.60; + $5 shipping.
 */
export const WELCOME10_CART_MONEY = {
  itemsTotal: 56,
  discount: 5.6,
  shipping: 5,
  total: 55.4,
  giftCardCents: 0,
  amountDueCents: 5_540,
  ...UNTAXED_OREGON,
} as const;

/** That cart's order once placed: shipped, with the coupon, paid by the emulator's buyer (whose name PayPal reports). */
export const WELCOME10_ORDER = { ...WELCOME10_CART_MONEY, isLocalPickup: false, couponCode: 'WELCOME10', payerName: 'Ana Lima' } as const;

let tins = 0;
/** A product at $18 with `inventory` tins on the shelf, named Tin 1, Tin 2, …; its id. */
export async function addTin(db: DB, inventory: number): Promise<string> {
  const row = await db
    .insertInto('products')
    .values({ name: `Tin ${++tins}`, priceCents: 1800, inventory })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
