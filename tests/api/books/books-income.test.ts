/**
 * Issue 30: one definition of income (decision 0031). A year of orders (one taxed, one refunded
 * with its tax, one ready for pickup, one pending), sessions (one paid, one with the coupon, one
 * paid then cancelled and refunded through the real cancel and PayPal's emulator, one cancelled
 * whose refund failed and so is still hers) and a paid gig is seeded; GET /api/admin/finances over
 * January–December of that year and GET /api/admin/tax-year/{year} must agree to the cent on every
 * income figure, month by month and for the year, equal the sums this test computes from its seed,
 * and their two CSVs must carry the same figures under the same column names.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { parseCsv, cents } from '../../helpers/csv.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import { INCOME_ROWS, type IncomeFigures, type TaxYearView } from '../../../contract/books.ts';
import type { FinancesView } from '../../../contract/backoffice.ts';
import { mustFind } from '../../helpers/guards.ts';

const ZONE = 'America/Los_Angeles';
const YOGA = 'Individual Yoga Session (60 min)';
const server = useTestServer({ env: { SITE_TIMEZONE: ZONE } });
let admin: string;
let year = '';
/** The month (YYYY-MM) the cancelled-and-refunded session was booked in: today's, on her clocks. */
let refundMonth = '';

const api = (path: string, init: { method?: string; json?: unknown; cookie?: string } = {}) =>
  server.api(path, {
    method: init.method ?? 'GET',
    headers: { cookie: init.cookie ?? admin, origin: server.url },
    ...(init.json !== undefined ? { json: init.json } : {}),
  });

const INCOME_KEYS = INCOME_ROWS.map(([key]) => key);
const incomeOf = (f: IncomeFigures): IncomeFigures => Object.fromEntries(INCOME_KEYS.map((k) => [k, f[k]])) as unknown as IncomeFigures;
const zero = (): IncomeFigures => Object.fromEntries(INCOME_KEYS.map((k) => [k, 0])) as unknown as IncomeFigures;

/** What the test expects, month by month, from its own seed. */
const expected = new Map<string, IncomeFigures>();
const at = (month: string) => {
  if (!expected.has(month)) expected.set(month, zero());
  return expected.get(month)!;
};

