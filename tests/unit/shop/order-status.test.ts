/**
 * A chocolate order's status moves (api/shop/order-status.ts) called directly on a migrated
 * in-memory PGlite: the checkout's capture, the admin's changes and PayPal's webhooks. Orders
 * are placed through placeOrder and the PayPal emulator, as the shop places them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../../../db/client.ts';
import { openMemoryServices } from '../../helpers/services.ts';
import type { Services } from '../../../api/services/index.ts';
import { startCheckout } from '../../../api/shop/start-checkout.ts';
import { placeOrder } from '../../../api/shop/place-order.ts';
import {
  adminStatusRefusal,
  failPendingPayment,
  markRefunded,
  setStatusByAdmin,
  settlePendingPayment,
  statusAfterCapture,
  type SettableStatus,
} from '../../../api/shop/order-status.ts';
import type { OrderStatus } from '../../../api/shop/orders.repo.ts';
import { approveInEmulator } from '../../helpers/paypal-emulator.ts';

/** What a PayPal webhook does between the admin's read of an order and her write, when set. */
/** markRefunded in its own transaction, as the webhook runs it. */
const refunded = (captureId: string, cents: number | undefined) =>
  db()
    .transaction()
    .execute((trx) => markRefunded(trx, captureId, cents));
const meanwhile = vi.hoisted(() => ({ afterRead: undefined as undefined | ((order: { id: string; status: string }) => Promise<void>) }));

vi.mock('../../../api/shop/orders.repo.ts', async (importOriginal) => {
  const repo = await importOriginal<typeof import('../../../api/shop/orders.repo.ts')>();
  return {
    ...repo,
    findOrderById: async (...args: Parameters<typeof repo.findOrderById>) => {
      const order = await repo.findOrderById(...args);
      if (order && meanwhile.afterRead) await meanwhile.afterRead(order);
      return order;
    },
  };
});

let database: DatabaseHandle;
let services: Services;

beforeAll(async () => {
  ({ database, services } = await openMemoryServices());
});
afterAll(async () => {
  await database?.close();
});
beforeEach(() => {
  meanwhile.afterRead = undefined;
  vi.restoreAllMocks();
});

const db = () => database.db;
const inventory = async (id: string) => (await db().selectFrom('products').select('inventory').where('id', '=', id).executeTakeFirstOrThrow()).inventory;
const statusOf = async (orderId: string) => (await db().selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()).status;
const setStatus = (orderId: string, status: OrderStatus) => db().updateTable('orders').set({ status }).where('id', '=', orderId).execute();

let counter = 0;

/**
 * An order placed through the checkout: `quantity` tins of a product of its own (10 in stock
 * before), paid, or pending at PayPal with `pending`. Its ids, and its product's.
 */
