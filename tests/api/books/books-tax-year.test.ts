/**
 * Issue 24: a tax year in one place. A year (2025) of orders (taxed, untaxed, refunded, pending),
 * paid sessions, gigs (a recurring one and single ones, paid and unpaid, cancelled, not driven)
 * and trips is seeded across month, quarter and year edges in the site's zone
 * (America/Los_Angeles); GET /api/admin/tax-year/2025 and its CSV must equal, to the cent, the
 * sums this test computes from its own seed. Also: the gigs' API (recurring entries, mark paid,
 * the unpaid list, ending a series), locations, trips, and GET /api/admin/finances without a range.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { parseCsv, cents, INCOME_COLUMNS } from '../../helpers/csv.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import type { GigsView, TaxPeriodFigures, TaxYearView } from '../../../contract/books.ts';
import type { FinancesView } from '../../../contract/backoffice.ts';
import type { OrderStatus } from '../../../contract/orders.ts';
import { itemAt, must, mustFind } from '../../helpers/guards.ts';

const ZONE = 'America/Los_Angeles';
const server = useTestServer({ env: { SITE_TIMEZONE: ZONE } });
let admin: string;

const api = (path: string, init: { method?: string; json?: unknown } = {}) =>
  server.api(path, { method: init.method ?? 'GET', headers: { cookie: admin, origin: server.url }, ...(init.json !== undefined ? { json: init.json } : {}) });

// --- the seed, as the test knows it --------------------------------------------------------------

/** [local date, local time, status, items, discount, shipping, tax, state (null: pickup), tax on shipping] */
const ORDERS: [string, string, OrderStatus, number, number, number, number, string | null, boolean][] = [
  ['2024-12-31', '23:30', 'paid', 3600, 0, 500, 234, 'WA', false], // 2024: out
  ['2025-01-01', '00:30', 'paid', 1800, 0, 500, 117, 'WA', false], // January, Q1
  ['2025-03-31', '23:30', 'shipped', 4000, 600, 500, 0, 'OR', false], // March (UTC: April 1), Q1
  ['2025-04-01', '00:10', 'paid', 2000, 0, 500, 181, 'CA', true], // April, Q2
  ['2025-06-15', '12:00', 'picked_up', 2200, 0, 0, 0, null, false], // pickup, no tax
  ['2025-07-04', '09:00', 'refunded', 5000, 0, 500, 325, 'WA', false], // refunded: its tax went back
  ['2025-08-20', '10:00', 'payment_pending', 1800, 0, 500, 117, 'WA', false], // not counted
  ['2025-09-30', '23:59', 'paid', 1200, 0, 500, 86, 'TX', true], // September, Q3
  ['2025-12-31', '23:30', 'paid', 9000, 1350, 500, 497, 'WA', false], // December (UTC: 2026), Q4
  ['2026-01-01', '00:05', 'paid', 1000, 0, 500, 65, 'WA', false], // 2026: out
];

/** [local date, local time, amount, coupon] booked at that instant. */
const SESSIONS: [string, string, number, boolean][] = [
  ['2024-12-31', '23:00', 9000, false],
  ['2025-01-01', '01:00', 8000, false],
  ['2025-06-30', '23:45', 11000, false],
  ['2025-07-01', '00:15', 0, true],
  ['2025-12-31', '22:00', 5000, false],
];

/** [date, purpose, miles] */
const TRIPS: [string, string, number][] = [
  ['2024-12-31', 'Old year', 40],
  ['2025-01-01', 'Cacao supplier', 23.5],
  ['2025-09-30', 'Farmers market', 7.3],
  ['2025-10-01', 'Packaging shop', 11],
];

const PAID: OrderStatus[] = ['paid', 'shipped', 'picked_up'];
const monthKey = (date: string) => date.slice(0, 7);
const in2025 = (date: string) => date.startsWith('2025-');

let riverside = '';
let hillside = '';
let seriesFirst = '';

