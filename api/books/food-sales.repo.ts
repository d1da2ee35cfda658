/**
 * Her food sales (issue 48, decision 0059), by PostgreSQL in integer cents, in her zone: the
 * chocolate orders paid and kept (PAID_ORDER: paid, ready for pickup, shipped, picked up; a gift
 * card's part included, refunded ones not) by the day they were placed, and the sales she records
 * by hand (food_sales, 0045) by the day sold. What a sale is worth here is the food's: items less
 * discount, no shipping, no sales tax.
 */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';
import { PAID_ORDER } from './income.repo.ts';
import { monthRange } from '../lib/time.ts';

type Num = string | number | null;

const yearOf = (year: number, zone: string) => monthRange(`${year}-01`, `${year}-12`, zone);

/** The year's orders kept: how many, their food's cents, and what gift cards paid of it. */
export async function foodOrdersOfYear(db: DB, zone: string, year: number): Promise<{ count: Num; cents: Num; giftCardCents: Num }> {
  const { start, end } = yearOf(year, zone).instants;
  const { rows } = await sql<{ count: Num; cents: Num; giftCardCents: Num }>`
    select count(*)::int as count, coalesce(sum(items_total_cents - discount_cents), 0) as cents,
      coalesce(sum(least(gift_card_cents, items_total_cents - discount_cents)), 0) as "giftCardCents"
    from orders
    where status in ${PAID_ORDER} and created_at >= ${start} and created_at < ${end}`.execute(db);
  return rows[0] ?? { count: 0, cents: 0, giftCardCents: 0 };
}

const handColumns = ['id', 'soldOn', 'food', 'quantity', 'amountCents', 'place'] as const;

/** The sales she recorded by hand in the year, newest first. */
export async function handSalesOfYear(db: DB, year: number) {
  const { first, next } = yearOf(year, 'UTC').days;
  return db
    .selectFrom('foodSales')
    .select(handColumns)
    .where('soldOn', '>=', first)
    .where('soldOn', '<', next)
    .orderBy('soldOn', 'desc')
    .orderBy('createdAt', 'desc')
    .execute();
}

export const insertHandSale = (db: DB, row: { soldOn: string; food: string; quantity: number; amountCents: number; place: string }) =>
  db.insertInto('foodSales').values(row).returning(handColumns).executeTakeFirstOrThrow();

export const deleteHandSale = async (db: DB, id: string) =>
  (await db.deleteFrom('foodSales').where('id', '=', id).returning('id').executeTakeFirst()) !== undefined;

/** Her sales recorded by hand, by month (YYYY-MM from `from` to `to`): the books count them as shop sales. */
export async function handSalesByMonth(db: DB, from: string, to: string): Promise<{ month: string; count: Num; cents: Num }[]> {
  const { first, next } = monthRange(from, to, 'UTC').days;
  const { rows } = await sql<{ month: string; count: Num; cents: Num }>`
    select substr(sold_on, 1, 7) as month, count(*)::int as count, sum(amount_cents) as cents
    from food_sales where sold_on >= ${first} and sold_on < ${next}
    group by 1 order by 1`.execute(db);
  return rows;
}

/** One line of an order kept in the year, with what the sales records say of its order. */
export interface FoodOrderLine {
  orderId: string;
  soldOn: string;
  deliveredOn: string | null;
  isLocalPickup: boolean;
  payerName: string;
  payerEmail: string;
  shipToName: string | null;
  shipToAddress: string | null;
  discountCents: Num;
  couponCode: string | null;
  name: string;
  quantity: Num;
  unitPriceCents: Num;
}

/**
 * Every line of every order kept in the year, oldest first, with its order's days in her zone
 * (sold, and shipped or picked up when she marked it: 0045) and who and where it went as the
 * order keeps it now (an erased buyer's name, address and ship-to are gone from the order).
 */
export async function foodOrderLines(db: DB, zone: string, year: number): Promise<FoodOrderLine[]> {
  const { start, end } = yearOf(year, zone).instants;
  const day = (column: string) => sql<string>`to_char(${sql.ref(column)} at time zone ${zone}, 'YYYY-MM-DD')`;
  return db
    .selectFrom('orders as o')
    .innerJoin('orderItems as i', 'i.orderId', 'o.id')
    .select([
      'o.id as orderId',
      day('o.created_at').as('soldOn'),
      day('o.delivered_at').as('deliveredOn'),
      'o.isLocalPickup',
      'o.payerName',
      'o.payerEmail',
      'o.shipToName',
      'o.shipToAddress',
      'o.discountCents',
      'o.couponCode',
      'i.name',
      'i.quantity',
      'i.unitPriceCents',
    ])
    .where(sql<boolean>`o.status in ${PAID_ORDER}`)
    .where('o.createdAt', '>=', start)
    .where('o.createdAt', '<', end)
    .orderBy('o.createdAt')
    .orderBy('o.id')
    .orderBy('i.name')
    .orderBy('i.id')
    .execute();
}
