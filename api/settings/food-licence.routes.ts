import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { validateJson } from '../validation.ts';
import { FOOD_LICENCE_SAVED, foodLicence, foodLicenceView, type FoodLicenceView } from '../../contract/food.ts';
import { readSettings, writeSettings } from './settings.repo.ts';

/**
 * Her food licence (issue 48, decision 0057), mounted on /api/admin/settings/food-licence:
 *
 *   GET /   {licence, missing}: how she sells her food (seeded licensed with no number) and what
 *           a lawful label still lacks under it (missingLicenceFacts)
 *   PUT /   {mode, licenceNumber?, businessName, businessAddress, phone, capDollars?}, whole; a
 *           refusal (400) names the field and changes nothing
 *
 * The site records her choice; it does not decide that she qualifies for the exemption. What
 * follows from the mode: the product details' cottage statement (the public pages are drawn again
 * here), hand-over only in the cart and at the checkout (api/shop/quote.ts), Today's asks.
 */
export const adminFoodLicence = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/', async (c) => c.json(foodLicenceView((await readSettings(c.var.services.db)).foodLicence) satisfies FoodLicenceView))
  .put('/', validateJson(foodLicence), async (c) => {
    const { db, publisher } = c.var.services;
    await writeSettings(db, { foodLicence: c.req.valid('json') });
    // The product details on /chocolates carry the cottage statement (or not) and the label's business facts.
    await publisher.regenerate({ kind: 'all' });
    return c.json(foodLicenceView((await readSettings(db)).foodLicence, FOOD_LICENCE_SAVED) satisfies FoodLicenceView);
  });
