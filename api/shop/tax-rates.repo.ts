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
