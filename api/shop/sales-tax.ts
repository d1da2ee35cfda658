/**
 * Sales tax on a priced cart, as a small seller owes it (issue 24; issue 29, decision 0028):
 * only in the states where she is registered (her tax settings), at the rate of the place of
 * sale: the buyer's address for a shipped order (her shop's, for one shipped within an
 * origin-based home state), her shop's for a pickup. The rate of a place comes from the state's
 * rate service behind a cache, else her imported ZIP table (tax-lookup.ts). The arithmetic is
 * contract/tax.ts's, shared with the cart.
 */
import type { Totals } from '../../contract/pricing.ts';
import { addTax, ORIGIN_BASED_STATES, taxingStates, US_STATES, type TaxedTotals } from '../../contract/tax.ts';
import { rateOfPlace, type TaxDeps } from './tax-lookup.ts';
import { readTaxSettings } from './tax-settings.repo.ts';

export { addTax, formatRate, rateInEffect, taxLabel, taxOn } from '../../contract/tax.ts';

/** Where an order is sold: pickup at her shop, or shipped to a state (and ZIP). */
export interface SalePlace {
  pickup: boolean;
  state: string | null;
  zip: string | null;
}

/** 'zip-required': shipped to a state where she collects, with no ZIP to find the rate of. */
export type SalesTaxResult = { ok: true; totals: TaxedTotals } | { ok: false; kind: 'zip-required' };

/** `totals` with the sales tax of the sale at `place` on `today` (YYYY-MM-DD in SITE_TIMEZONE). */
export async function salesTaxFor(deps: TaxDeps, totals: Totals, place: SalePlace, today: string): Promise<SalesTaxResult> {
  const { collectsIn, shopAddress: shop } = await readTaxSettings(deps.db);
  const taxing = taxingStates(collectsIn);
  if (place.pickup) {
    // Taxed where the pickup happens: her shop, if she collects in its state.
    if (!taxing.includes(shop.state)) return { ok: true, totals: addTax(totals, null, null) };
    return { ok: true, totals: addTax(totals, shop.state, await rateOfPlace(deps, shop.state, shop.zip, today)) };
  }
  const state = place.state;
  if (!state || !taxing.includes(state)) return { ok: true, totals: addTax(totals, state, null) };
  if (!place.zip) return { ok: false, kind: 'zip-required' };
  const at = ORIGIN_BASED_STATES.includes(state) && state === shop.state ? shop.zip : place.zip;
  return { ok: true, totals: addTax(totals, state, await rateOfPlace(deps, state, at, today)) };
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
