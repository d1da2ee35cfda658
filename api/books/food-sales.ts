/**
 * Her food sales against the cottage-food cap, and their records (issue 48, decision 0059): one
 * function for the Tax year's figures and one for the sales-records CSV, both over
 * food-sales.repo.ts's rows, so the CSV's amounts add up to the year's total the screen shows.
 *
 * OAR 603-025-0328 asks a cottage-food operator to keep, three years, each sale's location (an
 * online sale's address and contact; an event's address and organizer), the date sold or
 * shipped, the food, its price and quantity, and the calculation of the year's gross sales
 * against the cap (OAR 603-025-0320). The CSV is that record: one row per food of each sale.
 */
import type { DB } from '../../db/client.ts';
import type { FoodSalesFigures, FoodSaleView } from '../../contract/food-sales.ts';
import { shopAddressLine } from '../../contract/tax.ts';
import { readSettings, readTaxSettings } from '../settings/settings.repo.ts';
import { decimal, toCsv, type Cell } from '../lib/csv.ts';
import { foodOrderLines, foodOrdersOfYear, handSalesOfYear, type FoodOrderLine } from './food-sales.repo.ts';
import { num } from './tax-year.repo.ts';

export const handSaleView = (r: { id: string; soldOn: string; food: string; quantity: number; amountCents: number; place: string }): FoodSaleView => ({
  _id: r.id,
  soldOn: r.soldOn,
  food: r.food,
  quantity: r.quantity,
  amountCents: r.amountCents,
  place: r.place,
});

/** The year's food sales against her cap (settings' foodLicence.capDollars), whatever her mode. */
export async function foodSalesOf(db: DB, zone: string, year: number): Promise<FoodSalesFigures> {
  const [orders, hand, { foodLicence }] = await Promise.all([foodOrdersOfYear(db, zone, year), handSalesOfYear(db, year), readSettings(db)]);
  const ordersCents = num(orders.cents);
  const handCents = hand.reduce((s, r) => s + r.amountCents, 0);
  const totalCents = ordersCents + handCents;
  const capCents = foodLicence.capDollars * 100;
  return {
    mode: foodLicence.mode,
    year,
    ordersCount: num(orders.count),
    ordersCents,
    giftCardCents: num(orders.giftCardCents),
    handCount: hand.length,
    handCents,
    totalCents,
    capCents,
    leftCents: Math.max(0, capCents - totalCents),
    overCents: Math.max(0, totalCents - capCents),
    handSales: hand.map(handSaleView),
  };
}

export const FOOD_SALES_COLUMNS = [
  'Sale',
  'How sold',
  'Date sold',
  'Date shipped or handed over',
  'Food',
  'Quantity',
  'Unit price',
  'Amount',
  'Buyer',
  'Buyer contact',
  'Location of sale (ship-to address, pickup or event)',
] as const;

/** What an erased buyer's order says where her name was (decision 0025: the sale stays, who goes). */
const ERASED = '(erased at the buyer’s request)';

const oneLine = (s: string) =>
  s
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(', ');

/** An order's rows: one per food, then its discount (so the amounts add up to what the food sold for). */
function orderRows(lines: FoodOrderLine[], pickupAt: string): Cell[][] {
  const first = lines[0]!;
  const erased = first.payerEmail === '' && first.payerName === '';
  const sale = `Order ${first.orderId.slice(0, 8)}`;
  const how = first.isLocalPickup ? 'Online, picked up' : 'Online, shipped';
  const where = first.isLocalPickup
    ? `Picked up at ${pickupAt}`
    : first.shipToAddress
      ? oneLine([first.shipToName ?? '', first.shipToAddress].filter(Boolean).join('\n'))
      : erased
        ? ERASED
        : '';
  const common = (food: string, quantity: Cell, unit: Cell, amount: Cell): Cell[] => [
    sale,
    how,
    first.soldOn,
    first.deliveredOn ?? '',
    food,
    quantity,
    unit,
    amount,
    erased ? ERASED : first.payerName,
    erased ? '' : first.payerEmail,
    where,
  ];
  const rows = lines.map((l) => common(l.name, num(l.quantity), decimal(num(l.unitPriceCents)), decimal(num(l.unitPriceCents) * num(l.quantity))));
  const discount = num(first.discountCents);
  // A number, not text: csv.ts would guard a text cell starting with "-" as a formula.
  if (discount > 0) rows.push(common(`Discount${first.couponCode ? ` (coupon ${first.couponCode})` : ''}`, '', '', -discount / 100));
  return rows;
}

/**
 * The year's sales records: every order kept (oldest first, one row per food and its discount),
 * then her sales recorded by hand (in person: handed over the day sold), then the calculation of
 * the year's gross food sales against the cap. Dates are YYYY-MM-DD in her zone, as the other
 * exports' data files write them; cells are csv.ts's (quoted, formula-safe).
 */
export async function foodSalesCsv(db: DB, zone: string, year: number): Promise<string> {
  const [figures, lines, { shopAddress }] = await Promise.all([foodSalesOf(db, zone, year), foodOrderLines(db, zone, year), readTaxSettings(db)]);
  const pickupAt = shopAddressLine(shopAddress);
  const byOrder = new Map<string, FoodOrderLine[]>();
  for (const l of lines) byOrder.set(l.orderId, [...(byOrder.get(l.orderId) ?? []), l]);
  const hand = [...figures.handSales].reverse();
  const rows: Cell[][] = [
    ...[...byOrder.values()].flatMap((ls) => orderRows(ls, pickupAt)),
    ...hand.map((h): Cell[] => [
      'Recorded by hand',
      'In person',
      h.soldOn,
      h.soldOn,
      h.food,
      h.quantity,
      decimal(Math.round(h.amountCents / h.quantity)),
      decimal(h.amountCents),
      '',
      '',
      h.place,
    ]),
    [],
    [`Gross food sales ${year}`, 'Sales', '', '', '', '', '', 'Amount'],
    ['Orders kept (items less discounts; no shipping, no sales tax)', figures.ordersCount, '', '', '', '', '', decimal(figures.ordersCents)],
    ['Of which paid with gift cards', '', '', '', '', '', '', decimal(figures.giftCardCents)],
    ['Sales recorded by hand', figures.handCount, '', '', '', '', '', decimal(figures.handCents)],
    ['Total', figures.ordersCount + figures.handCount, '', '', '', '', '', decimal(figures.totalCents)],
    ['Cottage-food cap', '', '', '', '', '', '', decimal(figures.capCents)],
    [
      figures.overCents > 0 ? 'Over the cap' : 'Left under the cap',
      '',
      '',
      '',
      '',
      '',
      '',
      decimal(figures.overCents > 0 ? figures.overCents : figures.leftCents),
    ],
  ];
  return toCsv(FOOD_SALES_COLUMNS, rows);
}