async function placed(options: { pickup?: boolean; pending?: boolean; quantity?: number } = {}) {
  const product = await db()
    .insertInto('products')
    .values({ name: `Tin ${++counter}`, priceCents: 1500, inventory: 10 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const cart = { cartItems: [{ _id: product.id, quantity: options.quantity ?? 2 }], isLocalPickup: options.pickup ?? false, couponCode: null };
  const started = await startCheckout(services, cart);
  if (!started.ok) throw new Error(`no PayPal order: ${started.kind}`);
  const paypalOrderId = started.checkout.orderID!;
  await approveInEmulator(services, paypalOrderId, {
    givenName: 'Ana',
    email: `buyer-${counter}@example.com`,
    ...(options.pending ? { captureStatus: 'PENDING' } : {}),
  });
  const result = await placeOrder(services, { paypalOrderId, ...cart });
  if (!result.ok) throw new Error(`not placed: ${result.kind}`);
  const row = await db().selectFrom('orders').select(['id', 'paypalCaptureId', 'status']).where('id', '=', result.order._id).executeTakeFirstOrThrow();
  expect(row.status).toBe(options.pending ? 'payment_pending' : 'paid');
  return { orderId: row.id, captureId: row.paypalCaptureId!, productId: product.id };
}

describe('the checkout’s capture', () => {
  it('leaves a new order paid, or payment_pending while PayPal holds the money, and no order for a capture that took none', () => {
    expect(statusAfterCapture('COMPLETED')).toBe('paid');
    expect(statusAfterCapture('PENDING')).toBe('payment_pending');
    for (const none of ['DECLINED', 'FAILED', 'VOIDED', '']) expect(statusAfterCapture(none), none).toBeUndefined();
  });
});

describe('the admin’s changes', () => {
  it('may move paid, shipped and picked-up orders as they fit; never out of PayPal’s last word; a pending one only to paid', () => {
    const cases: [OrderStatus, boolean, SettableStatus, string | null][] = [
      ['paid', false, 'shipped', null],
      ['paid', false, 'picked_up', 'shipped-not-picked-up'],
      ['paid', true, 'picked_up', null],
      ['paid', true, 'shipped', 'pickup-not-shipped'],
      ['paid', false, 'paid', null],
      ['shipped', false, 'paid', null],
      ['picked_up', true, 'paid', null],
      ['payment_pending', false, 'paid', null],
      ['payment_pending', false, 'shipped', 'payment-pending-not-delivered'],
      ['payment_pending', true, 'picked_up', 'payment-pending-not-delivered'],
      // Pending comes first: a pickup order is not told "picked up, not shipped" while unpaid.
      ['payment_pending', true, 'shipped', 'payment-pending-not-delivered'],
      ['refunded', false, 'paid', 'refunded-final'],
      ['refunded', true, 'picked_up', 'refunded-final'],
      ['payment_failed', false, 'paid', 'payment-failed-final'],
      ['payment_failed', false, 'shipped', 'payment-failed-final'],
    ];
    for (const [status, isLocalPickup, to, refusal] of cases) {
      expect(adminStatusRefusal({ status, isLocalPickup }, to), `${status} (pickup: ${isLocalPickup}) -> ${to}`).toBe(refusal);
    }
  });

  it('sets the status and answers the order as changed; a refusal changes nothing', async () => {
    const shipped = await placed();
    expect(await setStatusByAdmin(db(), shipped.orderId, 'shipped')).toMatchObject({ ok: true, order: { id: shipped.orderId, status: 'shipped' } });
    expect(await statusOf(shipped.orderId)).toBe('shipped');

    const pickup = await placed({ pickup: true });
    expect(await setStatusByAdmin(db(), pickup.orderId, 'shipped')).toEqual({ ok: false, kind: 'pickup-not-shipped' });
    expect(await statusOf(pickup.orderId)).toBe('paid');

    const pending = await placed({ pending: true });
    expect(await setStatusByAdmin(db(), pending.orderId, 'shipped')).toEqual({ ok: false, kind: 'payment-pending-not-delivered' });
    expect(await setStatusByAdmin(db(), pending.orderId, 'paid')).toMatchObject({ ok: true, order: { status: 'paid' } });

    expect(await setStatusByAdmin(db(), '00000000-0000-0000-0000-000000000000', 'paid')).toEqual({ ok: false, kind: 'order-not-found' });
  });

  it('judges again when a webhook changed the status between the read and the write', async () => {
    const { orderId, captureId } = await placed();
    // Read as paid; PayPal's refund lands before the write.
    meanwhile.afterRead = async () => {
      meanwhile.afterRead = undefined;
      await refunded(captureId, undefined);
    };
    expect(await setStatusByAdmin(db(), orderId, 'shipped')).toEqual({ ok: false, kind: 'refunded-final' });
    expect(await statusOf(orderId)).toBe('refunded');
  });

  it('gives up with status-changed when the status moves under every attempt', async () => {
    const { orderId } = await placed();
    let reads = 0;
    meanwhile.afterRead = async (order) => {
      reads++;
      await setStatus(order.id, order.status === 'paid' ? 'shipped' : 'paid');
    };
    expect(await setStatusByAdmin(db(), orderId, 'shipped')).toEqual({ ok: false, kind: 'status-changed' });
    expect(reads).toBe(2);
  });
});

describe('PayPal’s webhooks', () => {
  it('completed: a pending payment becomes paid, once; an order paid at checkout is left alone', async () => {
    const pending = await placed({ pending: true });
    expect(await settlePendingPayment(db(), pending.captureId)).toMatchObject({ id: pending.orderId, status: 'paid' });
    expect(await settlePendingPayment(db(), pending.captureId)).toBeUndefined();

    const paid = await placed();
    await setStatus(paid.orderId, 'shipped');
    expect(await settlePendingPayment(db(), paid.captureId)).toBeUndefined();
    expect(await statusOf(paid.orderId)).toBe('shipped');
    expect(await settlePendingPayment(db(), 'NOSUCHCAPTURE')).toBeUndefined();
  });

  it('denied: a pending payment fails and its tins go back exactly once, however many deliveries race', async () => {
    const { orderId, captureId, productId } = await placed({ pending: true, quantity: 3 });
    expect(await inventory(productId)).toBe(7);
    // @ts-expect-error a plain handle is no transaction: the status change and the restock must commit together
    void (() => failPendingPayment(db(), captureId));

    const deliveries = await Promise.all(
      Array.from({ length: 5 }, () =>
        db()
          .transaction()
          .execute((trx) => failPendingPayment(trx, captureId)),
      ),
    );
    expect(deliveries.filter(Boolean)).toEqual([expect.objectContaining({ id: orderId, status: 'payment_failed' })]);
    expect(await inventory(productId)).toBe(10);

    // Final: neither PayPal nor the admin moves it again.
    expect(await settlePendingPayment(db(), captureId)).toBeUndefined();
    expect(await refunded(captureId, undefined)).toBeUndefined();
    expect(await setStatusByAdmin(db(), orderId, 'paid')).toEqual({ ok: false, kind: 'payment-failed-final' });
    expect(await statusOf(orderId)).toBe('payment_failed');
  });

  it('denied: an order that is not pending changes nothing and gets no tins back', async () => {
    const { orderId, captureId, productId } = await placed();
    expect(
      await db()
        .transaction()
        .execute((trx) => failPendingPayment(trx, captureId)),
    ).toBeUndefined();
    expect(await statusOf(orderId)).toBe('paid');
    expect(await inventory(productId)).toBe(8);
  });

  it('refunded: only a refund reaching the total marks the order refunded, once, from any status but the final ones, without restocking', async () => {
    const { orderId, captureId, productId } = await placed(); // 2 × $15 + $5 shipping = $35
    await setStatus(orderId, 'shipped');
    expect(await refunded(captureId, 500)).toBeUndefined();
    expect(await statusOf(orderId)).toBe('shipped');
    expect(await refunded(captureId, 3500)).toMatchObject({ id: orderId, status: 'refunded' });
    expect(await refunded(captureId, 3500)).toBeUndefined();
    expect(await inventory(productId)).toBe(8);

    // PayPal may not say how much: a reversal takes it all.
    const pending = await placed({ pending: true });
    expect(await refunded(pending.captureId, undefined)).toMatchObject({ status: 'refunded' });
    expect(await refunded('NOSUCHCAPTURE', 3500)).toBeUndefined();
  });
});
