/**
 * Her tax registrations and her shop's address (issue 29, decision 0028): one setting, key 'tax'
 * in the settings table (0013), read through contract/tax.ts's schema. Never set, or stored in
 * a shape that no longer fits: the default, her kitchen in Portland, Oregon, registered there only.
 */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';
import { DEFAULT_TAX_SETTINGS, taxSettings, type TaxSettings } from '../../contract/tax.ts';

const KEY = 'tax';

export async function readTaxSettings(db: DB): Promise<TaxSettings> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', KEY).executeTakeFirst();
  if (!row) return DEFAULT_TAX_SETTINGS;
  try {
    const parsed = taxSettings.safeParse(JSON.parse(row.value));
    if (parsed.success) return parsed.data;
  } catch {
    // unreadable JSON: the default, as below
  }
  console.error('[settings] stored tax settings no longer fit their schema; the default is used');
  return DEFAULT_TAX_SETTINGS;
}

export async function writeTaxSettings(db: DB, value: TaxSettings): Promise<void> {
  const json = JSON.stringify(value);
  await db
    .insertInto('settings')
    .values({ key: KEY, value: json })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updatedAt: sql<Date>`now()` }))
    .execute();
}
