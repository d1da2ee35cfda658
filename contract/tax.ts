/**
 * Sales tax on shipped chocolate orders (issue 24, decision 0026): the states, the arithmetic in
 * integer cents and the admin's rate table. Pure and zod only, so the cart shows the numbers the
 * server will charge; the server's numbers always win.
 *
 * A rate is in parts per million of the taxable amount (6.5% = 65 000 ppm), which holds every
 * state rate exactly (Missouri's 4.225% = 42 250). The taxable amount is the items after the
 * coupon, plus shipping where the state taxes shipping. Tax = that × rate, half a cent rounding up.
 */
import { z } from 'zod';
import { isoDate } from './common.ts';
import type { Totals } from './pricing.ts';

/** The 50 states and DC: where an order may ship. */
export const US_STATES: Readonly<Record<string, string>> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
};

export const SHIP_TO_STATE_REQUIRED = 'Please choose the state the order ships to.';
export const UNKNOWN_STATE = 'Please choose a US state (two letters, e.g. WA) for shipping.';
/** The cart's and the admin's note: what the seeded rates are. */
export const STATE_RATES_NOTE =
  'Rates are each state’s base (state-level) sales tax rate for 2026; local and county taxes are not included. Check them with each state’s revenue department.';

/** A US state's two letters (upper-cased), one of US_STATES. */
export const usState = z
  .string({ error: UNKNOWN_STATE })
  .trim()
  .max(2, UNKNOWN_STATE)
  .transform((s) => s.toUpperCase())
  .refine((s) => Object.hasOwn(US_STATES, s), UNKNOWN_STATE);

export const PPM = 1_000_000;

/** A rate as it applies to an order: the state, its rate in ppm and whether shipping is taxed. */
export interface TaxRate {
  state: string;
  ratePpm: number;
  shippingTaxable: boolean;
}

/** A dated rate of the table: it applies from `startsOn` (YYYY-MM-DD) until a later one starts. */
export interface DatedTaxRate extends TaxRate {
  startsOn: string;
}

/** The rate of `state` in effect on `date` (YYYY-MM-DD): the latest start not after it; undefined before the first. */
export function rateInEffect<R extends DatedTaxRate>(rates: readonly R[], state: string, date: string): R | undefined {
  let best: R | undefined;
  for (const r of rates) if (r.state === state && r.startsOn <= date && (!best || r.startsOn > best.startsOn)) best = r;
  return best;
}

/** round(base × ppm / 1 000 000), half a cent rounding up; integer arithmetic only. */
export function taxOn(baseCents: number, ratePpm: number): number {
  if (!Number.isSafeInteger(baseCents) || baseCents < 0) throw new RangeError(`Invalid taxable amount: ${baseCents}`);
  if (!Number.isInteger(ratePpm) || ratePpm < 0 || ratePpm > 200_000) throw new RangeError(`Invalid rate: ${ratePpm}`);
  return Math.floor((baseCents * ratePpm + PPM / 2) / PPM);
}

/** Totals with the sales tax: totalCents = items − discount + shipping + tax. */
export interface TaxedTotals extends Totals {
  taxCents: number;
  taxRatePpm: number;
  /** The destination state; null for local pickup. */
  taxState: string | null;
  /** Shipping was part of the taxable amount. */
  taxOnShipping: boolean;
}

/**
 * The tax on `totals` (items − discount + shipping, as priceCart makes them): none for local
 * pickup (`rate` null) or a state without a rate; else on the items after the coupon, plus the
 * shipping where the state taxes it.
 */
export function addTax(totals: Totals, state: string | null, rate: TaxRate | null | undefined): TaxedTotals {
  const ratePpm = rate?.ratePpm ?? 0;
  const onShipping = !!rate?.shippingTaxable && totals.shippingCents > 0;
  const base = totals.itemsTotalCents - totals.discountCents + (onShipping ? totals.shippingCents : 0);
  const tax = state && ratePpm > 0 ? taxOn(Math.max(0, base), ratePpm) : 0;
  return {
    ...totals,
    taxCents: tax,
    taxRatePpm: state ? ratePpm : 0,
    taxState: state,
    taxOnShipping: onShipping && tax > 0,
    totalCents: totals.totalCents + tax,
  };
}

/** 65000 -> "6.5%", 42250 -> "4.225%", 0 -> "0%". */
export function formatRate(ppm: number): string {
  const whole = Math.floor(ppm / 10_000);
  const frac = String(ppm % 10_000)
    .padStart(4, '0')
    .replace(/0+$/, '');
  return `${whole}${frac ? `.${frac}` : ''}%`;
}

/** The rate as a percent number: 65000 -> 6.5. */
export const ratePercent = (ppm: number): number => ppm / 10_000;

/** The cart's and the mails' line: "Tax (WA 6.5%)". */
export const taxLabel = (state: string, ppm: number): string => `Tax (${state} ${formatRate(ppm)})`;

/** A percent with at most four decimals, 0 to 20: 6.5 -> 65000 ppm. */
export const ratePercentField = z
  .number({ error: 'The rate must be a number (a percent, e.g. 6.5)' })
  .min(0, 'The rate must be at least 0%')
  .max(20, 'The rate must be at most 20%')
  .refine((n) => Math.abs(n * 10_000 - Math.round(n * 10_000)) < 1e-6, 'The rate may have at most four decimals');
export const percentToPpm = (p: number): number => Math.round(p * 10_000);

/** PUT /api/admin/tax-rates/{state}: a state's rate from a day on (that day's rate is replaced). */
export const taxRateUpdate = z.object({
  ratePercent: ratePercentField,
  shippingTaxable: z.boolean({ error: 'shippingTaxable must be true or false' }),
  startsOn: isoDate,
});
export type TaxRateUpdate = z.input<typeof taxRateUpdate>;

/** One rate of the admin's table. */
export interface TaxRateView {
  _id: string;
  state: string;
  stateName: string;
  ratePercent: number;
  /** "6.5%" */
  rate: string;
  shippingTaxable: boolean;
  startsOn: string;
  /** In effect today (the latest start not after today). */
  current: boolean;
}

/** GET /api/admin/tax-rates and GET /api/tax-rates (public: the rates in effect today only). */
export interface TaxRatesView {
  note: string;
  /** Today in the site's zone: the day the current rates are chosen for. */
  today: string;
  rates: TaxRateView[];
  message?: string;
}