beforeAll(async () => {
  admin = await adminCookie(server);
  const { db } = server.services;
  const today = zonedNow(ZONE).date;
  year = today.slice(0, 4);
  refundMonth = today.slice(0, 7);

  // Orders: [month-day, status, items, shipping, tax (WA's table when > 0)].
  const orders: [string, 'paid' | 'refunded' | 'ready_for_pickup' | 'payment_pending', number, number, number][] = [
    ['02-10', 'paid', 4000, 500, 260],
    ['02-11', 'refunded', 2000, 0, 130],
    ['05-20', 'ready_for_pickup', 1800, 0, 0],
    ['06-01', 'payment_pending', 999, 500, 65],
  ];
  let n = 0;
  for (const [day, status, items, shipping, tax] of orders) {
    const total = items + shipping + tax;
    await db
      .insertInto('orders')
      .values({
        paypalOrderId: `INCOME-${++n}`,
        itemsTotalCents: items,
        shippingCents: shipping,
        taxCents: tax,
        taxRatePpm: tax ? 65000 : 0,
        taxState: tax ? 'WA' : null,
        taxRateSource: tax ? 'table' : null,
        totalCents: total,
        isLocalPickup: shipping === 0,
        status,
        createdAt: zonedInstant(`${year}-${day}`, '12:00', ZONE),
      })
      .execute();
    const f = at(`${year}-${day.slice(0, 2)}`);
    if (status === 'paid' || status === 'ready_for_pickup') {
      f.shopNetCents += total - tax;
      f.salesTaxCents += tax;
    } else if (status === 'refunded') {
      f.orderRefundsCents += total;
      f.refundedTaxCents += tax;
    }
  }

  // Sessions still booked: one paid in February, one with the coupon in April (no money).
  const slot = (date: string, time: string, bookedOn: string, amountCents: number | null, couponUsed: boolean) =>
    db
      .insertInto('slots')
      .values({
        date,
        time,
        startsAt: zonedInstant(date, time, ZONE),
        bookedAt: zonedInstant(bookedOn, '09:00', ZONE),
        amountCents,
        couponUsed,
        firstName: 'Ana',
        lastName: 'Lima',
        email: 'ana@example.com',
        sessionType: YOGA,
        paypalOrderId: amountCents ? 'SESSION-PAID' : null,
      })
      .execute();
  await slot(`${year}-02-20`, '10:00', `${year}-02-15`, 9000, false);
  at(`${year}-02`).sessionsCents += 9000;
  await slot(`${year}-04-03`, '10:00', `${year}-04-01`, null, true);

  // Cancelled in time, but PayPal refused the refund: the money is still hers (to refund by hand), in the month it was paid.
  await db
    .insertInto('bookingCancellations')
    .values({
      slotId: 'gone',
      startsAt: zonedInstant(`${year}-03-20`, '10:00', ZONE),
      bookedAt: zonedInstant(`${year}-03-10`, '09:00', ZONE),
      sessionType: YOGA,
      firstName: 'Mia',
      lastName: 'Rossi',
      email: 'mia@example.com',
      amountCents: 7000,
      couponUsed: false,
      paypalOrderId: 'SESSION-KEPT',
      refundState: 'failed',
    })
    .execute();
  at(`${year}-03`).sessionsCents += 7000;

  // A gig paid in March, with tax withheld.
  const location = await (await api('/api/admin/locations', { method: 'POST', json: { name: 'Riverside Studio', roundTripMiles: 12.4 } })).json();
  const gig = await api('/api/admin/gigs', {
    method: 'POST',
    json: {
      date: `${year}-03-05`,
      time: '18:00',
      className: 'Vinyasa',
      locationId: location._id,
      rateCents: 6000,
      frequency: 'perClass',
      paymentMethod: 'check',
      paid: true,
      paidOn: `${year}-03-05`,
      taxed: true,
    },
  });
  expect(gig.status).toBe(201);
  at(`${year}-03`).gigsCents += 6000;
  at(`${year}-03`).gigsWithheldCents += 6000;

  // A session booked and paid today through PayPal's emulator, then cancelled in time: refunded in full.
  const client = await createUser(server);
  const date = addDays(today, 3);
  const free = await db
    .insertInto('slots')
    .values({ date, time: '11:00', startsAt: zonedInstant(date, '11:00', ZONE) })
    .returning('id')
    .executeTakeFirstOrThrow();
  const created = await server.api(`/api/bookings/${free.id}/paypal-order`, {
    method: 'POST',
    json: { amount: 80, sessionType: YOGA },
    headers: { cookie: client.cookie },
  });
  expect(created.status).toBe(200);
  const { orderID } = await created.json();
  expect((await server.api(`/dev/paypal/v2/checkout/orders/${orderID}/approve`, { method: 'POST', json: { givenName: 'Pat' } })).status).toBe(200);
  const booked = await server.api(`/api/bookings/${free.id}/book`, {
    method: 'PUT',
    headers: { cookie: client.cookie },
    json: { userId: client.id, firstName: 'Pat', lastName: 'Lee', email: client.email, sessionType: YOGA, message: '', paypalOrderId: orderID },
  });
  expect(booked.status).toBe(200);
  const cancelled = await server.api(`/api/bookings/${free.id}/cancel`, { method: 'POST', headers: { cookie: client.cookie } });
  expect(await cancelled.json()).toMatchObject({ refund: 'refunded' });
  at(refundMonth).sessionRefundsCents += 8000;

  for (const f of expected.values()) {
    f.incomeCents = f.shopNetCents + f.sessionsCents + f.classesCents + f.tastingsCents + f.gigsCents;
    f.refundsCents = f.orderRefundsCents + f.sessionRefundsCents + f.classRefundsCents;
  }
});

