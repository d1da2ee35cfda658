/**
 * Issue 48 (decision 0056): a chocolate's label facts through POST /api/chocolates and PUT
 * /api/chocolates/{id} (ingredients, allergens by their kind, "none" said explicitly, net weight,
 * diet tags), shown by GET /api/chocolates; each refusal a 400 that changes nothing; her label's
 * facts under her licence (GET /api/chocolates/{id}/label, admin only); and the buyer's order
 * confirmation mail naming each product's allergens and net weight.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser, expectAdminOnly } from '../../helpers/auth.ts';
import { rowCount, testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { ALLERGEN_FREE_CONFLICT } from '../../../contract/chocolates.ts';
import { ALLERGEN_FREE_WORDS, COCONUT_NOT_MAJOR, COTTAGE_STATEMENT, DEFAULT_FOOD_LICENCE, NAME_THE_NUT } from '../../../contract/food.ts';
import { writeSettings } from '../../../api/settings/settings.repo.ts';
import { itemAt } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
let cookie: string;
beforeAll(async () => {
  cookie = await adminCookie(server);
});

const asAdmin = (path: string, init: RequestInit & { json?: unknown } = {}) =>
  server.api(path, { ...init, headers: { cookie, ...(init.headers as Record<string, string>) } });
const add = (json: Record<string, unknown>) => asAdmin('/api/chocolates', { method: 'POST', json });
const put = (id: string, json: Record<string, unknown>) => asAdmin(`/api/chocolates/${id}`, { method: 'PUT', json });
const productCount = () => rowCount(server.services.db, 'products');
const stored = (id: string) => server.services.db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

const card = { name: 'Almond Milk Bark', image: '', description: 'Toasted almonds.', details: 'One bar.', price: 14, inventory: 10 };
const facts = {
  ingredients: 'Milk chocolate (cane sugar, cocoa butter, whole milk powder, cocoa mass), almonds, sea salt',
  allergens: ['milk', 'Almond'],
  netWeightGrams: 93,
  dietTags: ['gluten-free'],
};
/** What a product she has said nothing about shows. */
const NOT_SAID = { ingredients: '', allergens: null, allergenFree: false, netWeightGrams: null, dietTags: [] };

