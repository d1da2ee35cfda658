/** Dollars as the shop shows them: $18.00 */
export const usd = (dollars: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(dollars);
/** Dollars (as the API speaks) to integer cents, without floating-point drift. */
export const toCents = (dollars: number) => Math.round(dollars * 100);
