/**
 * Her income, summed by PostgreSQL in integer cents, month by month in her zone (SITE_TIMEZONE):
 * the one definition the Finances page, the Tax year and both their CSVs read (issue 30,
 * decision 0031). Months are YYYY-MM, from and to both included.
 * - Shop: orders paid and kept (paid, ready for pickup, shipped, picked up) by the month they
 *   were placed, net of their sales tax; refunded orders apart, their whole total (tax included)
 *   went back (the order keeps no refund date: the month it was placed).
 * - Sessions: paid sessions still booked, by the month they were booked; cancelled paid sessions
 *   (booking_cancellations) by the month they were booked too (before 0022 without a payment
 *   attempt: the month they were cancelled), kept unless their refund went through ('refunded'),
 *   so a refund PayPal refused stays hers until she makes it by hand. Coupon sessions are no money.
 * - Packages of sessions (issue 32), and single sessions she was paid for by hand: in session
 *   payments, by the day the money came in (paid_on); by method too (sessionIncomeByMethod); a
 *   package she refunded among the refunded sessions instead (decision 0038).
 * - Paid class places (issue 34): kept (not refunded), by the day paid (paid_on), cash basis.
 * - Tastings (issue 34): deposits and balances, through PayPal or by her hand, by the day the
 *   money came in (paid_on), cash basis.
 * - Gigs: by the day the money came in (paid_on), cash basis.
 */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';
import { monthRange } from '../lib/time.ts';

/** Order statuses whose money came in and stayed (order-status.ts). */
export const PAID_ORDER = sql`('paid', 'ready_for_pickup', 'shipped', 'picked_up')`;

type Num = string | number | null;

export interface ShopIncomeRow {
  month: string;
  ordersPaidCount: Num;
  shopNetCents: Num;
  shippingCents: Num;
  salesTaxCents: Num;
  orderRefundsCount: Num;
  orderRefundsCents: Num;
  refundedTaxCents: Num;
}

export async function shopIncome(db: DB, zone: string, from: string, to: string): Promise<ShopIncomeRow[]> {
  const { start, end } = monthRange(from, to, zone).instants;
  const { rows } = await sql<ShopIncomeRow>`
    select to_char(created_at at time zone ${zone}, 'YYYY-MM') as month,
      count(*) filter (where status in ${PAID_ORDER})::int as "ordersPaidCount",
      coalesce(sum(total_cents - tax_cents) filter (where status in ${PAID_ORDER}), 0) as "shopNetCents",
      coalesce(sum(shipping_cents) filter (where status in ${PAID_ORDER}), 0) as "shippingCents",
      coalesce(sum(tax_cents) filter (where status in ${PAID_ORDER}), 0) as "salesTaxCents",
      count(*) filter (where status = 'refunded')::int as "orderRefundsCount",
      coalesce(sum(total_cents) filter (where status = 'refunded'), 0) as "orderRefundsCents",
      coalesce(sum(tax_cents) filter (where status = 'refunded'), 0) as "refundedTaxCents"
    from orders
    where created_at >= ${start} and created_at < ${end}
    group by 1 order by 1`.execute(db);
  return rows;
}

export interface SessionIncomeRow {
  month: string;
  sessionsPaidCount: Num;
  sessionsCents: Num;
  couponBookingsCount: Num;
  sessionRefundsCount: Num;
  sessionRefundsCents: Num;
}

/**
 * Every session payment, one row each, in one place: the month (her zone), the cents, whether it
 * is money (paid), a coupon booking, still booked, refunded, and how it was paid. Sums by month
 * (sessionIncome) and by method (sessionIncomeByMethod) both read these rows, so they agree.
 */
const sessionPayments = (zone: string, from: string, to: string) => {
  const { days, instants } = monthRange(from, to, zone);
  return sql`(
      -- A gift card's part of a session PayPal paid the rest of (issue 33) is the session's money
      -- too: the card's debit keyed by the session's payment attempt, found by its PayPal order,
      -- which a moved session takes along (a cancel gives it back and lets go of the attempt, so
      -- it drops out).
      select to_char(booked_at at time zone ${zone}, 'YYYY-MM') as month,
        amount_cents + coalesce((select -sum(e.change) from ledger_entries e join payment_attempts a on a.id = e.attempt_id
          where a.paypal_order_id = slots.paypal_order_id and e.reason = 'used'), 0) as cents,
        not coupon_used and coalesce(amount_cents, 0) > 0 as paid, coupon_used as coupon, true as booked, false as refunded,
        'paypal' as method
      from slots
      where booked_at >= ${instants.start} and booked_at < ${instants.end}
      union all
      select to_char(coalesce(booked_at, created_at) at time zone ${zone}, 'YYYY-MM'), amount_cents,
        not coupon_used and coalesce(amount_cents, 0) > 0, coupon_used, false, refund_state = 'refunded', 'paypal'
      from booking_cancellations
      where coalesce(booked_at, created_at) >= ${instants.start} and coalesce(booked_at, created_at) < ${instants.end}
      union all
      -- Packages sold (issue 32), on the site or by her hand, and single sessions she was paid for
      -- by hand, by the day the money came in; the sessions booked with their credits carry no
      -- amount, so nothing is counted twice. Her adjustments (credits given) are no sale. A
      -- package she refunded (its 'refunded' ledger row, decision 0038) is a refund, that month.
      select substr(paid_on, 1, 7), price_cents, price_cents > 0, false, false,
        exists (select 1 from ledger_entries e where e.lot_id = credit_lots.id and e.reason = 'refunded'), method
      from credit_lots
      where unit = 'session' and method <> 'adjustment' and paid_on >= ${days.first} and paid_on < ${days.next}
    )`;
};

