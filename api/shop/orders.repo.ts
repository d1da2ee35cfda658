/**
 * Chocolate orders and their items. Money in integer cents. The checkout's stock claim is one
 * conditional UPDATE per line, so two buyers can never both get the last tin. What claims or
 * puts back stock takes a `Transaction`: its row locks and its changes only mean something
 * together with the rest of the transaction (the order row, the status change).
 */
import { sql, type Selectable, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database, OrderMoney, OrdersTable } from '../../db/schema.ts';
import { instantKey, instantThenId, keysetPage, matchesWords } from '../lib/pages.repo.ts';

export type OrderStatus = Selectable<OrdersTable>['status'];

/** Name, price and stock of the products a cart names (unknown ids are simply absent). */
export async function productsForCart(db: DB, ids: string[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('products').select(['id', 'name', 'priceCents', 'inventory']).where('id', 'in', ids).execute();
}

/**
 * Products are locked in product-id order (compared as JS strings) by every claim and every
 * restock, so two carts, or a cart and a denied payment, never wait on each other in a circle.
 */
const inLockOrder = <L extends { productId: string }>(lines: readonly L[]): L[] => [...lines].sort((a, b) => (a.productId < b.productId ? -1 : 1));

/**
 * Takes the tins of every line if that many are left: one conditional UPDATE per line, in lock
 * order; false at the first line without enough left, and the caller rolls back the transaction
 * (and with it what the lines before took). Row-locks the products until the transaction ends.
 */
export async function claimStock(trx: Transaction<Database>, lines: readonly { productId: string; quantity: number }[]): Promise<boolean> {
  for (const line of inLockOrder(lines)) {
    const claimed = await trx
      .updateTable('products')
      .set((eb) => ({ inventory: eb('inventory', '-', line.quantity), updatedAt: sql<Date>`now()` }))
      .where('id', '=', line.productId)
      .where('inventory', '>=', line.quantity)
      .returning(['id', 'inventory'])
      .executeTakeFirst();
    if (!claimed) return false;
  }
  return true;
}

/**
 * Puts the tins of an order's items back in stock (those whose product still exists). Takes a
 * transaction: it goes with the status change that released them, so only the call that made
 * that change restocks.
 */
export async function putBackStock(trx: Transaction<Database>, orderId: string): Promise<void> {
  const lines = await trx
    .selectFrom('orderItems')
    .select(['productId', sql<number>`sum(quantity)::int`.as('quantity')])
    .where('orderId', '=', orderId)
    .where('productId', 'is not', null)
    .groupBy('productId')
    .execute();
  await restock(
    trx,
    lines.map((l) => ({ productId: l.productId!, quantity: l.quantity })),
  );
}

/**
 * Puts `lines` back in stock (products deleted since are skipped), in lock order. Takes a
 * transaction: it goes with the change that gave the tins back (a denied payment, a released
 * payment attempt), so only the call that made that change restocks.
 */
export async function restock(trx: Transaction<Database>, lines: readonly { productId: string; quantity: number }[]): Promise<void> {
  for (const line of inLockOrder(lines)) {
    await trx
      .updateTable('products')
      .set((eb) => ({ inventory: eb('inventory', '+', line.quantity), updatedAt: sql<Date>`now()` }))
      .where('id', '=', line.productId)
      .execute();
  }
}

export interface NewOrder extends OrderMoney {
  /** Null for an order a gift card paid in full (issue 33). */
  paypalOrderId: string | null;
  payerName: string;
  payerEmail: string;
  giftCardCents?: number;
  giftCardLotId?: string | null;
}

/**
 * Inserts the order; a second one for the same PayPal order violates orders_paypal_order_id_key.
 * Inside a transaction (the checkout's), a concurrent insert for the same PayPal order waits on
 * the new key until the commit, then violates it.
 */
export async function insertOrder(db: DB, order: NewOrder) {
  return db.insertInto('orders').values(order).returning(['id', 'createdAt']).executeTakeFirstOrThrow();
}

export async function insertOrderItems(db: DB, items: { orderId: string; productId: string; name: string; unitPriceCents: number; quantity: number }[]) {
  if (items.length === 0) return;
  await db.insertInto('orderItems').values(items).execute();
}

/**
 * Records the capture, the payer, (for a shipped order) the address PayPal reports, and the
 * status the capture leaves the order in (statusAfterCapture of api/shop/order-status.ts). In
 * the transaction that inserted the order: the order is stored paid for, or not at all.
 */
export async function recordCapture(
  trx: Transaction<Database>,
  orderId: string,
  capture: {
    /** Null for an order a gift card paid in full (issue 33): the payment is the card's debit. */
    paypalCaptureId: string | null;
    payerName: string;
    payerEmail: string;
    shipToName: string | null;
    shipToAddress: string | null;
    status: 'paid' | 'payment_pending';
  },
) {
  await trx.updateTable('orders').set(capture).where('id', '=', orderId).execute();
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
  'trackingNumber',
  'carrier',
  'buyerTold',
  'taxCents',
  'taxRatePpm',
  'taxState',
  'taxOnShipping',
  'taxZip',
  'taxLocationCode',
  'taxJurisdiction',
  'taxRateSource',
  'giftCardCents',
  'giftCardLotId',
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

/** Every order (or those with `status`), newest first (the admin's list), or oldest first (the CSV export, a ledger). */
export async function listOrders(db: DB, order: 'newest-first' | 'oldest-first' = 'newest-first', status?: OrderStatus) {
  const direction = order === 'newest-first' ? 'desc' : 'asc';
  return db
    .selectFrom('orders')
    .select(orderColumns)
    .$if(status !== undefined, (q) => q.where('status', '=', status!))
    .orderBy('createdAt', direction)
    .orderBy('id', direction)
    .execute();
}

/**
 * A page of the admin's list (issue 36): newest first, after the cursor's keys (its last row's
 * created_at and id), one row more than `limit` so the caller knows whether another page follows.
 * `pickup: 'coming'`: pickups still to hand over (paid or ready for pickup). `q` is found in the
 * buyer's name or e-mail or the ship-to name, or begins the order's number (its id's first part).
 * orders_created_at_id and orders_status_created_at_id (0036) serve the order.
 */
export async function pageOrders(
  db: DB,
  page: { limit: number; after?: string[] | undefined; q?: string | undefined; status?: OrderStatus | undefined; pickup?: 'coming' | undefined },
) {
  const { q } = page;
  return db
    .selectFrom('orders')
    .select([...orderColumns, instantKey('orders.created_at').as('cursorAt')])
    .$if(page.status !== undefined, (w) => w.where('status', '=', page.status!))
    .$if(page.pickup === 'coming', (w) => w.where('isLocalPickup', '=', true).where('status', 'in', ['paid', 'ready_for_pickup']))
    .$if(q !== undefined, (w) =>
      w.where((eb) => {
        const number = /^[0-9a-f]{1,8}$/i.test(q!) ? [eb('id', 'like', `${q!.toLowerCase()}%`)] : [];
        return eb.or([matchesWords(eb, q!, ['payer_name', 'payer_email', 'ship_to_name']), ...number]);
      }),
    )
    .$call((w) => keysetPage(w, { ...page, q: undefined }, ORDER_KEYS, 'desc'))
    .execute();
}

/** The order of the admin's list, as its cursor holds it. */
const ORDER_KEYS = instantThenId('orders.created_at', 'orders.id');

/** Stores how a shipped order travels; in the transaction that marked it shipped. */
export async function setOrderTracking(trx: Transaction<Database>, id: string, tracking: { trackingNumber: string | null; carrier: string | null }) {
  return trx.updateTable('orders').set(tracking).where('id', '=', id).returning(orderColumns).executeTakeFirst();
}

/**
 * Claims telling the buyer `news` (the status and tracking that the delivery mail says): one
 * conditional UPDATE, so a repeated or concurrent PUT of the same news mails once. True when
 * this call claimed it; `previous` is what was told before, for giving the claim back when the
 * mail could not be sent.
 */
export async function claimBuyerNews(db: DB, id: string, news: string): Promise<{ claimed: boolean }> {
  const row = await db
    .updateTable('orders')
    .set({ buyerTold: news, buyerToldAt: sql<Date>`now()` })
    .where('id', '=', id)
    .where((w) => w.or([w('buyerTold', 'is', null), w('buyerTold', '!=', news)]))
    .returning('id')
    .executeTakeFirst();
  return { claimed: row !== undefined };
}

/** Gives back a claim whose mail could not be sent, so the next PUT of the same news mails again. */
export async function unclaimBuyerNews(db: DB, id: string, news: string, previous: string | null): Promise<void> {
  await db.updateTable('orders').set({ buyerTold: previous }).where('id', '=', id).where('buyerTold', '=', news).execute();
}

export async function findOrderById(db: DB, id: string) {
  return db.selectFrom('orders').select(orderColumns).where('id', '=', id).executeTakeFirst();
}

/** The order paid by a PayPal capture, if any (bookings are paid through PayPal too). */
export async function findOrderByCaptureId(db: DB, paypalCaptureId: string) {
  return db.selectFrom('orders').select(orderColumns).where('paypalCaptureId', '=', paypalCaptureId).executeTakeFirst();
}

/**
 * When it was shipped or picked up (0045, the sales records' date shipped, decision 0059): set
 * the first time she marks it so (a repeat keeps the first), cleared when she moves it back to
 * paid or ready for pickup; a refund keeps it (the tins went).
 */
const deliveredAtOn = (to: OrderStatus) =>
  to === 'shipped' || to === 'picked_up'
    ? { deliveredAt: sql<Date>`coalesce(delivered_at, now())` }
    : to === 'paid' || to === 'ready_for_pickup'
      ? { deliveredAt: null }
      : {};

/**
 * Sets the status of the order `which` names to `to`, only while it is one of `from`: one
 * conditional UPDATE, so of concurrent changes (the admin, PayPal's webhooks, a delivery
 * repeated) only one finds the order in `from`, and a repeat finds nothing left to change.
 * The order when this call made the change, else undefined. Which moves are allowed, from
 * where, is api/shop/order-status.ts's to say.
 */
export async function moveOrderStatus(db: DB, which: { id: string } | { paypalCaptureId: string }, from: readonly OrderStatus[], to: OrderStatus) {
  return db
    .updateTable('orders')
    .set({ status: to, ...deliveredAtOn(to) })
    .$call((q) => ('id' in which ? q.where('id', '=', which.id) : q.where('paypalCaptureId', '=', which.paypalCaptureId)))
    .where('status', 'in', from)
    .returning(orderColumns)
    .executeTakeFirst();
}
