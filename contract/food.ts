/**
 * Her food, as the law reads it (issue 48, decisions 0056 and 0057): the label facts of a chocolate (its
 * ingredients, its major food allergens named as FALCPA and FDA's 2025 guidance name them, its
 * net weight in ounces and grams, optional diet tags) and the licence she sells under (Oregon's
 * domestic-kitchen licence, or the cottage-food exemption with its label statement, its yearly
 * sales cap and hand-over in person). Shared with the admin's product form, the shop's pages and
 * the server: zod only. Every sentence a buyer or she reads about them is written here once.
 */
import { z } from 'zod';
import { isCleanText } from './common.ts';

// ---------------------------------------------------------------------------------------------
// Allergens

/**
 * The tree nuts by their kind, as FDA's final guidance (January 2025) lists them. Coconut,
 * chestnut, beech nut, shea and the like are no longer "tree nuts" there: they are listed in the
 * ingredients, not as a major allergen.
 */
export const TREE_NUTS = [
  'almond',
  'black walnut',
  'brazil nut',
  'cashew',
  'hazelnut',
  'heartnut',
  'macadamia',
  'pecan',
  'pine nut',
  'pistachio',
  'walnut',
] as const;

/** Fish by kind (FALCPA asks for the species); `fish` alone is accepted where the kind is unknown. */
export const FISH = ['fish', 'anchovy', 'bass', 'catfish', 'cod', 'flounder', 'haddock', 'pollock', 'salmon', 'tilapia', 'trout', 'tuna'] as const;
/** Crustacean shellfish by kind; `shellfish` alone is accepted where the kind is unknown. */
export const SHELLFISH = ['shellfish', 'crab', 'crawfish', 'lobster', 'shrimp'] as const;

/** The other majors: milk, egg, wheat, soy, peanut and sesame (the ninth, since 2023). */
export const OTHER_MAJORS = ['milk', 'egg', 'wheat', 'soy', 'peanut', 'sesame'] as const;

/** Every name an allergen may have, lower case, in the order the product form offers them. */
export const ALLERGENS = [...OTHER_MAJORS, ...TREE_NUTS, ...FISH, ...SHELLFISH] as const;
export type Allergen = (typeof ALLERGENS)[number];
const ALLERGEN_SET = new Set<string>(ALLERGENS);

/** Names that say "a nut" without saying which: FALCPA asks for the kind. */
const UNNAMED_NUTS = new Set(['nut', 'nuts', 'tree nut', 'tree nuts', 'treenuts', 'treenut']);
export const NAME_THE_NUT =
  'Name the kind of tree nut (for example almond, hazelnut, cashew, pecan, pistachio or walnut) instead of "nuts": the label must say which nut it is.';
export const COCONUT_NOT_MAJOR = 'Coconut is no longer a major food allergen (FDA, 2025): name it in the ingredients instead.';
export const unknownAllergen = (name: string) =>
  `"${name}" is not one of the major food allergens. Choose from milk, egg, wheat, soy, peanut, sesame, a tree nut by its kind, a fish or a shellfish.`;

const allergenName = z
  .string({ error: 'Each allergen must be a name' })
  .trim()
  .toLowerCase()
  .superRefine((v, ctx) => {
    if (ALLERGEN_SET.has(v)) return;
    const message = UNNAMED_NUTS.has(v) ? NAME_THE_NUT : v === 'coconut' ? COCONUT_NOT_MAJOR : unknownAllergen(v.slice(0, 40));
    ctx.addIssue({ code: 'custom', message });
  });

/** The allergens, each once, in alphabetical order: how they are stored and shown. */
export const allergenList = z
  .array(allergenName, { error: 'Allergens must be a list of names' })
  .max(ALLERGENS.length, 'Too many allergens')
  .transform((list) => [...new Set(list)].sort((a, b) => a.localeCompare(b, 'en')) as Allergen[]);

// "Contains: almond, milk" and the net weight's words live in the zod-free ./food-words.ts (the cart reads them).
export { ALLERGEN_FREE_WORDS, allergenWords, containsWords, labelLines, netWeightWords } from './food-words.ts';

