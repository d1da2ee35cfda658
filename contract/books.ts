/**
 * Her books (issue 24, decision 0026): teaching gigs, where she teaches, the miles she drives,
 * the standard mileage rate, and a tax year in one place. Shared with the admin's islands: zod
 * only. Money in integer cents, miles in tenths (12.4 miles = 124) underneath; the API takes and
 * answers miles as numbers with one decimal.
 */
import { z } from 'zod';
import { clockTime, isoDate, requiredText } from './common.ts';
import { bufferMinutes, lengthMinutes, type OverlapWarning } from './agenda.ts';

export const GIG_FREQUENCIES = ['perClass', 'weekly', 'biweekly', 'monthly'] as const;
export type GigFrequency = (typeof GIG_FREQUENCIES)[number];
export const FREQUENCY_WORDS: Record<GigFrequency, string> = {
  perClass: 'One class',
  weekly: 'Every week',
  biweekly: 'Every two weeks',
  monthly: 'Every month',
};

export const PAYMENT_METHODS = ['cash', 'check', 'venmo', 'paypal', 'zelle', 'card'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_WORDS: Record<PaymentMethod, string> = {
  cash: 'Cash',
  check: 'Check',
  venmo: 'Venmo',
  paypal: 'PayPal',
  zelle: 'Zelle',
  card: 'Card',
};

/** A recurring gig makes at most this many entries at once (a weekly gig: two years). */
export const MAX_SERIES_ENTRIES = 104;
/** Without repeatUntil, a recurring gig makes its entries this many days ahead of its first date. */
export const SERIES_DAYS_AHEAD = 182;

export const LOCATION_NOT_FOUND = 'Location not found';
export const LOCATION_IN_USE = 'This location has gigs: change or delete them first.';
export const LOCATION_EXISTS = 'A location with this name exists already.';
export const GIG_NOT_FOUND = 'Gig not found';
export const GIG_DATE_TAKEN = 'Another class of this gig is on that date already: move or delete that one first.';
export const TRIP_NOT_FOUND = 'Trip not found';
export const UNKNOWN_LOCATION = 'Choose one of your locations (add it under Locations first).';

/** Miles with at most one decimal, 0 to 10 000. */
const miles = (label: string, min = 0) =>
  z
    .number({ error: `${label} must be a number of miles` })
    .min(min, `${label} must be at least ${min}`)
    .max(10_000, `${label} must be at most 10000`)
    .refine((n) => Math.abs(n * 10 - Math.round(n * 10)) < 1e-9, `${label} may have one decimal at most`);
export const toTenths = (n: number) => Math.round(n * 10);
export const fromTenths = (n: number) => n / 10;

/** Whole cents, 0 to $10,000. */
export const cents = (label: string) =>
  z
    .number({ error: `${label} must be a whole number of cents` })
    .int(`${label} must be a whole number of cents`)
    .min(0, `${label} must not be negative`)
    .max(1_000_000, `${label} must be at most $10,000`);

/** POST /api/admin/locations, PUT /api/admin/locations/{id}. */
export const locationInput = z.object({
  name: requiredText('Name', 120).refine((s) => !/[\r\n]/.test(s), 'Name must be on one line'),
  /** Round trip from home, in miles (one decimal). */
  roundTripMiles: miles('Round trip'),
  /** Issue 35: minutes she keeps free before and after anything there; left out, 0 for a new place and unchanged in an edit. */
  bufferMinutes: bufferMinutes.optional(),
});
export type LocationInput = z.input<typeof locationInput>;

const gigFields = {
  date: isoDate,
  time: clockTime,
  className: requiredText('Class', 120).refine((s) => !/[\r\n]/.test(s), 'Class must be on one line'),
  locationId: z
    .string({ error: UNKNOWN_LOCATION })
    .min(1, UNKNOWN_LOCATION)
    .max(64, UNKNOWN_LOCATION)
    .regex(/^[A-Za-z0-9_-]+$/, UNKNOWN_LOCATION),
  /** Per class, in cents. */
  rateCents: cents('Rate'),
  /** Issue 35: how long a class takes her, in minutes (her agenda's interval). */
  minutes: lengthMinutes,
  frequency: z.enum(GIG_FREQUENCIES, { error: 'Frequency must be perClass, weekly, biweekly or monthly' }),
  paymentMethod: z.enum(PAYMENT_METHODS, { error: 'Payment method must be cash, check, venmo, paypal, zelle or card' }),
  requestSent: z.boolean({ error: 'requestSent must be true or false' }),
  paid: z.boolean({ error: 'paid must be true or false' }),
  paidOn: isoDate.nullish(),
  /** Tax withheld by the studio (a W-2 job) or not (you pay it). */
  taxed: z.boolean({ error: 'taxed must be true or false' }),
  /** The last day a recurring gig makes entries; without it, SERIES_DAYS_AHEAD days ahead. */
  repeatUntil: isoDate.nullish(),
  /** The entry adds its location's round trip to the mileage (default yes). */
  drove: z.boolean({ error: 'drove must be true or false' }).optional(),
  cancelled: z.boolean({ error: 'cancelled must be true or false' }).optional(),
};

/** POST /api/admin/gigs: one class, or a recurring gig's first class and its rule. */
export const gigInput = z
  .object({
    ...gigFields,
    minutes: gigFields.minutes.default(60),
    requestSent: gigFields.requestSent.default(false),
    paid: gigFields.paid.default(false),
    taxed: gigFields.taxed.default(false),
  })
  .refine((g) => !g.repeatUntil || g.repeatUntil >= g.date, { message: 'repeatUntil must not be before the date', path: ['repeatUntil'] });
export type GigInput = z.input<typeof gigInput>;

/** PUT /api/admin/gigs/{id}: any of one entry's fields (the rest stay); paid without paidOn means today. */
export const gigUpdate = z
  .object(gigFields)
  .omit({ frequency: true, repeatUntil: true })
  .partial()
  .refine((g) => Object.keys(g).length > 0, 'Send at least one field to change.');
export type GigUpdate = z.input<typeof gigUpdate>;

/** POST /api/admin/gigs/{id}/end: the recurring gig makes no entries after `after` (default: this entry's date). */
export const gigEnd = z.object({ after: isoDate.optional() });

/** GET /api/admin/gigs?from=&to= (YYYY-MM-DD, both optional). */
export const gigsQuery = z.object({ from: isoDate.optional(), to: isoDate.optional() });

/** POST /api/admin/trips. */
export const tripInput = z.object({
  date: isoDate,
  purpose: requiredText('Purpose', 200).refine((s) => !/[\r\n]/.test(s), 'Purpose must be on one line'),
  miles: miles('Miles', 0.1),
});
export type TripInput = z.input<typeof tripInput>;

/** PUT /api/admin/mileage-rates/{year}: cents a mile with at most one decimal (70 or 65.5), and its name. */
export const mileageRateInput = z.object({
  centsPerMile: z
    .number({ error: 'The rate must be a number of cents a mile' })
    .min(0, 'The rate must not be negative')
    .max(1000, 'The rate must be at most 1000 cents a mile')
    .refine((n) => Math.abs(n * 10 - Math.round(n * 10)) < 1e-9, 'The rate may have one decimal at most'),
  name: requiredText('Name', 200).refine((s) => !/[\r\n]/.test(s), 'Name must be on one line'),
});

/** A calendar year the books cover. */
export const bookYear = z.coerce
  .number({ error: 'Year must be a number' })
  .int('Year must be a whole year')
  .min(2000, 'Year must be between 2000 and 2100')
  .max(2100, 'Year must be between 2000 and 2100');

// ---------------------------------------------------------------------------------------------
// Answers

export interface LocationView {
  _id: string;
  name: string;
  roundTripMiles: number;
  /** Issue 35: the travel time kept free before and after anything there, in minutes. */
  bufferMinutes: number;
}

/** POST /api/admin/gigs: the classes made, and what they overlap in her agenda (saved all the same; issue 35). */
export interface GigsAddedView extends OverlapWarning {
  message: string;
  ids: string[];
}

export interface GigView {
  _id: string;
  seriesId: string | null;
  date: string;
  time: string;
  /** Issue 35: how long the class takes her, in minutes. */
  minutes: number;
  className: string;
  locationId: string;
  location: string;
  rateCents: number;
  frequency: GigFrequency;
  repeatUntil: string | null;
  paymentMethod: PaymentMethod;
  requestSent: boolean;
  paid: boolean;
  paidOn: string | null;
  taxed: boolean;
  cancelled: boolean;
  drove: boolean;
  /** Round-trip miles this entry adds (0 when she didn't drive or it is cancelled). */
  miles: number;
}

/** A past class not paid yet: whom to ask, and since how many days. */
export interface UnpaidGigView extends GigView {
  ageDays: number;
}

export interface GigsView {
  gigs: GigView[];
  unpaid: UnpaidGigView[];
  unpaidCents: number;
  message?: string;
}

export interface TripView {
  _id: string;
  date: string;
  purpose: string;
  miles: number;
}

export interface MileageRateView {
  year: number;
  centsPerMile: number;
  name: string;
}

/** A period's mileage: miles (one decimal), and the deduction = round(miles × rate), in cents. */
export interface MileageFigures {
  miles: number;
  tenthMiles: number;
  deductionCents: number;
}

/**
 * Her income, one definition (issue 30, decision 0031): the same figures, under the same labels
 * (INCOME_ROWS), on the Finances page, the Tax year page and both their CSVs, computed in one
 * place (api/books/income.ts). Every amount in integer cents; a period's figure is the sum of its
 * months'. Orders count by the month they were placed, sessions by the month they were booked
 * (and paid), gigs by the day their money came in, in her zone (SITE_TIMEZONE).
 */
export interface IncomeFigures {
  /** Shop sales kept, net of sales tax: orders paid, ready for pickup, shipped or picked up: items − discount + shipping; and her food sales recorded by hand (issue 48). */
  shopNetCents: number;
  /** Session payments kept: paid sessions booked, plus paid sessions cancelled and not refunded (inside her notice period, or a refund still to make by hand). */
  sessionsCents: number;
  /** Class places kept (issue 34): paid workshop places, through PayPal or a gift card, not refunded, by the day each was paid. */
  classesCents: number;
  /** Tastings (issue 34): the deposits and balances of her private chocolate tastings, by the day each was paid. */
  tastingsCents: number;
  /** Gigs paid: the money of her teaching gigs, on its own line, by the day it was paid. */
  gigsCents: number;
  /** Of the gigs paid, those paid with tax withheld. */
  gigsWithheldCents: number;
  /** Income: shop sales kept (net of tax) + session payments kept + class places kept + tastings + gigs paid. */
  incomeCents: number;
  /** Sales tax collected on the orders kept: it passes through to the states and is not income. */
  salesTaxCents: number;
  /** Refunds: money that came in and went back, refunded orders + session payments + class places (not in income). */
  refundsCents: number;
  /** Of the refunds, orders refunded in PayPal: their whole total, sales tax included. */
  orderRefundsCents: number;
  /** Of the refunds, paid sessions cancelled and refunded through PayPal. */
  sessionRefundsCents: number;
  /** Of the refunds (issue 50), paid class places given back: refunded or owed back, by the day each was paid. */
  classRefundsCents: number;
  /** Of the orders' refunds, the sales tax that went back with them. */
  refundedTaxCents: number;
}

/** The income figures in the order and with the words both pages and both CSVs show them. */
export const INCOME_ROWS: readonly (readonly [keyof IncomeFigures, string])[] = [
  ['shopNetCents', 'Shop sales (net of sales tax)'],
  ['sessionsCents', 'Session payments kept'],
  ['classesCents', 'Class places kept (paid workshops)'],
  ['tastingsCents', 'Tastings (deposits and balances)'],
  ['gigsCents', 'Gigs paid'],
  ['gigsWithheldCents', 'Gigs paid with tax withheld'],
  ['incomeCents', 'Income (shop + sessions + classes + tastings + gigs)'],
  ['salesTaxCents', 'Sales tax collected (passes through)'],
  ['refundsCents', 'Refunds (orders + sessions + classes)'],
  ['orderRefundsCents', 'Refunded orders (tax included)'],
  ['sessionRefundsCents', 'Refunded sessions'],
  ['classRefundsCents', 'Refunded class places'],
  ['refundedTaxCents', 'Sales tax refunded'],
];

/** The money of a period of the tax year (the income figures, every amount in cents) and its miles. */
export interface TaxPeriodFigures extends IncomeFigures {
  /** Miles driven for work in the period and their deduction at the year's rate. */
  mileage: MileageFigures;
}

/** Taxable sales and the tax collected, for the year and per quarter (Q1–Q4), in cents. */
export interface SalesTaxFigures {
  taxableCents: number;
  taxCents: number;
  quarters: [number, number, number, number];
}

export interface TaxYearView {
  year: number;
  timeZone: string;
  totals: TaxPeriodFigures;
  quarters: ({ quarter: 1 | 2 | 3 | 4 } & TaxPeriodFigures)[];
  months: ({ month: string } & TaxPeriodFigures)[];
  /** Gig income by location (paid in the year). */
  gigsByLocation: { location: string; classes: number; cents: number; withheldCents: number }[];
  /**
   * Sales tax collected by state, per quarter and for the year; within each state by location
   * code (issue 29: Washington's excise return asks for each location's figures). A location
   * code null: rates with none (a state's own rate, orders from before issue 29).
   */
  salesTaxByState: (SalesTaxFigures & { state: string; locations: (SalesTaxFigures & { locationCode: string | null; jurisdiction: string | null })[] })[];
  mileageRate: MileageRateView | null;
  /** Classes of the year taught and not paid yet. */
  unpaid: { count: number; cents: number };
  /**
   * The year's session payments by how they came in (issue 32), every method listed (zero when
   * none); the cents add up to the year's session payments. `count`: payments kept, and sales
   * given free.
   */
  sessionsByMethod: { method: SessionPayMethod; count: number; cents: number }[];
}

/** How a session payment came in: PayPal on the site, or her hand (contract/packages.ts SALE_METHODS). */
export const SESSION_PAY_METHODS = ['paypal', 'cash', 'check', 'venmo', 'zelle', 'card', 'free'] as const;
export type SessionPayMethod = (typeof SESSION_PAY_METHODS)[number];