export async function sessionIncome(db: DB, zone: string, from: string, to: string): Promise<SessionIncomeRow[]> {
  const { rows } = await sql<SessionIncomeRow>`
    select month,
      count(*) filter (where paid and not refunded)::int as "sessionsPaidCount",
      coalesce(sum(cents) filter (where paid and not refunded), 0) as "sessionsCents",
      count(*) filter (where coupon and booked)::int as "couponBookingsCount",
      count(*) filter (where paid and refunded)::int as "sessionRefundsCount",
      coalesce(sum(cents) filter (where paid and refunded), 0) as "sessionRefundsCents"
    from ${sessionPayments(zone, from, to)} s
    group by 1 order by 1`.execute(db);
  return rows;
}

export interface SessionMethodRow {
  method: string;
  /** Payments kept, and sales given free (no money, still a sale she made). */
  count: Num;
  /** The session payments kept: sessionIncome's sessionsCents, by method. */
  cents: Num;
}

/** Session income from `from` to `to` (YYYY-MM) by how it was paid (issue 32): paypal, cash, check, venmo, zelle, card, free. */
export async function sessionIncomeByMethod(db: DB, zone: string, from: string, to: string): Promise<SessionMethodRow[]> {
  const { rows } = await sql<SessionMethodRow>`
    select method,
      count(*) filter (where (paid or method = 'free') and not refunded)::int as count,
      coalesce(sum(cents) filter (where paid and not refunded), 0) as cents
    from ${sessionPayments(zone, from, to)} s
    group by 1 order by 1`.execute(db);
  return rows;
}

/**
 * Her events' money (issue 34), by the day it was paid (her day), in one query: paid class
 * places kept (PayPal's money, or a gift card's, which is income when spent; a place refunded or
 * owed a refund is not kept; one taken with a class credit is no money here, the pass was counted
 * when sold), and a tasting's deposit and balance kept (one owed back or refunded when its tasting
 * was called off is not: decision 0053).
 */
export async function eventIncome(
  db: DB,
  from: string,
  to: string,
): Promise<{ month: string; classesCents: Num; classRefundsCents: Num; tastingsCents: Num }[]> {
  const { first, next } = monthRange(from, to, 'UTC').days;
  const { rows } = await sql<{ month: string; classesCents: Num; classRefundsCents: Num; tastingsCents: Num }>`
    select month, sum(classes) as "classesCents", sum(class_refunds) as "classRefundsCents", sum(tastings) as "tastingsCents"
    from (
      -- A place given back (refunded, or owed back and made by the refund runner) is a refund of the month it was paid (issue 50).
      select substr(paid_on, 1, 7) as month,
        case when refund is null then amount_cents else 0 end as classes,
        case when refund is null then 0 else amount_cents end as class_refunds,
        0 as tastings
      from event_payments
      where paid_on >= ${first} and paid_on < ${next}
      union all
      select substr(paid_on, 1, 7), 0, 0, amount_cents from tasting_payments where refund is null and paid_on >= ${first} and paid_on < ${next}
    ) money
    group by 1 order by 1`.execute(db);
  return rows;
}

export interface GigIncomeRow {
  month: string;
  gigsPaidCount: Num;
  gigsCents: Num;
  gigsWithheldCents: Num;
}

export async function gigIncome(db: DB, from: string, to: string): Promise<GigIncomeRow[]> {
  const { first, next } = monthRange(from, to, 'UTC').days;
  const { rows } = await sql<GigIncomeRow>`
    select substr(paid_on, 1, 7) as month, count(*)::int as "gigsPaidCount", sum(rate_cents) as "gigsCents",
      coalesce(sum(rate_cents) filter (where taxed), 0) as "gigsWithheldCents"
    from gigs
    where paid and paid_on >= ${first} and paid_on < ${next}
    group by 1 order by 1`.execute(db);
  return rows;
}