/**
 * "May contain" wording is voluntary and says nothing FALCPA asks: she may keep it, but it does not
 * replace naming what the product contains. The product form warns when she types it.
 */
export const MAY_CONTAIN = /\bmay\s+contain\b|\bprocessed\s+in\s+a\s+facility\b|\btraces?\s+of\b/i;
export const MAY_CONTAIN_WARNING =
  '"May contain" wording is voluntary and does not replace the allergens the product contains: choose those in the list above.';

// ---------------------------------------------------------------------------------------------
// Net weight and diet tags

export const netWeightGrams = z
  .number({ error: 'Net weight must be a number of grams' })
  .positive('Net weight must be more than 0 grams')
  .max(100_000, 'Net weight must be at most 100,000 grams')
  .transform((g) => Math.round(g * 10) / 10);

/** Diet tags she may add; none is required. */
export const DIET_TAGS = ['plant-based', 'dairy-free', 'gluten-free'] as const;
export type DietTag = (typeof DIET_TAGS)[number];
export const dietTags = z
  .array(z.enum(DIET_TAGS, { error: `Diet tags must be among ${DIET_TAGS.join(', ')}` }))
  .max(DIET_TAGS.length)
  .transform((t) => [...new Set(t)]);

/** A tag the allergens contradict: "plant-based" or "dairy-free" with milk (or egg, fish, shellfish for plant-based). */
export function dietTagContradiction(tags: readonly string[], allergens: readonly string[]): string | null {
  const animal = allergens.filter(
    (a) => a === 'milk' || a === 'egg' || (FISH as readonly string[]).includes(a) || (SHELLFISH as readonly string[]).includes(a),
  );
  if (tags.includes('plant-based') && animal.length) return `A product that contains ${animal.join(', ')} cannot be tagged plant-based.`;
  if (tags.includes('dairy-free') && allergens.includes('milk')) return 'A product that contains milk cannot be tagged dairy-free.';
  if (tags.includes('gluten-free') && allergens.includes('wheat')) return 'A product that contains wheat cannot be tagged gluten-free.';
  return null;
}

export const ingredientsText = z
  .string({ error: 'Ingredients must be text' })
  .trim()
  .max(3000, 'Ingredients must be at most 3000 characters')
  .refine(isCleanText, 'Ingredients contain characters that are not allowed');

/** The label facts as a product stores and shows them; null where she has not said yet. */
export interface LabelFacts {
  /** In order of weight, sub-ingredients in parentheses: "Dark chocolate (cocoa mass, sugar), almonds, sea salt". '' until she writes them. */
  ingredients: string;
  /** The major allergens it contains, alphabetical; null until she says (an empty list is not "none"). */
  allergens: Allergen[] | null;
  /** She said it contains none of them (then `allergens` is []). */
  allergenFree: boolean;
  /** Net weight in grams; null until she says. */
  netWeightGrams: number | null;
  dietTags: DietTag[];
}

/** What a product still lacks for its label, in her words; empty when it has everything. */
export function missingLabelFacts(f: Pick<LabelFacts, 'ingredients' | 'allergens' | 'allergenFree' | 'netWeightGrams'>): string[] {
  const out: string[] = [];
  if (!f.ingredients.trim()) out.push('ingredients');
  if (f.allergens === null || (f.allergens.length === 0 && !f.allergenFree)) out.push('allergens');
  if (f.netWeightGrams === null) out.push('net weight');
  return out;
}

// ---------------------------------------------------------------------------------------------
// Her licence

/** Oregon's cottage-food label statement (ORS 616.723 as amended; OAR 603-025-0325), word for word. */
export const COTTAGE_STATEMENT =
  'This product is homemade, is not prepared in an inspected food establishment, and must be stored and displayed separately if merchandised by a retailer.';

/** The cottage-food exemption's yearly gross sales cap as the law set it; she adjusts it as it is adjusted. */
export const DEFAULT_COTTAGE_CAP_DOLLARS = 50_000;

/** A shipped order refused in cottage mode: why, and what she can do instead. */
export const COTTAGE_HAND_OVER_ONLY =
  'These chocolates are homemade under Oregon’s cottage-food exemption, which allows selling only in person: please choose pickup instead of shipping.';

