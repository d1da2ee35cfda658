import type { Context } from 'hono';
import type { AppEnv } from '../types.ts';
import { zonedNow } from '../lib/time.ts';
import { taxYearCsv, taxYearOf } from './tax-year.ts';

/** GET /api/admin/exports/tax-year-{year}.csv: the year's report as the accountant's CSV (the admin guard is the exports'). */
export async function taxYearExport(c: Context<AppEnv>, year: number) {
  if (year < 2000 || year > 2100) return c.json({ message: 'Year must be between 2000 and 2100' }, 400);
  const { db, env } = c.var.services;
  const view = await taxYearOf(db, env.SITE_TIMEZONE, year, zonedNow(env.SITE_TIMEZONE).date);
  return c.body(taxYearCsv(view), 200, {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="tax-year-${year}.csv"`,
  });
}
