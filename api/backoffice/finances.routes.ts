import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { validateQuery } from '../validation.ts';
import { financesQuery, type FinanceFigures, type FinanceMonth, type FinancesView } from '../../contract/backoffice.ts';
import { bestSellers, bookingMonths, orderMonths } from './finances.repo.ts';

const n = (v: string | number | null | undefined) => Number(v ?? 0);

const empty = (): FinanceFigures => ({
  ordersPaidCount: 0,
  ordersPaidCents: 0,
  refundsCount: 0,
  refundsCents: 0,
  bookingsPaidCount: 0,
  bookingPaymentsCents: 0,
  couponBookingsCount: 0,
  shippingCents: 0,
  averageOrderCents: 0,
  incomeCents: 0,
});

/** Every month from `from` to `to`, YYYY-MM, so months with nothing show as zero. */
function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  let y = Number(from.slice(0, 4));
  let m = Number(from.slice(5));
  for (;;) {
    const key = `${y}-${String(m).padStart(2, '0')}`;
    out.push(key);
    if (key >= to) return out;
    m = m === 12 ? 1 : m + 1;
    if (m === 1) y++;
  }
}

const finish = (f: FinanceFigures): FinanceFigures => ({
  ...f,
  averageOrderCents: f.ordersPaidCount ? Math.floor(f.ordersPaidCents / f.ordersPaidCount) : 0,
  incomeCents: f.ordersPaidCents + f.bookingPaymentsCents,
});

/** GET /api/admin/finances?from=YYYY-MM&to=YYYY-MM: totals, one entry per month, the best-selling tins. */
export const adminFinances = new Hono<AppEnv>().use('*', requireAdmin()).get('/', validateQuery(financesQuery), async (c) => {
  const { db, env } = c.var.services;
  const { from, to } = c.req.valid('query');
  const zone = env.SITE_TIMEZONE;
  const [orders, bookings, tins] = await Promise.all([orderMonths(db, zone, from, to), bookingMonths(db, zone, from, to), bestSellers(db, zone, from, to)]);
  const byMonth = new Map(monthsBetween(from, to).map((m) => [m, empty()]));
  for (const o of orders) {
    const f = byMonth.get(o.month);
    if (!f) continue;
    f.ordersPaidCount = n(o.paidCount);
    f.ordersPaidCents = n(o.paidCents);
    f.shippingCents = n(o.shippingCents);
    f.refundsCount = n(o.refundsCount);
    f.refundsCents = n(o.refundsCents);
  }
  for (const b of bookings) {
    const f = byMonth.get(b.month);
    if (!f) continue;
    f.bookingsPaidCount = n(b.paidCount);
    f.bookingPaymentsCents = n(b.paidCents);
    f.couponBookingsCount = n(b.couponCount);
  }
  const months: FinanceMonth[] = [...byMonth].map(([month, f]) => ({ month, ...finish(f) }));
  const totals = empty();
  for (const m of months) {
    for (const k of [
      'ordersPaidCount',
      'ordersPaidCents',
      'refundsCount',
      'refundsCents',
      'bookingsPaidCount',
      'bookingPaymentsCents',
      'couponBookingsCount',
      'shippingCents',
    ] as const) {
      totals[k] += m[k];
    }
  }
  const view: FinancesView = {
    from,
    to,
    timeZone: zone,
    totals: finish(totals),
    months,
    bestSellers: tins.map((t) => ({ name: t.name, quantity: n(t.quantity), cents: n(t.cents) })),
  };
  return c.json(view);
});
