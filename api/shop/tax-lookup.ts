/**
 * The rate of a place where she collects (issue 29, decision 0028). In a state with a rate
 * service (Washington): its answer for the ZIP, cached in PostgreSQL for TAX_RATE_CACHE_HOURS so
 * every replica shares it and the service is never asked for the same ZIP twice within that
 * time; a lookup that fails, times out or finds no such address falls back to her imported ZIP
 * table, and the order says 'fallback' (a checkout is never stopped by the tax service). The
 * failure is remembered for FAILED_LOOKUP_MS: the checkout's second quote agrees with its first,
 * and a service that is down is not asked again by every cart. In a state without a service: her
 * table ('table'). Where her table lacks the ZIP, the state's own rate (tax_rates) stands in,
 * with no location code. No transaction is held while the service is asked.
 */
import type { Services } from '../services/index.ts';
import { rateInEffect, US_STATES, zip5, type TaxRate, type TaxSource } from '../../contract/tax.ts';
import type { ServiceRate } from '../services/tax-rates.ts';
import { cachedLookup, ratesOfState, recordLookup, zipRateOf } from './tax-rates.repo.ts';

export type TaxDeps = Pick<Services, 'db' | 'taxRates' | 'env'>;

/** How long a failed lookup sends its ZIP to her table before the service is asked again. */
export const FAILED_LOOKUP_MS = 10 * 60_000;

// Concurrent quotes for the same ZIP in this process wait for one question.
const inFlight = new Map<string, Promise<ServiceRate | null>>();

/** The service's rate at `zip`, from the cache when it is fresh; null when it failed or does not know the address. */
async function askService(deps: TaxDeps, state: string, zip: string, now: Date): Promise<ServiceRate | null> {
  const cached = await cachedLookup(deps.db, state, zip);
  const age = (at: Date | null | undefined) => (at ? now.getTime() - new Date(at).getTime() : Infinity);
  if (cached && cached.ratePpm !== null && age(cached.lookedUpAt) < deps.env.TAX_RATE_CACHE_HOURS * 3_600_000 && !cached.failedAt) {
    return { ratePpm: cached.ratePpm, locationCode: cached.locationCode ?? '', jurisdiction: cached.jurisdiction ?? '' };
  }
  if (cached?.failedAt && age(cached.failedAt) < FAILED_LOOKUP_MS) return null;

  const key = `${state}:${zip}`;
  const pending = inFlight.get(key);
  if (pending) return pending;
  const asking = (async () => {
    let heard: ServiceRate | null;
    try {
      heard = await deps.taxRates.rateAt(state, zip);
      if (!heard) console.error(`[tax] the ${state} rate service does not know ZIP ${zip}; her table stands in`);
    } catch (err) {
      console.error(`[tax] the ${state} rate service failed for ZIP ${zip} (${err instanceof Error ? err.message : 'error'}); her table stands in`);
      heard = null;
    }
    await recordLookup(deps.db, state, zip, now, heard);
    return heard;
  })();
  inFlight.set(key, asking);
  try {
    return await asking;
  } finally {
    inFlight.delete(key);
  }
}

/** Her table's rate at the ZIP; else the state's rate in effect `today` (no location code); else none. */
async function fromTable(deps: TaxDeps, state: string, zip: string, today: string) {
  const row = await zipRateOf(deps.db, state, zip5(zip));
  if (row) return { ratePpm: row.ratePpm, locationCode: row.locationCode, jurisdiction: row.jurisdiction };
  const stateRate = rateInEffect(await ratesOfState(deps.db, state), state, today);
  return { ratePpm: stateRate?.ratePpm ?? 0, locationCode: null, jurisdiction: US_STATES[state]?.toUpperCase() ?? state };
}

/** The rate at `zip` in `state` (one where she collects) on `today`, with where it came from. */
export async function rateOfPlace(deps: TaxDeps, state: string, zip: string, today: string, now: Date = new Date()): Promise<TaxRate & { source: TaxSource }> {
  // Whether shipping is taxed is the state's rule, from her state table.
  const shippingTaxable = rateInEffect(await ratesOfState(deps.db, state), state, today)?.shippingTaxable ?? false;
  const place = { state, zip, shippingTaxable };
  if (deps.taxRates.states.includes(state)) {
    const heard = await askService(deps, state, zip, now);
    if (heard) return { ...place, ...heard, source: 'service' };
    return { ...place, ...(await fromTable(deps, state, zip, today)), source: 'fallback' };
  }
  return { ...place, ...(await fromTable(deps, state, zip, today)), source: 'table' };
}
