/** Cart coupons. Codes are stored upper-cased (check constraint). */
import type { DB } from '../../db/client.ts';

/** Adds the coupons whose code is new (the first start's seed). */
export async function insertCouponsIfMissing(db: DB, coupons: readonly { code: string; percentOff: number }[]): Promise<void> {
  await db
    .insertInto('coupons')
    .values([...coupons])
    .onConflict((oc) => oc.column('code').doNothing())
    .execute();
}

/** The active coupon with this (already upper-cased) code, or undefined. */
export async function findActiveCoupon(db: DB, code: string) {
  return db.selectFrom('coupons').select(['code', 'percentOff']).where('code', '=', code).where('active', '=', true).executeTakeFirst();
}
