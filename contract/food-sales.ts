/**
 * Her food sales as the cottage-food rules count and record them (issue 48, decision 0059): the
 * year's sales against the exemption's cap (ORS 616.723, OAR 603-025-0320(e)), and the sales
 * records a cottage-food operator keeps three years (OAR 603-025-0328: where sold, the date sold
 * or shipped, the food, its price and quantity). A food sale is a chocolate order paid and kept
 * (a gift card's part included), or a sale she records by hand (a market, a fair, a box handed to
 * a neighbour). Shared with the Tax year screen: zod only.
 */
import { z } from 'zod';
import { isoDate, requiredText } from './common.ts';
import { cents } from './books.ts';
import type { FoodLicenceMode } from './food.ts';
import { usd } from './event-price-rules.ts';

const oneLine = (label: string, max: number) => requiredText(label, max).refine((s) => !/[\r\n]/.test(s), `${label} must be on one line`);

/**
 * POST /api/admin/books/food-sales: a food sale she records by hand. `place` is the rule's
 * "location of sale": the event's address and its organizer's contact, or the shop or person she
 * sold to; the buyer of an in-person sale is not asked for.
 */
export const foodSaleInput = z.object({
  /** The day sold (and handed over), YYYY-MM-DD, on her clocks. */
  soldOn: isoDate,
  /** What was sold: "Almond bark, 100 g". */
  food: oneLine('Food', 200),
  quantity: z
    .number({ error: 'Quantity must be a whole number' })
    .int('Quantity must be a whole number')
    .min(1, 'Quantity must be at least 1')
    .max(10_000, 'Quantity must be at most 10000'),
  /** What she was paid for them all, in cents. */
  amountCents: cents('Amount'),
  /** Where it was sold: the market's or event's address and its organizer's contact, or the outlet. */
  place: oneLine('Where sold', 300),
});
export type FoodSaleInput = z.input<typeof foodSaleInput>;

export const FOOD_SALE_NOT_FOUND = 'Food sale not found';
export const FOOD_SALE_SAVED = 'Food sale recorded.';
export const FOOD_SALE_DELETED = 'Food sale deleted.';

/** GET /api/admin/books/food-sales?year=: one sale she recorded by hand. */
export interface FoodSaleView {
  _id: string;
  soldOn: string;
  food: string;
  quantity: number;
  amountCents: number;
  place: string;
}

/**
 * The year's food sales against the cottage-food cap (the Tax year's `foodSales`): the shop's
 * orders kept (items less discount, gift-card-paid included; no shipping, no tax, nothing
 * refunded) plus her sales recorded by hand; `leftCents` is what the cap leaves (never below 0),
 * `overCents` what went over it.
 */
export interface FoodSalesFigures {
  mode: FoodLicenceMode;
  year: number;
  ordersCount: number;
  ordersCents: number;
  /** Of the orders' cents, what gift cards paid. */
  giftCardCents: number;
  handCount: number;
  handCents: number;
  totalCents: number;
  capCents: number;
  leftCents: number;
  overCents: number;
  /** The sales she recorded by hand in the year, newest first. */
  handSales: FoodSaleView[];
}

/** GET /api/admin/books/food-sales.csv?year=: the year's sales records (a link on the Tax year). */
export const foodSalesCsvPath = (year: number) => `/api/admin/books/food-sales.csv?year=${year}`;

/** Where she stands against the cap, in one sentence: "$1,234.00 of $50,000.00: $48,766.00 left." */
export const capSentence = (f: Pick<FoodSalesFigures, 'totalCents' | 'capCents' | 'leftCents' | 'overCents'>) =>
  f.overCents > 0
    ? `${usd(f.totalCents)} of ${usd(f.capCents)}: ${usd(f.overCents)} over the cottage-food cap.`
    : `${usd(f.totalCents)} of ${usd(f.capCents)}: ${usd(f.leftCents)} left under the cottage-food cap.`;
