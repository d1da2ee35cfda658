import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { validateJson, validateParams, validateQuery } from '../validation.ts';
import { id } from '../../contract/common.ts';
import {
  adminOrdersQuery,
  ORDER_NOT_FOUND,
  ORDER_STATUS_CHANGED,
  orderStatusRequest,
  type AdminOrderStatusView,
  PAYMENT_FAILED_FINAL,
  PAYMENT_PENDING_NOT_DELIVERED,
  PICKUP_NOT_SHIPPED,
  REFUNDED_FINAL,
  ALREADY_REFUNDED,
  NOTHING_TO_REFUND,
  REFUND_WHILE_PENDING,
  REFUND_UNAVAILABLE,
  orderRefunded,
  SHIPPED_NOT_PICKED_UP,
  SHIPPED_NOT_READY,
} from '../../contract/orders.ts';
import type { SetStatusRefusal } from './order-status.ts';
import { refundOrder, type RefundRefusal } from './refund-order.ts';
import { changeOrderStatus } from './change-order-status.ts';
import { adminOrderView } from './order-views.ts';
import { itemsOfOrders, pageOrders, type OrderItemRow } from './orders.repo.ts';
import { announceNextPage, pageOf } from '../lib/pages.ts';
import { paymentNotesOfOrders } from '../money/attempts.repo.ts';

/**
 * The admin's orders page (issue 6, beyond the spec), mounted on /api/admin/orders:
 *
 *   GET /[?status=&pickup=coming&q=&limit=&cursor=]
 *                       a page of orders (or those with one status, or the pickups to hand over:
 *                       the Today panel's links; `q` a buyer or an order's number), newest first,
 *                       with their items; the next page's cursor in X-Next-Cursor (decision 0046)
 *   PUT /{id}/status    {status: paid | ready_for_pickup | shipped | picked_up, trackingNumber?,
 *                       carrier?}; what may move where is order-status.ts's; ready for pickup
 *                       (where and when to collect), shipped and picked up mail the buyer once
 *                       (change-order-status.ts) and the answer carries the screen's confirmation
 *   POST /{id}/refund   the order refunded: PayPal's part through PayPal, a gift card's part back on
 *                       the card, the buyer mailed (refund-order.ts; issue 33)
 */

const orderParams = z.object({ id });

const statusAnswers: Record<SetStatusRefusal, { status: 400 | 404 | 409; message: string }> = {
  'order-not-found': { status: 404, message: ORDER_NOT_FOUND },
  'refunded-final': { status: 409, message: REFUNDED_FINAL },
  'payment-failed-final': { status: 409, message: PAYMENT_FAILED_FINAL },
  'payment-pending-not-delivered': { status: 409, message: PAYMENT_PENDING_NOT_DELIVERED },
  'pickup-not-shipped': { status: 400, message: PICKUP_NOT_SHIPPED },
  'shipped-not-picked-up': { status: 400, message: SHIPPED_NOT_PICKED_UP },
  'shipped-not-ready': { status: 400, message: SHIPPED_NOT_READY },
  'status-changed': { status: 409, message: ORDER_STATUS_CHANGED },
};

/** Her refund's refusals (issue 33): 409 with its words but PayPal's outage (502) and an unknown order. */
const refundAnswers = (kind: RefundRefusal): { status: 400 | 404 | 409 | 502; message: string } =>
  kind === 'order-not-found'
    ? statusAnswers[kind]
    : kind === 'payment-unavailable'
      ? { status: 502, message: REFUND_UNAVAILABLE }
      : {
          status: 409,
          message: { 'refunded-final': ALREADY_REFUNDED, 'payment-failed-final': NOTHING_TO_REFUND, 'payment-pending': REFUND_WHILE_PENDING }[kind],
        };

export const adminOrders = new Hono<AppEnv>()
  .get('/', requireAdmin(), validateQuery(adminOrdersQuery), async (c) => {
    const { db } = c.var.services;
    const { cursor, ...query } = c.req.valid('query');
    // One page (issue 36): its orders, their items and payment notes, three queries whatever the years.
    const page = pageOf(await pageOrders(db, { ...query, after: cursor }), query.limit, (o) => [o.cursorAt, o.id]);
    const ids = page.rows.map((o) => o.id);
    const [items, notes] = await Promise.all([itemsOfOrders(db, ids), paymentNotesOfOrders(db, ids)]);
    const byOrder = new Map<string, OrderItemRow[]>();
    for (const i of items) {
      const list = byOrder.get(i.orderId);
      if (list) list.push(i);
      else byOrder.set(i.orderId, [i]);
    }
    announceNextPage(c, page.next);
    return c.json(page.rows.map((o) => adminOrderView(o, byOrder.get(o.id) ?? [], notes.get(o.id) ?? null)));
  })

  .put('/:id/status', requireAdmin(), validateParams(orderParams), validateJson(orderStatusRequest), async (c) => {
    const { db } = c.var.services;
    const orderId = c.req.valid('param').id;
    const result = await changeOrderStatus(c.var.services, orderId, c.req.valid('json'));
    if (!result.ok) {
      const { status, message } = statusAnswers[result.kind];
      return c.json({ message }, status);
    }
    const view = adminOrderView(result.order, await itemsOfOrders(db, [orderId]), (await paymentNotesOfOrders(db, [orderId])).get(orderId) ?? null);
    return c.json({ ...view, message: result.message, buyerMailed: result.buyerMailed } satisfies AdminOrderStatusView);
  })
  .post('/:id/refund', requireAdmin(), validateParams(orderParams), async (c) => {
    const { db } = c.var.services;
    const orderId = c.req.valid('param').id;
    const result = await refundOrder(c.var.services, orderId);
    if (!result.ok) {
      const { status, message } = refundAnswers(result.kind);
      return c.json({ message }, status);
    }
    const view = adminOrderView(result.order, await itemsOfOrders(db, [orderId]), (await paymentNotesOfOrders(db, [orderId])).get(orderId) ?? null);
    return c.json({ ...view, message: orderRefunded(result.cardCents, result.paypalCents) });
  });
