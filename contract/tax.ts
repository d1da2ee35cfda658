/**
 * Sales tax on chocolate orders, shipped or picked up (issue 24, decision 0026; where she is
 * registered and at the place of sale since decision 0028): the states, the arithmetic in
 * integer cents and the admin's rate table. Pure and zod only, so the cart shows the numbers the
 * server will charge; the server's numbers always win. What the cart needs without zod is in
 * contract/sales-tax.ts, re-exported here.
 *
 * A rate is in parts per million of the taxable amount (6.5% = 65 000 ppm), which holds every
 * state rate exactly (Missouri's 4.225% = 42 250). The taxable amount is the items after the
 * coupon, plus shipping where the state taxes shipping. Tax = that × rate, half a cent rounding up.
 */
import { z } from 'zod';
import { isCleanText, isoDate } from './common.ts';
import { INVALID_ZIP, PPM, UNKNOWN_STATE, US_STATES, US_ZIP, zipForm, type PlaceRateView } from './sales-tax.ts';

// The states, the words and the arithmetic the cart uses too are in contract/sales-tax.ts (no zod).
export * from './sales-tax.ts';

/** The admin's note on the state table (issue 29, decision 0028): what it is for now. */
export const STATE_RATES_NOTE =
  'Sales tax is charged only in the states where you collect (your tax registrations, above). There the rate is the buyer’s address’s: from the state’s rate service where it has one (Washington), else from the ZIP table you import; a state’s base rate below stands in only where neither knows the ZIP.';

/** A US state's two letters (upper-cased), one of US_STATES. */
export const usState = z
  .string({ error: UNKNOWN_STATE })
  .trim()
  .max(2, UNKNOWN_STATE)
  .transform((s) => s.toUpperCase())
  .refine((s) => Object.hasOwn(US_STATES, s), UNKNOWN_STATE);

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
  /** Issue 29: the states where an order is taxed (she collects there, and there is a sales tax): the cart asks for a ZIP there. */
  taxing: string[];
  /** GET /api/tax-rates only: the rate of a pickup (at her shop), or null where she does not collect. */
  pickup?: PlaceRateView | null;
  message?: string;
}

/** GET /api/admin/tax-rates: besides the table, her registrations and what stands behind the rates. */
export interface AdminTaxRatesView extends TaxRatesView {
  settings: TaxSettings;
  /** collectsInSentence of her registrations. */
  collectsInWords: string;
  /** States whose rate service is asked (Washington), and whether the local stand-in answers for it. */
  service: { states: string[]; standIn: boolean };
  /** Her imported ZIP tables. */
  zipTables: ZipTableView[];
}

// ---------------------------------------------------------------------------------------------
// Where she collects (issue 29, decision 0028): her registrations and her shop's address.

/** States without a sales tax: registered there or not, nothing is collected, and no ZIP is asked. */
export const NO_SALES_TAX_STATES: readonly string[] = ['DE', 'MT', 'NH', 'OR'];

/**
 * States whose local taxes follow the seller's place for a sale within the state: an order she
 * ships inside her shop's state, when it is one of these, is taxed at her shop's rate. Everywhere
 * else (Washington among them) the buyer's address decides.
 */
export const ORIGIN_BASED_STATES: readonly string[] = ['AZ', 'IL', 'MS', 'MO', 'OH', 'PA', 'TN', 'TX', 'UT', 'VA'];

/** A US ZIP code: five digits, or ZIP+4 (98101-1234, 981011234 or 98101 1234 → 98101-1234). */
export const zipCode = z.string({ error: INVALID_ZIP }).trim().regex(US_ZIP, INVALID_ZIP).transform(zipForm);
export const zip5 = (zip: string): string => zip.slice(0, 5);

