/**
 * Money in the browser: the one formatter every island uses, and the conversions between the
 * dollars the API speaks (18.5) and the integer cents the pricing module counts (1850). No
 * imports, so the lightest island can use it.
 */
const dollarsFormat = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Dollars as the shop shows them: 18.5 -> $18.50 */
export const usd = (dollars: number) => dollarsFormat.format(dollars);
/** Dollars (as the API speaks) to integer cents, without floating-point drift. */
export const toCents = (dollars: number) => Math.round(dollars * 100);
/** Integer cents to the dollars the API speaks: 1850 -> 18.5 */
export const toDollars = (cents: number) => cents / 100;
/** Integer cents as the shop shows them: 1850 -> $18.50 */
export const usdFromCents = (cents: number) => usd(toDollars(cents));
/** Dollars as a number input holds them, without the sign: 18.5 -> 18.50 */
export const plainDollars = (dollars: number) => dollars.toFixed(2);
/** Dollars as typed in a form ("450", "450.5") to integer cents; -1, which the server refuses with its reason, when not a number. */
export const typedCents = (dollars: string) => {
  const n = Number(dollars.trim());
  return dollars.trim() !== '' && Number.isFinite(n) ? toCents(n) : -1;
};