beforeAll(async () => {
  admin = await adminCookie(server);
  const { db } = server.services;
  let n = 0;
  for (const [date, time, status, items, discount, shipping, tax, state, onShipping] of ORDERS) {
    await db
      .insertInto('orders')
      .values({
        paypalOrderId: `TY-${++n}`,
        itemsTotalCents: items,
        discountCents: discount,
        shippingCents: shipping,
        taxCents: tax,
        taxRatePpm: tax ? 65000 : 0,
        taxState: state,
        taxOnShipping: onShipping,
        // Issue 29: a shipped order of these was taxed from the state table (before location codes).
        taxRateSource: state ? 'table' : null,
        totalCents: items - discount + shipping + tax,
        isLocalPickup: state === null,
        status,
        createdAt: zonedInstant(date, time, ZONE),
      })
      .execute();
  }
  for (const [date, time, amount, coupon] of SESSIONS) {
    const at = zonedInstant(date, time, ZONE);
    await db
      .insertInto('slots')
      .values({
        date,
        time,
        startsAt: at,
        bookedAt: at,
        amountCents: coupon ? null : amount,
        couponUsed: coupon,
        firstName: 'Ana',
        lastName: 'Lima',
        email: 'ana@example.com',
      })
      .execute();
  }
});

describe(`her gigs, locations and trips on ${testDbKind()}`, () => {
  it('keeps locations with their round trip, one name once', async () => {
    const a = await api('/api/admin/locations', { method: 'POST', json: { name: 'Riverside Studio', roundTripMiles: 12.4 } });
    expect(a.status).toBe(201);
    riverside = (await a.json())._id;
    const b = await api('/api/admin/locations', { method: 'POST', json: { name: 'Hillside Gym', roundTripMiles: 30 } });
    hillside = (await b.json())._id;
    expect((await api('/api/admin/locations', { method: 'POST', json: { name: 'Riverside Studio', roundTripMiles: 3 } })).status).toBe(409);
    expect((await api('/api/admin/locations', { method: 'POST', json: { name: 'Far', roundTripMiles: 1.25 } })).status).toBe(400);
    const list = await (await api('/api/admin/locations')).json();
    expect(list).toEqual([
      // Issue 35: no travel buffer unless she sets one.
      { _id: hillside, name: 'Hillside Gym', roundTripMiles: 30, bufferMinutes: 0 },
      { _id: riverside, name: 'Riverside Studio', roundTripMiles: 12.4, bufferMinutes: 0 },
    ]);
  });

  it('makes a weekly gig’s entries ahead, each paid or cancelled alone, and ends it', async () => {
    const res = await api('/api/admin/gigs', {
      method: 'POST',
      json: {
        date: '2025-12-02',
        time: '18:00',
        className: 'Vinyasa',
        locationId: riverside,
        rateCents: 6000,
        frequency: 'weekly',
        paymentMethod: 'venmo',
        requestSent: false,
        paid: false,
        taxed: false,
        repeatUntil: '2026-02-24',
      },
    });
    expect(res.status).toBe(201);
    expect((await res.json()).ids).toHaveLength(13);
    const all = (await (await api('/api/admin/gigs?from=2025-12-01&to=2026-03-31')).json()) as GigsView;
    const dates = all.gigs.map((g) => g.date);
    expect(dates.slice(0, 6)).toEqual(['2025-12-02', '2025-12-09', '2025-12-16', '2025-12-23', '2025-12-30', '2026-01-06']);
    const byDate = new Map(all.gigs.map((g) => [g.date, g]));
    seriesFirst = must(byDate.get('2025-12-02'), "byDate.get('2025-12-02')")._id;
    expect(byDate.get('2025-12-02')).toMatchObject({ className: 'Vinyasa', location: 'Riverside Studio', rateCents: 6000, miles: 12.4, paid: false });

    // Paid the same day; paid in the new year (income of 2026); cancelled; not driven (a ride).
    const put = (date: string, json: unknown) => api(`/api/admin/gigs/${must(byDate.get(date), 'byDate.get(date)')._id}`, { method: 'PUT', json });
    expect((await put('2025-12-02', { paid: true, paidOn: '2025-12-02', requestSent: true })).status).toBe(200);
    expect((await put('2025-12-30', { paid: true, paidOn: '2026-01-05' })).status).toBe(200);
    expect((await put('2025-12-16', { cancelled: true })).status).toBe(200);
    const ride = await (await put('2025-12-23', { drove: false, rateCents: 7500 })).json();
    expect(ride).toMatchObject({ drove: false, miles: 0, rateCents: 7500 });

    // One class of a series per date; a paid-on date alone marks it paid.
    const taken = await put('2025-12-09', { date: '2025-12-16' });
    expect(taken.status).toBe(409);
    expect((await taken.json()).message).toBe('Another class of this gig is on that date already: move or delete that one first.');
    expect(await (await put('2026-01-06', { paidOn: '2026-02-01' })).json()).toMatchObject({ paid: true, paidOn: '2026-02-01' });

    // Ended after January 13: the later unpaid entries go.
    const end = await api(`/api/admin/gigs/${must(byDate.get('2026-01-13'), "byDate.get('2026-01-13')")._id}/end`, { method: 'POST', json: {} });
    expect(end.status).toBe(200);
    expect((await end.json()).removed).toBe(6);
    const after = (await (await api('/api/admin/gigs?from=2025-12-01&to=2026-03-31')).json()) as GigsView;
    expect(after.gigs.map((g) => g.date).at(-1)).toBe('2026-01-13');
  });

  it('takes single gigs and lists the unpaid ones with their age', async () => {
    const one = (json: Record<string, unknown>) =>
      api('/api/admin/gigs', {
        method: 'POST',
        json: { time: '09:00', className: 'Chair yoga', locationId: hillside, frequency: 'perClass', paymentMethod: 'check', ...json },
      });
    expect((await one({ date: '2025-03-31', rateCents: 9000, paid: true, paidOn: '2025-04-01', taxed: true })).status).toBe(201);
    expect((await one({ date: '2025-06-10', rateCents: 4500 })).status).toBe(201);
    expect((await one({ date: '2024-12-30', rateCents: 5000, paid: true, paidOn: '2024-12-31' })).status).toBe(201);
    expect((await one({ date: '2025-01-01', rateCents: 5000, paid: true, paidOn: '2025-01-01', cancelled: false })).status).toBe(201);
    expect((await one({ date: '2025-01-01', rateCents: 5000, locationId: 'no-such-place' })).status).toBe(400);

    const view = (await (await api('/api/admin/gigs')).json()) as GigsView;
    const today = zonedNow(ZONE).date;
    const expected = view.gigs.filter((g) => !g.paid && !g.cancelled && g.date <= today);
    expect(view.unpaid.map((g) => g._id)).toEqual(expected.map((g) => g._id));
    expect(view.unpaidCents).toBe(expected.reduce((s, g) => s + g.rateCents, 0));
    const june = view.unpaid.find((g) => g.date === '2025-06-10')!;
    expect(june.ageDays).toBe(Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse('2025-06-10T00:00:00Z')) / 86_400_000));

    // Mark paid in one tap: paid without a date means today.
    const marked = await (await api(`/api/admin/gigs/${june._id}`, { method: 'PUT', json: { paid: true } })).json();
    expect(marked).toMatchObject({ paid: true, paidOn: today });
    const unmarked = await (await api(`/api/admin/gigs/${june._id}`, { method: 'PUT', json: { paid: false } })).json();
    expect(unmarked).toMatchObject({ paid: false, paidOn: null });
  });

  it('adds trips by hand and keeps a mileage rate per year', async () => {
    for (const [date, purpose, miles] of TRIPS) expect((await api('/api/admin/trips', { method: 'POST', json: { date, purpose, miles } })).status).toBe(201);
    const trips = await (await api('/api/admin/trips')).json();
    expect(trips).toHaveLength(TRIPS.length);
    const seeded = await (await api('/api/admin/mileage-rates')).json();
    expect(seeded[0]).toMatchObject({ year: 2026, centsPerMile: 70 });
    expect(seeded[0].name).toMatch(/IRS/);
    const put = await api('/api/admin/mileage-rates/2025', { method: 'PUT', json: { centsPerMile: 70, name: 'IRS business standard mileage rate 2025' } });
    expect(put.status).toBe(200);
    expect((await api('/api/admin/mileage-rates/1999', { method: 'PUT', json: { centsPerMile: 70, name: 'x' } })).status).toBe(400);
  });
});

