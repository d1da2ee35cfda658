/**
 * The PayPal orders the server made for bookings (db/migrations/0013), kept until each is
 * finalized, released or lapses: how the server finds an approval its client never finalized
 * (api/booking/unfinalized.ts). Every replica looks; one conditional UPDATE gives each order to
 * one of them at a time, as payment attempts are taken over (api/money/attempts.repo.ts).
 */
import { sql, type Selectable } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { BookingOrderResolution, BookingOrdersTable } from '../../db/schema.ts';

export type BookingOrder = Selectable<BookingOrdersTable>;

/** Records an order right after PayPal made it. */
export async function recordBookingOrder(
  db: DB,
  o: { paypalOrderId: string; slotId: string; userId: string; amountCents: number; sessionType: string },
): Promise<void> {
  await db
    .insertInto('bookingOrders')
    .values(o)
    .onConflict((oc) => oc.column('paypalOrderId').doNothing())
    .execute();
}

const olderThan = (ms: number) => sql<Date>`now() - ${Math.max(0, Math.round(ms))}::bigint * interval '1 millisecond'`;

/** Open orders made at least `ageMs` ago and not held by a live look (`claimStaleMs`), oldest first. */
export async function openBookingOrderIds(db: DB, ageMs: number, claimStaleMs: number, limit = 50): Promise<string[]> {
  const rows = await db
    .selectFrom('bookingOrders')
    .select('paypalOrderId')
    .where('resolvedAt', 'is', null)
    .where('createdAt', '<=', olderThan(ageMs))
    .where((w) => w.or([w('claimedAt', 'is', null), w('claimedAt', '<', olderThan(claimStaleMs))]))
    .orderBy('createdAt')
    .limit(limit)
    .execute();
  return rows.map((r) => r.paypalOrderId);
}

/** Takes an open order for a look, unless another process holds it (a look silent for `claimStaleMs` is taken over). */
export async function takeBookingOrder(db: DB, paypalOrderId: string, holder: string, claimStaleMs: number): Promise<BookingOrder | undefined> {
  return db
    .updateTable('bookingOrders')
    .set({ claimedBy: holder, claimedAt: sql<Date>`now()` })
    .where('paypalOrderId', '=', paypalOrderId)
    .where('resolvedAt', 'is', null)
    .where((w) => w.or([w('claimedAt', 'is', null), w('claimedAt', '<', olderThan(claimStaleMs))]))
    .returningAll()
    .executeTakeFirst();
}

/** Gives an order back after a look that settled nothing (PayPal could not say, not approved yet): the next pass looks again. */
export async function letGoBookingOrder(db: DB, paypalOrderId: string, holder: string): Promise<void> {
  await db
    .updateTable('bookingOrders')
    .set({ claimedBy: null, claimedAt: null })
    .where('paypalOrderId', '=', paypalOrderId)
    .where('claimedBy', '=', holder)
    .where('resolvedAt', 'is', null)
    .execute();
}

/** Records how an order ended; true when this call did (an order is resolved once). */
export async function resolveBookingOrder(db: DB, paypalOrderId: string, resolution: BookingOrderResolution, note: string): Promise<boolean> {
  const row = await db
    .updateTable('bookingOrders')
    .set({ resolution, note, resolvedAt: sql<Date>`now()` })
    .where('paypalOrderId', '=', paypalOrderId)
    .where('resolvedAt', 'is', null)
    .returning('paypalOrderId')
    .executeTakeFirst();
  return row !== undefined;
}

export async function findBookingOrder(db: DB, paypalOrderId: string): Promise<BookingOrder | undefined> {
  return db.selectFrom('bookingOrders').selectAll().where('paypalOrderId', '=', paypalOrderId).executeTakeFirst();
}
