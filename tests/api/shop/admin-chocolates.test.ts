import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind, rowCount } from '../../helpers/database.ts';

const server = useTestServer();
let cookie: string;
beforeAll(async () => {
  cookie = await adminCookie(server);
});

const asAdmin = (path: string, init: RequestInit & { json?: unknown } = {}) =>
  server.api(path, { ...init, headers: { cookie, ...(init.headers as Record<string, string>) } });

const productCount = () => rowCount(server.services.db, 'products');

const card = {
  name: 'Sea Salt Caramel Tin',
  image: '/images/chocolates/sea-salt-caramel.svg',
  description: 'Soft caramel.',
  details: 'Nine pieces.',
  price: 18.5,
  inventory: 24,
};

/** Label facts (issue 48) not said: what a card without them shows. */
const NOT_SAID = { ingredients: '', allergens: null, allergenFree: false, netWeightGrams: null, dietTags: [] };

const add = (json: Record<string, unknown>) => asAdmin('/api/chocolates', { method: 'POST', json });

describe(`chocolates on ${testDbKind()}`, () => {
  it('adds a product: dollars in, cents stored, dollars out', async () => {
    const res = await add(card);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({ message: 'Product added successfully.', product: { _id: expect.any(String), ...card, ...NOT_SAID } });
    const row = await server.services.db.selectFrom('products').selectAll().where('id', '=', body.product._id).executeTakeFirstOrThrow();
    expect(row.priceCents).toBe(1850);
  });

  it('reads prices as written, with no float rounding', async () => {
    const cases: [unknown, number][] = [
      [0.29, 29],
      [1.1, 110],
      [19.99, 1999],
      ['12.00', 1200],
      [' 7.5 ', 750],
      [0, 0],
      [100000, 10_000_000],
    ];
    for (const [price, cents] of cases) {
      const res = await add({ ...card, name: `Price ${String(price)}`, price });
      expect(res.status, String(price)).toBe(201);
      const { product } = await res.json();
      const row = await server.services.db.selectFrom('products').select('priceCents').where('id', '=', product._id).executeTakeFirstOrThrow();
      expect(row.priceCents, String(price)).toBe(cents);
      expect(product.price).toBe(cents / 100);
    }
  });

  it('refuses bad prices, inventories, names and images, adding nothing', async () => {
    const before = await productCount();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ price: 18.555 }, /two decimals/],
      [{ price: '1.005' }, /two decimals/],
      [{ price: -1 }, /negative/],
      [{ price: 'NaN' }, /dollars/],
      [{ price: '1e3' }, /dollars/],
      [{ price: '' }, /dollars/],
      [{ price: null }, /Price/],
      [{ price: undefined }, /Price is required/],
      [{ price: 100000.01 }, /at most/],
      [{ inventory: -1 }, /negative/],
      [{ inventory: 1.5 }, /whole number/],
      [{ inventory: '3' }, /whole number/],
      [{ inventory: undefined }, /Inventory is required/],
      [{ name: '' }, /Name is required/],
      [{ name: undefined }, /Name is required/],
      [{ image: 'javascript:alert(1)' }, /Image/],
      [{ image: '//evil.example/x.png' }, /Image/],
    ];
    for (const [change, message] of cases) {
      const res = await add({ ...card, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect((await res.json()).message, JSON.stringify(change)).toMatch(message);
    }
    expect(await productCount()).toBe(before);
  });

  it('lists products by name with dollar prices, publicly', async () => {
    await add({ ...card, name: 'Almond Bark', price: 12 });
    await add({ ...card, name: 'Zesty Orange', price: 21.25, inventory: 0 });
    const res = await server.api('/api/chocolates');
    expect(res.status).toBe(200);
    const list = (await res.json()) as { _id: string; name: string; price: number; inventory: number }[];
    const names = list.map((p) => p.name);
    // By name in the database's collation; these three sort the same in every collation.
    expect(names[0]).toBe('Almond Bark');
    expect(names.at(-1)).toBe('Zesty Orange');
    expect(names.indexOf('Sea Salt Caramel Tin')).toBeGreaterThan(0);
    expect(list.find((p) => p.name === 'Zesty Orange')).toMatchObject({ price: 21.25, inventory: 0 });
    expect(Object.keys(list[0]!).sort()).toEqual(
      ['_id', 'allergenFree', 'allergens', 'description', 'details', 'dietTags', 'image', 'ingredients', 'inventory', 'name', 'netWeightGrams', 'price'].sort(),
    );
  });

  it('edits a product; the new price shows in the public list', async () => {
    const { product } = await (await add({ ...card, name: 'Lavender Honey Truffles', price: 20 })).json();
    const res = await asAdmin(`/api/chocolates/${product._id}`, {
      method: 'PUT',
      json: { ...card, _id: product._id, name: 'Lavender Honey Truffles', price: '22.75', inventory: 3, description: 'New words.' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      message: 'Product updated successfully.',
      product: { ...card, ...NOT_SAID, _id: product._id, name: 'Lavender Honey Truffles', price: 22.75, inventory: 3, description: 'New words.' },
    });
    const list = await (await server.api('/api/chocolates')).json();
    expect(list.find((p: { _id: string }) => p._id === product._id)).toMatchObject({ price: 22.75, inventory: 3 });
  });

  it('refuses a bad edit without changing the product, and 404s an unknown one', async () => {
    const { product } = await (await add({ ...card, name: 'Unchanged' })).json();
    const before = await server.services.db.selectFrom('products').selectAll().where('id', '=', product._id).executeTakeFirstOrThrow();
    for (const change of [{ name: '  ' }, { price: 1.234 }, { inventory: -5 }]) {
      const res = await asAdmin(`/api/chocolates/${product._id}`, { method: 'PUT', json: { ...card, ...change } });
      expect(res.status).toBe(400);
    }
    const after = await server.services.db.selectFrom('products').selectAll().where('id', '=', product._id).executeTakeFirstOrThrow();
    expect(after).toEqual(before);

    const unknown = await asAdmin('/api/chocolates/00000000-0000-0000-0000-000000000000', { method: 'PUT', json: card });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'Product not found' });
    expect((await asAdmin('/api/chocolates/%27%3B--', { method: 'PUT', json: card })).status).toBe(400);
  });

  it('deletes a product; order items that sold it keep their rows', async () => {
    const { product } = await (await add({ ...card, name: 'Sold Before' })).json();
    const { db } = server.services;
    const order = await db
      .insertInto('orders')
      .values({ paypalOrderId: 'PAYPAL-1', itemsTotalCents: 1850, totalCents: 2350 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const item = await db
      .insertInto('orderItems')
      .values({ orderId: order.id, productId: product._id, name: 'Sold Before', unitPriceCents: 1850, quantity: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();

    const res = await asAdmin(`/api/chocolates/${product._id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Product deleted successfully.' });
    expect(await db.selectFrom('products').select('id').where('id', '=', product._id).executeTakeFirst()).toBeUndefined();
    const kept = await db.selectFrom('orderItems').selectAll().where('id', '=', item.id).executeTakeFirstOrThrow();
    expect(kept).toMatchObject({ productId: null, name: 'Sold Before', unitPriceCents: 1850 });

    const again = await asAdmin(`/api/chocolates/${product._id}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
  });
});
