/**
 * Her tax registrations and her shop's address (issue 29, decision 0028): one setting, key 'tax'
 * in the settings table (0013), read through contract/tax.ts's schema (readTaxSettings lives in
 * api/settings/settings.repo.ts, decision 0059). Never set, or stored in a shape that no longer
 * fits: the default, her kitchen in Portland, Oregon, registered there only.
 */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { TaxSettings } from '../../contract/tax.ts';

const KEY = 'tax';

// Read below the wings (the postal address falls back on her shop's address): the settings' repo.
export { readTaxSettings } from '../settings/settings.repo.ts';

export async function writeTaxSettings(db: DB, value: TaxSettings): Promise<void> {
  const json = JSON.stringify(value);
  await db
    .insertInto('settings')
    .values({ key: KEY, value: json })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updatedAt: sql<Date>`now()` }))
    .execute();
}
