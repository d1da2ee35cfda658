/**
 * The sales tax rate table (issue 24, decision 0026): per state, dated rates in parts per
 * million. The rate of a day is the latest start not after it (contract/tax.ts rateInEffect).
 */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';

const columns = ['id', 'state', 'stateName', 'ratePpm', 'shippingTaxable', 'startsOn'] as const;

/** Every rate, by state then start. */
export const listTaxRates = (db: DB) => db.selectFrom('taxRates').select(columns).orderBy('state').orderBy('startsOn').execute();
export type TaxRateRow = Awaited<ReturnType<typeof listTaxRates>>[number];

/** The rates of one state (a handful): the caller picks the one in effect. */
export const ratesOfState = (db: DB, state: string) => db.selectFrom('taxRates').select(columns).where('state', '=', state).execute();

/** Sets a state's rate from `startsOn` on: a rate with that start is replaced, else one is added. */
export const putTaxRate = (db: DB, row: { state: string; stateName: string; ratePpm: number; shippingTaxable: boolean; startsOn: string }) =>
  db
    .insertInto('taxRates')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['state', 'startsOn']).doUpdateSet({ ratePpm: row.ratePpm, shippingTaxable: row.shippingTaxable, updatedAt: sql<Date>`now()` }),
    )
    .returning(columns)
    .executeTakeFirstOrThrow();

// Her imported ZIP tables and the rate service's cache (issue 29, 0019).

/** Her table's row for a 5-digit ZIP of `state`, if she imported one. */
export const zipRateOf = (db: DB, state: string, zip5: string) =>
  db.selectFrom('taxZipRates').select(['zip', 'ratePpm', 'locationCode', 'jurisdiction']).where('state', '=', state).where('zip', '=', zip5).executeTakeFirst();

/** Replaces the ZIP table of `state` with `rows`, in one transaction: all or none. */
export async function replaceZipRates(
  db: DB,
  state: string,
  rows: { zip: string; ratePpm: number; locationCode: string; jurisdiction: string }[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('taxZipRates').where('state', '=', state).execute();
    for (let i = 0; i < rows.length; i += 500) {
      await trx
        .insertInto('taxZipRates')
        .values(rows.slice(i, i + 500).map((r) => ({ state, ...r })))
        .execute();
    }
  });
}

/** Per state: how many ZIPs her table holds and when it was imported. */
export async function zipTables(db: DB) {
  const rows = await db
    .selectFrom('taxZipRates')
    .select(['state', sql<number>`count(*)::int`.as('zips'), sql<Date>`max(imported_at)`.as('importedAt')])
    .groupBy('state')
    .orderBy('state')
    .execute();
  return rows.map((r) => ({ state: r.state, zips: Number(r.zips), importedAt: new Date(r.importedAt).toISOString() }));
}

/** The cached lookup of a state's ZIP (as asked), if any. */
export const cachedLookup = (db: DB, state: string, zip: string) =>
  db
    .selectFrom('taxRateLookups')
    .select(['ratePpm', 'locationCode', 'jurisdiction', 'lookedUpAt', 'failedAt'])
    .where('state', '=', state)
    .where('zip', '=', zip)
    .executeTakeFirst();

/** Records the service's answer (a rate) or its failure (`rate` null) for a ZIP, and that it was asked. */
export async function recordLookup(
  db: DB,
  state: string,
  zip: string,
  at: Date,
  rate: { ratePpm: number; locationCode: string; jurisdiction: string } | null,
): Promise<void> {
  const values = rate ? { ...rate, lookedUpAt: at, failedAt: null } : { failedAt: at };
  await db
    .insertInto('taxRateLookups')
    .values({ state, zip, ...values, asked: 1 })
    .onConflict((oc) => oc.columns(['state', 'zip']).doUpdateSet({ ...values, asked: sql<number>`tax_rate_lookups.asked + 1` }))
    .execute();
}
