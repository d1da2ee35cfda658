/**
 * The booking's money flow called directly, with no HTTP in between: startBookingPayment and
 * finalizeBooking (api/booking/finalize-booking.ts) on a migrated in-memory PGlite, paying
 * through the PayPal emulator. Every refusal leaves the slot free and charges nothing, except a
 * capture that went through but does not match, which is refunded; a booking tells the room and
 * mails the confirmation to the account's own address.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../../../db/client.ts';
import { openMemoryServices } from '../../helpers/services.ts';
import type { Services } from '../../../api/services/index.ts';
import { PayPalError, type Payments } from '../../../api/services/payments/paypal.ts';
import { recordingRealtime } from '../../helpers/realtime.ts';
import { listMailbox } from '../../../api/services/mail/mailbox.ts';
import { finalizeBooking, type BookingInput } from '../../../api/booking/finalize-booking.ts';
import { bookingOrderReference, startBookingPayment } from '../../../api/booking/start-booking-payment.ts';
import { claimSlot } from '../../../api/booking/booking.repo.ts';
import { bookingForm } from '../../helpers/slots.ts';
import { itemAt, must, mustFind } from '../../helpers/guards.ts';

const YOGA = 'Individual Yoga Session (60 min)';
const TEACHER = 'teacher@example.com';
const DAY = 24 * 60 * 60_000;

let database: DatabaseHandle;
let services: Services;
const notified: string[] = [];

beforeAll(async () => {
  // The realtime room is not running here: record what the use-case tells it instead.
  ({ database, services } = await openMemoryServices({
    realtime: recordingRealtime(notified),
  }));
});
afterAll(async () => {
  await database?.close();
});
beforeEach(() => {
  notified.length = 0;
  vi.restoreAllMocks();
});

let counter = 0;

/** A client account; `email` is where its confirmations must go. */
async function addClient(firstName = 'Ana') {
  const email = `client-${++counter}-${Math.random().toString(36).slice(2)}@example.com`;
  return database.db
    .insertInto('users')
    .values({ email, firstName, lastName: 'Lima', emailVerifiedAt: new Date() })
    .returning(['id', 'email'])
    .executeTakeFirstOrThrow();
}

const slotsAt = new Map<number, number>();

/**
 * A free slot about `inMs` from now (negative: in the past), an hour and a minute after the last
 * one asked for at that distance: a booked session takes her time, and a slot it overlaps is not
 * bookable (issue 35).
 */
async function addSlot(inMs = 3 * DAY) {
  const minute = 60_000;
  const k = (slotsAt.get(inMs) ?? 0) + 1;
  slotsAt.set(inMs, k);
  const startsAt = new Date(Math.floor((Date.now() + inMs) / minute) * minute + k * 61 * minute);
  const [date, time] = [startsAt.toISOString().slice(0, 10), startsAt.toISOString().slice(11, 16)];
  return database.db.insertInto('slots').values({ date, time, startsAt }).returning(['id', 'startsAt']).executeTakeFirstOrThrow();
}

const slotRow = (id: string) => database.db.selectFrom('slots').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function expectFree(slotId: string) {
  expect(await slotRow(slotId)).toMatchObject({ bookedBy: null, bookedAt: null, paypalOrderId: null, amountCents: null, sessionType: null });
}