describe(`one definition of income on ${testDbKind()}`, () => {
  it('Finances over January–December and the Tax year agree to the cent on every income figure, month by month and for the year', async () => {
    const finances = (await (await api(`/api/admin/finances?from=${year}-01&to=${year}-12`)).json()) as FinancesView;
    const taxYear = (await (await api(`/api/admin/tax-year/${year}`)).json()) as TaxYearView;

    expect(finances.months.map((m) => m.month)).toEqual(taxYear.months.map((m) => m.month));
    for (const [i, m] of finances.months.entries()) {
      expect(incomeOf(m), m.month).toEqual(incomeOf(taxYear.months[i]!));
      expect(incomeOf(m), m.month).toEqual(expected.get(m.month) ?? zero());
    }
    expect(incomeOf(finances.totals)).toEqual(incomeOf(taxYear.totals));
    // The quarters are the months' sums on the Tax year, and the year is theirs.
    for (const q of taxYear.quarters) {
      const three = finances.months.slice((q.quarter - 1) * 3, q.quarter * 3);
      for (const k of INCOME_KEYS) expect(q[k], `Q${q.quarter} ${k}`).toBe(three.reduce((s, m) => s + m[k], 0));
    }

    // The seed's figures, to the cent: net of tax, the gig on its own line, both refunds counted.
    expect(incomeOf(taxYear.totals)).toEqual({
      shopNetCents: 4500 + 1800,
      sessionsCents: 9000 + 7000,
      classesCents: 0,
      tastingsCents: 0,
      gigsCents: 6000,
      gigsWithheldCents: 6000,
      incomeCents: 6300 + 16000 + 6000,
      salesTaxCents: 260,
      refundsCents: 2130 + 8000,
      orderRefundsCents: 2130,
      sessionRefundsCents: 8000,
      classRefundsCents: 0,
      refundedTaxCents: 130,
    });
    // The session refunded on cancel is counted in the month it was paid, though its slot is free again.
    expect(mustFind(finances.months, (m) => m.month === refundMonth).sessionRefundsCents).toBe(8000);
    expect(finances.totals).toMatchObject({
      ordersPaidCount: 2,
      shippingCents: 500,
      averageOrderCents: Math.floor(6300 / 2),
      sessionsPaidCount: 2,
      couponBookingsCount: 1,
      gigsPaidCount: 1,
      orderRefundsCount: 1,
      sessionRefundsCount: 1,
    });
    // Sales tax passes through: the state block of Finances holds the same tax as the income figure.
    expect(finances.salesTaxByState.reduce((s, st) => s + st.taxCents, 0)).toBe(finances.totals.salesTaxCents);
  });

  it('both CSVs carry the same figures under the same column names', async () => {
    const finances = parseCsv((await (await api(`/api/admin/exports/finances.csv?from=${year}-01&to=${year}-12`)).text()).replace(/^\uFEFF/, ''));
    const taxYear = parseCsv((await (await api(`/api/admin/exports/tax-year-${year}.csv`)).text()).replace(/^\uFEFF/, ''));
    const labels = INCOME_ROWS.map(([, label]) => label);
    const [fHead, ...fRows] = finances;
    const [tHead, ...tRows] = taxYear;
    for (const label of labels) {
      expect(fHead, label).toContain(label);
      expect(tHead, label).toContain(label);
    }
    const pick = (head: string[], row: string[]) => labels.map((l) => cents(row[head.indexOf(l)]!));
    const fByLabel = new Map(fRows.map((r) => [r[0]!, r]));
    const tByLabel = new Map(tRows.map((r) => [r[0]!, r]));
    for (let m = 1; m <= 12; m++) {
      const month = `${year}-${String(m).padStart(2, '0')}`;
      expect(pick(fHead!, fByLabel.get(month)!), month).toEqual(pick(tHead!, tByLabel.get(month)!));
    }
    const total = pick(fHead!, fByLabel.get('Total')!);
    expect(total).toEqual(pick(tHead!, tByLabel.get(year)!));
    const view = (await (await api(`/api/admin/tax-year/${year}`)).json()) as TaxYearView;
    expect(total).toEqual(INCOME_KEYS.map((k) => view.totals[k]));
  });
});
