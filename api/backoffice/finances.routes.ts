import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { validateQuery } from '../validation.ts';
import { financesQuery } from '../../contract/backoffice.ts';
import { financesOf } from './finances.ts';

/** GET /api/admin/finances?from=YYYY-MM&to=YYYY-MM: totals, one entry per month, the best-selling tins. */
export const adminFinances = new Hono<AppEnv>().use('*', requireAdmin()).get('/', validateQuery(financesQuery), async (c) => {
  const { db, env } = c.var.services;
  const { from, to } = c.req.valid('query');
  return c.json(await financesOf(db, env.SITE_TIMEZONE, from, to));
});
