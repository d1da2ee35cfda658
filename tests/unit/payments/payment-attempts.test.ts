/**
 * Payment attempts and the reconciler (issue 12, decision 0012), called directly on a migrated
 * in-memory PGlite, paying through the PayPal emulator. A "crash" here is a checkout whose
 * PayPal answers are lost (the capture made, then every call failing), which leaves its attempt
 * open exactly as a killed process does; the SIGKILL itself is tests/api/money/payment-crash.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../../db/client.ts';
import { quietMemoryServices } from '../../helpers/services.ts';
import type { Services } from '../../../api/services/index.ts';
import { PayPalError, type Payments } from '../../../api/services/payments/paypal.ts';
import { addTin } from '../../helpers/orders.ts';
import { listMailbox } from '../../../api/services/mail/mailbox.ts';
import { startCheckout } from '../../../api/shop/start-checkout.ts';
import { placeOrder } from '../../../api/shop/place-order.ts';
import type { Cart } from '../../../api/shop/quote.ts';
import { finalizeBooking } from '../../../api/booking/finalize-booking.ts';
import { startBookingPayment } from '../../../api/booking/start-booking-payment.ts';
import { reconcilePayments } from '../../../api/money/reconcile.ts';
import { PURCHASE_KINDS } from '../../../api/boot.ts';
import { findAttempt, takeStaleAttempt } from '../../../api/money/attempts.repo.ts';
import { emulatorCaptureCount } from '../../../api/services/payments/emulator.ts';
import { approveInEmulator } from '../../helpers/paypal-emulator.ts';
import { must } from '../../helpers/guards.ts';

const TEACHER = 'teacher@example.com';
const YOGA = 'Individual Yoga Session (60 min)';

let database: DatabaseHandle;
let services: Services;

quietMemoryServices((opened) => ({ database, services } = opened));

let counter = 0;
const db = () => database.db;

const addProduct = (inventory: number) => addTin(db(), inventory);
const inventory = async (id: string) => (await db().selectFrom('products').select('inventory').where('id', '=', id).executeTakeFirstOrThrow()).inventory;
const ordersOf = (paypalOrderId: string) => db().selectFrom('orders').selectAll().where('paypalOrderId', '=', paypalOrderId).execute();
const cartOf = (id: string, quantity: number): Cart => ({ cartItems: [{ _id: id, quantity }], isLocalPickup: true, couponCode: null });

async function paidFor(cart: Cart, email: string): Promise<string> {
  const started = await startCheckout(services, cart);
  if (!started.ok) throw new Error(started.kind);
  await approveInEmulator(services, started.checkout.orderID!, { givenName: 'Ana', surname: 'Lima', email });
  return started.checkout.orderID!;
}

/**
 * PayPal as a crash sees it: with `captures`, the capture is made at PayPal and its answer lost;
 * without, the process "dies" before capturing. Either way every later call fails, so the
 * attempt stays open as the checkout left it.
 */
function crashing(captures: boolean): Services {
  let down = false;
  const lost = () => new PayPalError('PayPal did not answer within 30000 ms', 504);
  const payments: Payments = {
    ...services.payments,
    getOrder: async (id) => {
      if (down) throw lost();
      return services.payments.getOrder(id);
    },
    captureOrder: async (id, requestId) => {
      if (!down && captures) await services.payments.captureOrder(id, requestId);
      down = true;
      throw lost();
    },
  };
  return { ...services, payments };
}

/** A chocolate checkout left half way: the tins claimed, the attempt open. */
async function crashedCheckout(captures: boolean) {
  const email = `buyer-${++counter}@example.com`;
  const product = await addProduct(5);
  const paypalOrderId = await paidFor(cartOf(product, 2), email);
  const answer = await placeOrder(crashing(captures), { paypalOrderId, ...cartOf(product, 2) });
  expect(answer).toEqual({ ok: false, kind: 'payment-unavailable' });
  expect(await findAttempt(db(), paypalOrderId)).toMatchObject({ state: 'capturing', kind: 'order' });
  expect(await inventory(product)).toBe(3);
  return { email, product, paypalOrderId };
}

