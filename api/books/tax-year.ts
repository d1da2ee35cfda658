/**
 * A tax year in one place (issue 24): her income per month, quarter and year (income.ts, the
 * one definition Finances shows too: issue 30, decision 0031), with the SQL sums of
 * tax-year.repo.ts: the gigs by location, the sales tax by state, the mileage and what is still
 * unpaid, and the session payments by method (issue 32). One function for GET /api/admin/tax-year/{year}, its CSV and the printable page,
 * so they never disagree. Money sums add up exactly (months → quarters → year); the mileage
 * deduction of a period is round(its miles × the year's rate), half a cent up, as the IRS figures
 * it from the miles (so the months' deductions may differ from the year's by a few cents).
 */
import type { DB } from '../../db/client.ts';
import { INCOME_ROWS, SESSION_PAY_METHODS, type MileageFigures, type SalesTaxFigures, type TaxPeriodFigures, type TaxYearView } from '../../contract/books.ts';
import { decimal, toCsv, type Cell } from '../lib/csv.ts';
import { findMileageRate } from './books.repo.ts';
import { gigsByLocation, mileMonths, num, salesTaxQuarters, unpaidOfYear } from './tax-year.repo.ts';
import { incomeByMonth, incomeFiguresOf, sumIncome, type IncomeMonth } from './income.ts';
import { sessionIncomeByMethod } from './income.repo.ts';

/** round(tenth miles × tenth cents / 100): miles × cents a mile, half a cent up. */
export const deductionCents = (tenthMiles: number, rateTenthCents: number): number => Math.floor((tenthMiles * rateTenthCents + 50) / 100);

const mileageOf = (tenthMiles: number, rate: number): MileageFigures => ({
  tenthMiles,
  miles: tenthMiles / 10,
  deductionCents: deductionCents(tenthMiles, rate),
});

/** A period's figures: its income (income.ts, as Finances counts it) and its miles. */
const period = (income: IncomeMonth, tenthMiles: number, rate: number): TaxPeriodFigures => ({
  ...incomeFiguresOf(income),
  mileage: mileageOf(tenthMiles, rate),
});

export async function taxYearOf(db: DB, zone: string, year: number, today: string): Promise<TaxYearView> {
  const [income, miles, byLocation, byState, unpaid, rate, byMethod] = await Promise.all([
    incomeByMonth(db, zone, `${year}-01`, `${year}-12`),
    mileMonths(db, year, today),
    gigsByLocation(db, year),
    salesTaxQuarters(db, zone, year),
    unpaidOfYear(db, year, today),
    findMileageRate(db, year),
    sessionIncomeByMethod(db, zone, `${year}-01`, `${year}-12`),
  ]);
  const methodRow = new Map(byMethod.map((r) => [r.method, r]));
  const rateTenthCents = rate?.rateTenthCents ?? 0;
  const tenths = new Map(miles.map((r) => [r.month, num(r.tenthMiles)]));
  const tenthsOf = (ms: { month: string }[]) => ms.reduce((s, m) => s + (tenths.get(m.month) ?? 0), 0);
  const months = income.map((m) => ({ month: m.month, ...period(m, tenthsOf([m]), rateTenthCents) }));
  const quarters = ([1, 2, 3, 4] as const).map((quarter) => {
    const three = income.slice((quarter - 1) * 3, quarter * 3);
    return { quarter, ...period(sumIncome(three), tenthsOf(three), rateTenthCents) };
  });

  // By state, and within each state by location code (issue 29): the excise return's figures.
  const states = new Map<string, TaxYearView['salesTaxByState'][number]>();
  const addTo = (f: SalesTaxFigures, r: (typeof byState)[number]) => {
    f.taxableCents += num(r.taxableCents);
    f.taxCents += num(r.taxCents);
    f.quarters[num(r.quarter) - 1]! += num(r.taxCents);
  };
  for (const r of byState) {
    const s = states.get(r.state) ?? { state: r.state, taxableCents: 0, taxCents: 0, quarters: [0, 0, 0, 0], locations: [] };
    states.set(r.state, s);
    addTo(s, r);
    let loc = s.locations.find((l) => l.locationCode === r.locationCode);
    if (!loc) {
      loc = { locationCode: r.locationCode, jurisdiction: r.jurisdiction, taxableCents: 0, taxCents: 0, quarters: [0, 0, 0, 0] };
      s.locations.push(loc);
    }
    addTo(loc, r);
  }

  return {
    year,
    timeZone: zone,
    totals: period(sumIncome(income), tenthsOf(income), rateTenthCents),
    quarters,
    months,
    gigsByLocation: byLocation.map((l) => ({ location: l.location, classes: num(l.classes), cents: num(l.cents), withheldCents: num(l.withheldCents) })),
    salesTaxByState: [...states.values()],
    mileageRate: rate ? { year: rate.year, centsPerMile: rate.rateTenthCents / 10, name: rate.name } : null,
    unpaid: { count: num(unpaid.count), cents: num(unpaid.cents) },
    sessionsByMethod: SESSION_PAY_METHODS.map((method) => ({ method, count: num(methodRow.get(method)?.count), cents: num(methodRow.get(method)?.cents) })),
  };
}

