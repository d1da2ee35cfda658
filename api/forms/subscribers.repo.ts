/** Newsletter subscribers. E-mails are stored lower-cased; the unique constraint makes one row per address. */
import type { DB } from '../../db/client.ts';

/**
 * Adds `email` (already lower-cased) unless it is on the list: one statement, so concurrent
 * identical subscriptions make one row. Undefined when it was there already.
 */
export async function addSubscriber(db: DB, email: string) {
  return db
    .insertInto('subscribers')
    .values({ email })
    .onConflict((oc) => oc.column('email').doNothing())
    .returning(['id', 'email', 'subscribedAt'])
    .executeTakeFirst();
}

/** Whether `email` (already lower-cased) is on the list. */
export async function isSubscribed(db: DB, email: string): Promise<boolean> {
  return Boolean(await db.selectFrom('subscribers').select('id').where('email', '=', email).executeTakeFirst());
}

/** Removes `email` from the list; true when it was on it. */
export async function removeSubscriberByEmail(db: DB, email: string): Promise<boolean> {
  const result = await db.deleteFrom('subscribers').where('email', '=', email).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function removeSubscriber(db: DB, id: string): Promise<boolean> {
  const result = await db.deleteFrom('subscribers').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Newest first. */
export async function listSubscribers(db: DB) {
  return db.selectFrom('subscribers').select(['id', 'email', 'subscribedAt']).orderBy('subscribedAt', 'desc').orderBy('id').execute();
}
