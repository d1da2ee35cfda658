/**
 * Issue 20: the finances as CSV. GET /api/admin/exports/finances.csv?from=&to= has one row per
 * month with the figures the finances page shows (GET /api/admin/finances), then the total; its
 * sums equal the API's to the cent; its income columns are named as the Tax year's (issue 30).
 * Admin only; a bad range is a 400.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { parseCsv, cents, INCOME_COLUMNS } from '../../helpers/csv.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { FINANCE_COUNT_ROWS, type FinanceFigures, type FinancesView } from '../../../contract/backoffice.ts';
import { INCOME_ROWS } from '../../../contract/books.ts';
import { itemAt, mustFind } from '../../helpers/guards.ts';

const server = useTestServer();
let admin: string;

/** A CSV row read back as the API's figures: the income figures (INCOME_ROWS' order), then the counts. */
const figuresOf = (r: string[]): FinanceFigures => {
  const out: Record<string, number> = {};
  INCOME_ROWS.forEach(([key], i) => (out[key] = cents(r[1 + i]!)));
  FINANCE_COUNT_ROWS.forEach(
    ([key, , kind], i) => (out[key] = kind === 'cents' ? cents(r[1 + INCOME_ROWS.length + i]!) : Number(r[1 + INCOME_ROWS.length + i])),
  );
  return out as unknown as FinanceFigures;
};

beforeAll(async () => {
  admin = await adminCookie(server);
  const { db } = server.services;
  // Mid-month instants (no zone edge): orders of every kind and bookings over three months of 2026.
  const at = (month: number, day: number) => new Date(Date.UTC(2026, month - 1, day, 20, 0, 0));
  let n = 0;
  const order = (month: number, day: number, status: 'paid' | 'shipped' | 'picked_up' | 'refunded' | 'payment_pending', total: number, shipping: number) =>
    db
      .insertInto('orders')
      .values({
        paypalOrderId: `CSV-${++n}`,
        itemsTotalCents: total - shipping,
        shippingCents: shipping,
        totalCents: total,
        status,
        createdAt: at(month, day),
        isLocalPickup: shipping === 0,
      })
      .execute();
  await order(3, 5, 'paid', 2350, 500);
  await order(3, 9, 'shipped', 4100, 500);
  await order(3, 20, 'refunded', 1800, 0);
  await order(4, 2, 'picked_up', 3333, 0);
  await order(4, 18, 'payment_pending', 9999, 500);
  await order(5, 30, 'paid', 1001, 500);
  let m = 0;
  const booking = (month: number, day: number, amountCents: number | null) =>
    db
      .insertInto('slots')
      .values({
        date: `2026-0${month}-${String(day).padStart(2, '0')}`,
        time: `10:${String(++m).padStart(2, '0')}`,
        startsAt: at(month, day),
        bookedAt: at(month, day - 1),
        firstName: 'Ana',
        email: 'ana@example.com',
        sessionType: 'Individual Yoga Session (60 min)',
        amountCents,
        couponUsed: amountCents === null,
      })
      .execute();
  await booking(3, 12, 9550);
  await booking(4, 15, 8000);
  await booking(4, 16, null);
  await booking(5, 10, 11000);
});

const get = (path: string, cookie: string | null = admin) => server.api(path, { headers: cookie ? { cookie } : {} });

describe(`the finances CSV on ${testDbKind()}`, () => {
  it('has a row per month and a total, and its sums equal the finances API’s', async () => {
    const api = (await (await get('/api/admin/finances?from=2026-02&to=2026-06')).json()) as FinancesView;
    const res = await get('/api/admin/exports/finances.csv?from=2026-02&to=2026-06');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="finances-2026-02-to-2026-06.csv"');
    const bytes = new Uint8Array(await res.arrayBuffer());
    // UTF-8 with a byte-order mark, as the other exports (spreadsheets read "é" right).
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = parseCsv(new TextDecoder().decode(bytes));
    // Issue 30: the income figures under the Tax year's CSV's names, then the counts behind them.
    expect(header).toEqual([
      'Month',
      ...INCOME_COLUMNS,
      'Orders paid',
      'of which shipping',
      'Average order (net of tax)',
      'Paid sessions kept',
      'Sessions booked with the coupon',
      'Gig classes paid',
      'Orders refunded',
      'Sessions refunded',
    ]);
    expect(rows.map((r) => r[0])).toEqual(['2026-02', '2026-03', '2026-04', '2026-05', '2026-06', 'Total']);
    for (const [i, month] of api.months.entries()) {
      const { month: label, ...figures } = month;
      expect(itemAt(rows, i)[0]).toBe(label);
      expect(figuresOf(rows[i]!), label).toEqual(figures);
    }
    expect(figuresOf(rows.at(-1)!)).toEqual(api.totals);
    // The months add up to the total, column by column (the average is the total's own).
    const monthRows = rows.slice(0, -1).map(figuresOf);
    for (const key of [...INCOME_ROWS.map(([k]) => k), ...FINANCE_COUNT_ROWS.map(([k]) => k).filter((k) => k !== 'averageOrderCents')]) {
      expect(
        monthRows.reduce((sum, r) => sum + r[key], 0),
        key,
      ).toBe(api.totals[key]);
    }
    // The seeded figures, to the cent.
    expect(api.totals).toMatchObject({
      ordersPaidCount: 4,
      shopNetCents: 10784,
      refundsCents: 1800,
      sessionsCents: 28550,
      couponBookingsCount: 1,
      incomeCents: 39334,
    });
    expect(mustFind(rows, (r) => r[0] === '2026-03').slice(1)).toEqual([
      ...['64.50', '95.50', '0.00', '0.00', '0.00', '0.00', '160.00', '0.00', '18.00', '18.00', '0.00', '0.00', '0.00'],
      ...['2', '10.00', '32.25', '1', '0', '0', '1', '0'],
    ]);
  });

  it('covers the last 12 months without from and to, and refuses a bad range', async () => {
    const res = await get('/api/admin/exports/finances.csv');
    expect(res.status).toBe(200);
    const rows = parseCsv(await res.text());
    expect(rows).toHaveLength(1 + 12 + 1);
    for (const q of ['from=2026-06&to=2026-02', 'from=2026-13&to=2026-14', 'from=2026-01']) {
      const bad = await get(`/api/admin/exports/finances.csv?${q}`);
      expect(bad.status, q).toBe(400);
      expect((await bad.json()).message).toMatch(/from|to/);
    }
  });

  it('is the admin’s only', async () => {
    const client = await createUser(server);
    for (const cookie of [null, client.cookie]) expect((await get('/api/admin/exports/finances.csv?from=2026-01&to=2026-02', cookie)).status).toBe(401);
  });
});