export const FOOD_LICENCE_MODES = ['licensed', 'cottage'] as const;
export type FoodLicenceMode = (typeof FOOD_LICENCE_MODES)[number];

const line = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine(isCleanText, `${label} contains characters that are not allowed`);
const required = (label: string, max: number) => line(label, max).refine((s) => s !== '', `${label} is required`);

/**
 * GET and PUT /api/admin/settings/food-licence: how she sells her food. `licenceNumber` is her
 * domestic-kitchen licence's number ('' until she has it: Today asks); businessName, address and
 * phone are what a label carries. `capDollars` is the cottage exemption's yearly cap.
 */
export const foodLicence = z.object({
  mode: z.enum(FOOD_LICENCE_MODES, { error: 'Mode must be licensed or cottage' }),
  licenceNumber: line('Licence number', 60)
    .refine((s) => !/[\r\n]/.test(s), 'Licence number must be one line')
    .optional()
    .default(''),
  businessName: required('Business name', 200),
  businessAddress: required('Business address', 300),
  phone: required('Phone', 40).refine((s) => (s.match(/\d/g) ?? []).length >= 7, 'Phone must be a phone number'),
  capDollars: z
    .number({ error: 'The yearly sales cap must be a whole number of dollars' })
    .int('The yearly sales cap must be a whole number of dollars')
    .min(1, 'The yearly sales cap must be at least $1')
    .max(10_000_000, 'The yearly sales cap is too large')
    .optional()
    .default(DEFAULT_COTTAGE_CAP_DOLLARS),
});
export type FoodLicence = z.output<typeof foodLicence>;
export type FoodLicenceInput = z.input<typeof foodLicence>;

/** Seeded as licensed with no number, so shipping works as before and Today asks for the number. */
export const DEFAULT_FOOD_LICENCE: FoodLicence = {
  mode: 'licensed',
  licenceNumber: '',
  businessName: '',
  businessAddress: '',
  phone: '',
  capDollars: DEFAULT_COTTAGE_CAP_DOLLARS,
};

export const FOOD_LICENCE_SAVED = 'Food licence saved.';

/** GET and PUT /api/admin/settings/food-licence. */
export interface FoodLicenceView {
  licence: FoodLicence;
  /** What a label still lacks under this licence, in her words; empty when it is complete. */
  missing: string[];
  message?: string;
}

/** What the licence still lacks for a lawful label: her number (licensed), name, address, phone. */
export function missingLicenceFacts(l: FoodLicence): string[] {
  const out: string[] = [];
  if (l.mode === 'licensed' && !l.licenceNumber) out.push('licence number');
  if (!l.businessName) out.push('business name');
  if (!l.businessAddress) out.push('business address');
  if (!l.phone) out.push('phone');
  return out;
}

/** The licence as the server answers it (GET and PUT /api/admin/settings/food-licence). */
export const foodLicenceView = (licence: FoodLicence, message?: string): FoodLicenceView => ({
  licence,
  missing: missingLicenceFacts(licence),
  ...(message ? { message } : {}),
});

/** Cottage mode sells in person only: the cart offers pickup alone and the server refuses a shipped order (COTTAGE_HAND_OVER_ONLY). */
export const handOverOnly = (l: Pick<FoodLicence, 'mode'>) => l.mode === 'cottage';

/** Her choice of mode on the Settings page, each with what it changes on the site. */
export const FOOD_LICENCE_MODE_WORDS: Record<FoodLicenceMode, { label: string; effect: string }> = {
  licensed: {
    label: 'Domestic kitchen licence',
    effect: 'Your labels carry your licence number; orders can be shipped or picked up.',
  },
  cottage: {
    label: 'Cottage-food exemption',
    effect:
      'Your labels and product details carry the cottage-food statement; the cart offers pickup only and refuses shipping; the Tax year shows your food sales against the yearly cap.',
  },
};

/** What the Settings page and Today say about what the licence lacks: "Labels still need your licence number and phone." */
export const missingLicenceWords = (missing: readonly string[]) =>
  missing.length === 0
    ? ''
    : `Labels still need your ${missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing[missing.length - 1]}`}.`;