describe('the reconciler', () => {
  it('completes an attempt PayPal captured: one order, mailed once, no second capture; the retry answers it', async () => {
    const { email, product, paypalOrderId } = await crashedCheckout(true);
    expect(await ordersOf(paypalOrderId)).toHaveLength(0);
    const capturesBefore = emulatorCaptureCount();

    // Not stale yet for the default age: nothing is touched.
    expect(await reconcilePayments(services, PURCHASE_KINDS)).toEqual({ completed: 0, released: 0, leftOpen: 0 });
    expect(await reconcilePayments(services, PURCHASE_KINDS, { staleMs: 0 })).toEqual({ completed: 1, released: 0, leftOpen: 0 });
    expect(await reconcilePayments(services, PURCHASE_KINDS, { staleMs: 0 })).toEqual({ completed: 0, released: 0, leftOpen: 0 });

    const [order] = await ordersOf(paypalOrderId);
    expect(order).toMatchObject({ status: 'paid', totalCents: 3600, payerEmail: email });
    expect(await findAttempt(db(), paypalOrderId)).toMatchObject({ state: 'completed', settledBy: 'reconciler', orderId: must(order, 'order').id });
    expect(await inventory(product)).toBe(3);
    expect(emulatorCaptureCount()).toBe(capturesBefore);
    expect(await listMailbox(db(), { to: email })).toHaveLength(1);
    expect((await listMailbox(db(), { to: TEACHER })).filter((m) => m.text.includes(paypalOrderId))).toHaveLength(1);

    // The buyer's retry after the crash answers that order, and changes nothing.
    const retry = await placeOrder(services, { paypalOrderId, ...cartOf(product, 2) });
    expect(retry).toMatchObject({ ok: true, replayed: true, order: { _id: must(order, 'order').id } });
    expect(await ordersOf(paypalOrderId)).toHaveLength(1);
    expect(await listMailbox(db(), { to: email })).toHaveLength(1);
  });

  it('releases an attempt PayPal never captured: the tins go back, the PayPal order stays uncaptured', async () => {
    const { product, paypalOrderId } = await crashedCheckout(false);
    expect(await reconcilePayments(services, PURCHASE_KINDS, { staleMs: 0 })).toEqual({ completed: 0, released: 1, leftOpen: 0 });
    expect(await inventory(product)).toBe(5);
    expect(await findAttempt(db(), paypalOrderId)).toMatchObject({ state: 'released', settledBy: 'reconciler' });
    expect((await services.payments.getOrder(paypalOrderId)).status).toBe('APPROVED');
    expect(await ordersOf(paypalOrderId)).toHaveLength(0);

    // The buyer may still pay with it: the released attempt is opened again and completed.
    const again = await placeOrder(services, { paypalOrderId, ...cartOf(product, 2) });
    expect(again).toMatchObject({ ok: true, replayed: false });
    expect(await inventory(product)).toBe(3);
  });

  it('leaves an attempt open while PayPal cannot say, and settles it later', async () => {
    const { product, paypalOrderId } = await crashedCheckout(true);
    const down: Services = { ...services, payments: { ...services.payments, getOrder: () => Promise.reject(new PayPalError('down', 503)) } };
    expect(await reconcilePayments(down, PURCHASE_KINDS, { staleMs: 0 })).toEqual({ completed: 0, released: 0, leftOpen: 1 });
    expect(await findAttempt(db(), paypalOrderId)).toMatchObject({ state: 'capturing' });
    expect(await inventory(product)).toBe(3);
    expect(await reconcilePayments(services, PURCHASE_KINDS, { staleMs: 0 })).toMatchObject({ completed: 1 });
  });

  it('lets one of several concurrent reconcilers take each attempt', async () => {
    const { email, paypalOrderId } = await crashedCheckout(true);
    // Silent for an hour; each replica counts a minute as stale, so a taken attempt is fresh again for the others.
    await sql`update payment_attempts set claimed_at = now() - interval '1 hour' where paypal_order_id = ${paypalOrderId}`.execute(db());
    const reports = await Promise.all(
      Array.from({ length: 5 }, (_, i) => reconcilePayments(services, PURCHASE_KINDS, { staleMs: 60_000, holder: `replica-${i}` })),
    );
    expect(reports.reduce((n, r) => n + r.completed, 0)).toBe(1);
    expect(await ordersOf(paypalOrderId)).toHaveLength(1);
    expect(await listMailbox(db(), { to: email })).toHaveLength(1);

    // The claim itself: of many takers of one stale attempt, one gets it.
    const other = await crashedCheckout(false);
    const attempt = (await findAttempt(db(), other.paypalOrderId))!;
    await sql`update payment_attempts set claimed_at = now() - interval '1 hour' where id = ${attempt.id}`.execute(db());
    const taken = await Promise.all(Array.from({ length: 10 }, (_, i) => takeStaleAttempt(db(), attempt.id, `replica-${i}`, 60_000)));
    expect(taken.filter(Boolean)).toHaveLength(1);
  });

  it('completes a paid booking whose answer was lost, mails once; the client’s retry returns that booking', async () => {
    const client = await db()
      .insertInto('users')
      .values({ email: `client-${++counter}@example.com`, firstName: 'Ana', lastName: 'Lima', emailVerifiedAt: new Date() })
      .returning(['id', 'email'])
      .executeTakeFirstOrThrow();
    const startsAt = new Date(Date.now() + 3 * 86_400_000 + ++counter * 60_000);
    const slot = await db()
      .insertInto('slots')
      .values({ date: startsAt.toISOString().slice(0, 10), time: startsAt.toISOString().slice(11, 16), startsAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    const started = await startBookingPayment(services, { slotId: slot.id, userId: client.id, amountCents: 8000, sessionType: YOGA });
    if (!started.ok) throw new Error(started.kind);
    await approveInEmulator(services, started.orderId, { givenName: 'Pat' });
    const input = {
      slotId: slot.id,
      userId: client.id,
      firstName: 'Ana',
      lastName: 'Lima',
      sessionType: YOGA,
      message: '',
      payment: { kind: 'paypal' as const, orderId: started.orderId },
    };

    expect(await finalizeBooking(crashing(true), input)).toEqual({ ok: false, kind: 'payment-unavailable' });
    // Claimed while its outcome is unknown: no one else can book it meanwhile.
    expect(await db().selectFrom('slots').select(['bookedBy', 'paypalOrderId']).where('id', '=', slot.id).executeTakeFirst()).toEqual({
      bookedBy: client.id,
      paypalOrderId: started.orderId,
    });
    expect(await listMailbox(db(), { to: client.email })).toHaveLength(0);

    expect(await reconcilePayments(services, PURCHASE_KINDS, { staleMs: 0 })).toMatchObject({ completed: 1 });
    expect(await findAttempt(db(), started.orderId)).toMatchObject({ state: 'completed', settledBy: 'reconciler', payerFirstName: 'Pat' });
    expect(await listMailbox(db(), { to: client.email })).toHaveLength(1);

    const retry = await finalizeBooking(services, input);
    expect(retry).toMatchObject({ ok: true, payerFirstName: 'Pat', booking: { id: slot.id, bookedBy: client.id, amountCents: 8000 } });
    expect(await listMailbox(db(), { to: client.email })).toHaveLength(1);
  });
});

describe('the buyer’s retry after a crash', () => {
  it('completes the same attempt once its holder is silent, capturing with the same PayPal-Request-Id', async () => {
    // The process died before its capture: the retry captures (once) and places the order.
    const { email, product, paypalOrderId } = await crashedCheckout(false);
    const retried = { ...services, env: { ...services.env, PAYMENT_ATTEMPT_STALE_MS: 0 } };
    const capturesBefore = emulatorCaptureCount();
    const answer = await placeOrder(retried, { paypalOrderId, ...cartOf(product, 2) });
    expect(answer).toMatchObject({ ok: true, replayed: false });
    expect(emulatorCaptureCount()).toBe(capturesBefore + 1);
    expect(await findAttempt(db(), paypalOrderId)).toMatchObject({ state: 'completed', settledBy: 'retry' });
    expect(await inventory(product)).toBe(3);
    expect(await listMailbox(db(), { to: email })).toHaveLength(1);

    // The process died after PayPal captured: the retry's capture is answered with that capture, none is made.
    const second = await crashedCheckout(true);
    const before = emulatorCaptureCount();
    expect(await placeOrder(retried, { paypalOrderId: second.paypalOrderId, ...cartOf(second.product, 2) })).toMatchObject({ ok: true });
    expect(emulatorCaptureCount()).toBe(before);
    expect(await ordersOf(second.paypalOrderId)).toHaveLength(1);
  });
});

describe('the buyer’s retry soon after a crash', () => {
  it('records a capture PayPal made, without waiting for the attempt to go stale', async () => {
    const { email, product, paypalOrderId } = await crashedCheckout(true);
    const before = emulatorCaptureCount();
    // The default stale age (minutes): the attempt is not taken over, PayPal's capture is recorded.
    const answer = await placeOrder(services, { paypalOrderId, ...cartOf(product, 2) });
    expect(answer).toMatchObject({ ok: true });
    expect(await findAttempt(db(), paypalOrderId)).toMatchObject({ state: 'completed', settledBy: 'retry' });
    expect(emulatorCaptureCount()).toBe(before);
    expect(await ordersOf(paypalOrderId)).toHaveLength(1);
    expect(await listMailbox(db(), { to: email })).toHaveLength(1);
  });
});

describe('the payment attempts table', () => {
  it('holds one attempt per PayPal order', async () => {
    const row = { kind: 'order' as const, paypalRequestId: 'r', amountCents: 100, currency: 'USD', details: '{}', claimedBy: 'test' };
    await db()
      .insertInto('paymentAttempts')
      .values({ ...row, paypalOrderId: 'ONE' })
      .execute();
    await expect(
      db()
        .insertInto('paymentAttempts')
        .values({ ...row, paypalOrderId: 'ONE' })
        .execute(),
    ).rejects.toMatchObject({ code: '23505' });
    await expect(sql`update payment_attempts set state = 'lost' where paypal_order_id = 'ONE'`.execute(db())).rejects.toMatchObject({ code: '23514' });
  });
});
