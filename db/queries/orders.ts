/**
 * Chocolate orders and their items. Money in integer cents. The checkout's stock claim is one
 * conditional UPDATE per line, so two buyers can never both get the last tin.
 */
import { sql, type Selectable } from 'kysely';
import type { DB } from '../client.ts';
import type { OrdersTable } from '../schema.ts';

export type OrderStatus = Selectable<OrdersTable>['status'];

/** Name, price and stock of the products a cart names (unknown ids are simply absent). */
export async function productsForCart(db: DB, ids: string[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('products').select(['id', 'name', 'priceCents', 'inventory']).where('id', 'in', ids).execute();
}

/**
 * Takes `quantity` tins of one product if that many are left; undefined when not. Row-locks the
 * product until the transaction ends; callers claim in product-id order so two carts never
 * wait on each other in a circle.
 */
export async function claimStock(db: DB, productId: string, quantity: number) {
  return db
    .updateTable('products')
    .set((eb) => ({ inventory: eb('inventory', '-', quantity), updatedAt: sql<Date>`now()` }))
    .where('id', '=', productId)
    .where('inventory', '>=', quantity)
    .returning(['id', 'inventory'])
    .executeTakeFirst();
}

export interface NewOrder {
  paypalOrderId: string;
  payerName: string;
  payerEmail: string;
  itemsTotalCents: number;
  discountCents: number;
  shippingCents: number;
  totalCents: number;
  couponCode: string | null;
  isLocalPickup: boolean;
}

/** Inserts the order; a second one for the same PayPal order violates orders_paypal_order_id_key. */
export async function insertOrder(db: DB, order: NewOrder) {
  return db.insertInto('orders').values(order).returning(['id', 'createdAt']).executeTakeFirstOrThrow();
}

export async function insertOrderItems(
  db: DB,
  items: { orderId: string; productId: string; name: string; unitPriceCents: number; quantity: number }[],
) {
  if (items.length === 0) return;
  await db.insertInto('orderItems').values(items).execute();
}

/**
 * Records the capture, the payer, (for a shipped order) the address PayPal reports, and the
 * status the capture leaves the order in: 'paid', or 'payment_pending' while PayPal holds it.
 */
export async function recordCapture(
  db: DB,
  orderId: string,
  capture: {
    paypalCaptureId: string;
    payerName: string;
    payerEmail: string;
    shipToName: string | null;
    shipToAddress: string | null;
    status: 'paid' | 'payment_pending';
  },
) {
  await db.updateTable('orders').set(capture).where('id', '=', orderId).execute();
}

const orderColumns = [
  'id',
  'paypalOrderId',
  'paypalCaptureId',
  'createdAt',
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
  'status',
] as const;

const itemColumns = ['orderId', 'productId', 'name', 'unitPriceCents', 'quantity'] as const;

/** Items of many orders in one query, in the order they were sold. */
export async function itemsOfOrders(db: DB, orderIds: string[]) {
  if (orderIds.length === 0) return [];
  return db.selectFrom('orderItems').select(itemColumns).where('orderId', 'in', orderIds).orderBy('orderId').orderBy('name').orderBy('id').execute();
}

/** Items of every order (the admin's list shows them all), grouped by order. */
export async function listOrderItems(db: DB) {
  return db.selectFrom('orderItems').select(itemColumns).orderBy('orderId').orderBy('name').orderBy('id').execute();
}

export type OrderRow = NonNullable<Awaited<ReturnType<typeof findOrderByPaypalId>>>;

/** Where a shipped order goes, as stored from PayPal's capture; null for pickup or without an address. */
export const shipToOfOrder = (o: Pick<OrderRow, 'shipToName' | 'shipToAddress'>) =>
  o.shipToAddress ? { name: o.shipToName ?? '', address: o.shipToAddress } : null;
export type OrderItemRow = Awaited<ReturnType<typeof itemsOfOrders>>[number];

/** The order placed for a PayPal order, if any. */
export async function findOrderByPaypalId(db: DB, paypalOrderId: string) {
  return db.selectFrom('orders').select(orderColumns).where('paypalOrderId', '=', paypalOrderId).executeTakeFirst();
}

/** Every order, newest first. */
export async function listOrders(db: DB) {
  return db.selectFrom('orders').select(orderColumns).orderBy('createdAt', 'desc').orderBy('id', 'desc').execute();
}

export async function findOrderById(db: DB, id: string) {
  return db.selectFrom('orders').select(orderColumns).where('id', '=', id).executeTakeFirst();
}

/**
 * Sets the status only while it is still `from` (what the caller judged the change on);
 * undefined when the order is gone or a PayPal webhook changed it in between.
 */
export async function updateOrderStatus(db: DB, id: string, status: 'paid' | 'shipped' | 'picked_up', from: OrderStatus) {
  return db.updateTable('orders').set({ status }).where('id', '=', id).where('status', '=', from).returning(orderColumns).executeTakeFirst();
}

// ---------------------------------------------------------------------------------------------
// What PayPal's webhooks change. Each is one conditional UPDATE: a replayed or concurrent event
// finds the status already moved and changes (and returns) nothing.

/** The order paid by a PayPal capture, if any (bookings are paid through PayPal too). */
export async function findOrderByCaptureId(db: DB, paypalCaptureId: string) {
  return db.selectFrom('orders').select(orderColumns).where('paypalCaptureId', '=', paypalCaptureId).executeTakeFirst();
}

/** payment_pending -> `to`; the order when this call made the change, else undefined. */
const leavePending = (db: DB, paypalCaptureId: string, to: 'paid' | 'payment_failed') =>
  db
    .updateTable('orders')
    .set({ status: to })
    .where('paypalCaptureId', '=', paypalCaptureId)
    .where('status', '=', 'payment_pending')
    .returning(orderColumns)
    .executeTakeFirst();

/** payment_pending -> paid; the order when this call made the change. */
export async function settlePendingPayment(db: DB, paypalCaptureId: string) {
  return leavePending(db, paypalCaptureId, 'paid');
}

/**
 * payment_pending -> payment_failed, and its tins back in stock. Call it in a transaction, so
 * both commit together; the status change is the guard, so only the call that made it restocks.
 */
export async function failPendingPayment(trx: DB, paypalCaptureId: string) {
  const order = await leavePending(trx, paypalCaptureId, 'payment_failed');
  if (!order) return undefined;
  const lines = await trx
    .selectFrom('orderItems')
    .select(['productId', sql<number>`sum(quantity)::int`.as('quantity')])
    .where('orderId', '=', order.id)
    .where('productId', 'is not', null)
    .groupBy('productId')
    .execute();
  // Same order as the checkout's claims (product id, compared as JS strings): never a lock cycle.
  lines.sort((a, b) => (a.productId! < b.productId! ? -1 : 1));
  for (const line of lines) {
    await trx
      .updateTable('products')
      .set((eb) => ({ inventory: eb('inventory', '+', line.quantity), updatedAt: sql<Date>`now()` }))
      .where('id', '=', line.productId!)
      .execute();
  }
  return order;
}

/**
 * Any status but refunded and payment_failed -> refunded. A denied payment took no money, so
 * nothing of it can be refunded or reversed: it stays final.
 */
export async function markRefunded(db: DB, paypalCaptureId: string) {
  return db
    .updateTable('orders')
    .set({ status: 'refunded' })
    .where('paypalCaptureId', '=', paypalCaptureId)
    .where('status', 'not in', ['refunded', 'payment_failed'])
    .returning(orderColumns)
    .executeTakeFirst();
}
