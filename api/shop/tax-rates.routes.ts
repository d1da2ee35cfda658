import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import type { Services } from '../services/index.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { LIMITS } from '../services/limits.ts';
import { validateJson, validateQuery } from '../validation.ts';
import { zonedNow } from '../lib/time.ts';
import { check } from '../../contract/check.ts';
import {
  collectsInSentence,
  formatRate,
  parseZipRates,
  percentToPpm,
  placeRateQuery,
  rateInEffect,
  ratePercent,
  STATE_RATES_NOTE,
  taxingStates,
  taxRateUpdate,
  taxSettings,
  US_STATES,
  usState,
  zipRatesImport,
  type AdminTaxRatesView,
  type PlaceRateAnswer,
  type PlaceRateView,
  type TaxRateView,
  type TaxRatesView,
  type TaxSettings,
} from '../../contract/tax.ts';
import { listTaxRates, putTaxRate, replaceZipRates, zipTables, type TaxRateRow } from './tax-rates.repo.ts';
import { readTaxSettings, writeTaxSettings } from './tax-settings.repo.ts';
import { rateOfPlace } from './tax-lookup.ts';

/** Every rate with whether it is the one in effect `today`; `onlyCurrentIn`: only today's rates of those states. */
function ratesView(rows: TaxRateRow[], today: string, taxing: string[], onlyCurrentIn?: readonly string[]): TaxRatesView {
  const current = new Set<string>();
  for (const state of new Set(rows.map((r) => r.state))) {
    const r = rateInEffect(rows, state, today);
    if (r) current.add(r.id);
  }
  const rates: TaxRateView[] = rows
    .filter((r) => !onlyCurrentIn || (current.has(r.id) && onlyCurrentIn.includes(r.state)))
    .map((r) => ({
      _id: r.id,
      state: r.state,
      stateName: r.stateName,
      ratePercent: ratePercent(r.ratePpm),
      rate: formatRate(r.ratePpm),
      shippingTaxable: r.shippingTaxable,
      startsOn: r.startsOn,
      current: current.has(r.id),
    }));
  return { note: STATE_RATES_NOTE, today, rates, taxing };
}

/** The admin's view: the table, her registrations, the rate service behind them, her ZIP tables. */
async function adminView(services: Pick<Services, 'db' | 'env' | 'taxRates'>, settings?: TaxSettings): Promise<AdminTaxRatesView> {
  const { db, env, taxRates } = services;
  const s = settings ?? (await readTaxSettings(db));
  const taxing = taxingStates(s.collectsIn);
  return {
    ...ratesView(await listTaxRates(db), zonedNow(env.SITE_TIMEZONE).date, taxing),
    settings: s,
    collectsInWords: collectsInSentence(s.collectsIn),
    service: { states: [...taxRates.states], standIn: taxRates.kind === 'stand-in' },
    zipTables: await zipTables(db),
  };
}

/**
 * GET /api/tax-rates: where orders are taxed (`taxing`: the cart asks for a ZIP there) and those
 * states' rates in effect today. GET /api/tax-rates/at?state=&zip=: the rate at a place, as the
 * checkout will charge it (`rate` null where she does not collect); the server charges its own.
 */
export const taxRates = new Hono<AppEnv>()
  .get('/', async (c) => {
    const services = c.var.services;
    const today = zonedNow(services.env.SITE_TIMEZONE).date;
    const { collectsIn, shopAddress: shop } = await readTaxSettings(services.db);
    const taxing = taxingStates(collectsIn);
    // A pickup is taxed at her shop: the cart shows that rate when the buyer picks up.
    const pickup = taxing.includes(shop.state) ? await placeRateView(services, shop.state, shop.zip, today) : null;
    return c.json({ ...ratesView(await listTaxRates(services.db), today, taxing, taxing), pickup });
  })
  .get('/at', rateLimit(LIMITS.checkout), validateQuery(placeRateQuery), async (c) => {
    const services = c.var.services;
    const { state, zip } = c.req.valid('query');
    const taxing = taxingStates((await readTaxSettings(services.db)).collectsIn);
    if (!taxing.includes(state) || !zip) return c.json({ rate: null } satisfies PlaceRateAnswer);
    return c.json({ rate: await placeRateView(services, state, zip, zonedNow(services.env.SITE_TIMEZONE).date) } satisfies PlaceRateAnswer);
  });

/** The rate at a place where she collects, as the cart shows it. */
async function placeRateView(services: Pick<Services, 'db' | 'env' | 'taxRates'>, state: string, zip: string, today: string): Promise<PlaceRateView> {
  const r = await rateOfPlace(services, state, zip, today);
  return {
    state,
    zip,
    ratePpm: r.ratePpm,
    ratePercent: ratePercent(r.ratePpm),
    rate: formatRate(r.ratePpm),
    shippingTaxable: r.shippingTaxable,
    locationCode: r.locationCode ?? null,
    jurisdiction: r.jurisdiction ?? null,
    source: r.source,
  };
}

/** The state of the path, as written (WA); undefined for anything else. */
const stateOfPath = (param: string): string | undefined => {
  const state = check(usState, param);
  return state.ok && param === state.data ? state.data : undefined;
};

/**
 * GET /api/admin/tax-rates: every rate, dated, with her registrations and ZIP tables;
 * PUT /api/admin/tax-rates/{state} {ratePercent, shippingTaxable, startsOn}: the state's rate from that day on;
 * POST /api/admin/tax-rates/{state}/zips {csv}: her copy of the state's published ZIP table
 * (ZIP, Rate, Location code, Name), replacing the one before: the rate service's fallback.
 */
export const adminTaxRates = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/', async (c) => c.json(await adminView(c.var.services)))
  .put('/:state', validateJson(taxRateUpdate), async (c) => {
    const state = stateOfPath(c.req.param('state'));
    if (!state) return c.json({ message: 'Unknown state' }, 404);
    const { db } = c.var.services;
    const { ratePercent: percent, shippingTaxable, startsOn } = c.req.valid('json');
    await putTaxRate(db, { state, stateName: US_STATES[state]!, ratePpm: percentToPpm(percent), shippingTaxable, startsOn });
    return c.json({ ...(await adminView(c.var.services)), message: `${state}: ${formatRate(percentToPpm(percent))} from ${startsOn}.` });
  })
  .post('/:state/zips', validateJson(zipRatesImport), async (c) => {
    const state = stateOfPath(c.req.param('state'));
    if (!state) return c.json({ message: 'Unknown state' }, 404);
    const parsed = parseZipRates(c.req.valid('json').csv);
    if (!parsed.ok) return c.json({ message: parsed.message }, 400);
    await replaceZipRates(c.var.services.db, state, parsed.rows);
    const n = parsed.rows.length;
    return c.json({ ...(await adminView(c.var.services)), message: `${state}: ${n} ZIP code${n === 1 ? '' : 's'} imported.` });
  });

/**
 * GET /api/admin/settings/tax → {collectsIn, shopAddress}: where she is registered to collect
 * sales tax and her shop's address (seeded: Oregon, Portland); PUT the same shape: a refusal is
 * 400 {message} and changes nothing.
 */
export const adminTaxSettings = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/', async (c) => c.json(await readTaxSettings(c.var.services.db)))
  .put('/', validateJson(taxSettings), async (c) => {
    const { db } = c.var.services;
    await writeTaxSettings(db, c.req.valid('json'));
    return c.json(await readTaxSettings(db));
  });
