/**
 * The money, summed by PostgreSQL in cents (decision 0019), month by month in the teacher's
 * zone (SITE_TIMEZONE): an order placed at 11 pm on March 31 in California is March's.
 * - Orders paid: status paid, shipped or picked up (order-status.ts: PayPal has the money and
 *   kept it). Pending and failed payments are left out; refunded orders are counted apart,
 *   in the month they were placed (the order keeps no refund date), their whole total.
 * - Booking payments: booked slots not booked with the coupon, by the month they were booked.
 * - Coupon bookings: booked slots with the coupon (free), counted.
 */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';

const PAID = sql`('paid', 'ready_for_pickup', 'shipped', 'picked_up')`;

export interface OrderMonthRow {
  month: string;
  paidCount: string | number;
  paidCents: string | number | null;
  shippingCents: string | number | null;
  refundsCount: string | number;
  refundsCents: string | number | null;
}

export async function orderMonths(db: DB, zone: string, from: string, to: string): Promise<OrderMonthRow[]> {
  const { rows } = await sql<OrderMonthRow>`
    select to_char(created_at at time zone ${zone}, 'YYYY-MM') as month,
      count(*) filter (where status in ${PAID}) as "paidCount",
      coalesce(sum(total_cents) filter (where status in ${PAID}), 0) as "paidCents",
      coalesce(sum(shipping_cents) filter (where status in ${PAID}), 0) as "shippingCents",
      count(*) filter (where status = 'refunded') as "refundsCount",
      coalesce(sum(total_cents) filter (where status = 'refunded'), 0) as "refundsCents"
    from orders
    where to_char(created_at at time zone ${zone}, 'YYYY-MM') between ${from} and ${to}
    group by 1 order by 1`.execute(db);
  return rows;
}

export interface BookingMonthRow {
  month: string;
  paidCount: string | number;
  paidCents: string | number | null;
  couponCount: string | number;
}

export async function bookingMonths(db: DB, zone: string, from: string, to: string): Promise<BookingMonthRow[]> {
  const { rows } = await sql<BookingMonthRow>`
    select to_char(booked_at at time zone ${zone}, 'YYYY-MM') as month,
      count(*) filter (where not coupon_used and coalesce(amount_cents, 0) > 0) as "paidCount",
      coalesce(sum(amount_cents) filter (where not coupon_used), 0) as "paidCents",
      count(*) filter (where coupon_used) as "couponCount"
    from slots
    where booked_at is not null
      and to_char(booked_at at time zone ${zone}, 'YYYY-MM') between ${from} and ${to}
    group by 1 order by 1`.execute(db);
  return rows;
}

export interface BestSellerRow {
  name: string;
  quantity: string | number;
  cents: string | number;
}

/** The tins sold most in paid orders of the range, by quantity. */
export async function bestSellers(db: DB, zone: string, from: string, to: string, limit = 5): Promise<BestSellerRow[]> {
  const { rows } = await sql<BestSellerRow>`
    select i.name, sum(i.quantity) as quantity, sum(i.quantity * i.unit_price_cents) as cents
    from order_items i join orders o on o.id = i.order_id
    where o.status in ${PAID}
      and to_char(o.created_at at time zone ${zone}, 'YYYY-MM') between ${from} and ${to}
    group by i.name order by 2 desc, 1 limit ${limit}`.execute(db);
  return rows;
}
