import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { validateJson, validateQuery } from '../validation.ts';
import { id } from '../../contract/common.ts';
import { FOOD_SALE_DELETED, FOOD_SALE_NOT_FOUND, FOOD_SALE_SAVED, foodSaleInput, type FoodSalesFigures, type FoodSaleView } from '../../contract/food-sales.ts';
import { deleteHandSale, insertHandSale } from './food-sales.repo.ts';
import { foodSalesCsv, foodSalesOf, handSaleView } from './food-sales.ts';

const YEAR_REFUSED = 'Year must be between 2000 and 2100';
/** ?year=2026: four digits, 2000 to 2100. */
const yearQuery = z.object({
  year: z
    .string({ error: YEAR_REFUSED })
    .regex(/^\d{4}$/, YEAR_REFUSED)
    .transform(Number)
    .pipe(z.number().min(2000, YEAR_REFUSED).max(2100, YEAR_REFUSED)),
});

/**
 * Her food sales (issue 48, decision 0059), admin only, mounted on /api/admin/books:
 *   GET    /food-sales?year=YYYY      the year's food sales against the cottage-food cap, and the sales she recorded by hand
 *   GET    /food-sales.csv?year=YYYY  the year's sales records (OAR 603-025-0328), a CSV
 *   POST   /food-sales                {soldOn, food, quantity, amountCents, place}: a sale she records by hand
 *   DELETE /food-sales/{id}
 */
export const adminBooks = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/food-sales.csv', validateQuery(yearQuery), async (c) => {
    const { db, env } = c.var.services;
    const { year } = c.req.valid('query');
    return c.body(await foodSalesCsv(db, env.SITE_TIMEZONE, year), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="food-sales-${year}.csv"`,
    });
  })
  .get('/food-sales', validateQuery(yearQuery), async (c) => {
    const { db, env } = c.var.services;
    return c.json((await foodSalesOf(db, env.SITE_TIMEZONE, c.req.valid('query').year)) satisfies FoodSalesFigures);
  })
  .post('/food-sales', validateJson(foodSaleInput), async (c) => {
    const row = await insertHandSale(c.var.services.db, c.req.valid('json'));
    return c.json({ ...handSaleView(row), message: FOOD_SALE_SAVED } satisfies FoodSaleView & { message: string }, 201);
  })
  .delete('/food-sales/:id', async (c) => {
    const saleId = c.req.param('id');
    if (!id.safeParse(saleId).success || !(await deleteHandSale(c.var.services.db, saleId))) return c.json({ message: FOOD_SALE_NOT_FOUND }, 404);
    return c.json({ message: FOOD_SALE_DELETED });
  });
