import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { validateJson } from '../validation.ts';
import { zonedNow } from '../lib/time.ts';
import { check } from '../../contract/check.ts';
import {
  formatRate,
  percentToPpm,
  rateInEffect,
  ratePercent,
  STATE_RATES_NOTE,
  taxRateUpdate,
  US_STATES,
  usState,
  type TaxRateView,
  type TaxRatesView,
} from '../../contract/tax.ts';
import { listTaxRates, putTaxRate, type TaxRateRow } from './tax-rates.repo.ts';

/** Every rate with whether it is the one in effect `today`. */
function ratesView(rows: TaxRateRow[], today: string, onlyCurrent: boolean): TaxRatesView {
  const current = new Set<string>();
  for (const state of new Set(rows.map((r) => r.state))) {
    const r = rateInEffect(rows, state, today);
    if (r) current.add(r.id);
  }
  const rates: TaxRateView[] = rows
    .filter((r) => !onlyCurrent || current.has(r.id))
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
  return { note: STATE_RATES_NOTE, today, rates };
}

/** GET /api/tax-rates: the rates in effect today, for the cart's tax line (the server charges its own). */
export const taxRates = new Hono<AppEnv>().get('/', async (c) => {
  const { db, env } = c.var.services;
  return c.json(ratesView(await listTaxRates(db), zonedNow(env.SITE_TIMEZONE).date, true));
});

/**
 * GET /api/admin/tax-rates: every rate, dated; PUT /api/admin/tax-rates/{state} {ratePercent,
 * shippingTaxable, startsOn}: the state's rate from that day on.
 */
export const adminTaxRates = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/', async (c) => {
    const { db, env } = c.var.services;
    return c.json(ratesView(await listTaxRates(db), zonedNow(env.SITE_TIMEZONE).date, false));
  })
  .put('/:state', validateJson(taxRateUpdate), async (c) => {
    const state = check(usState, c.req.param('state'));
    if (!state.ok || c.req.param('state') !== state.data) return c.json({ message: state.ok ? 'Unknown state' : state.message }, 404);
    const { db, env } = c.var.services;
    const { ratePercent: percent, shippingTaxable, startsOn } = c.req.valid('json');
    await putTaxRate(db, { state: state.data, stateName: US_STATES[state.data]!, ratePpm: percentToPpm(percent), shippingTaxable, startsOn });
    const view = ratesView(await listTaxRates(db), zonedNow(env.SITE_TIMEZONE).date, false);
    return c.json({ ...view, message: `${state.data}: ${formatRate(percentToPpm(percent))} from ${startsOn}.` });
  });
