/** What the CSV exports read: plain queries, oldest first (a ledger reads top to bottom). */
import type { DB } from '../../db/client.ts';
import { listOrderItems, listOrders } from '../shop/orders.repo.ts';

/** Every order with its items, oldest first: the admin's order list (shop/orders.repo.ts) in ledger order. */
export async function ordersWithItems(db: DB) {
  const [orders, items] = await Promise.all([listOrders(db, 'oldest-first'), listOrderItems(db)]);
  const byOrder = new Map<string, typeof items>();
  for (const it of items) byOrder.set(it.orderId, [...(byOrder.get(it.orderId) ?? []), it]);
  return orders.map((o) => ({ ...o, items: byOrder.get(o.id) ?? [] }));
}

export async function clients(db: DB) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'firstName', 'lastName', 'preferredName', 'pronoun', 'phone', 'city', 'zipcode', 'emailVerifiedAt', 'createdAt'])
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
}

export async function subscribers(db: DB) {
  return db.selectFrom('subscribers').select(['email', 'subscribedAt']).orderBy('subscribedAt').orderBy('email').execute();
}

export async function signups(db: DB) {
  return db
    .selectFrom('classSignups')
    .select(['classTitle', 'date', 'name', 'email', 'phone', 'waiverAccepted', 'createdAt'])
    .orderBy('date')
    .orderBy('classTitle')
    .orderBy('createdAt')
    .execute();
}
