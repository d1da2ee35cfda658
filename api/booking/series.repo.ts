/**
 * A weekly series (issue 32): the slots of its weeks, the savepoint each week is booked under,
 * the series id its sessions share, and the free slots nearest a week that could not be booked.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';

/** The slot at her date and time (one at most: the unique index), free or not. */
export async function slotAt(db: DB, date: string, time: string) {
  return db.selectFrom('slots').select(['id', 'startsAt', 'bookedAt']).where('date', '=', date).where('time', '=', time).executeTakeFirst();
}

/**
 * Another slot starting less than `minutes` before or after `startsAt`: a slot made there would
 * overlap it (a slot lasts her session's hour).
 */
export async function slotOverlapping(db: DB, startsAt: Date, minutes: number): Promise<boolean> {
  const row = await db
    .selectFrom('slots')
    .select('id')
    .where('startsAt', '>', sql<Date>`${startsAt}::timestamptz - make_interval(mins => ${minutes})`)
    .where('startsAt', '<', sql<Date>`${startsAt}::timestamptz + make_interval(mins => ${minutes})`)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * A week is booked under its own savepoint: a week lost to a race (or without a credit) is rolled
 * back alone, its spend with it, and the weeks booked before it stand.
 */
export async function savepoint(trx: Transaction<Database>, name: string): Promise<void> {
  await sql`savepoint ${sql.id(name)}`.execute(trx);
}

export async function rollbackToSavepoint(trx: Transaction<Database>, name: string): Promise<void> {
  await sql`rollback to savepoint ${sql.id(name)}`.execute(trx);
}

export async function releaseSavepoint(trx: Transaction<Database>, name: string): Promise<void> {
  await sql`release savepoint ${sql.id(name)}`.execute(trx);
}

/** The series id on the sessions just booked in it. */
export async function markSeries(trx: Transaction<Database>, slotIds: string[], seriesId: string): Promise<void> {
  if (slotIds.length === 0) return;
  await trx.updateTable('slots').set({ seriesId }).where('id', 'in', slotIds).execute();
}

/** The free future slots nearest `around` (before or after), nearest first. */
export async function nearestFreeSlots(db: DB, around: Date, now: Date, limit: number) {
  return db
    .selectFrom('slots')
    .select(['id', 'startsAt'])
    .where('bookedAt', 'is', null)
    .where('startsAt', '>', now)
    .orderBy(sql`abs(extract(epoch from (starts_at - ${around}::timestamptz)))`)
    .orderBy('startsAt')
    .limit(limit)
    .execute();
}
