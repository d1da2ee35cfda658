/**
 * Her settings (db/migrations/0013): one row per key, the value JSON text. A key she never set,
 * or one whose stored value no longer fits its schema (a field added since) and that no upgrade
 * knows (stored-upgrades.ts), reads as its default from contract/settings.ts, so a fresh database needs no seed.
 */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';
import { DEFAULT_SETTINGS, settingsSchema, SETTINGS_KEYS, type Settings, type SettingsKey } from '../../contract/settings.ts';
import { DEFAULT_TAX_SETTINGS, taxSettings, type TaxSettings } from '../../contract/tax.ts';
import { mailPostalAddress, type PostalAddressView } from '../../contract/settings.ts';
import { upgradeStored } from './stored-upgrades.ts';

/** Every setting, in one query. */
export async function readSettings(db: DB): Promise<Settings> {
  const rows = await db.selectFrom('settings').select(['key', 'value']).where('key', 'in', SETTINGS_KEYS).execute();
  const out: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const row of rows) {
    const key = row.key as SettingsKey;
    let value: unknown;
    try {
      value = JSON.parse(row.value);
    } catch {
      continue;
    }
    const parsed = settingsSchema.shape[key].safeParse(upgradeStored(key, value));
    if (parsed.success) out[key] = parsed.data;
    else console.error(`[settings] stored ${key} no longer fits its schema; its default is used`);
  }
  return out as Settings;
}

/** Stores the given settings (each whole), in one transaction: all or none. */
export async function writeSettings(db: DB, changes: Partial<Settings>): Promise<void> {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const [key, value] of entries) {
      await trx
        .insertInto('settings')
        .values({ key, value: JSON.stringify(value) })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updatedAt: sql<Date>`now()` }))
        .execute();
    }
  });
}

/**
 * Her tax registrations and her shop's address (issue 29, decision 0028): one setting, key 'tax',
 * read through contract/tax.ts's schema (api/shop/tax-settings.repo.ts writes it). Never set, or
 * stored in a shape that no longer fits: the default, her kitchen in Portland, Oregon, registered
 * there only. Read here, below the wings, because the postal address falls back on the shop's.
 */
export async function readTaxSettings(db: DB): Promise<TaxSettings> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'tax').executeTakeFirst();
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

/** The postal address her newsletters and marketing mails carry now (contract/settings.ts mailPostalAddress: hers, else her shop's). */
export async function postalAddressOf(db: DB): Promise<PostalAddressView> {
  const [{ postalAddress }, { shopAddress }] = await Promise.all([readSettings(db), readTaxSettings(db)]);
  return mailPostalAddress(postalAddress, shopAddress);
}
