/**
 * Sales tax on a priced cart (issue 24, decision 0026): the rate of the destination state in
 * effect on the day (the admin's table, tax-rates.repo.ts), applied by contract/tax.ts's
 * arithmetic: on the items after the coupon, plus shipping where the state taxes it, half a cent
 * up. None for local pickup. The arithmetic itself is shared with the cart (contract/tax.ts).
 */
import type { DB } from '../../db/client.ts';
import type { Totals } from '../../contract/pricing.ts';
import { addTax, rateInEffect, US_STATES, type TaxedTotals } from '../../contract/tax.ts';
import { ratesOfState } from './tax-rates.repo.ts';

export { addTax, formatRate, rateInEffect, taxLabel, taxOn } from '../../contract/tax.ts';

/** `totals` with the tax of `state` on `today` (YYYY-MM-DD in SITE_TIMEZONE); state null: pickup, no tax. */
export async function salesTaxFor(db: DB, totals: Totals, state: string | null, today: string): Promise<TaxedTotals> {
  if (!state) return addTax(totals, null, null);
  return addTax(totals, state, rateInEffect(await ratesOfState(db, state), state, today) ?? null);
}

/**
 * Whether the address the buyer chose in PayPal lies outside the state the tax was figured for
 * (`taxState`; null for pickup, which asks for no address). No address from PayPal: nothing to
 * compare, the cart's state stands. A US state PayPal spells out ("Washington") counts as its letters.
 */
export function shipStateChanged(taxState: string | null, region: { country: string; state: string } | null | undefined): boolean {
  if (!taxState || !region) return false;
  if (region.country && region.country !== 'US') return true;
  const named = Object.entries(US_STATES).find(([, name]) => name.toUpperCase() === region.state)?.[0];
  return (named ?? region.state) !== taxState;
}