/** The CSV's columns for a period, in order: the income figures as Finances' CSV has them (INCOME_ROWS), then the miles. */
export const TAX_YEAR_COLUMNS = ['Period', ...INCOME_ROWS.map(([, label]) => label), 'Miles', 'Mileage deduction'] as const;

const periodRow = (label: string, f: TaxPeriodFigures): Cell[] => [
  label,
  ...INCOME_ROWS.map(([key]) => decimal(f[key])),
  (f.mileage.tenthMiles / 10).toFixed(1),
  decimal(f.mileage.deductionCents),
];

/**
 * The accountant's file: one row per month, per quarter (Q1–Q4) and the year; then the gigs by
 * location, the sales tax by state and quarter, what is unpaid, and the mileage rate used.
 * Every block starts with its own header row; cells are csv.ts's.
 */
export function taxYearCsv(v: TaxYearView): string {
  const blank: Cell[] = [];
  const rows: Cell[][] = [
    ...v.months.map((m) => periodRow(m.month, m)),
    ...v.quarters.map((q) => periodRow(`${v.year}-Q${q.quarter}`, q)),
    periodRow(String(v.year), v.totals),
    blank,
    ['Gigs by location', 'Classes paid', 'Paid', 'Tax withheld'],
    ...v.gigsByLocation.map((l) => [l.location, l.classes, decimal(l.cents), decimal(l.withheldCents)]),
    blank,
    ['Sales tax by state', 'Taxable sales', 'Tax collected', 'Q1', 'Q2', 'Q3', 'Q4'],
    ...v.salesTaxByState.map((s) => [s.state, decimal(s.taxableCents), decimal(s.taxCents), ...s.quarters.map(decimal)]),
    blank,
    // Issue 29: within each state, per location code, as Washington's excise return asks.
    // A row's first cell names it alone ("WA 1726"), as every other row's does.
    ['Sales tax by location', 'Jurisdiction', 'Taxable sales', 'Tax collected', 'Q1', 'Q2', 'Q3', 'Q4'],
    ...v.salesTaxByState.flatMap((s) =>
      s.locations.map((l) => [
        `${s.state} ${l.locationCode ?? '(no code)'}`,
        l.jurisdiction ?? '',
        decimal(l.taxableCents),
        decimal(l.taxCents),
        ...l.quarters.map(decimal),
      ]),
    ),
    blank,
    ['Session payments by method', 'Payments', 'Amount'],
    ...v.sessionsByMethod.map((m) => [m.method, m.count, decimal(m.cents)]),
    blank,
    ['Unpaid classes', v.unpaid.count, decimal(v.unpaid.cents)],
    ['Mileage rate (cents a mile)', v.mileageRate ? v.mileageRate.centsPerMile.toFixed(1) : '', v.mileageRate?.name ?? 'none set for this year'],
  ];
  return toCsv(TAX_YEAR_COLUMNS, rows);
}
