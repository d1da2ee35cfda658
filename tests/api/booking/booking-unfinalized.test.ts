/**
 * Issue 20: a client approves the payment in PayPal's window and closes the tab before
 * "Finalize Booking". The server finds the approved order (recorded when it made it) after
 * UNFINALIZED_BOOKING_MINUTES and, on the reconciler's schedule, books it (captured, both
 * mailed) when the slot is still free, or releases it (not captured, both mailed) when someone
 * took the slot meanwhile. Nothing silent. Paid through the PayPal emulator.
 */
import { describe, expect, it } from 'vitest';
import { freeSlotTime } from '../../helpers/slots.ts';
import { zonedInstant } from '../../../api/lib/time.ts';
import { resolveUnfinalizedBookings } from '../../../api/booking/unfinalized.ts';
import { emulatorCaptureCount } from '../../../api/services/payments/emulator.ts';
import { type TestServer, useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { createUser } from '../../helpers/auth.ts';
import { itemAt, must } from '../../helpers/guards.ts';

const YOGA = 'Individual Yoga Session (60 min)';
type Client = Awaited<ReturnType<typeof createUser>>;

/** Looks every 100 ms until `fn` answers something truthy, for at most `ms`. */
async function eventually<T>(fn: () => Promise<T>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function addSlot(server: TestServer, inDays: number) {
  const zone = server.env.SITE_TIMEZONE;
  const { date, time } = freeSlotTime(zone, inDays);
  return server.services.db
    .insertInto('slots')
    .values({ date, time, startsAt: zonedInstant(date, time, zone), place: 'Studio 3' })
    .returning(['id', 'startsAt'])
    .executeTakeFirstOrThrow();
}

async function createOrder(server: TestServer, client: Client, slotId: string, amount = 90) {
  const res = await server.api(`/api/bookings/${slotId}/paypal-order`, {
    method: 'POST',
    json: { amount, sessionType: YOGA },
    headers: { cookie: client.cookie },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()).orderID as string;
}

async function approve(server: TestServer, orderId: string) {
  const res = await server.api(`/dev/paypal/v2/checkout/orders/${orderId}/approve`, { method: 'POST', json: { givenName: 'Pat' } });
  expect(res.status).toBe(200);
}

const slotRow = (server: TestServer, id: string) => server.services.db.selectFrom('slots').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const orderRecord = (server: TestServer, id: string) =>
  server.services.db.selectFrom('bookingOrders').selectAll().where('paypalOrderId', '=', id).executeTakeFirstOrThrow();

describe(`approved, never finalized, resolved by the server on ${testDbKind()}`, () => {
  // At once (0 minutes), looked for every 200 ms: the reconciler's schedule, as server.ts starts it.
  const server = useTestServer({ env: { UNFINALIZED_BOOKING_MINUTES: '0', RECONCILE_INTERVAL_MS: '200' }, resetRateLimits: true });

  it('books a free slot: captured, the booking stored, the client and the teacher mailed', async () => {
    const client = await createUser(server, { firstName: 'Ana', lastName: 'Lima' });
    const slot = await addSlot(server, 5);
    const orderId = await createOrder(server, client, slot.id, 90);
    // Recorded when made, so the server can find it again.
    expect(await orderRecord(server, orderId)).toMatchObject({ slotId: slot.id, userId: client.id, amountCents: 9000, sessionType: YOGA, resolvedAt: null });
    await approve(server, orderId);
    // ... and the client never presses Finalize Booking.

    const booked = await eventually(async () => (await slotRow(server, slot.id)).bookedAt !== null);
    expect(booked).toBe(true);
    expect(await slotRow(server, slot.id)).toMatchObject({
      bookedBy: client.id,
      amountCents: 9000,
      paypalOrderId: orderId,
      sessionType: YOGA,
      couponUsed: false,
    });
    expect((await server.services.payments.getOrder(orderId)).status).toBe('COMPLETED');
    expect(emulatorCaptureCount(orderId)).toBe(1);
    expect(await eventually(async () => (await orderRecord(server, orderId)).resolution)).toBe('finalized-by-server');

    const mine = must(await eventually(async () => (await readMailbox(server, client.email)).find((m) => m.subject.startsWith('Booking Confirmed!'))), 'mine');
    expect(mine.text).toContain('so it has been finalized for you');
    expect(mine.text).toContain('Place: Studio 3');
    expect(mine.text).toContain('$90.00 paid through PayPal');
    const teacher = must(
      await eventually(async () =>
        (await readMailbox(server, server.env.TEACHER_EMAIL)).find((m) => m.subject.startsWith('New booking') && m.text.includes(client.email)),
      ),
      'teacher',
    );
    expect(teacher.text).toContain('Finalized by the server');
    // Once: later passes change nothing and mail nothing more.
    await new Promise((r) => setTimeout(r, 600));
    expect((await readMailbox(server, client.email)).filter((m) => m.subject.startsWith('Booking Confirmed!'))).toHaveLength(1);
    expect(emulatorCaptureCount(orderId)).toBe(1);
  });

  it('releases it when someone else booked the slot meanwhile: not captured, the client and the teacher mailed', async () => {
    const client = await createUser(server, { firstName: 'Bea', lastName: 'Moss' });
    const other = await createUser(server, { firstName: 'Cy' });
    const slot = await addSlot(server, 6);
    const orderId = await createOrder(server, client, slot.id, 85);
    // Another client books the slot (with the coupon) before the approval.
    const took = await server.api(`/api/bookings/${slot.id}/book`, {
      method: 'PUT',
      headers: { cookie: other.cookie },
      json: { userId: other.id, firstName: 'Cy', lastName: 'Ho', email: other.email, sessionType: YOGA, couponCode: 'JOURNEY' },
    });
    expect(took.status).toBe(200);
    await approve(server, orderId);

    expect(await eventually(async () => (await orderRecord(server, orderId)).resolution)).toBe('released');
    // Nothing captured: PayPal lets the approval lapse.
    expect((await server.services.payments.getOrder(orderId)).status).toBe('APPROVED');
    expect(emulatorCaptureCount(orderId)).toBe(0);
    expect(await slotRow(server, slot.id)).toMatchObject({ bookedBy: other.id, couponUsed: true });

    const mine = must(
      await eventually(async () => (await readMailbox(server, client.email)).find((m) => m.subject.startsWith('Your session was not booked'))),
      'mine',
    );
    expect(mine.text).toContain('someone else booked that time');
    expect(mine.text).toContain('you have not been charged');
    expect(mine.text).toContain('$85.00');
    const teacher = must(
      await eventually(async () => (await readMailbox(server, server.env.TEACHER_EMAIL)).find((m) => m.subject.startsWith('Not booked: Bea Moss'))),
      'teacher',
    );
    expect(teacher.text).toContain('The slot was booked by someone else before the booking was finalized.');
    expect(teacher.text).toContain(orderId);
    // Released once: no second pair of mails.
    await new Promise((r) => setTimeout(r, 600));
    expect((await readMailbox(server, client.email)).filter((m) => m.subject.startsWith('Your session was not booked'))).toHaveLength(1);
  });
});

describe(`the resolver leaves what is not its own to settle on ${testDbKind()}`, () => {
  // The periodic look is the default (10 minutes, every minute): the test calls one pass itself.
  const server = useTestServer({ resetRateLimits: true });

  it('waits UNFINALIZED_BOOKING_MINUTES before it looks, and leaves an order nobody approved yet', async () => {
    const client = await createUser(server);
    const slot = await addSlot(server, 5);
    const orderId = await createOrder(server, client, slot.id);
    // Too young for the default ten minutes.
    expect(await resolveUnfinalizedBookings(server.services)).toMatchObject({ finalized: 0, released: 0, closed: 0, leftOpen: 0 });
    // Looked at, not approved: left for next time, nothing mailed, nothing booked.
    expect(await resolveUnfinalizedBookings(server.services, { ageMs: 0 })).toMatchObject({ leftOpen: 1 });
    expect(await orderRecord(server, orderId)).toMatchObject({ resolvedAt: null, claimedBy: null });
    expect((await slotRow(server, slot.id)).bookedAt).toBeNull();
    expect(await readMailbox(server, client.email)).toHaveLength(0);
  });

  it('marks an order its client finalized as theirs, and mails nothing more', async () => {
    const client = await createUser(server);
    const slot = await addSlot(server, 5);
    const orderId = await createOrder(server, client, slot.id, 100);
    await approve(server, orderId);
    const res = await server.api(`/api/bookings/${slot.id}/book`, {
      method: 'PUT',
      headers: { cookie: client.cookie },
      json: { userId: client.id, firstName: 'Ana', lastName: 'Lima', email: client.email, sessionType: YOGA, paypalOrderId: orderId },
    });
    expect(res.status).toBe(200);
    const before = (await readMailbox(server, client.email)).length;
    expect(await resolveUnfinalizedBookings(server.services, { ageMs: 0 })).toMatchObject({ finalized: 0, released: 0 });
    expect(await orderRecord(server, orderId)).toMatchObject({ resolution: 'finalized-by-client' });
    expect(await readMailbox(server, client.email)).toHaveLength(before);
    expect(emulatorCaptureCount(orderId)).toBe(1);
  });

  it('lets an approval lapse quietly when its client booked the slot another way (the coupon)', async () => {
    const client = await createUser(server);
    const slot = await addSlot(server, 5);
    const orderId = await createOrder(server, client, slot.id);
    await approve(server, orderId);
    const booked = await server.api(`/api/bookings/${slot.id}/book`, {
      method: 'PUT',
      headers: { cookie: client.cookie },
      json: { userId: client.id, firstName: 'Ana', lastName: 'Lima', email: client.email, sessionType: YOGA, couponCode: 'JOURNEY' },
    });
    expect(booked.status).toBe(200);
    const mails = (await readMailbox(server, client.email)).length;
    await resolveUnfinalizedBookings(server.services, { ageMs: 0 });
    expect(await orderRecord(server, orderId)).toMatchObject({ resolution: 'lapsed' });
    expect(await readMailbox(server, client.email)).toHaveLength(mails);
    expect(emulatorCaptureCount(orderId)).toBe(0);
    expect(await slotRow(server, slot.id)).toMatchObject({ bookedBy: client.id, couponUsed: true });
  });

  it('releases an approval whose amount is outside the range she set since, both mailed, nothing captured', async () => {
    const client = await createUser(server, { firstName: 'Di', lastName: 'Ko' });
    const slot = await addSlot(server, 5);
    const orderId = await createOrder(server, client, slot.id, 105);
    await approve(server, orderId);
    // She lowers individual yoga's highest amount to $100 meanwhile.
    await server.services.db
      .insertInto('settings')
      .values({
        key: 'bookingAmounts',
        value: JSON.stringify({
          ranges: { individualYoga: { min: 80, max: 100, note: '' }, yogaTherapy: { min: 10, max: 80, note: '' } },
          slidingScaleNote: 'Pay what you can.',
        }),
      })
      .execute();
    try {
      expect(await resolveUnfinalizedBookings(server.services, { ageMs: 0 })).toMatchObject({ released: 1 });
    } finally {
      await server.services.db.deleteFrom('settings').where('key', '=', 'bookingAmounts').execute();
    }
    expect(emulatorCaptureCount(orderId)).toBe(0);
    expect((await slotRow(server, slot.id)).bookedAt).toBeNull();
    const mine = itemAt(await readMailbox(server, client.email), 0);
    expect(mine.subject).toMatch(/^Your session was not booked/);
    expect(mine.text).toContain('outside the range accepted');
    expect((await readMailbox(server, server.env.TEACHER_EMAIL)).some((m) => m.subject.startsWith('Not booked: Di Ko'))).toBe(true);
  });
});
