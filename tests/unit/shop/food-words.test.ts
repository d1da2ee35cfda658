/**
 * Issue 48 (decision 0056): the words of a chocolate's label facts (contract/food-words.ts) and the
 * allergen list's reading (contract/food.ts), and the product card's rules (contract/chocolates.ts):
 * "none" only when said, "nuts" refused, a contradicting diet tag refused.
 */
import { describe, expect, it } from 'vitest';
import { ALLERGEN_FREE_WORDS, allergenWords, labelLines, netWeightWords } from '../../../contract/food-words.ts';
import { allergenList, COCONUT_NOT_MAJOR, NAME_THE_NUT, netWeightGrams } from '../../../contract/food.ts';
import { ALLERGEN_FREE_CONFLICT, product } from '../../../contract/chocolates.ts';

describe('net weight in words', () => {
  it('reads ounces to one decimal first, then grams, as a US label does', () => {
    const read: [grams: number, words: string][] = [
      [93, 'Net wt 3.3 oz (93 g)'],
      [92.5, 'Net wt 3.3 oz (92.5 g)'],
      [28.35, 'Net wt 1.0 oz (28.4 g)'],
      [80, 'Net wt 2.8 oz (80 g)'],
      [1000, 'Net wt 35.3 oz (1000 g)'],
    ];
    for (const [grams, words] of read) expect(netWeightWords(grams), String(grams)).toBe(words);
  });

  it('takes a positive number of grams, kept to a tenth', () => {
    expect(netWeightGrams.parse(92.46)).toBe(92.5);
    expect(netWeightGrams.safeParse(0).success).toBe(false);
    expect(netWeightGrams.safeParse(-1).success).toBe(false);
    expect(netWeightGrams.safeParse('93').success).toBe(false);
  });
});

describe('the allergen list', () => {
  it('is lower case, each once, alphabetical', () => {
    expect(allergenList.parse(['Milk', ' almond ', 'milk', 'Brazil Nut'])).toEqual(['almond', 'brazil nut', 'milk']);
  });

  it('refuses a nut without its kind, coconut, and what is not a major allergen', () => {
    for (const nuts of ['nuts', 'Tree nuts', 'nut', 'tree nut']) expect(allergenList.safeParse([nuts]).error?.issues[0]?.message, nuts).toBe(NAME_THE_NUT);
    expect(allergenList.safeParse(['coconut']).error?.issues[0]?.message).toBe(COCONUT_NOT_MAJOR);
    expect(allergenList.safeParse(['cocoa']).error?.issues[0]?.message).toMatch(/"cocoa" is not one of the major food allergens/);
  });

  it('reads as a buyer reads it: the names, "none" only when said, nothing when not said', () => {
    expect(allergenWords({ allergens: ['almond', 'milk'], allergenFree: false })).toBe('Contains: almond, milk');
    expect(allergenWords({ allergens: [], allergenFree: true })).toBe(ALLERGEN_FREE_WORDS);
    expect(allergenWords({ allergens: [], allergenFree: false })).toBeNull();
    expect(allergenWords({ allergens: null, allergenFree: false })).toBeNull();
  });

  it('goes on a cart line and in the mail with the net weight, each where said', () => {
    expect(labelLines({ allergens: ['almond', 'milk'], allergenFree: false, netWeightGrams: 93 })).toEqual(['Contains: almond, milk', 'Net wt 3.3 oz (93 g)']);
    expect(labelLines({ allergens: null, allergenFree: false, netWeightGrams: 93 })).toEqual(['Net wt 3.3 oz (93 g)']);
    expect(labelLines({ allergens: null, allergenFree: false, netWeightGrams: null })).toEqual([]);
  });
});

describe('a product card’s label facts', () => {
  const card = { name: 'Bark', price: 14, inventory: 3 };

  it('stores an empty list without "none" as not said, and "none" as the empty list', () => {
    expect(product.parse({ ...card, allergens: [] })).toMatchObject({ allergens: null, allergenFree: false });
    expect(product.parse({ ...card, allergenFree: true })).toMatchObject({ allergens: [], allergenFree: true });
    expect(product.parse(card)).toMatchObject({ ingredients: '', allergens: null, allergenFree: false, netWeightGrams: null, dietTags: [] });
  });

  it('refuses "none" with allergens named, and a diet tag the allergens contradict', () => {
    expect(product.safeParse({ ...card, allergenFree: true, allergens: ['milk'] }).error?.issues[0]?.message).toBe(ALLERGEN_FREE_CONFLICT);
    expect(product.safeParse({ ...card, allergens: ['egg'], dietTags: ['plant-based'] }).error?.issues[0]?.message).toBe(
      'A product that contains egg cannot be tagged plant-based.',
    );
    expect(product.safeParse({ ...card, allergens: ['almond'], dietTags: ['plant-based', 'dairy-free', 'gluten-free'] }).success).toBe(true);
  });
});
