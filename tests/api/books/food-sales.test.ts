/**
 * Issue 48 (decision 0059): her food sales against the cottage-food cap, and the sales records
 * OAR 603-025-0328 asks her to keep three years. The year's food sales are the chocolate orders
 * paid and kept (a gift card's included, a refunded one not; the food's price, no shipping or
 * tax) and the sales she records by hand; against `foodLicence.capDollars`, with what is left.
 * GET /api/admin/books/food-sales.csv?year= lists each sale: where (an online sale's ship-to
 * address and contact, a pickup at her shop, a market's address), the date sold, the date shipped
 * or handed over (set when she marks it shipped or picked up), the food, its price and quantity,
 * then the year's calculation. An erased buyer's name and address are not in it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { parseCsv } from '../../helpers/csv.ts';
import { zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import { writeSettings, readSettings } from '../../../api/settings/settings.repo.ts';
import { eraseAccount } from '../../../api/accounts/erase-account.ts';
import { FOOD_SALES_COLUMNS } from '../../../api/books/food-sales.ts';
import { FOOD_SALE_SAVED, type FoodSalesFigures, type FoodSaleView } from '../../../contract/food-sales.ts';
import type { TaxYearView } from '../../../contract/books.ts';
import { itemAt, mustFind } from '../../helpers/guards.ts';

const server = useTestServer();
const ZONE = 'America/Los_Angeles';
let cookie: string;
const call = (path: string, init: { method?: string; json?: unknown } = {}) => server.api(path, { ...init, headers: { cookie } });

const MARKET = 'Portland Saturday Market, 2 SW Naito Pkwy, Portland, OR 97204; organizer: market office 503-555-0199';
const SHOP = { line1: '12 Elm St', city: 'Portland', state: 'OR', zip: '97201' };

/** An order as the checkout leaves it, placed on `date` at noon in her zone; its id. */
async function order(fields: {
  date: string;
  items: [string, number, number][];
  pickup: boolean;
  status: 'paid' | 'refunded' | 'payment_pending';
  discountCents?: number;
  couponCode?: string;
  shippingCents?: number;
  giftCardCents?: number;
  payer?: [string, string];
  shipTo?: [string, string];
}): Promise<string> {
  const { db } = server.services;
  const items = fields.items.reduce((s, [, qty, unit]) => s + qty * unit, 0);
  const total = items - (fields.discountCents ?? 0) + (fields.shippingCents ?? 0);
  const row = await db
    .insertInto('orders')
    .values({
      paypalOrderId: fields.giftCardCents === total ? null : `FS-${Math.random().toString(36).slice(2)}`,
      itemsTotalCents: items,
      discountCents: fields.discountCents ?? 0,
      couponCode: fields.couponCode ?? null,
      shippingCents: fields.shippingCents ?? 0,
      totalCents: total,
      giftCardCents: fields.giftCardCents ?? 0,
      isLocalPickup: fields.pickup,
      payerName: fields.payer?.[0] ?? 'Bo Park',
      payerEmail: fields.payer?.[1] ?? 'bo@example.com',
      shipToName: fields.shipTo?.[0] ?? null,
      shipToAddress: fields.shipTo?.[1] ?? null,
      taxState: fields.pickup ? null : 'WA',
      status: fields.status,
      createdAt: zonedInstant(fields.date, '12:00', ZONE),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('orderItems')
    .values(fields.items.map(([name, quantity, unitPriceCents]) => ({ orderId: row.id, productId: null, name, quantity, unitPriceCents })))
    .execute();
  return row.id;
}

const figures = async (year = 2026): Promise<FoodSalesFigures> => {
  const res = await call(`/api/admin/books/food-sales?year=${year}`);
  expect(res.status).toBe(200);
  return res.json();
};
const csv = async (year = 2026) => {
  const res = await call(`/api/admin/books/food-sales.csv?year=${year}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(res.headers.get('content-disposition')).toBe(`attachment; filename="food-sales-${year}.csv"`);
  return parseCsv(await res.text());
};

let shipped = '';
let pickedUp = '';
let buyer: { id: string; email: string };

describe(`her food sales and their records on ${testDbKind()}`, () => {
  beforeAll(async () => {
    cookie = await adminCookie(server);
    expect((await call('/api/admin/settings/tax', { method: 'PUT', json: { collectsIn: ['OR'], shopAddress: SHOP } })).status).toBe(200);
    buyer = await createUser(server, { email: 'ana.lima@example.com', firstName: 'Ana', lastName: 'Lima' });
    // Shipped to Seattle, paid through PayPal, with a coupon.
    shipped = await order({
      date: '2026-03-04',
      items: [
        ['Almond bark', 2, 900],
        ['Sea salt tin', 1, 1800],
      ],
      pickup: false,
      status: 'paid',
      discountCents: 360,
      couponCode: 'SPRING10',
      shippingCents: 800,
      payer: ['Ana Lima', buyer.email],
      shipTo: ['Ana Lima', '12 Oak St\nSeattle, WA 98101'],
    });
    // Picked up at her shop, paid in full with a gift card.
    pickedUp = await order({ date: '2026-04-10', items: [['Truffle box', 1, 2400]], pickup: true, status: 'paid', giftCardCents: 2400 });
    // Refunded, not yet paid, and last year's: no food sale of 2026.
    await order({ date: '2026-05-01', items: [['Refunded tin', 3, 1800]], pickup: true, status: 'refunded' });
    await order({ date: '2026-05-02', items: [['Pending tin', 1, 1800]], pickup: true, status: 'payment_pending' });
    await order({ date: '2025-12-31', items: [['Last year tin', 1, 1800]], pickup: true, status: 'paid' });
  });

  it('sets the day shipped or picked up when she marks it so, the first time', async () => {
    const mark = (id: string, status: string) =>
      call(`/api/admin/orders/${id}/status`, { method: 'PUT', json: { status, ...(status === 'shipped' ? { trackingNumber: '1Z999', carrier: 'UPS' } : {}) } });
    const deliveredAt = async (id: string) =>
      (await server.services.db.selectFrom('orders').select('deliveredAt').where('id', '=', id).executeTakeFirstOrThrow()).deliveredAt;
    expect(await deliveredAt(shipped)).toBeNull();
    expect((await mark(shipped, 'shipped')).status).toBe(200);
    const first = await deliveredAt(shipped);
    expect(first).not.toBeNull();
    // Marked shipped again (a new tracking number): the first day stays.
    expect((await mark(shipped, 'shipped')).status).toBe(200);
    expect(await deliveredAt(shipped)).toEqual(first);
    // Moved back to paid: not shipped any more; shipped again: a new day.
    expect((await mark(pickedUp, 'picked_up')).status).toBe(200);
    expect((await mark(pickedUp, 'paid')).status).toBe(200);
    expect(await deliveredAt(pickedUp)).toBeNull();
    expect((await mark(pickedUp, 'picked_up')).status).toBe(200);
    expect(await deliveredAt(pickedUp)).not.toBeNull();
  });

  it('records a sale by hand, refusing what is not one with a 400 that changes nothing', async () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ food: '' }, /Food is required/],
      [{ quantity: 0 }, /Quantity must be at least 1/],
      [{ quantity: 1.5 }, /whole number/],
      [{ amountCents: -1 }, /must not be negative/],
      [{ soldOn: '2026-02-30' }, /not a real date/],
      [{ place: '' }, /Where sold is required/],
      [{ place: 'a\nb' }, /one line/],
    ];
    const sale = { soldOn: '2026-05-09', food: 'Hazelnut bonbons', quantity: 6, amountCents: 3000, place: MARKET };
    for (const [change, message] of bad) {
      const res = await call('/api/admin/books/food-sales', { method: 'POST', json: { ...sale, ...change } });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect((await res.json()).message).toMatch(message);
    }
    expect((await figures()).handSales).toEqual([]);

    const res = await call('/api/admin/books/food-sales', { method: 'POST', json: sale });
    expect(res.status).toBe(201);
    const saved = (await res.json()) as FoodSaleView & { message: string };
    expect(saved).toMatchObject({ ...sale, message: FOOD_SALE_SAVED });
    // One recorded by mistake, deleted again.
    const oops = (await (await call('/api/admin/books/food-sales', { method: 'POST', json: { ...sale, food: 'Oops' } })).json()) as FoodSaleView;
    expect((await call(`/api/admin/books/food-sales/${oops._id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await call(`/api/admin/books/food-sales/${oops._id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await figures()).handSales).toEqual([{ _id: saved._id, ...sale }]);
  });

  it('counts the year’s food sales against the cap: gift-card-paid included, refunded, unpaid and other years’ not', async () => {
    const f = await figures();
    const ordersCents = 2 * 900 + 1800 - 360 + 2400; // the food's price: no shipping, no tax
    expect(f).toMatchObject({
      mode: 'licensed',
      year: 2026,
      ordersCount: 2,
      ordersCents,
      giftCardCents: 2400,
      handCount: 1,
      handCents: 3000,
      totalCents: ordersCents + 3000,
      capCents: 5_000_000,
      leftCents: 5_000_000 - ordersCents - 3000,
      overCents: 0,
    });
    // In cottage mode, against her cap: over it, nothing left.
    const { foodLicence } = await readSettings(server.services.db);
    const cottage = { ...foodLicence, businessName: 'Cacao Kitchen', businessAddress: '12 Elm St, Portland, OR 97201', phone: '503-555-0100' };
    await writeSettings(server.services.db, { foodLicence: { ...cottage, mode: 'cottage', capDollars: 80 } });
    expect(await figures()).toMatchObject({ mode: 'cottage', capCents: 8000, leftCents: 0, overCents: ordersCents + 3000 - 8000 });
    // Back to the licence she never set (licensed, the law's cap).
    await server.services.db.deleteFrom('settings').where('key', '=', 'foodLicence').execute();
    expect(await figures()).toMatchObject({ mode: 'licensed', capCents: 5_000_000 });
    expect((await figures(2025)).totalCents).toBe(1800);

    // Her hand-recorded sale is shop income in her books too (its month), beside the orders.
    const year = (await (await call('/api/admin/tax-year/2026')).json()) as TaxYearView;
    expect(year.totals.shopNetCents).toBe(2 * 900 + 1800 - 360 + 800 + 2400 + 3000);
    expect(mustFind(year.months, (m) => m.month === '2026-05').shopNetCents).toBe(3000);
  });

  it('lists a shipped, a picked-up and a hand-recorded sale in the CSV with the fields the rule names, and the year’s calculation', async () => {
    const today = zonedNow(ZONE).date;
    const rows = await csv();
    expect(rows[0]).toEqual([...FOOD_SALES_COLUMNS]);
    // The rule's fields: where (the address, or the pickup or event), when sold and shipped, what, how many, the price; the buyer for an online sale.
    for (const word of ['Location of sale', 'Date sold', 'Date shipped', 'Food', 'Quantity', 'Unit price', 'Amount', 'Buyer'])
      expect(
        itemAt(rows, 0).some((c) => c.startsWith(word)),
        word,
      ).toBe(true);
    const shippedNo = `Order ${shipped.slice(0, 8)}`;
    const pickupNo = `Order ${pickedUp.slice(0, 8)}`;
    const seattle = 'Ana Lima, 12 Oak St, Seattle, WA 98101';
    expect(rows.slice(1, 6)).toEqual([
      [shippedNo, 'Online, shipped', '2026-03-04', today, 'Almond bark', '2', '9.00', '18.00', 'Ana Lima', buyer.email, seattle],
      [shippedNo, 'Online, shipped', '2026-03-04', today, 'Sea salt tin', '1', '18.00', '18.00', 'Ana Lima', buyer.email, seattle],
      [shippedNo, 'Online, shipped', '2026-03-04', today, 'Discount (coupon SPRING10)', '', '', '-3.6', 'Ana Lima', buyer.email, seattle],
      [
        pickupNo,
        'Online, picked up',
        '2026-04-10',
        today,
        'Truffle box',
        '1',
        '24.00',
        '24.00',
        'Bo Park',
        'bo@example.com',
        'Picked up at 12 Elm St, Portland, OR 97201',
      ],
      ['Recorded by hand', 'In person', '2026-05-09', '2026-05-09', 'Hazelnut bonbons', '6', '5.00', '30.00', '', '', MARKET],
    ]);
    // Nothing refunded, unpaid or of another year.
    expect(rows.flat().join('|')).not.toMatch(/Refunded tin|Pending tin|Last year tin/);
    // The sales' amounts add up to the year's total the Tax year shows.
    const sales = rows.slice(1, 6).reduce((s, r) => s + Math.round(Number(r[7]) * 100), 0);
    const f = await figures();
    expect(sales).toBe(f.totalCents);
    const calc = rows.slice(7);
    expect(calc[0]).toEqual(['Gross food sales 2026', 'Sales', '', '', '', '', '', 'Amount']);
    expect(calc.find((r) => r[0] === 'Total')).toEqual(['Total', '3', '', '', '', '', '', (f.totalCents / 100).toFixed(2)]);
    expect(mustFind(calc, (r) => r[0] === 'Of which paid with gift cards')[7]).toBe('24.00');
    expect(mustFind(calc, (r) => r[0] === 'Cottage-food cap')[7]).toBe('50000.00');
    expect(mustFind(calc, (r) => r[0] === 'Left under the cap')[7]).toBe(((5_000_000 - f.totalCents) / 100).toFixed(2));
  });

  it('keeps what was sold, when and for how much after the buyer is erased, but not her name or address', async () => {
    expect((await eraseAccount(server.services, buyer.id)).ok).toBe(true);
    const rows = await csv();
    const hers = rows.filter((r) => r[0] === `Order ${shipped.slice(0, 8)}`);
    expect(hers.map((r) => r.slice(0, 8))).toEqual([
      [`Order ${shipped.slice(0, 8)}`, 'Online, shipped', '2026-03-04', zonedNow(ZONE).date, 'Almond bark', '2', '9.00', '18.00'],
      [`Order ${shipped.slice(0, 8)}`, 'Online, shipped', '2026-03-04', zonedNow(ZONE).date, 'Sea salt tin', '1', '18.00', '18.00'],
      [`Order ${shipped.slice(0, 8)}`, 'Online, shipped', '2026-03-04', zonedNow(ZONE).date, 'Discount (coupon SPRING10)', '', '', '-3.6'],
    ]);
    const text = rows.flat().join('|');
    expect(text).not.toMatch(/Ana Lima|ana\.lima|12 Oak St|Seattle/);
    expect(itemAt(hers, 0).slice(8)).toEqual(['(erased at the buyer’s request)', '', '(erased at the buyer’s request)']);
  });

  it('is the admin’s only, and asks for a year', async () => {
    const client = await createUser(server);
    for (const path of ['/api/admin/books/food-sales?year=2026', '/api/admin/books/food-sales.csv?year=2026']) {
      expect((await server.api(path)).status).toBe(401);
      expect((await server.api(path, { headers: { cookie: client.cookie } })).status).toBe(401);
    }
    expect((await server.api('/api/admin/books/food-sales', { method: 'POST', json: {} })).status).toBe(401);
    for (const q of ['', '?year=26', '?year=1999', '?year=abcd']) {
      const res = await call(`/api/admin/books/food-sales.csv${q}`);
      expect(res.status, q).toBe(400);
      expect((await res.json()).message).toMatch(/year/i);
    }
  });
});
