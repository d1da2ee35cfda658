/**
 * The sales tax as the cart figures it (issue 24, decision 0026): the states, the words, the
 * arithmetic in integer cents and a place's rate, without zod. The cart island imports this file
 * rather than contract/tax.ts, so its page evaluates no schema before it is interactive (issue 36);
 * contract/tax.ts re-exports all of it beside the schemas.
 *
 * A rate is in parts per million of the taxable amount (6.5% = 65 000 ppm), which holds every
 * state rate exactly (Missouri's 4.225% = 42 250). The taxable amount is the items after the
 * coupon, plus shipping where the state taxes shipping. Tax = that × rate, half a cent rounding up.
 */
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
/** Issue 29: in a state where she collects sales tax, the rate is the address's: the ZIP is asked for. */
export const shipToZipRequired = (state: string) =>
  `Please enter the ZIP code the order ships to (shipToZip): sales tax in ${US_STATES[state] ?? state} is figured at the address.`;
export const INVALID_ZIP = 'Please enter a US ZIP code: five digits (98101) or ZIP+4 (98101-1234).';
export const UNKNOWN_STATE = 'Please choose a US state (two letters, e.g. WA) for shipping.';

export const PPM = 1_000_000;

/**
 * Where an order's rate came from (issue 29, decision 0028): 'service', the state's rate service
 * answered for the address (now, or within the cache's time); 'table', her imported ZIP table (or
 * the state's rate) in a state without a service; 'fallback', the service failed, timed out or
 * did not know the address, and her table stood in.
 */
export const TAX_SOURCES = ['service', 'table', 'fallback'] as const;
export type TaxSource = (typeof TAX_SOURCES)[number];

/**
 * A rate as it applies to an order: the state, its rate in ppm and whether shipping is taxed;
 * where she collects (issue 29), also the place it is the rate of: the ZIP, the state's location
 * code and the jurisdiction's name, and where the rate came from.
 */
export interface TaxRate {
  state: string;
  ratePpm: number;
  shippingTaxable: boolean;
  zip?: string | null;
  locationCode?: string | null;
  jurisdiction?: string | null;
  source?: TaxSource | null;
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
  /** Issue 29: the ZIP the rate is of (the buyer's, or her shop's for a pickup); null where she does not collect. */
  taxZip: string | null;
  /** The state's location code of the place (Washington's four digits, as its excise return asks); null when unknown. */
  taxLocationCode: string | null;
  /** The jurisdiction's name (SEATTLE); null when unknown. */
  taxJurisdiction: string | null;
  /** Where the rate came from; null where she does not collect (no tax). */
  taxRateSource: TaxSource | null;
}

/**
 * The tax on `totals` (items − discount + shipping, as priceCart makes them): none without a
 * state or a rate (a state where she does not collect); else on the items after the coupon, plus
 * the shipping where the state taxes it. `state` is the state of the order's place (the
 * destination; her shop's for a pickup where she collects).
 */
export function addTax(totals: Totals, state: string | null, rate: TaxRate | null | undefined): TaxedTotals {
  const ratePpm = rate?.ratePpm ?? 0;
  const onShipping = !!rate?.shippingTaxable && totals.shippingCents > 0;
  const base = totals.itemsTotalCents - totals.discountCents + (onShipping ? totals.shippingCents : 0);
  const tax = state && ratePpm > 0 ? taxOn(Math.max(0, base), ratePpm) : 0;
  const at = state && rate ? rate : null;
  return {
    ...totals,
    taxCents: tax,
    taxRatePpm: state ? ratePpm : 0,
    taxState: state,
    taxOnShipping: onShipping && tax > 0,
    taxZip: at?.zip ?? null,
    taxLocationCode: at?.locationCode ?? null,
    taxJurisdiction: at?.jurisdiction ?? null,
    taxRateSource: at ? (at.source ?? 'table') : null,
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

/** The rate at one place, as the cart shows it before payment (GET /api/tax-rates/at). */
export interface PlaceRateView {
  state: string;
  zip: string;
  ratePpm: number;
  ratePercent: number;
  /** "10.35%" */
  rate: string;
  shippingTaxable: boolean;
  locationCode: string | null;
  jurisdiction: string | null;
  source: TaxSource;
}

/** GET /api/tax-rates/at?state=&zip=: `rate` null where she does not collect. */
export interface PlaceRateAnswer {
  rate: PlaceRateView | null;
}

/** A place's rate as contract/tax.ts's arithmetic takes it (the cart's preview). */
export const placeTaxRate = (r: PlaceRateView): TaxRate => ({
  state: r.state,
  ratePpm: r.ratePpm,
  shippingTaxable: r.shippingTaxable,
  zip: r.zip,
  locationCode: r.locationCode,
  jurisdiction: r.jurisdiction,
  source: r.source,
});

/** A US ZIP code's forms: five digits, or ZIP+4 (98101-1234, 981011234 or 98101 1234). */
export const US_ZIP = /^\d{5}(?:[- ]?\d{4})?$/;
/** A ZIP as it is kept: ZIP+4 with its hyphen (981011234 → 98101-1234). */
export const zipForm = (zip: string): string => (zip.length > 5 ? `${zip.slice(0, 5)}-${zip.slice(-4)}` : zip);
/**
 * What zipCode makes of `text`, or '' when it refuses it, without zod: the cart reads the ZIP as it
 * is typed, and its page evaluates no schema before it is interactive (issue 36).
 */
export const readZip = (text: string): string => (US_ZIP.test(text.trim()) ? zipForm(text.trim()) : '');

/** Issue 29: shipped to a state where she collects sales tax, and no ZIP to find the address's rate. */
export const SHIP_TO_ZIP_REQUIRED = 'Please enter the ZIP code the order ships to (shipToZip): in this state sales tax is figured at the address.';