describe(`the tax year on ${testDbKind()}`, () => {
  /** A period's money figures before anything is added to them. */
  const NO_MONEY = {
    classesCents: 0,
    gigsCents: 0,
    gigsWithheldCents: 0,
    incomeCents: 0,
    orderRefundsCents: 0,
    refundedTaxCents: 0,
    refundsCents: 0,
    salesTaxCents: 0,
    sessionRefundsCents: 0,
    classRefundsCents: 0,
    sessionsCents: 0,
    shopNetCents: 0,
    tastingsCents: 0,
  };
  /** The year's figures, computed here from the seed and the gigs as stored. */
  async function expectedYear(): Promise<{
    months: Map<string, TaxPeriodFigures>;
    gigsByLocation: Map<string, { classes: number; cents: number; withheld: number }>;
  }> {
    const months = new Map<string, TaxPeriodFigures>();
    for (let m = 1; m <= 12; m++) {
      months.set(`2025-${String(m).padStart(2, '0')}`, { ...NO_MONEY, mileage: { miles: 0, tenthMiles: 0, deductionCents: 0 } });
    }
    for (const [date, , status, items, discount, shipping, tax] of ORDERS) {
      const f = months.get(monthKey(date));
      if (!f) continue;
      if (PAID.includes(status)) {
        f.shopNetCents += items - discount + shipping;
        f.salesTaxCents += tax;
      } else if (status === 'refunded') {
        f.orderRefundsCents += items - discount + shipping + tax;
        f.refundedTaxCents += tax;
      }
    }
    for (const [date, , amount, coupon] of SESSIONS) {
      const f = months.get(monthKey(date));
      if (f && !coupon) f.sessionsCents += amount;
    }
    const gigs = ((await (await api('/api/admin/gigs')).json()) as GigsView).gigs;
    const byLocation = new Map<string, { classes: number; cents: number; withheld: number }>();
    for (const g of gigs) {
      if (g.paid && g.paidOn && in2025(g.paidOn)) {
        const f = months.get(monthKey(g.paidOn))!;
        f.gigsCents += g.rateCents;
        if (g.taxed) f.gigsWithheldCents += g.rateCents;
        const l = byLocation.get(g.location) ?? { classes: 0, cents: 0, withheld: 0 };
        l.classes += 1;
        l.cents += g.rateCents;
        if (g.taxed) l.withheld += g.rateCents;
        byLocation.set(g.location, l);
      }
      if (in2025(g.date) && g.drove && !g.cancelled)
        must(months.get(monthKey(g.date)), 'months.get(monthKey(g.date))').mileage.tenthMiles += Math.round(g.miles * 10);
    }
    for (const [date, , miles] of TRIPS) {
      const f = months.get(monthKey(date));
      if (f) f.mileage.tenthMiles += Math.round(miles * 10);
    }
    for (const f of months.values()) {
      // One definition of income (issue 30): shop net of tax + sessions kept + gigs; refunds apart.
      f.incomeCents = f.shopNetCents + f.sessionsCents + f.classesCents + f.tastingsCents + f.gigsCents;
      f.refundsCents = f.orderRefundsCents + f.sessionRefundsCents + f.classRefundsCents;
      f.mileage.miles = f.mileage.tenthMiles / 10;
      // 70¢ a mile: tenths of a mile × 7 cents, half a cent up.
      f.mileage.deductionCents = Math.floor((f.mileage.tenthMiles * 700 + 50) / 100);
    }
    return { months, gigsByLocation: byLocation };
  }

  const sumOf = (parts: TaxPeriodFigures[]) => {
    const out = { ...NO_MONEY, tenthMiles: 0 };
    for (const p of parts) {
      for (const k of Object.keys(out) as (keyof typeof out)[]) if (k !== 'tenthMiles') out[k] += p[k];
      out.tenthMiles += p.mileage.tenthMiles;
    }
    return { ...out, deductionCents: Math.floor((out.tenthMiles * 700 + 50) / 100) };
  };
  const flat = (f: TaxPeriodFigures) => {
    const { mileage, ...money } = f;
    return { ...money, tenthMiles: mileage.tenthMiles, deductionCents: mileage.deductionCents };
  };

  it('answers the year per month, quarter and year, to the cent, with sales tax by state, gigs by location and what is unpaid', async () => {
    const res = await api('/api/admin/tax-year/2025');
    expect(res.status).toBe(200);
    const view = (await res.json()) as TaxYearView;
    const { months, gigsByLocation } = await expectedYear();

    expect(view.months.map((m) => m.month)).toEqual([...months.keys()]);
    for (const m of view.months) {
      const { month, ...figures } = m;
      expect(figures, month).toEqual(months.get(month));
    }
    const list = [...months.values()];
    for (const q of view.quarters) {
      const { quarter, ...figures } = q;
      expect(flat(figures), `Q${quarter}`).toEqual(sumOf(list.slice((quarter - 1) * 3, quarter * 3)));
    }
    expect(flat(view.totals)).toEqual(sumOf(list));
    // Spot checks across the edges: the order of Dec 31 23:30 is December's; that of Mar 31 23:30 is Q1's.
    expect(itemAt(view.months, 11).salesTaxCents).toBe(497);
    expect(itemAt(view.quarters, 0).shopNetCents).toBe(1800 + 500 + (4000 - 600 + 500));
    expect(view.totals.refundedTaxCents).toBe(325);

    expect(view.gigsByLocation).toEqual(
      [...gigsByLocation]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([location, l]) => ({ location, classes: l.classes, cents: l.cents, withheldCents: l.withheld })),
    );

    // By state: paid and kept only (the refund returned its tax, pending is not collected).
    const states = new Map<string, { taxable: number; tax: number; q: number[] }>();
    for (const [date, , status, items, discount, shipping, tax, state, onShipping] of ORDERS) {
      if (!in2025(date) || !PAID.includes(status) || !state) continue;
      const s = states.get(state) ?? { taxable: 0, tax: 0, q: [0, 0, 0, 0] };
      s.taxable += items - discount + (onShipping ? shipping : 0);
      s.tax += tax;
      s.q[Math.floor((Number(date.slice(5, 7)) - 1) / 3)]! += tax;
      states.set(state, s);
    }
    expect(view.salesTaxByState.sort((a, b) => (a.state < b.state ? -1 : 1))).toEqual(
      [...states]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([state, s]) => ({
          state,
          taxableCents: s.taxable,
          taxCents: s.tax,
          quarters: s.q,
          // No location codes on these orders: one location without a code holds the state's figures.
          locations: [{ locationCode: null, jurisdiction: null, taxableCents: s.taxable, taxCents: s.tax, quarters: s.q }],
        })),
    );

    const gigs = ((await (await api('/api/admin/gigs')).json()) as GigsView).gigs;
    const unpaid = gigs.filter((g) => in2025(g.date) && !g.paid && !g.cancelled);
    expect(view.unpaid).toEqual({ count: unpaid.length, cents: unpaid.reduce((s, g) => s + g.rateCents, 0) });
    expect(view.mileageRate).toMatchObject({ year: 2025, centsPerMile: 70 });
    expect(seriesFirst).not.toBe('');
  });

  it('gives the same figures as a CSV for the accountant', async () => {
    const view = (await (await api('/api/admin/tax-year/2025')).json()) as TaxYearView;
    const res = await api('/api/admin/exports/tax-year-2025.csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toContain('tax-year-2025.csv');
    const rows = parseCsv((await res.text()).replace(/^\uFEFF/, ''));
    // Issue 30: the income figures under the names Finances' CSV gives them, then the miles.
    expect(rows[0]).toEqual(['Period', ...INCOME_COLUMNS, 'Miles', 'Mileage deduction']);
    const byLabel = new Map(rows.map((r) => [r[0]!, r]));
    const check = (label: string, f: TaxPeriodFigures) => {
      const r = byLabel.get(label)!;
      expect(
        [...r.slice(1, 14), r[15]].map((c) => cents(c!)),
        label,
      ).toEqual([
        f.shopNetCents,
        f.sessionsCents,
        f.classesCents,
        f.tastingsCents,
        f.gigsCents,
        f.gigsWithheldCents,
        f.incomeCents,
        f.salesTaxCents,
        f.refundsCents,
        f.orderRefundsCents,
        f.sessionRefundsCents,
        f.classRefundsCents,
        f.refundedTaxCents,
        f.mileage.deductionCents,
      ]);
      expect(Math.round(Number(r[14]) * 10), label).toBe(f.mileage.tenthMiles);
    };
    for (const m of view.months) check(m.month, m);
    for (const q of view.quarters) check(`2025-Q${q.quarter}`, q);
    check('2025', view.totals);
    for (const s of view.salesTaxByState) {
      const r = byLabel.get(s.state)!;
      expect(r.slice(1).map(cents)).toEqual([s.taxableCents, s.taxCents, ...s.quarters]);
      const loc = byLabel.get(`${s.state} (no code)`)!;
      expect(loc.slice(2).map(cents)).toEqual([s.taxableCents, s.taxCents, ...s.quarters]);
    }
    for (const l of view.gigsByLocation)
      expect(must(byLabel.get(l.location), 'byLabel.get(l.location)').slice(1)).toEqual([
        String(l.classes),
        (l.cents / 100).toFixed(2),
        (l.withheldCents / 100).toFixed(2),
      ]);
    expect((await api('/api/admin/exports/tax-year-1999.csv')).status).toBe(400);
    expect((await server.api('/api/admin/exports/tax-year-2025.csv')).status).toBe(401);
  });

  it('answers the finances of the current year without a range, with sales tax per state per month and quarter', async () => {
    const res = await api('/api/admin/finances');
    expect(res.status).toBe(200);
    const view = (await res.json()) as FinancesView;
    const year = zonedNow(ZONE).date.slice(0, 4);
    expect([view.from, view.to]).toEqual([`${year}-01`, `${year}-12`]);
    expect((await api('/api/admin/finances?from=2025-01')).status).toBe(400);
    const y2025 = (await (await api('/api/admin/finances?from=2025-01&to=2025-12')).json()) as FinancesView;
    const wa = y2025.salesTaxByState.find((s) => s.state === 'WA')!;
    expect(wa.months).toEqual([
      { month: '2025-01', taxCents: 117 },
      { month: '2025-12', taxCents: 497 },
    ]);
    expect(wa.quarters).toEqual([
      { quarter: '2025-Q1', taxCents: 117 },
      { quarter: '2025-Q4', taxCents: 497 },
    ]);
    expect(mustFind(y2025.salesTaxByState, (s) => s.state === 'CA').quarters).toEqual([{ quarter: '2025-Q2', taxCents: 181 }]);
  });
});