describe(`label facts on ${testDbKind()}`, () => {
  it('adds a product with its label facts: the pinned shape, allergens lower case and alphabetical', async () => {
    const res = await add({ ...card, ...facts });
    const body = await res.json();
    expect([res.status, body.message]).toEqual([201, 'Product added successfully.']);
    expect(body.product).toEqual({
      _id: expect.any(String),
      ...card,
      ingredients: facts.ingredients,
      allergens: ['almond', 'milk'],
      allergenFree: false,
      netWeightGrams: 93,
      dietTags: ['gluten-free'],
    });
    const row = await stored(body.product._id);
    expect(row).toMatchObject({
      ingredients: facts.ingredients,
      allergens: ['almond', 'milk'],
      allergenFree: false,
      netWeightGrams: 93,
      dietTags: ['gluten-free'],
    });
  });

  it('takes a product without label facts: nothing is said yet (allergens null, not "none")', async () => {
    const res = await add({ ...card, name: 'Facts Later' });
    expect(res.status).toBe(201);
    const { product } = await res.json();
    expect(product).toEqual({ _id: expect.any(String), ...card, name: 'Facts Later', ...NOT_SAID });
    expect(await stored(product._id)).toMatchObject({ allergens: null, netWeightGrams: null, ingredients: '', allergenFree: false, dietTags: [] });
  });

  it('says "none" only with allergenFree: an empty list alone is not said', async () => {
    const none = await (await add({ ...card, name: 'None Said', allergens: [], allergenFree: true })).json();
    expect(none.product).toMatchObject({ allergens: [], allergenFree: true });
    const noneWithoutList = await (await add({ ...card, name: 'None Without List', allergenFree: true })).json();
    expect(noneWithoutList.product).toMatchObject({ allergens: [], allergenFree: true });
    const empty = await (await add({ ...card, name: 'Empty List', allergens: [] })).json();
    expect(empty.product).toMatchObject({ allergens: null, allergenFree: false });
    const explicitNull = await (await add({ ...card, name: 'Null List', allergens: null, netWeightGrams: null })).json();
    expect(explicitNull.product).toMatchObject({ allergens: null, netWeightGrams: null });
  });

  it('refuses unnamed nuts, unknown allergens, bad weights, "none" with allergens and contradicting tags, adding nothing', async () => {
    const before = await productCount();
    const cases: [Record<string, unknown>, string | RegExp][] = [
      [{ allergens: ['nuts'] }, NAME_THE_NUT],
      [{ allergens: ['milk', 'tree nuts'] }, NAME_THE_NUT],
      [{ allergens: ['Tree Nuts'] }, NAME_THE_NUT],
      [{ allergens: ['coconut'] }, COCONUT_NOT_MAJOR],
      [{ allergens: ['chocolate'] }, /"chocolate" is not one of the major food allergens/],
      [{ allergens: 'milk' }, /Allergens must be a list of names/],
      [{ allergens: [1] }, /Each allergen must be a name/],
      [{ netWeightGrams: 0 }, /Net weight must be more than 0 grams/],
      [{ netWeightGrams: -5 }, /Net weight must be more than 0 grams/],
      [{ netWeightGrams: '93' }, /Net weight must be a number of grams/],
      [{ netWeightGrams: 100_001 }, /at most 100,000 grams/],
      [{ allergenFree: true, allergens: ['milk'] }, ALLERGEN_FREE_CONFLICT],
      [{ allergenFree: 'yes' }, /allergenFree must be true or false/],
      [{ allergens: ['milk'], dietTags: ['plant-based'] }, 'A product that contains milk cannot be tagged plant-based.'],
      [{ allergens: ['milk'], dietTags: ['dairy-free'] }, 'A product that contains milk cannot be tagged dairy-free.'],
      [{ allergens: ['wheat'], dietTags: ['gluten-free'] }, 'A product that contains wheat cannot be tagged gluten-free.'],
      [{ dietTags: ['keto'] }, /Diet tags must be among plant-based, dairy-free, gluten-free/],
      [{ ingredients: 'x'.repeat(3001) }, /Ingredients must be at most 3000 characters/],
    ];
    for (const [change, message] of cases) {
      const res = await add({ ...card, name: 'Refused', ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      const body = await res.json();
      if (typeof message === 'string') expect(body.message, JSON.stringify(change)).toContain(message);
      else expect(body.message, JSON.stringify(change)).toMatch(message);
    }
    expect(await productCount()).toBe(before);
  });

  it('GET /api/chocolates carries every label fact, allergens null where not said', async () => {
    const { product } = await (await add({ ...card, name: 'Listed With Facts', ...facts })).json();
    const { product: bare } = await (await add({ ...card, name: 'Listed Without Facts' })).json();
    const list = (await (await server.api('/api/chocolates')).json()) as Record<string, unknown>[];
    expect(list.find((p) => p._id === product._id)).toEqual(product);
    expect(list.find((p) => p._id === bare._id)).toMatchObject(NOT_SAID);
    expect(Object.keys(list[0]!).sort()).toEqual(
      ['_id', 'allergenFree', 'allergens', 'description', 'details', 'dietTags', 'image', 'ingredients', 'inventory', 'name', 'netWeightGrams', 'price'].sort(),
    );
  });

  it('PUT replaces the whole card: omitted facts are no longer said, new ones replace the old', async () => {
    const { product } = await (await add({ ...card, name: 'Replaced', ...facts })).json();
    const replaced = await put(product._id, { ...card, name: 'Replaced', allergens: ['hazelnut'], netWeightGrams: 92.46, ingredients: 'Hazelnut praline' });
    expect(replaced.status).toBe(200);
    expect((await replaced.json()).product).toEqual({
      _id: product._id,
      ...card,
      name: 'Replaced',
      ingredients: 'Hazelnut praline',
      allergens: ['hazelnut'],
      allergenFree: false,
      netWeightGrams: 92.5,
      dietTags: [],
    });
    const cleared = await put(product._id, { ...card, name: 'Replaced' });
    expect((await cleared.json()).product).toEqual({ _id: product._id, ...card, name: 'Replaced', ...NOT_SAID });
    const none = await put(product._id, { ...card, name: 'Replaced', allergens: [], allergenFree: true, dietTags: ['plant-based'] });
    expect((await none.json()).product).toMatchObject({ allergens: [], allergenFree: true, dietTags: ['plant-based'] });
  });

  it('refuses a bad edit of the facts without changing the product', async () => {
    const { product } = await (await add({ ...card, name: 'Kept', ...facts })).json();
    const before = await stored(product._id);
    for (const change of [{ allergens: ['nuts'] }, { allergenFree: true }, { netWeightGrams: 0 }, { dietTags: ['dairy-free'] }]) {
      const res = await put(product._id, { ...card, name: 'Kept', ...facts, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
    }
    expect(await stored(product._id)).toEqual(before);
  });
});

describe(`her label on ${testDbKind()}`, () => {
  /** Back to the licence a fresh site has (never set: the default). */
  const freshLicence = () => server.services.db.deleteFrom('settings').where('key', '=', 'foodLicence').execute();
  const licence = {
    mode: 'licensed' as const,
    licenceNumber: 'DK-12345',
    businessName: 'Cacao & Calm',
    businessAddress: '12 Oak St, Portland, OR 97214',
    phone: '503-555-0142',
    capDollars: 50_000,
  };

  it('is hers alone', async () => {
    const { product } = await (await add({ ...card, name: 'Guarded Label' })).json();
    const client = await createUser(server, { email: 'label-client@example.com' });
    await expectAdminOnly(server, [{ method: 'GET', path: `/api/chocolates/${product._id}/label` }], client.cookie, (body) =>
      expect(body).not.toContain('Guarded Label'),
    );
  });

  it('says what is missing for a label that would pass, then nothing once all is there', async () => {
    await freshLicence();
    const { product } = await (await add({ ...card, name: 'Label Missing' })).json();
    const res = await asAdmin(`/api/chocolates/${product._id}/label`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({
      product,
      licence: DEFAULT_FOOD_LICENCE,
      statement: null,
      missing: ['ingredients', 'allergens', 'net weight', 'licence number', 'business name', 'business address', 'phone'],
    });

    await writeSettings(server.services.db, { foodLicence: licence });
    const filled = await (await put(product._id, { ...card, name: 'Label Missing', ...facts })).json();
    expect(await (await asAdmin(`/api/chocolates/${product._id}/label`)).json()).toEqual({ product: filled.product, licence, statement: null, missing: [] });
  });

  it('carries the cottage-food statement in cottage mode, and needs no licence number there', async () => {
    await writeSettings(server.services.db, { foodLicence: { ...licence, mode: 'cottage', licenceNumber: '' } });
    const { product } = await (
      await add({ ...card, name: 'Cottage Label', allergenFree: true, ingredients: 'Cocoa mass, cane sugar', netWeightGrams: 50 })
    ).json();
    const label = await (await asAdmin(`/api/chocolates/${product._id}/label`)).json();
    expect(label).toMatchObject({ statement: COTTAGE_STATEMENT, missing: [], licence: { mode: 'cottage' } });
    await freshLicence();
  });

  it('answers 404 for no such product', async () => {
    const res = await asAdmin('/api/chocolates/00000000-0000-0000-0000-000000000000/label');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Product not found' });
  });
});

describe(`the order confirmation on ${testDbKind()}`, () => {
  it("names each product's allergens and net weight in the buyer's mail", async () => {
    const { product: almond } = await (await add({ ...card, name: 'Mailed Almond Bark', ...facts, inventory: 5 })).json();
    const { product: plain } = await (await add({ ...card, name: 'Mailed Plain Bar', allergenFree: true, inventory: 5 })).json();
    const cart = {
      cartItems: [
        { _id: almond._id, quantity: 1 },
        { _id: plain._id, quantity: 2 },
      ],
      isLocalPickup: true,
      couponCode: null,
    };
    const quote = await (await server.api('/api/orders/paypal', { method: 'POST', json: cart })).json();
    const buyer = 'label-buyer@example.com';
    const approved = await server.api(`/dev/paypal/v2/checkout/orders/${quote.orderID}/approve`, {
      method: 'POST',
      json: { givenName: 'Lena', surname: 'Label', email: buyer },
    });
    expect(approved.status).toBe(200);
    const placed = await server.api('/api/orders', { method: 'POST', json: { ...cart, orderId: quote.orderID } });
    expect(placed.status, await placed.clone().text()).toBe(201);
    const mail = itemAt(await readMailbox(server, buyer), 0);
    expect(mail.text).toContain('1 × Mailed Almond Bark at $14.00 = $14.00\nContains: almond, milk · Net wt 3.3 oz (93 g)');
    expect(mail.text).toContain(`2 × Mailed Plain Bar at $14.00 = $28.00\n${ALLERGEN_FREE_WORDS}`);
  });
});
