/**
 * The table of purchase kinds (issue 49, decision 0060): built once in api/boot.ts and handed to
 * the reconciler and PayPal's webhook, so settling an attempt never depends on which wing's module
 * happened to be imported first (the registry it replaces was filled by imports' side effects).
 */
import { describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../../db/client.ts';
import { quietMemoryServices } from '../../helpers/services.ts';
import type { Services } from '../../../api/services/index.ts';
import { PayPalError } from '../../../api/services/payments/paypal.ts';
import { addTin } from '../../helpers/orders.ts';
import { approveInEmulator } from '../../helpers/paypal-emulator.ts';
import { startCheckout } from '../../../api/shop/start-checkout.ts';
import { placeOrder } from '../../../api/shop/place-order.ts';
import type { Cart } from '../../../api/shop/quote.ts';
import { PURCHASE_KINDS } from '../../../api/boot.ts';
import { reconcilePayments } from '../../../api/money/reconcile.ts';
import { findAttempt } from '../../../api/money/attempts.repo.ts';
import type { PurchaseKinds } from '../../../api/money/settle.ts';

let database: DatabaseHandle;
let services: Services;

quietMemoryServices((opened) => ({ database, services } = opened));

let counter = 0;

/** A chocolate checkout whose PayPal answers were lost after the capture: its attempt left open, as a killed process leaves it. */
async function crashedOrder(): Promise<string> {
  const product = await addTin(database.db, 5);
  const cart: Cart = { cartItems: [{ _id: product, quantity: 1 }], isLocalPickup: true, couponCode: null };
  const started = await startCheckout(services, cart);
  if (!started.ok) throw new Error(started.kind);
  const paypalOrderId = started.checkout.orderID!;
  await approveInEmulator(services, paypalOrderId, { givenName: 'Ana', surname: 'Lima', email: `kinds-${++counter}@example.com` });
  let down = false;
  const lost = () => new PayPalError('PayPal did not answer within 30000 ms', 504);
  const crashing: Services = {
    ...services,
    payments: {
      ...services.payments,
      getOrder: async (id) => {
        if (down) throw lost();
        return services.payments.getOrder(id);
      },
      captureOrder: async (id, requestId) => {
        if (!down) await services.payments.captureOrder(id, requestId);
        down = true;
        throw lost();
      },
    },
  };
  expect(await placeOrder(crashing, { paypalOrderId, ...cart })).toEqual({ ok: false, kind: 'payment-unavailable' });
  expect(await findAttempt(database.db, paypalOrderId)).toMatchObject({ state: 'capturing', kind: 'order' });
  return paypalOrderId;
}

describe('the table of purchase kinds', () => {
  it('names every kind a payment attempt may have, as the database allows them', async () => {
    const { rows } = await sql<{ def: string }>`
      select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'payment_attempts_kind_check'`.execute(database.db);
    const allowed = [...rows[0]!.def.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]).sort();
    expect(allowed).toEqual(['booking', 'event', 'gift_card', 'order', 'package', 'tasting']);
    expect(Object.keys(PURCHASE_KINDS).sort()).toEqual(allowed);
  });

  it('is what the reconciler settles through: a kind left out is an error and the attempt stays open', async () => {
    const paypalOrderId = await crashedOrder();
    const { order: _left, ...withoutOrders } = PURCHASE_KINDS;
    await expect(reconcilePayments(services, withoutOrders as unknown as PurchaseKinds, { staleMs: 0 })).rejects.toThrow(
      'no purchase kind for payment attempts of kind order',
    );
    expect(await findAttempt(database.db, paypalOrderId)).toMatchObject({ state: 'capturing' });
    expect(await reconcilePayments(services, PURCHASE_KINDS, { staleMs: 0 })).toEqual({ completed: 1, released: 0, leftOpen: 0 });
    expect(await findAttempt(database.db, paypalOrderId)).toMatchObject({ state: 'completed', settledBy: 'reconciler' });
  });

  it('settles an order with a reconciler from a fresh module graph that imported no wing', async () => {
    const paypalOrderId = await crashedOrder();
    // A new copy of api/money/ with nothing of the shop's loaded beside it: the registry this
    // replaces would be empty here and throw; the table it is handed is all it needs.
    vi.resetModules();
    const fresh = (await import('../../../api/money/reconcile.ts')) as typeof import('../../../api/money/reconcile.ts');
    expect(fresh.reconcilePayments).not.toBe(reconcilePayments);
    expect(await fresh.reconcilePayments(services, PURCHASE_KINDS, { staleMs: 0 })).toEqual({ completed: 1, released: 0, leftOpen: 0 });
    expect(await findAttempt(database.db, paypalOrderId)).toMatchObject({ state: 'completed', settledBy: 'reconciler' });
    const orders = await database.db.selectFrom('orders').select('status').where('paypalOrderId', '=', paypalOrderId).execute();
    expect(orders).toEqual([{ status: 'paid' }]);
  });
});
