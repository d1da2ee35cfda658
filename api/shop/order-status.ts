/**
 * A chocolate order's status (issue 6): the one place that says which status may go to which,
 * who moves it, and why not. The checkout (place-order.ts), the admin's orders page
 * (orders.routes.ts) and PayPal's webhooks (paypal-webhooks.routes.ts) change a status only
 * through here.
 *
 *   the checkout's capture  ─► paid             PayPal has the money
 *                           └► payment_pending  PayPal holds it (an eCheck, a review)
 *   payment_pending ─► paid                     webhook: completed; or the admin, after checking PayPal
 *   payment_pending ─► payment_failed           webhook: denied; the tins go back in stock (final)
 *   paid, ready_for_pickup, shipped, picked_up ─► paid, ready_for_pickup, shipped or picked_up
 *                                               the admin; shipped for a shipped order; ready for
 *                                               pickup (issue 30) and picked up for a pickup one
 *   any but payment_failed ─► refunded          webhook: a refund or reversal made in PayPal (final)
 *
 * Every move after the checkout is one conditional UPDATE guarded by the statuses it may leave
 * (moveOrderStatus): a webhook delivered twice, or racing the admin, finds the order moved
 * already and changes nothing. A refusal is a name (`kind`); its words are contract/orders.ts's
 * and the routes choose them and the status code.
 */
