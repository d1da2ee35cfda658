/**
 * The tax year's sums beside her income, by PostgreSQL in integer cents (and tenths of a mile),
 * in the teacher's zone (SITE_TIMEZONE) (decision 0026). The income itself (shop, sessions,
 * gigs, refunds, sales tax) is income.repo.ts's, the one definition Finances reads too (issue 30,
 * decision 0031).
 * - miles: each gig taught (not cancelled, she drove, on or before today) adds its location's
 *   round trip on its date; trips by their date.
 */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';
import { PAID_ORDER } from './income.repo.ts';
import { monthRange } from '../lib/time.ts';

/** Year `year` as half-open ranges its indexes serve (monthRange). */
const yearRange = (year: number, zone = 'UTC') => monthRange(`${year}-01`, `${year}-12`, zone);

type Num = string | number | null;
export const num = (v: Num | undefined) => Number(v ?? 0);

export async function mileMonths(db: DB, year: number, today: string): Promise<{ month: string; tenthMiles: Num }[]> {
  const { first, next } = yearRange(year).days;
  const { rows } = await sql<{ month: string; tenthMiles: Num }>`
    select month, sum(tenth) as "tenthMiles" from (
      select substr(g.date, 1, 7) as month, l.round_trip_tenth_miles as tenth
      from gigs g join locations l on l.id = g.location_id
      where g.drove and not g.cancelled and g.date <= ${today} and g.date >= ${first} and g.date < ${next}
      union all
      select substr(date, 1, 7), tenth_miles from trips where date >= ${first} and date < ${next}
    ) t
    group by 1 order by 1`.execute(db);
  return rows;
}

export async function gigsByLocation(db: DB, year: number): Promise<{ location: string; classes: Num; cents: Num; withheldCents: Num }[]> {
  const { first, next } = yearRange(year).days;
  const { rows } = await sql<{ location: string; classes: Num; cents: Num; withheldCents: Num }>`
    select l.name as location, count(*) as classes, sum(g.rate_cents) as cents,
      coalesce(sum(g.rate_cents) filter (where g.taxed), 0) as "withheldCents"
    from gigs g join locations l on l.id = g.location_id
    where g.paid and g.paid_on >= ${first} and g.paid_on < ${next}
    group by l.name order by l.name`.execute(db);
  return rows;
}

/**
 * Where sales tax was collected (issue 29): orders with a rate source, i.e. taxed where she is
 * registered (pickups at her shop included); an order to a state where she does not collect has none.
 */
const COLLECTED = sql`tax_state is not null and tax_rate_source is not null`;

export interface SalesTaxQuarterRow {
  state: string;
  locationCode: string | null;
  jurisdiction: string | null;
  quarter: Num;
  taxableCents: Num;
  taxCents: Num;
}

/** Sales tax of the orders paid and kept, by state, location code and quarter: the figures her excise return asks for. */
export async function salesTaxQuarters(db: DB, zone: string, year: number): Promise<SalesTaxQuarterRow[]> {
  const { start, end } = yearRange(year, zone).instants;
  const { rows } = await sql<SalesTaxQuarterRow>`
    select tax_state as state, tax_location_code as "locationCode", max(tax_jurisdiction) as jurisdiction,
      extract(quarter from created_at at time zone ${zone})::int as quarter,
      sum(items_total_cents - discount_cents + case when tax_on_shipping then shipping_cents else 0 end) as "taxableCents",
      sum(tax_cents) as "taxCents"
    from orders
    where status in ${PAID_ORDER} and ${COLLECTED} and created_at >= ${start} and created_at < ${end}
    group by tax_state, tax_location_code, 4 order by 1, 2 nulls last, 4`.execute(db);
  return rows;
}

/** Classes of the year taught (on or before today), not cancelled and not paid. */
export async function unpaidOfYear(db: DB, year: number, today: string): Promise<{ count: Num; cents: Num }> {
  const { first, next } = yearRange(year).days;
  const { rows } = await sql<{ count: Num; cents: Num }>`
    select count(*) as count, coalesce(sum(rate_cents), 0) as cents from gigs
    where not paid and not cancelled and date <= ${today} and date >= ${first} and date < ${next}`.execute(db);
  return rows[0] ?? { count: 0, cents: 0 };
}

/** Sales tax collected per state, location code and month (orders paid and kept), for the finances page. */
export async function salesTaxMonths(
  db: DB,
  zone: string,
  from: string,
  to: string,
): Promise<{ state: string; locationCode: string | null; jurisdiction: string | null; month: string; taxCents: Num }[]> {
  const { start, end } = monthRange(from, to, zone).instants;
  const { rows } = await sql<{ state: string; locationCode: string | null; jurisdiction: string | null; month: string; taxCents: Num }>`
    select tax_state as state, tax_location_code as "locationCode", max(tax_jurisdiction) as jurisdiction,
      to_char(created_at at time zone ${zone}, 'YYYY-MM') as month, sum(tax_cents) as "taxCents"
    from orders
    where status in ${PAID_ORDER} and ${COLLECTED}
      and created_at >= ${start} and created_at < ${end}
    group by tax_state, tax_location_code, 4 order by 1, 4, 2 nulls last`.execute(db);
  return rows;
}
