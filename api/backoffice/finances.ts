/**
 * The finances as the page shows them (decision 0019): her income month by month, as the Tax
 * year counts it (api/books/income.ts: one definition, issue 30, decision 0031), with the counts
 * behind it, the range's totals, best-selling tins and sales tax per state, and the sessions she
 * still owes (issue 32: unused credits, today). One function for
 * GET /api/admin/finances and its CSV (GET /api/admin/exports/finances.csv), so the two can never
 * disagree.
 */
import type { DB } from '../../db/client.ts';
import type { FinanceFigures, FinanceMonth, FinancesView } from '../../contract/backoffice.ts';
import { bestSellers, tastingsOf } from './finances.repo.ts';
import { salesTaxByState } from '../books/sales-tax-report.ts';
import { incomeByMonth, sumIncome, type IncomeMonth } from '../books/income.ts';
import { giftCardsOwed, sessionsOwed } from '../money/ledger.repo.ts';

const n = (v: string | number | null | undefined) => Number(v ?? 0);

const withAverage = (f: IncomeMonth): FinanceFigures => ({
  ...f,
  averageOrderCents: f.ordersPaidCount ? Math.floor(f.shopNetCents / f.ordersPaidCount) : 0,
});

/** The figures from `from` to `to` (YYYY-MM, both included) in the teacher's zone; what she owes as of `today` (her day). */
export async function financesOf(db: DB, zone: string, from: string, to: string, today: string): Promise<FinancesView> {
  const [income, tins, salesTax, owed, cards, tastings] = await Promise.all([
    incomeByMonth(db, zone, from, to),
    bestSellers(db, zone, from, to),
    salesTaxByState(db, zone, from, to),
    sessionsOwed(db, today),
    giftCardsOwed(db),
    tastingsOf(db, zone, from, to),
  ]);
  const months: FinanceMonth[] = income.map((m) => ({ ...withAverage(m), month: m.month }));
  return {
    from,
    to,
    timeZone: zone,
    totals: withAverage(sumIncome(income)),
    months,
    bestSellers: tins.map((t) => ({ name: t.name, quantity: n(t.quantity), cents: n(t.cents) })),
    salesTaxByState: salesTax,
    sessionsOwed: { ...owed, asOf: today },
    giftCardsOwed: cards,
    tastings,
  };
}