const addressLine = (field: string, min: number, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .min(min, `${field} must not be empty`)
    .max(max, `${field} must be at most ${max} characters`)
    .refine(isCleanText, `${field} contains characters that are not allowed`)
    .refine((s) => !/[\r\n]/.test(s), `${field} must be on one line`);

/** Her shop's address: where pickups happen, so where they are taxed. */
export const shopAddress = z.object({
  /** The street address (may be left empty). */
  line1: addressLine('line1', 0, 200),
  /** The city. */
  city: addressLine('city', 1, 100),
  /** The state's two letters. */
  state: usState,
  /** Its ZIP code: the rate of a pickup is the rate at this ZIP. */
  zip: zipCode,
});
export type ShopAddress = z.output<typeof shopAddress>;

/** Her shop's address on one line: "12 Oak St, Portland, OR 97201" (the street line may be empty). */
export const shopAddressLine = (a: ShopAddress): string =>
  [a.line1, [a.city, [a.state, a.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ')].filter(Boolean).join(', ');

/**
 * GET and PUT /api/admin/settings/tax: the states where she is registered to collect sales tax,
 * and her shop's address. A state left out is charged no tax, whatever its rate.
 */
export const taxSettings = z.object({
  /** The states where she collects (two letters each); none is allowed. */
  collectsIn: z
    .array(usState, { error: 'collectsIn must be a list of states (two letters each, e.g. ["WA"])' })
    .max(51, 'collectsIn lists each state once')
    .transform((states) => [...new Set(states)].sort()),
  shopAddress,
});
export type TaxSettings = z.output<typeof taxSettings>;
export type TaxSettingsInput = z.input<typeof taxSettings>;

/** As seeded: her kitchen in Portland, Oregon (the site says so), registered only there, where there is no sales tax. */
export const DEFAULT_SHOP_ADDRESS: ShopAddress = { line1: '', city: 'Portland', state: 'OR', zip: '97201' };
export const DEFAULT_TAX_SETTINGS: TaxSettings = { collectsIn: [DEFAULT_SHOP_ADDRESS.state], shopAddress: DEFAULT_SHOP_ADDRESS };

/** The states where an order is taxed (and the cart asks for a ZIP): where she collects and there is a sales tax. */
export const taxingStates = (collectsIn: readonly string[]): string[] => collectsIn.filter((s) => !NO_SALES_TAX_STATES.includes(s));

/** "Washington (WA) and Idaho (ID)"; "no state" for none. */
export const statesInWords = (states: readonly string[]): string => {
  const named = states.map((s) => `${US_STATES[s] ?? s} (${s})`);
  if (named.length === 0) return 'no state';
  return named.length === 1 ? named[0]! : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
};

/** The admin's sentence: where she collects, and what a fresh site does. */
export const collectsInSentence = (collectsIn: readonly string[]): string => {
  const taxing = taxingStates(collectsIn);
  if (taxing.length === 0) return `You collect sales tax in ${statesInWords(collectsIn)}: no order is charged sales tax.`;
  return `You collect sales tax in ${statesInWords(taxing)}: orders shipped there, and pickups if your shop is there, are charged the rate of the address. Orders shipped anywhere else carry no tax.`;
};

/** GET /api/tax-rates/at's query. */
export const placeRateQuery = z.object({ state: usState, zip: zipCode.optional() });

// Her imported ZIP table: the state's published rates, the fallback of its rate service.

/** One row of her ZIP table. */
export interface ZipRateRow {
  zip: string;
  ratePpm: number;
  locationCode: string;
  jurisdiction: string;
}

/** POST /api/admin/tax-rates/{state}/zips: her table as CSV text (replaces the state's table). */
export const zipRatesImport = z.object({
  csv: z
    .string({ error: 'csv must be the table as text' })
    .min(1, 'The table is empty')
    .max(400_000, 'The table must be at most 400,000 characters')
    .refine(isCleanText, 'The table contains characters that are not allowed'),
});

const HEADER_NAMES: Record<keyof ZipRateRow, RegExp> = {
  zip: /^(zip|zip ?code|zip5|postal ?code)$/,
  ratePpm: /^(rate|total ?rate|combined ?rate|tax ?rate|total)$/,
  locationCode: /^(location ?code|loc ?code|code)$/,
  jurisdiction: /^(name|location|jurisdiction|city|location ?name)$/,
};

const splitCsvLine = (line: string): string[] => {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',' || ch === '\t' || ch === ';') {
      out.push(cell.trim());
      cell = '';
    } else cell += ch;
  }
  out.push(cell.trim());
  return out;
};

/** "0.1035" or "10.35" or "10.35%" → 103 500 ppm; a bare number up to 0.25 is a fraction, above it a percent. */
export function parseRate(text: string): number | null {
  const t = text.trim();
  const m = /^(\d{1,3}(?:\.\d{1,6})?|\.\d{1,6})\s*(%?)$/.exec(t);
  if (!m) return null;
  const n = Number(m[1]);
  const ppm = Math.round(m[2] || n > 0.25 ? n * 10_000 : n * PPM);
  return ppm >= 0 && ppm <= 200_000 ? ppm : null;
}

/**
 * Her ZIP table from CSV (comma, tab or semicolon): a header row naming the columns ZIP, Rate,
 * Location code and Name (in any order; "Zip5", "Total rate", "LocCode", "Jurisdiction" are
 * understood), then one row per ZIP. The rate as a fraction (0.1035) or a percent (10.35).
 * Refused, with the line, at the first row that can't be read.
 */
export function parseZipRates(csv: string): { ok: true; rows: ZipRateRow[] } | { ok: false; message: string } {
  const lines = csv.replace(/^\uFEFF/, '').split(/\r?\n/);
  const headerAt = lines.findIndex((l) => l.trim() !== '');
  if (headerAt < 0) return { ok: false, message: 'The table is empty' };
  const header = splitCsvLine(lines[headerAt]!).map((h) => h.toLowerCase().replace(/[_-]/g, ' ').replace(/\s+/g, ' ').trim());
  const col = {} as Record<keyof ZipRateRow, number>;
  for (const key of Object.keys(HEADER_NAMES) as (keyof ZipRateRow)[]) {
    const i = header.findIndex((h) => HEADER_NAMES[key].test(h));
    if (i < 0) return { ok: false, message: 'The first row must name the columns: ZIP, Rate, Location code and Name.' };
    col[key] = i;
  }
  const rows = new Map<string, ZipRateRow>();
  for (let n = headerAt + 1; n < lines.length; n++) {
    if (lines[n]!.trim() === '') continue;
    const cells = splitCsvLine(lines[n]!);
    const zip = /^\d{5}$/.exec((cells[col.zip] ?? '').padStart(5, '0'))?.[0];
    const ratePpm = parseRate(cells[col.ratePpm] ?? '');
    const locationCode = (cells[col.locationCode] ?? '').trim();
    const jurisdiction = (cells[col.jurisdiction] ?? '').trim();
    if (!zip) return { ok: false, message: `Line ${n + 1}: the ZIP must be five digits.` };
    if (ratePpm === null) return { ok: false, message: `Line ${n + 1}: the rate must be a number, like 0.1035 or 10.35.` };
    if (!/^[A-Za-z0-9-]{1,12}$/.test(locationCode)) return { ok: false, message: `Line ${n + 1}: the location code must be letters or digits (at most 12).` };
    if (jurisdiction.length > 100) return { ok: false, message: `Line ${n + 1}: the name must be at most 100 characters.` };
    rows.set(zip, { zip, ratePpm, locationCode, jurisdiction: jurisdiction || locationCode });
  }
  if (rows.size === 0) return { ok: false, message: 'The table has no rows under its header.' };
  if (rows.size > 5_000) return { ok: false, message: 'The table may hold at most 5,000 ZIP codes.' };
  return { ok: true, rows: [...rows.values()] };
}

/** Her ZIP table of one state, as the admin's page sums it up. */
export interface ZipTableView {
  state: string;
  zips: number;
  importedAt: string;
}
