/**
 * Her income, one definition in one place (issue 30, decision 0031): the SQL sums of
 * income.repo.ts put together month by month, every month of the range present (zero when
 * nothing happened), for the Finances page (api/backoffice/finances.ts) and the Tax year
 * (tax-year.ts) and so for both their CSVs. Income = shop sales kept net of sales tax (her food
 * sales recorded by hand among them, decision 0059) + session
 * payments kept + class places kept + tastings (issue 34) + gigs paid; refunds and sales tax are lines of their own, never in income. A
 * period's figures are the sums of its months', so every one of them is recomputed from its rows.
 */
import type { DB } from '../../db/client.ts';
import type { IncomeFigures } from '../../contract/books.ts';
import type { FinanceFigures } from '../../contract/backoffice.ts';
import { eventIncome, gigIncome, sessionIncome, shopIncome } from './income.repo.ts';
import { handSalesByMonth } from './food-sales.repo.ts';

const n = (v: string | number | null | undefined) => Number(v ?? 0);

/** A month's income figures with the counts behind them (Finances shows those too). */
export type IncomeMonth = Omit<FinanceFigures, 'averageOrderCents'>;

/** The figures that add up from month to period; income, refunds and the average are derived (finishIncome). */
const ADDED = [
  'shopNetCents',
  'sessionsCents',
  'classesCents',
  'tastingsCents',
  'gigsCents',
  'gigsWithheldCents',
  'salesTaxCents',
  'orderRefundsCents',
  'sessionRefundsCents',
  'classRefundsCents',
  'refundedTaxCents',
  'ordersPaidCount',
  'shippingCents',
  'sessionsPaidCount',
  'couponBookingsCount',
  'gigsPaidCount',
  'orderRefundsCount',
  'sessionRefundsCount',
] as const satisfies readonly (keyof IncomeMonth)[];

export const emptyIncome = (): IncomeMonth => ({
  shopNetCents: 0,
  sessionsCents: 0,
  classesCents: 0,
  tastingsCents: 0,
  gigsCents: 0,
  gigsWithheldCents: 0,
  incomeCents: 0,
  salesTaxCents: 0,
  refundsCents: 0,
  orderRefundsCents: 0,
  sessionRefundsCents: 0,
  classRefundsCents: 0,
  refundedTaxCents: 0,
  ordersPaidCount: 0,
  shippingCents: 0,
  sessionsPaidCount: 0,
  couponBookingsCount: 0,
  gigsPaidCount: 0,
  orderRefundsCount: 0,
  sessionRefundsCount: 0,
});

/** Income and refunds from their parts. */
export const finishIncome = <F extends IncomeFigures>(f: F): F => ({
  ...f,
  incomeCents: f.shopNetCents + f.sessionsCents + f.classesCents + f.tastingsCents + f.gigsCents,
  refundsCents: f.orderRefundsCents + f.sessionRefundsCents + f.classRefundsCents,
});

/** The sum of some months' figures (a quarter, a year, a range). */
export function sumIncome(parts: IncomeMonth[]): IncomeMonth {
  const out = emptyIncome();
  for (const p of parts) for (const k of ADDED) out[k] += p[k];
  return finishIncome(out);
}

/** Only the income figures (the Tax year has no counts). */
export const incomeFiguresOf = (f: IncomeFigures): IncomeFigures => ({
  shopNetCents: f.shopNetCents,
  sessionsCents: f.sessionsCents,
  classesCents: f.classesCents,
  tastingsCents: f.tastingsCents,
  gigsCents: f.gigsCents,
  gigsWithheldCents: f.gigsWithheldCents,
  incomeCents: f.incomeCents,
  salesTaxCents: f.salesTaxCents,
  refundsCents: f.refundsCents,
  orderRefundsCents: f.orderRefundsCents,
  sessionRefundsCents: f.sessionRefundsCents,
  classRefundsCents: f.classRefundsCents,
  refundedTaxCents: f.refundedTaxCents,
});

/** Every month from `from` to `to` (YYYY-MM, both included), so months with nothing show as zero. */
export function monthsBetween(from: string, to: string): string[] {
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

/** The income of every month from `from` to `to` (YYYY-MM, both included) in her zone, in order. */
export async function incomeByMonth(db: DB, zone: string, from: string, to: string): Promise<({ month: string } & IncomeMonth)[]> {
  const [shop, sessions, events, gigs, hand] = await Promise.all([
    shopIncome(db, zone, from, to),
    sessionIncome(db, zone, from, to),
    eventIncome(db, from, to),
    gigIncome(db, from, to),
    handSalesByMonth(db, from, to),
  ]);
  const byMonth = new Map(monthsBetween(from, to).map((m) => [m, emptyIncome()]));
  // Each row's figures are named as IncomeMonth's: copy every one but the month.
  for (const rows of [shop, sessions, events, gigs]) {
    for (const { month, ...figures } of rows) {
      const f = byMonth.get(month);
      if (!f) continue;
      for (const [k, v] of Object.entries(figures)) f[k as (typeof ADDED)[number]] = n(v as string | number | null);
    }
  }
  // Her food sales recorded by hand (decision 0059) are shop sales: each one a sale, by the day sold (no sales tax, no shipping).
  for (const { month, count, cents } of hand) {
    const f = byMonth.get(month);
    if (!f) continue;
    f.shopNetCents += n(cents);
    f.ordersPaidCount += n(count);
  }
  return [...byMonth].map(([month, f]) => ({ month, ...finishIncome(f) }));
}
