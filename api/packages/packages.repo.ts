/** The packages she sells (issue 32): plain SQL, no rules (api/packages/packages.ts holds those). */
import type { DB } from '../../db/client.ts';
import type { PackageView } from '../../contract/packages.ts';
import type { Selectable } from 'kysely';
import type { PackagesTable } from '../../db/schema.ts';

type Row = Selectable<PackagesTable>;

export const packageView = (p: Row): PackageView => ({
  _id: p.id,
  name: p.name,
  sessionTypes: p.sessionTypes,
  sessions: p.sessions,
  minPriceCents: p.minPriceCents,
  suggestedPriceCents: p.suggestedPriceCents,
  maxPriceCents: p.maxPriceCents,
  monthsValid: p.monthsValid,
  active: p.active,
});

/** A package's values as she writes them: its view without the id. */
export type PackageValues = Omit<PackageView, '_id'>;

const columns = (v: PackageValues) => ({ ...v, sessionTypes: JSON.stringify(v.sessionTypes) });

/** Every package (the admin), or the active ones (the public), cheapest first. */
export function listPackages(db: DB, only: 'active' | 'all') {
  let q = db.selectFrom('packages').selectAll();
  if (only === 'active') q = q.where('active', '=', true);
  return q.orderBy('minPriceCents').orderBy('name').orderBy('id').execute();
}

export const findPackage = (db: DB, id: string) => db.selectFrom('packages').selectAll().where('id', '=', id).executeTakeFirst();

export const insertPackage = (db: DB, v: PackageValues) => db.insertInto('packages').values(columns(v)).returningAll().executeTakeFirstOrThrow();

export const updatePackage = (db: DB, id: string, v: PackageValues) =>
  db
    .updateTable('packages')
    .set({ ...columns(v), updatedAt: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();

/** Deletes it; those who hold its credits keep them (their lots copied its terms). */
export const deletePackage = async (db: DB, id: string) => (await db.deleteFrom('packages').where('id', '=', id).executeTakeFirst()).numDeletedRows > 0n;
