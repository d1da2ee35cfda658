/**
 * Chocolates (products) as the admin edits them. Shared with the admin island: no
 * server-only imports. Prices travel in dollars and are stored in cents.
 */
import { z } from 'zod';
import { isCleanText, optionalText, requiredText } from './common.ts';
import type { PictureView } from './images.ts';
import {
  allergenList,
  dietTagContradiction,
  dietTags,
  ingredientsText,
  missingLabelFacts,
  missingLicenceFacts,
  netWeightGrams,
  type FoodLicence,
  type LabelFacts,
} from './food.ts';

/** Largest price of one tin, in dollars: a typo guard, not a business rule. */
export const MAX_PRICE_DOLLARS = 100_000;

/**
 * Dollars in (a number, or the text of a number input), integer cents out. At most two
 * decimals, never negative, never NaN; the digits are read as written, so no float
 * rounding can turn 18.5 into 1849 cents.
 */
export const dollars = z.union([z.number(), z.string().trim()], { error: 'Price is required' }).transform((v, ctx) => {
  const text = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v;
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) {
    ctx.addIssue({
      code: 'custom',
      message: typeof v === 'number' && v < 0 ? 'Price cannot be negative' : 'Price must be an amount in dollars with at most two decimals',
    });
    return z.NEVER;
  }
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  if (cents > MAX_PRICE_DOLLARS * 100) {
    ctx.addIssue({ code: 'custom', message: `Price must be at most $${MAX_PRICE_DOLLARS}` });
    return z.NEVER;
  }
  return cents;
});

/** Cents to the dollars the API shows (1850 -> 18.5). */
export const centsToDollars = (cents: number): number => cents / 100;

/** An uploaded image (/api/images/{id}), a site asset (/images/...) or an http(s) address. */
export const imageUrl = z
  .string({ error: 'Image must be text' })
  .trim()
  .max(2000, 'Image address is too long')
  .refine((s) => {
    if (s === '') return true;
    // The URL parser would accept a NUL or a lone surrogate in the path; the database would not.
    if (!isCleanText(s)) return false;
    if (s.startsWith('/')) return !s.startsWith('//') && !s.includes('\\') && !/\s/.test(s);
    try {
      const u = new URL(s);
      return u.protocol === 'https:' || u.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'Image must be an uploaded image, a path starting with / or an http(s) address');

const inventory = z
  .number({ error: (i) => (i.input === undefined ? 'Inventory is required' : 'Inventory must be a whole number') })
  .int('Inventory must be a whole number')
  .min(0, 'Inventory cannot be negative')
  .max(1_000_000, 'Inventory is too large');

/** allergenFree with allergens named: one of the two is wrong. */
export const ALLERGEN_FREE_CONFLICT =
  'A product marked as containing none of the major allergens cannot also list allergens: clear the allergens, or untick "Contains none of the major allergens".';

/**
 * POST /api/chocolates and PUT /api/chocolates/{id}: the whole card. PUT replaces it, so an
 * omitted description, details or image becomes empty; name, price and inventory are required.
 *
 * The label facts (issue 48, decision 0056) are optional, so a product may exist before she has
 * them (Today lists it until she fills them); omitted means "not said": ingredients '', allergens
 * null, net weight null, no diet tag. An empty list of allergens is not "none": only
 * `allergenFree: true` says none (with `allergens` [] or omitted), and [] without it is stored as
 * not said. "nuts" is refused (NAME_THE_NUT), and a diet tag the allergens contradict.
 */
export const product = z
  .object({
    name: requiredText('Name', 200),
    image: imageUrl.optional().default(''),
    description: optionalText('Description', 5000),
    details: optionalText('Details', 5000),
    price: dollars,
    inventory,
    ingredients: ingredientsText.optional().default(''),
    allergens: allergenList.nullable().optional(),
    allergenFree: z.boolean({ error: 'allergenFree must be true or false' }).optional().default(false),
    netWeightGrams: netWeightGrams.nullable().optional(),
    dietTags: dietTags.optional().default([]),
  })
  .superRefine((p, ctx) => {
    if (p.allergenFree && p.allergens && p.allergens.length > 0) ctx.addIssue({ code: 'custom', path: ['allergenFree'], message: ALLERGEN_FREE_CONFLICT });
    const contradiction = dietTagContradiction(p.dietTags, p.allergens ?? []);
    if (contradiction) ctx.addIssue({ code: 'custom', path: ['dietTags'], message: contradiction });
  })
  .transform(({ allergens, allergenFree, netWeightGrams, ...rest }) => ({
    ...rest,
    allergenFree,
    allergens: allergenFree ? [] : allergens?.length ? allergens : null,
    netWeightGrams: netWeightGrams ?? null,
  }));
export type ProductInput = z.input<typeof product>;

/** One chocolate as the API shows it, with its label facts (null where she has not said). */
export interface ProductView extends LabelFacts {
  _id: string;
  name: string;
  image: string;
  description: string;
  details: string;
  /** Dollars. */
  price: number;
  inventory: number;
  /** The responsive sizes when `image` is an upload (GET /api/chocolates only); absent otherwise. */
  picture?: PictureView;
}

/**
 * GET /api/admin/chocolates/{id}/label: what her printed label carries under her licence (OAR
 * 603-025-0325): the product with its label facts, her business (or licence number) and phone, the
 * cottage-food statement in cottage mode, and what is still missing for a label that would pass
 * (`missing`, in her words; empty when it is complete).
 */
export interface ProductLabelView {
  product: ProductView;
  licence: FoodLicence;
  /** COTTAGE_STATEMENT in cottage mode; null when licensed. */
  statement: string | null;
  missing: string[];
}

/** What a label still lacks: the product's facts first, then the licence's. */
export const missingForLabel = (p: LabelFacts, licence: FoodLicence) => [...missingLabelFacts(p), ...missingLicenceFacts(licence)];

/** The answer of POST /api/chocolates (201) and PUT /api/chocolates/{id}. */
export interface ProductSavedView {
  message: string;
  product: ProductView;
}

// Uploads (POST /api/admin/images) and their sizes live in ./images.ts, shared with the galleries.
export { IMAGE_MAX_BYTES, IMAGE_TYPES, type ImageUploadedView } from './images.ts';
