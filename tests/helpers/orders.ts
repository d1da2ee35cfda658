import type { DB } from '../../db/client.ts';

/**
 * An order's tax fields where the shop collects none: a fresh site (issue 29) shipping to Oregon,
 * which has no sales tax (issue 24). No tax line is named, and there is no place or source.
 */
export const UNTAXED_OREGON = {
  tax: 0,
  taxCents: 0,
  taxState: 'OR',
  taxRatePercent: 0,
  taxLabel: '',
  taxOnShipping: false,
  taxZip: null,
  taxLocationCode: null,
  taxJurisdiction: null,
  taxRateSource: null,
} as const;

let tins = 0;
/** A product at $18 with `inventory` tins on the shelf, named Tin 1, Tin 2, …; its id. */
export async function addTin(db: DB, inventory: number): Promise<string> {
  const row = await db
    .insertInto('products')
    .values({ name: `Tin ${++tins}`, priceCents: 1800, inventory })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
