/**
 * The best-selling tins, summed by PostgreSQL (decision 0019) in the teacher's zone
 * (SITE_TIMEZONE). The money of the finances page is her income as the Tax year counts it:
 * api/books/income.repo.ts (issue 30, decision 0031).
 */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';
import { PAID_ORDER } from '../books/income.repo.ts';
import { monthRange } from '../lib/time.ts';

export interface BestSellerRow {
  name: string;
  quantity: string | number;
  cents: string | number;
}

/** The tins sold most in paid orders of the range, by quantity. */
export async function bestSellers(db: DB, zone: string, from: string, to: string, limit = 5): Promise<BestSellerRow[]> {
  const { start, end } = monthRange(from, to, zone).instants;
  const { rows } = await sql<BestSellerRow>`
    select i.name, sum(i.quantity) as quantity, sum(i.quantity * i.unit_price_cents) as cents
    from order_items i join orders o on o.id = i.order_id
    where o.status in ${PAID_ORDER}
      and o.created_at >= ${start} and o.created_at < ${end}
    group by i.name order by 2 desc, 1 limit ${limit}`.execute(db);
  return rows;
}

/**
 * Her tastings (issue 34) beside the money they brought (income.repo.ts counts it): the requests,
 * quotes sent and tastings booked (deposit paid) in the range, and the balances still owed on the
 * booked ones now, whatever the range.
 */
export async function tastingsOf(db: DB, zone: string, from: string, to: string) {
  const { start, end } = monthRange(from, to, zone).instants;
  const month = (column: string) => sql`${sql.ref(column)} >= ${start} and ${sql.ref(column)} < ${end}`;
  const { rows } = await sql<{ requests: number; quoted: number; booked: number; balanceDueCents: string | number }>`
    select
      (select count(*)::int from tasting_requests where ${month('created_at')}) as requests,
      (select count(*)::int from tasting_quotes where ${month('created_at')}) as quoted,
      (select count(*)::int from tasting_quotes where deposit_paid_at is not null and ${month('deposit_paid_at')}) as booked,
      (select coalesce(sum(q.price_cents - (select coalesce(sum(p.amount_cents), 0) from tasting_payments p where p.quote_id = q.id)), 0)
        from tasting_quotes q where q.deposit_paid_at is not null and q.cancelled_at is null) as "balanceDueCents"`.execute(db);
  const r = rows[0]!;
  return { requests: r.requests, quoted: r.quoted, booked: r.booked, balanceDueCents: Number(r.balanceDueCents) };
}
