/**
 * Her books' rows (issue 24): locations, gigs, trips and the mileage rates, as plain Kysely
 * queries. Money in cents, miles in tenths.
 */
import { sql, type Insertable, type Updateable } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { GigsTable } from '../../db/schema.ts';

// --- locations --------------------------------------------------------------------------------

const locationColumns = ['id', 'name', 'roundTripTenthMiles', 'bufferMinutes'] as const;

export const listLocations = (db: DB) => db.selectFrom('locations').select(locationColumns).orderBy('name').execute();

export const findLocation = (db: DB, id: string) => db.selectFrom('locations').select(locationColumns).where('id', '=', id).executeTakeFirst();

export const findLocationByName = (db: DB, name: string) => db.selectFrom('locations').select('id').where('name', '=', name).executeTakeFirst();

export const insertLocation = (db: DB, row: { name: string; roundTripTenthMiles: number; bufferMinutes?: number }) =>
  db.insertInto('locations').values(row).returning(locationColumns).executeTakeFirstOrThrow();

/** Changes a location; a buffer left undefined stays as it is. */
export const updateLocation = (db: DB, id: string, row: { name: string; roundTripTenthMiles: number; bufferMinutes?: number }) =>
  db.updateTable('locations').set(row).where('id', '=', id).returning(locationColumns).executeTakeFirst();

export const deleteLocation = (db: DB, id: string) => db.deleteFrom('locations').where('id', '=', id).returning('id').executeTakeFirst();

export async function locationHasGigs(db: DB, id: string): Promise<boolean> {
  return (await db.selectFrom('gigs').select('id').where('locationId', '=', id).limit(1).executeTakeFirst()) !== undefined;
}

// --- gigs -------------------------------------------------------------------------------------

const gigColumns = [
  'gigs.id',
  'gigs.seriesId',
  'gigs.date',
  'gigs.time',
  'gigs.minutes',
  'gigs.className',
  'gigs.locationId',
  'gigs.rateCents',
  'gigs.frequency',
  'gigs.repeatUntil',
  'gigs.paymentMethod',
  'gigs.requestSent',
  'gigs.paid',
  'gigs.paidOn',
  'gigs.taxed',
  'gigs.cancelled',
  'gigs.drove',
  'locations.name as location',
  'locations.roundTripTenthMiles',
] as const;

const gigsQuery = (db: DB) => db.selectFrom('gigs').innerJoin('locations', 'locations.id', 'gigs.locationId').select(gigColumns);
export type GigRow = Awaited<ReturnType<typeof findGig>> & {};

export const findGig = (db: DB, id: string) => gigsQuery(db).where('gigs.id', '=', id).executeTakeFirst();

/** Entries by date and time, optionally from/to (YYYY-MM-DD, both included). */
export const listGigs = (db: DB, from?: string, to?: string) =>
  gigsQuery(db)
    .$if(from !== undefined, (q) => q.where('gigs.date', '>=', from!))
    .$if(to !== undefined, (q) => q.where('gigs.date', '<=', to!))
    .orderBy('gigs.date')
    .orderBy('gigs.time')
    .orderBy('gigs.id')
    .execute();

/** Classes taught (on or before `today`), not cancelled, not paid: oldest first. */
export const unpaidGigs = (db: DB, today: string) =>
  gigsQuery(db)
    .where('gigs.date', '<=', today)
    .where('gigs.paid', '=', false)
    .where('gigs.cancelled', '=', false)
    .orderBy('gigs.date')
    .orderBy('gigs.time')
    .execute();

/** Inserts entries; a series' date already there is skipped (gigs_series_date). The entries made, with their dates. */
export async function insertGigs(db: DB, rows: Insertable<GigsTable>[]): Promise<{ id: string; date: string }[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insertInto('gigs')
    .values(rows)
    .onConflict((oc) => oc.columns(['seriesId', 'date']).doNothing())
    .returning(['id', 'date'])
    .execute();
  return inserted.map((r) => ({ id: r.id, date: r.date }));
}

export const updateGig = (db: DB, id: string, changes: Updateable<GigsTable>) =>
  db
    .updateTable('gigs')
    .set({ ...changes, updatedAt: sql<Date>`now()` })
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();

/** Whether the series has a class on `date` (one per date: gigs_series_date). */
export async function seriesHasDate(db: DB, seriesId: string, date: string): Promise<boolean> {
  return (await db.selectFrom('gigs').select('id').where('seriesId', '=', seriesId).where('date', '=', date).executeTakeFirst()) !== undefined;
}

export const deleteGig = (db: DB, id: string) => db.deleteFrom('gigs').where('id', '=', id).returning('id').executeTakeFirst();

/** Ends a series after `after`: its later entries not paid are deleted, and every entry keeps the end as repeatUntil. */
export async function endSeries(db: DB, seriesId: string, after: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const gone = await trx.deleteFrom('gigs').where('seriesId', '=', seriesId).where('date', '>', after).where('paid', '=', false).returning('id').execute();
    await trx
      .updateTable('gigs')
      .set({ repeatUntil: after, updatedAt: sql<Date>`now()` })
      .where('seriesId', '=', seriesId)
      .execute();
    return gone.length;
  });
}

// --- trips ------------------------------------------------------------------------------------

export const listTrips = (db: DB) => db.selectFrom('trips').select(['id', 'date', 'purpose', 'tenthMiles']).orderBy('date', 'desc').orderBy('id').execute();

export const insertTrip = (db: DB, row: { date: string; purpose: string; tenthMiles: number }) =>
  db.insertInto('trips').values(row).returning(['id', 'date', 'purpose', 'tenthMiles']).executeTakeFirstOrThrow();

export const deleteTrip = (db: DB, id: string) => db.deleteFrom('trips').where('id', '=', id).returning('id').executeTakeFirst();

// --- mileage rates ----------------------------------------------------------------------------

export const listMileageRates = (db: DB) => db.selectFrom('mileageRates').select(['year', 'rateTenthCents', 'name']).orderBy('year', 'desc').execute();

export const findMileageRate = (db: DB, year: number) =>
  db.selectFrom('mileageRates').select(['year', 'rateTenthCents', 'name']).where('year', '=', year).executeTakeFirst();

export const putMileageRate = (db: DB, row: { year: number; rateTenthCents: number; name: string }) =>
  db
    .insertInto('mileageRates')
    .values(row)
    .onConflict((oc) => oc.column('year').doUpdateSet({ rateTenthCents: row.rateTenthCents, name: row.name, updatedAt: sql<Date>`now()` }))
    .returning(['year', 'rateTenthCents', 'name'])
    .executeTakeFirstOrThrow();