/** What the buyer does in PayPal's window: the emulator's approve endpoint. */
async function approve(orderId: string, body: Record<string, unknown> = { givenName: 'Pat' }) {
  const res = await must(services.paypalEmulator, 'services.paypalEmulator').request(`/v2/checkout/orders/${orderId}/approve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

/** An order made by startBookingPayment for this slot and client, approved unless told not to. */
async function orderFor(slotId: string, userId: string, options: { amountCents?: number; approval?: Record<string, unknown> | false } = {}) {
  const started = await startBookingPayment(services, { slotId, userId, amountCents: options.amountCents ?? 8000, sessionType: YOGA });
  if (!started.ok) throw new Error(`no order: ${started.kind}`);
  if (options.approval !== false) await approve(started.orderId, options.approval ?? { givenName: 'Pat' });
  return started.orderId;
}

const input = (slotId: string, userId: string, payment: BookingInput['payment']): BookingInput => ({
  slotId,
  userId,
  firstName: 'Ana',
  lastName: 'Lima',
  sessionType: YOGA,
  message: 'A sore shoulder.',
  payment,
});
const paypal = (orderId: string) => ({ kind: 'paypal' as const, orderId });
const coupon = (code: string) => ({ kind: 'coupon' as const, code });

const orderStatus = async (orderId: string) => (await services.payments.getOrder(orderId)).status;
const mailsTo = (to: string) => listMailbox(database.db, { to });

/** `services` with some of its PayPal calls replaced (the emulator has no declines). */
const withPayments = (changes: Partial<Payments>): Services => ({ ...services, payments: { ...services.payments, ...changes } });

describe('startBookingPayment', () => {
  it('makes a CREATED order for the amount, tied to this slot and this client', async () => {
    const client = await addClient();
    const slot = await addSlot();
    const started = await startBookingPayment(services, { slotId: slot.id, userId: client.id, amountCents: 9550, sessionType: YOGA });
    expect(started).toEqual({ ok: true, orderId: expect.any(String) });
    const order = await services.payments.getOrder((started as { orderId: string }).orderId);
    expect(order).toMatchObject({ status: 'CREATED', amountCents: 9550, currency: 'USD', referenceId: bookingOrderReference(slot.id, client.id) });
  });

  it('refuses a slot that does not exist, has passed or is taken, before asking PayPal', async () => {
    const client = await addClient();
    const createOrder = vi.fn(services.payments.createOrder);
    const deps = withPayments({ createOrder });
    const ask = (slotId: string) => startBookingPayment(deps, { slotId, userId: client.id, amountCents: 8000, sessionType: YOGA });

    expect(await ask('00000000-0000-0000-0000-000000000000')).toEqual({ ok: false, kind: 'slot-not-found' });
    expect(await ask((await addSlot(-DAY)).id)).toEqual({ ok: false, kind: 'slot-past' });
    const taken = await addSlot();
    await database.db.updateTable('slots').set({ bookedBy: client.id, bookedAt: new Date(), couponUsed: true }).where('id', '=', taken.id).execute();
    expect(await ask(taken.id)).toEqual({ ok: false, kind: 'slot-taken' });
    expect(createOrder).not.toHaveBeenCalled();
  });

  it('answers payment-unavailable when PayPal cannot make the order', async () => {
    const client = await addClient();
    const slot = await addSlot();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const deps = withPayments({
      createOrder: async () => {
        throw new PayPalError('PayPal POST orders failed (503)', 503);
      },
    });
    expect(await startBookingPayment(deps, { slotId: slot.id, userId: client.id, amountCents: 8000, sessionType: YOGA })).toEqual({
      ok: false,
      kind: 'payment-unavailable',
    });
    expect(logged).toHaveBeenCalled();
  });
});

describe('finalizeBooking: the successful paths', () => {
  it('books with the coupon (case and spaces ignored): no order, no charge, the room told, both mailed', async () => {
    const client = await addClient();
    const slot = await addSlot();
    const result = await finalizeBooking(services, input(slot.id, client.id, coupon('  journey ')));
    expect(result).toMatchObject({ ok: true, booking: { id: slot.id, bookedBy: client.id, couponUsed: true } });
    expect(result).not.toHaveProperty('payerFirstName');
    expect(await slotRow(slot.id)).toMatchObject({
      bookedBy: client.id,
      firstName: 'Ana',
      lastName: 'Lima',
      email: client.email,
      sessionType: YOGA,
      message: 'A sore shoulder.',
      amountCents: null,
      couponUsed: true,
      paypalOrderId: null,
    });
    expect(notified).toEqual([slot.id]);
    const [mail, ...more] = await mailsTo(client.email);
    expect(more).toHaveLength(0);
    expect(must(mail, 'mail').subject).toMatch(/^Booking Confirmed! /);
    expect(must(mail, 'mail').text).toContain('Coupon applied (no charge)');
    expect((await mailsTo(TEACHER)).some((m) => m.text.includes(client.email) && m.subject.startsWith('New booking'))).toBe(true);
  });

  it('books with an approved order: claims, captures, answers the payer, mails the account', async () => {
    const client = await addClient('Ana');
    const slot = await addSlot();
    const orderId = await orderFor(slot.id, client.id, { amountCents: 9550 });
    const result = await finalizeBooking(services, input(slot.id, client.id, paypal(orderId)));
    // The payer's first name from PayPal's capture (Pat), not the account's (Ana).
    expect(result).toMatchObject({ ok: true, payerFirstName: 'Pat', booking: { id: slot.id, amountCents: 9550, paypalOrderId: orderId } });
    expect(await slotRow(slot.id)).toMatchObject({ bookedBy: client.id, email: client.email, amountCents: 9550, couponUsed: false, paypalOrderId: orderId });
    expect((await slotRow(slot.id)).bookedAt).not.toBeNull();
    expect(await orderStatus(orderId)).toBe('COMPLETED');
    expect(notified).toEqual([slot.id]);
    const mails = await mailsTo(client.email);
    expect(mails).toHaveLength(1);
    expect(itemAt(mails, 0).text).toContain('$95.50');
    expect(itemAt(mails, 0).attachments).toEqual([expect.objectContaining({ filename: 'session.ics' })]);
    expect(mustFind(await mailsTo(TEACHER), (m) => m.text.includes(client.email)).text).toContain(orderId);
  });

  it("answers the account's first name when PayPal gives the payer none", async () => {
    const client = await addClient('Bea');
    const slot = await addSlot();
    const orderId = await orderFor(slot.id, client.id, { approval: { givenName: '  ' } });
    const result = await finalizeBooking(services, { ...input(slot.id, client.id, paypal(orderId)), firstName: 'Someone' });
    expect(result).toMatchObject({ ok: true, payerFirstName: 'Bea' });
  });
});

describe('finalizeBooking: refusals before any capture', () => {
  /** Finalises and checks the refusal changed nothing: slot free, no mail, the room not told. */
  async function expectRefused(kind: string, slotId: string, userId: string, payment: BookingInput['payment'], deps: Services = services) {
    const client = await database.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
    const result = await finalizeBooking(deps, input(slotId, userId, payment));
    // An amount refusal also names the range she accepts for the session type (her settings; individual yoga $80–$110 by default, decision 0032).
    expect(result).toEqual(
      kind === 'amount-out-of-range' ? { ok: false, kind, range: { min: 80, max: 110 }, typeWords: 'individual yoga' } : { ok: false, kind },
    );
    if (client) expect(await mailsTo(client.email)).toHaveLength(0);
    expect(notified).toEqual([]);
  }

  it('refuses an account that is gone', async () => {
    const slot = await addSlot();
    await expectRefused('unknown-account', slot.id, '00000000-0000-0000-0000-000000000000', coupon('JOURNEY'));
    await expectFree(slot.id);
  });

  it('refuses a slot that does not exist', async () => {
    const client = await addClient();
    await expectRefused('slot-not-found', '00000000-0000-0000-0000-000000000000', client.id, coupon('JOURNEY'));
  });

  it('refuses a slot that has passed, with the coupon or with an order approved before its time came', async () => {
    const client = await addClient();
    const past = await addSlot(-DAY);
    await expectRefused('slot-past', past.id, client.id, coupon('JOURNEY'));
    await expectFree(past.id);

    const soon = await addSlot();
    const orderId = await orderFor(soon.id, client.id);
    await database.db
      .updateTable('slots')
      .set({ startsAt: new Date(Date.now() - 60_000) })
      .where('id', '=', soon.id)
      .execute();
    await expectRefused('slot-past', soon.id, client.id, paypal(orderId));
    await expectFree(soon.id);
    expect(await orderStatus(orderId)).toBe('APPROVED');
  });

  it('refuses a slot someone already booked without charging the latecomer', async () => {
    const first = await addClient();
    const late = await addClient();
    const slot = await addSlot();
    const orderId = await orderFor(slot.id, late.id);
    expect(await finalizeBooking(services, input(slot.id, first.id, coupon('JOURNEY')))).toMatchObject({ ok: true });
    notified.length = 0;
    await expectRefused('slot-taken', slot.id, late.id, paypal(orderId));
    expect(await orderStatus(orderId)).toBe('APPROVED');
    expect((await slotRow(slot.id)).bookedBy).toBe(first.id);
  });

  it('refuses a wrong coupon', async () => {
    const client = await addClient();
    const slot = await addSlot();
    for (const code of ['JOURNEYS', 'journ ey', '']) await expectRefused('coupon-invalid', slot.id, client.id, coupon(code));
    await expectFree(slot.id);
  });

  it('refuses an order made for another slot or for another client', async () => {
    const ana = await addClient();
    const bea = await addClient();
    const slotA = await addSlot();
    const slotB = await addSlot();
    const forA = await orderFor(slotA.id, ana.id);
    await expectRefused('order-for-another-booking', slotB.id, ana.id, paypal(forA));
    await expectRefused('order-for-another-booking', slotA.id, bea.id, paypal(forA));
    await expectFree(slotA.id);
    await expectFree(slotB.id);
    expect(await orderStatus(forA)).toBe('APPROVED');
  });

  it('refuses an order the buyer has not approved, and one PayPal does not know', async () => {
    const client = await addClient();
    const slot = await addSlot();
    const unapproved = await orderFor(slot.id, client.id, { approval: false });
    await expectRefused('order-not-approved', slot.id, client.id, paypal(unapproved));
    expect(await orderStatus(unapproved)).toBe('CREATED');
    await expectRefused('order-unknown', slot.id, client.id, paypal('NOSUCHORDER123'));
    await expectFree(slot.id);
  });

  it('refuses an order already captured', async () => {
    const client = await addClient();
    const slot = await addSlot();
    const orderId = await orderFor(slot.id, client.id);
    await services.payments.captureOrder(orderId);
    await expectRefused('order-already-used', slot.id, client.id, paypal(orderId));
    await expectFree(slot.id);
  });

  it('refuses an approved order outside the range or not in USD, even one made around startBookingPayment', async () => {
    const client = await addClient();
    const slot = await addSlot();
    const cheap = await services.payments.createOrder({ amountCents: 500, referenceId: bookingOrderReference(slot.id, client.id) });
    await approve(cheap.id);
    await expectRefused('amount-out-of-range', slot.id, client.id, paypal(cheap.id));
    expect(await orderStatus(cheap.id)).toBe('APPROVED');

    const orderId = await orderFor(slot.id, client.id);
    const inEuros = withPayments({ getOrder: async (id) => ({ ...(await services.payments.getOrder(id)), currency: 'EUR' }) });
    await expectRefused('amount-out-of-range', slot.id, client.id, paypal(orderId), inEuros);
    expect(await orderStatus(orderId)).toBe('APPROVED');
    await expectFree(slot.id);
  });

  it('answers payment-unavailable when PayPal cannot be asked about the order', async () => {
    const client = await addClient();
    const slot = await addSlot();
    const orderId = await orderFor(slot.id, client.id);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const down = withPayments({
      getOrder: async () => {
        throw new PayPalError('PayPal GET order failed (503)', 503);
      },
    });
    await expectRefused('payment-unavailable', slot.id, client.id, paypal(orderId), down);
    // Our credentials refused (401) is our fault, not the buyer's: unavailable too.
    const refused = withPayments({
      getOrder: async () => {
        throw new PayPalError('PayPal GET order failed (401)', 401);
      },
    });
    await expectRefused('payment-unavailable', slot.id, client.id, paypal(orderId), refused);
    expect(logged).toHaveBeenCalledTimes(2);
    await expectFree(slot.id);
  });

  it('loses the claim to a booking made after the checks, without charging', async () => {
    const winner = await addClient();
    const loser = await addClient();
    const slot = await addSlot();
    const orderId = await orderFor(slot.id, loser.id);
    const captureOrder = vi.fn(services.payments.captureOrder);
    // The winner books while the loser's order is being read at PayPal: after the slot check.
    const racing = withPayments({
      captureOrder,
      getOrder: async (id) => {
        const order = await services.payments.getOrder(id);
        await database.db.updateTable('slots').set({ bookedBy: winner.id, bookedAt: new Date(), couponUsed: true }).where('id', '=', slot.id).execute();
        return order;
      },
    });
    await expectRefused('claim-lost', slot.id, loser.id, paypal(orderId), racing);
    expect(captureOrder).not.toHaveBeenCalled();
    expect(await orderStatus(orderId)).toBe('APPROVED');
    expect(await slotRow(slot.id)).toMatchObject({ bookedBy: winner.id, paypalOrderId: null });
  });
});

describe('finalizeBooking: a capture that fails', () => {
  it('leaves the slot free when PayPal declines the capture, and the same order books on a retry', async () => {
    const client = await addClient();
    const slot = await addSlot();
    const orderId = await orderFor(slot.id, client.id);
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const refundCapture = vi.fn(services.payments.refundCapture);
    const declining = withPayments({
      refundCapture,
      captureOrder: async () => {
        throw new PayPalError('PayPal POST capture failed (422 INSTRUMENT_DECLINED)', 422, 'INSTRUMENT_DECLINED');
      },
    });
    expect(await finalizeBooking(declining, input(slot.id, client.id, paypal(orderId)))).toEqual({ ok: false, kind: 'capture-failed' });
    expect(warned).toHaveBeenCalledWith(expect.stringContaining('INSTRUMENT_DECLINED'));
    expect(refundCapture).not.toHaveBeenCalled();
    await expectFree(slot.id);
    expect(await mailsTo(client.email)).toHaveLength(0);
    expect(notified).toEqual([]);

    expect(await finalizeBooking(services, input(slot.id, client.id, paypal(orderId)))).toMatchObject({ ok: true });
    expect(await orderStatus(orderId)).toBe('COMPLETED');
  });

  it('refunds a capture for another amount and keeps the slot free', async () => {
    const client = await addClient();
    const slot = await addSlot();
    const orderId = await orderFor(slot.id, client.id, { amountCents: 8000 });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const refunded: string[] = [];
    const mismatched = withPayments({
      captureOrder: async (id) => ({ ...(await services.payments.captureOrder(id)), amountCents: 100 }),
      refundCapture: async (captureId) => {
        refunded.push(captureId);
        return services.payments.refundCapture(captureId);
      },
    });
    expect(await finalizeBooking(mismatched, input(slot.id, client.id, paypal(orderId)))).toEqual({ ok: false, kind: 'capture-failed' });
    expect(refunded).toHaveLength(1);
    // The emulator refunded it: a second refund of the same capture is refused.
    await expect(services.payments.refundCapture(refunded[0]!)).rejects.toMatchObject({ issue: 'CAPTURE_FULLY_REFUNDED' });
    // The refund is logged as done, never as one the teacher still has to make.
    expect(errors).toHaveBeenCalledWith(expect.stringMatching(/^\[paypal\] refunded capture /));
    expect(errors).not.toHaveBeenCalledWith(expect.stringContaining('REFUND NEEDED'), expect.anything());
    await expectFree(slot.id);
    expect(await mailsTo(client.email)).toHaveLength(0);
    expect(notified).toEqual([]);
  });

  it('refunds a PENDING capture (not money yet), and logs REFUND NEEDED when the refund fails', async () => {
    const client = await addClient();
    const slot = await addSlot();
    const orderId = await orderFor(slot.id, client.id, { approval: { givenName: 'Pat', captureStatus: 'PENDING' } });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const refundFails = withPayments({
      refundCapture: async () => {
        throw new PayPalError('PayPal POST refund failed (503)', 503);
      },
    });
    expect(await finalizeBooking(refundFails, input(slot.id, client.id, paypal(orderId)))).toEqual({ ok: false, kind: 'capture-failed' });
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('REFUND NEEDED'), expect.anything());
    await expectFree(slot.id);
    expect(await orderStatus(orderId)).toBe('COMPLETED');
  });
});

describe('claimSlot', () => {
  it("claims inside the caller's transaction: rolled back, the slot is free again", async () => {
    const client = await addClient();
    const slot = await addSlot();
    const claim = bookingForm(client, YOGA, { amountCents: null, couponUsed: true, paypalOrderId: null });
    // Only a transaction will do: the row lock must last until the caller has been paid.
    // @ts-expect-error a plain database handle is not a Transaction
    const outside = () => claimSlot(database.db, slot.id, claim);
    expect(outside).toBeTypeOf('function');

    const rollback = new Error('rollback');
    await expect(
      database.db.transaction().execute(async (trx) => {
        expect(await claimSlot(trx, slot.id, claim)).toMatchObject({ id: slot.id, bookedBy: client.id });
        // A second claim in the same transaction finds the slot booked.
        expect(await claimSlot(trx, slot.id, claim)).toBeUndefined();
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    await expectFree(slot.id);
  });
});
