/**
 * Issue 48 (decision 0057): Today asks her for what her food needs. While licensed with no
 * licence number (the seed), Today asks for the number (and what else a label lacks), linked to
 * her food licence in Settings; each product missing label facts (contract/food.ts
 * missingLabelFacts: ingredients, allergens said, net weight) is listed with what it lacks and a
 * link to it among her products, until she fills them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import type { TodayView } from '../../../contract/backoffice.ts';
import { readListFilter } from '../../../contract/admin-links.ts';
import type { LabelFacts } from '../../../contract/food.ts';

const server = useTestServer();
let admin: string;

const today = async (): Promise<TodayView> => {
  const res = await server.api('/api/admin/today', { headers: { cookie: admin } });
  expect(res.status).toBe(200);
  return res.json();
};

type Facts = Partial<Omit<LabelFacts, 'dietTags'>>;
const product = async (name: string, facts: Facts) =>
  (
    await server.services.db
      .insertInto('products')
      .values({ name, priceCents: 1_800, inventory: 10, ...facts })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;

const COMPLETE: Facts = { ingredients: 'Dark chocolate (cocoa mass, sugar), almonds, sea salt', allergens: ['almond', 'milk'], netWeightGrams: 93 };
const ids = { bare: '', noneUnsaid: '', noWeight: '', complete: '', free: '' };

beforeAll(async () => {
  admin = await adminCookie(server);
  ids.bare = await product('A bare tin', {});
  // An empty list she did not mark "none" is not "none"; blank ingredients are none.
  ids.noneUnsaid = await product('B empty list', { ...COMPLETE, ingredients: '  ', allergens: [] });
  ids.noWeight = await product('C no weight', { ...COMPLETE, netWeightGrams: null });
  ids.complete = await product('D complete', COMPLETE);
  ids.free = await product('E allergen free', { ...COMPLETE, allergens: [], allergenFree: true });
});

describe(`Today's food asks on ${testDbKind()}`, () => {
  it('asks for her licence number (and the label’s other facts) while licensed without one, linked to her food licence', async () => {
    expect((await today()).foodLicence).toEqual({
      mode: 'licensed',
      missing: ['licence number', 'business name', 'business address', 'phone'],
      href: '/admin/settings#food-licence',
    });
  });

  it('lists each product missing label facts with what it lacks, each a tap from its product, the complete ones not', async () => {
    const { labelFacts } = await today();
    expect(labelFacts.count).toBe(3);
    expect(labelFacts.href).toBe('/admin/chocolates');
    expect(labelFacts.items).toEqual([
      { _id: ids.bare, name: 'A bare tin', missing: ['ingredients', 'allergens', 'net weight'], href: `/admin/chocolates?focus=${ids.bare}` },
      { _id: ids.noneUnsaid, name: 'B empty list', missing: ['ingredients', 'allergens'], href: `/admin/chocolates?focus=${ids.noneUnsaid}` },
      { _id: ids.noWeight, name: 'C no weight', missing: ['net weight'], href: `/admin/chocolates?focus=${ids.noWeight}` },
    ]);
    for (const item of labelFacts.items) expect(readListFilter(new URL(item.href, 'http://x').search).focus).toBe(item._id);
  });

  it('drops a product once she fills its facts, and the licence ask once she sets her licence', async () => {
    await server.services.db.updateTable('products').set({ netWeightGrams: 120 }).where('id', '=', ids.noWeight).execute();
    expect((await today()).labelFacts.items.map((i) => i._id)).toEqual([ids.bare, ids.noneUnsaid]);

    const put = (json: unknown) => server.api('/api/admin/settings/food-licence', { method: 'PUT', json, headers: { cookie: admin } });
    const kitchen = { businessName: 'Cacao Kitchen', businessAddress: '12 Elm St, Portland, OR 97201', phone: '503-555-0100' };
    expect((await put({ mode: 'licensed', ...kitchen })).status).toBe(200);
    expect((await today()).foodLicence.missing).toEqual(['licence number']);
    expect((await put({ mode: 'licensed', licenceNumber: 'DK-12345', ...kitchen })).status).toBe(200);
    expect((await today()).foodLicence).toMatchObject({ mode: 'licensed', missing: [] });
    // The cottage-food exemption has no number to ask for.
    expect((await put({ mode: 'cottage', ...kitchen })).status).toBe(200);
    expect((await today()).foodLicence).toMatchObject({ mode: 'cottage', missing: [] });
    expect((await put({ mode: 'licensed', ...kitchen })).status).toBe(200);
  });

  it('asks for her postal address while no newsletter could carry one, and not once she sets it', async () => {
    // A fresh site: no address of her own, and her shop's has no street line.
    expect((await today()).postalAddress).toEqual({ missing: true, href: '/admin/newsletter' });
    const res = await server.api('/api/admin/settings/postal-address', {
      method: 'PUT',
      json: { address: 'PO Box 4120, Portland, OR 97208' },
      headers: { cookie: admin },
    });
    expect(res.status).toBe(200);
    expect((await today()).postalAddress.missing).toBe(false);
  });
});
