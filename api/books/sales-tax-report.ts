/**
 * Sales tax collected per state, per month and per quarter, for filing (issue 24): the finances
 * page's block, summed by SQL (tax-year.repo.ts salesTaxMonths); quarters are the months' sums.
 */
import type { DB } from '../../db/client.ts';
import type { FinancesView } from '../../contract/backoffice.ts';
import { num, salesTaxMonths } from './tax-year.repo.ts';

const quarterOf = (month: string) => `${month.slice(0, 4)}-Q${Math.floor((Number(month.slice(5, 7)) - 1) / 3) + 1}`;

export async function salesTaxByState(db: DB, zone: string, from: string, to: string): Promise<FinancesView['salesTaxByState']> {
  const byState = new Map<string, FinancesView['salesTaxByState'][number]>();
  for (const r of await salesTaxMonths(db, zone, from, to)) {
    const s = byState.get(r.state) ?? { state: r.state, taxCents: 0, months: [], quarters: [] };
    const cents = num(r.taxCents);
    s.taxCents += cents;
    s.months.push({ month: r.month, taxCents: cents });
    const q = quarterOf(r.month);
    const last = s.quarters[s.quarters.length - 1];
    if (last?.quarter === q) last.taxCents += cents;
    else s.quarters.push({ quarter: q, taxCents: cents });
    byState.set(r.state, s);
  }
  return [...byState.values()];
}
