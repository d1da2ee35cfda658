/** What the CSV exports read: plain queries, oldest first (a ledger reads top to bottom). */
import type { DB } from '../../db/client.ts';

export async function ordersWithItems(db: DB) {
  const orders = await db
    .selectFrom('orders')
    .select([
      'id',
      'createdAt',
      'status',
      'payerName',
      'payerEmail',
      'itemsTotalCents',
      'discountCents',
      'shippingCents',
      'totalCents',
      'couponCode',
      'isLocalPickup',
      'shipToName',
      'shipToAddress',
      'paypalOrderId',
      'paypalCaptureId',
    ])
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  const items = await db.selectFrom('orderItems').select(['orderId', 'name', 'unitPriceCents', 'quantity']).orderBy('orderId').orderBy('name').execute();
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
