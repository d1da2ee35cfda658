/**
 * The words a buyer reads about a chocolate's label facts (issue 48, decision 0056): "Contains:
 * almond, milk" and "Net wt 3.3 oz (93 g)". No imports, so the cart and the product grid show them
 * without evaluating a schema before they are interactive (issue 36); contract/food.ts re-exports
 * them beside the schemas they describe.
 */

/** "Contains: almond, milk". */
export const containsWords = (allergens: readonly string[]) => `Contains: ${allergens.join(', ')}`;
/** What a product she says has no major allergen reads. */
export const ALLERGEN_FREE_WORDS = 'Contains none of the major food allergens';

/** The allergen line a buyer reads, or null when she has not said. */
export function allergenWords(f: { allergens: readonly string[] | null; allergenFree: boolean }): string | null {
  if (f.allergens && f.allergens.length) return containsWords(f.allergens);
  if (f.allergenFree) return ALLERGEN_FREE_WORDS;
  return null;
}

const GRAMS_PER_OUNCE = 28.349523125;

/** "93 g", "92.5 g". */
const gramsWords = (g: number) => `${Number.isInteger(g) ? g : Math.round(g * 10) / 10} g`;
/** "Net wt 3.3 oz (93 g)": ounces to one decimal first (the US label's order), grams after. */
export const netWeightWords = (grams: number) => `Net wt ${(Math.round((grams / GRAMS_PER_OUNCE) * 10) / 10).toFixed(1)} oz (${gramsWords(grams)})`;

/**
 * A product's allergen line and net weight, each where she has said it: what a cart line, the
 * order's confirmation and its mail show under the product's name.
 */
export function labelLines(f: { allergens: readonly string[] | null; allergenFree: boolean; netWeightGrams: number | null }): string[] {
  const allergens = allergenWords(f);
  return [...(allergens ? [allergens] : []), ...(f.netWeightGrams !== null ? [netWeightWords(f.netWeightGrams)] : [])];
}

/** The cart's one sentence in cottage mode (issue 48, decision 0057), beside the pickup it chose: no shipping is offered. */
export const COTTAGE_PICKUP_ONLY =
  'These chocolates are homemade under Oregon’s cottage-food exemption, which allows selling only in person, so they are picked up, not shipped.';
