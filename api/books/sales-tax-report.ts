/**
 * Sales tax collected per state, per month and per quarter, for filing (issue 24); within each
 * state per location code (issue 29): the finances page's block, summed by SQL
 * (tax-year.repo.ts salesTaxMonths); quarters are the months' sums.
 */
import type { DB } from '../../db/client.ts';
import type { FinancesView, SalesTaxPeriods } from '../../contract/backoffice.ts';
import { num, salesTaxMonths } from './tax-year.repo.ts';

const quarterOf = (month: string) => `${month.slice(0, 4)}-Q${Math.floor((Number(month.slice(5, 7)) - 1) / 3) + 1}`;

/** Adds a month's tax to `p` (months come in order, so a quarter is the last one or a new one). */
function add(p: SalesTaxPeriods, month: string, cents: number) {
  p.taxCents += cents;
  const m = p.months[p.months.length - 1];
  if (m?.month === month) m.taxCents += cents;
  else p.months.push({ month, taxCents: cents });
  const q = quarterOf(month);
  const last = p.quarters[p.quarters.length - 1];
  if (last?.quarter === q) last.taxCents += cents;
  else p.quarters.push({ quarter: q, taxCents: cents });
}

export async function salesTaxByState(db: DB, zone: string, from: string, to: string): Promise<FinancesView['salesTaxByState']> {
  const byState = new Map<string, FinancesView['salesTaxByState'][number]>();
  for (const r of await salesTaxMonths(db, zone, from, to)) {
    const s = byState.get(r.state) ?? { state: r.state, taxCents: 0, months: [], quarters: [], locations: [] };
    byState.set(r.state, s);
    const cents = num(r.taxCents);
    add(s, r.month, cents);
    let loc = s.locations.find((l) => l.locationCode === r.locationCode);
    if (!loc) {
      loc = { locationCode: r.locationCode, jurisdiction: r.jurisdiction, taxCents: 0, months: [], quarters: [] };
      s.locations.push(loc);
    }
    add(loc, r.month, cents);
  }
  for (const s of byState.values()) s.locations.sort((a, b) => (a.locationCode ?? '~').localeCompare(b.locationCode ?? '~'));
  return [...byState.values()];
}