import type { Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';
import type { SETTABLE_STATUSES } from '../../contract/orders.ts';
import { giveBackCardPart } from '../money/ledger.ts';
import { findOrderByCaptureId, findOrderById, moveOrderStatus, putBackStock, setOrderTracking, type OrderRow, type OrderStatus } from './orders.repo.ts';

/**
 * Whether PayPal's word made the status final, so that nothing moves the order out of it: a
 * refund, or a denied payment (which took no money, so nothing of it can be refunded either).
 * A Record, so a status added to the table does not compile until it is placed here.
 */
const FINAL: Record<OrderStatus, boolean> = {
  payment_pending: false,
  paid: false,
  ready_for_pickup: false,
  shipped: false,
  picked_up: false,
  payment_failed: true,
  refunded: true,
};
const NOT_FINAL = (Object.keys(FINAL) as OrderStatus[]).filter((s) => !FINAL[s]);

// ---------------------------------------------------------------------------------------------
// The checkout

/**
 * The status PayPal's capture leaves a new order in: 'paid' when PayPal has the money,
 * 'payment_pending' while PayPal holds it (the tins stay claimed and nothing ships until a
 * webhook says completed or denied). Undefined when the capture took no money (declined,
 * voided): then there is no order.
 */
export function statusAfterCapture(captureStatus: string): 'paid' | 'payment_pending' | undefined {
  if (captureStatus === 'COMPLETED') return 'paid';
  if (captureStatus === 'PENDING') return 'payment_pending';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The admin's orders page

export type SettableStatus = (typeof SETTABLE_STATUSES)[number];

/**
 * Why the admin may not set a status:
 * - 'refunded-final', 'payment-failed-final': PayPal's last word on the order;
 * - 'payment-pending-not-delivered': a pending payment may be marked paid by hand (after
 *   checking PayPal, e.g. when its webhook never came) but never shipped or picked up: the
 *   money is not there yet;
 * - 'pickup-not-shipped', 'shipped-not-picked-up', 'shipped-not-ready': a pickup order is made
 *   ready and picked up, a shipped one shipped.
 */
export type AdminStatusRefusal =
  'refunded-final' | 'payment-failed-final' | 'payment-pending-not-delivered' | 'pickup-not-shipped' | 'shipped-not-picked-up' | 'shipped-not-ready';

/** Why the admin may not move `order` to `to`, or null when she may. */
export function adminStatusRefusal(order: Pick<OrderRow, 'status' | 'isLocalPickup'>, to: SettableStatus): AdminStatusRefusal | null {
  if (order.status === 'refunded') return 'refunded-final';
  if (order.status === 'payment_failed') return 'payment-failed-final';
  if (order.status === 'payment_pending' && to !== 'paid') return 'payment-pending-not-delivered';
  if (to === 'shipped' && order.isLocalPickup) return 'pickup-not-shipped';
  if (to === 'picked_up' && !order.isLocalPickup) return 'shipped-not-picked-up';
  if (to === 'ready_for_pickup' && !order.isLocalPickup) return 'shipped-not-ready';
  return null;
}

/**
 * Why setStatusByAdmin changed nothing. Besides the rules' (AdminStatusRefusal):
 * 'order-not-found'; 'status-changed', a PayPal webhook kept changing the status between the
 * read and the write.
 */
export type SetStatusRefusal = AdminStatusRefusal | 'order-not-found' | 'status-changed';

/** The answer of setStatusByAdmin: the order as changed (and the status it left), or why not. */
export type AdminStatusResult = { ok: true; order: OrderRow; from: OrderStatus } | { ok: false; kind: SetStatusRefusal };

/**
 * The admin sets `to` on the order: judged on the status read, written only while it is still
 * that status. With shipped, a tracking number and carrier given are stored with the status (one
 * transaction); left out, what was stored stays.
 */
export async function setStatusByAdmin(
  db: DB,
  orderId: string,
  to: SettableStatus,
  tracking: { trackingNumber: string | null; carrier: string | null } = { trackingNumber: null, carrier: null },
): Promise<AdminStatusResult> {
  // Twice at most: a PayPal webhook may change the status between the read and the write (the
  // write is conditional on what was read), and the new status is judged again.
  for (let attempt = 0; attempt < 2; attempt++) {
    const current = await findOrderById(db, orderId);
    if (!current) return { ok: false, kind: 'order-not-found' };
    const refusal = adminStatusRefusal(current, to);
    if (refusal) return { ok: false, kind: refusal };
    const given = to === 'shipped' && (tracking.trackingNumber !== null || tracking.carrier !== null);
    const updated = await db.transaction().execute(async (trx) => {
      const moved = await moveOrderStatus(trx, { id: orderId }, [current.status], to);
      return moved && given ? setOrderTracking(trx, orderId, tracking) : moved;
    });
    if (updated) return { ok: true, order: updated, from: current.status };
  }
  return { ok: false, kind: 'status-changed' };
}

// ---------------------------------------------------------------------------------------------
// PayPal's webhooks. Each answers the order when this call made the change, else undefined
// (already moved, a repeat, or a capture that is no order's).

/** PayPal completed a payment it held: payment_pending -> paid. */
export async function settlePendingPayment(db: DB, paypalCaptureId: string) {
  return moveOrderStatus(db, { paypalCaptureId }, ['payment_pending'], 'paid');
}

/**
 * PayPal denied a payment it held: payment_pending -> payment_failed, and its tins back in
 * stock. Takes a transaction so both commit together; the status change is the guard, so only
 * the call that made it restocks.
 */
export async function failPendingPayment(trx: Transaction<Database>, paypalCaptureId: string) {
  const order = await moveOrderStatus(trx, { paypalCaptureId }, ['payment_pending'], 'payment_failed');
  if (!order) return undefined;
  await putBackStock(trx, order.id);
  return order;
}

/**
 * A refund or reversal made in PayPal, `refundedCents` in all so far (undefined when PayPal did
 * not say): any status but the final ones -> refunded. A partial refund (a delayed parcel's
 * shipping, one broken tin) leaves the order as it is; the refund that brings the total to the
 * amount paid marks it refunded. No restock: the tins may have shipped or been handed over
 * already, so the teacher is told and puts back by hand what is still on her shelf.
 */
export async function markRefunded(trx: Transaction<Database>, paypalCaptureId: string, refundedCents: number | undefined) {
  if (refundedCents !== undefined) {
    const order = await findOrderByCaptureId(trx, paypalCaptureId);
    // PayPal took the total less a gift card's part (issue 33): refunding that is refunding in full.
    if (!order || refundedCents < order.totalCents - order.giftCardCents) return undefined;
  }
  const order = await moveOrderStatus(trx, { paypalCaptureId }, NOT_FINAL, 'refunded');
  if (order) await giveBackCardOfOrder(trx, order);
  return order;
}

/**
 * She refunds an order from her orders page (issue 33: an order a gift card paid has no PayPal
 * page to refund it from): any status but the final ones and a payment PayPal still holds ->
 * refunded, and the card's part back on the card, in the caller's transaction. The order when
 * this call made the change; undefined when something else (PayPal's webhook) did first.
 */
export async function refundByAdmin(trx: Transaction<Database>, orderId: string) {
  const order = await moveOrderStatus(
    trx,
    { id: orderId },
    NOT_FINAL.filter((s) => s !== 'payment_pending'),
    'refunded',
  );
  if (order) await giveBackCardOfOrder(trx, order);
  return order;
}

/** A refunded order's gift card part, back on the card once (ledger.ts giveBackCardPart). */
async function giveBackCardOfOrder(trx: Transaction<Database>, order: OrderRow): Promise<number> {
  if (!order.giftCardLotId || order.giftCardCents <= 0) return 0;
  return giveBackCardPart(trx, { orderId: order.id, lotId: order.giftCardLotId, cents: order.giftCardCents, note: 'The order was refunded' });
}
