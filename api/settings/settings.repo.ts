/**
 * Her settings (db/migrations/0013): one row per key, the value JSON text. A key she never set,
 * or one whose stored value no longer fits its schema (a field added since) and that no upgrade
 * knows (stored-upgrades.ts), reads as its default from contract/settings.ts, so a fresh database needs no seed.
 */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';
import { DEFAULT_SETTINGS, settingsSchema, SETTINGS_KEYS, type Settings, type SettingsKey } from '../../contract/settings.ts';
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
