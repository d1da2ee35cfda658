/**
 * The finances as the page shows them (decision 0019): the SQL sums of finances.repo.ts put
 * together month by month, every month of the range present (zero when nothing happened), with
 * the range's totals and best-selling tins. One function for GET /api/admin/finances and its
 * CSV (GET /api/admin/exports/finances.csv), so the two can never disagree.
 */
import type { DB } from '../../db/client.ts';
import type { FinanceFigures, FinanceMonth, FinancesView } from '../../contract/backoffice.ts';
import { bestSellers, bookingMonths, orderMonths } from './finances.repo.ts';
import { salesTaxByState } from '../books/sales-tax-report.ts';

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

/** The figures from `from` to `to` (YYYY-MM, both included) in the teacher's zone. */
export async function financesOf(db: DB, zone: string, from: string, to: string): Promise<FinancesView> {
  const [orders, bookings, tins, salesTax] = await Promise.all([
    orderMonths(db, zone, from, to),
    bookingMonths(db, zone, from, to),
    bestSellers(db, zone, from, to),
    salesTaxByState(db, zone, from, to),
  ]);
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
  return {
    from,
    to,
    timeZone: zone,
    totals: finish(totals),
    months,
    bestSellers: tins.map((t) => ({ name: t.name, quantity: n(t.quantity), cents: n(t.cents) })),
    salesTaxByState: salesTax,
  };
}
