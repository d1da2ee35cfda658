/** Cart coupons. Codes are stored upper-cased (check constraint). */
import type { DB } from '../../db/client.ts';

/** The active coupon with this (already upper-cased) code, or undefined. */
export async function findActiveCoupon(db: DB, code: string) {
  return db.selectFrom('coupons').select(['code', 'percentOff']).where('code', '=', code).where('active', '=', true).executeTakeFirst();
}
