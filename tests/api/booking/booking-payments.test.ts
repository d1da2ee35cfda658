/**
 * Paid one-to-one booking over HTTP, paying through the PayPal emulator: the server-made order,
 * the coupon, every refusal (amount, coupon, another slot's order, past slot, another user's
 * id) changing nothing, the claim-then-capture rule under concurrency (one booking, no loser
 * charged), and a failed capture leaving the slot free.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freeSlotTime } from '../../helpers/slots.ts';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import { PayPalError, type Payments } from '../../../api/services/payments/paypal.ts';
import { recordingRealtime } from '../../helpers/realtime.ts';
import { useTestServer } from '../../helpers/server.ts';
import { requireNoIntake } from '../../helpers/intake.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { createUser } from '../../helpers/auth.ts';
import { BOOKING_CONFIRMED, BOOKING_FAILED, COUPON_INVALID, COUPON_VALID, PAYMENT_UNSUCCESSFUL } from '../../helpers/spec-words.ts';
import { orderInEmulator } from '../../helpers/paypal-emulator.ts';
import { itemAt, must } from '../../helpers/guards.ts';

// Behind a trusted proxy each X-Forwarded-For is one client (the concurrency test's clients).
const server = useTestServer({ env: { TRUST_PROXY: '1' }, resetRateLimits: true });
const notified: string[] = [];
beforeAll(async () => {
  // A suite about payments and mails: the intake gate is practice-intake's (issue 30 requires it for therapy).
  await requireNoIntake(server);
  // The realtime room is not running in tests: record what the API tells it instead.
  server.services.realtime = recordingRealtime(notified);
});

const YOGA = 'Individual Yoga Session (60 min)';
const THERAPY = 'Yoga Therapy Session (60 min)';
const TEACHER = 'teacher@example.com';

type Client = Awaited<ReturnType<typeof createUser>>;

const zone = () => server.env.SITE_TIMEZONE;

/** A free slot `inDays` from today on the teacher's clocks (negative: in the past), at a unique time. */
async function addSlot(inDays = 3, time?: string) {
  const free = freeSlotTime(zone(), inDays);
  const date = time ? addDays(zonedNow(zone()).date, inDays) : free.date;
  const at = time ?? free.time;
  const row = await server.services.db
    .insertInto('slots')
    .values({ date, time: at, startsAt: zonedInstant(date, at, zone()) })
    .returning(['id', 'date', 'time', 'startsAt'])
    .executeTakeFirstOrThrow();
  return row;
}

const slotRow = (id: string) => server.services.db.selectFrom('slots').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const mailbox = (to: string) => readMailbox(server, to);
const ip = (i: number) => ({ 'x-forwarded-for': `198.51.100.${i}` });

function createOrder(client: Client, slotId: string, json: unknown, headers: Record<string, string> = {}) {
  return server.api(`/api/bookings/${slotId}/paypal-order`, { method: 'POST', json, headers: { cookie: client.cookie, ...headers } });
}

/** What the buyer does in PayPal's window: the emulator's approve endpoint. */
async function approve(orderId: string, givenName = 'Pat') {
  const res = await server.api(`/dev/paypal/v2/checkout/orders/${orderId}/approve`, { method: 'POST', json: { givenName } });
  expect(res.status).toBe(200);
}

/** An approved order for `slotId` made through the booking endpoint. */
async function paidOrder(client: Client, slotId: string, amount: number | string = 80, headers: Record<string, string> = {}) {
  const res = await createOrder(client, slotId, { amount, sessionType: YOGA }, headers);
  expect(res.status).toBe(200);
  const { orderID } = await res.json();
  await approve(orderID);
  return orderID as string;
}

const bookingBody = (client: Client, extra: Record<string, unknown>) => ({
  userId: client.id,
  firstName: 'Ana',
  lastName: 'Lima',
  email: client.email,
  sessionType: YOGA,
  message: 'First session, a sore shoulder.',
  ...extra,
});

function book(client: Client, slotId: string, extra: Record<string, unknown>, headers: Record<string, string> = {}) {
  return server.api(`/api/bookings/${slotId}/book`, { method: 'PUT', json: bookingBody(client, extra), headers: { cookie: client.cookie, ...headers } });
}

const orderStatus = async (orderId: string) => (await server.services.payments.getOrder(orderId)).status;

async function expectFree(slotId: string) {
  const row = await slotRow(slotId);
  expect(row).toMatchObject({ bookedBy: null, bookedAt: null, paypalOrderId: null, amountCents: null, sessionType: null });
}

describe(`paying through PayPal on ${testDbKind()}`, () => {
  it('creates the order on the server, books after approval, captures, mails both and tells the room', async () => {
    const client = await createUser(server, { firstName: 'Ana', lastName: 'Lima' });
    const slot = await addSlot(4, '15:30');

    const created = await createOrder(client, slot.id, { amount: '75.50', sessionType: THERAPY });
    expect(created.status).toBe(200);
    const body = await created.json();
    expect(body).toEqual({ orderID: expect.any(String) });
    const orderID: string = body.orderID;
    const order = await server.services.payments.getOrder(orderID);
    expect(order).toMatchObject({ status: 'CREATED', amountCents: 7550, currency: 'USD', referenceId: `slot:${slot.id}:${client.id}` });
    // What PayPal shows the payer and keeps (issue 48): the session's time in words, never its kind (therapy is health data).
    const { description } = (await orderInEmulator(server.services, orderID)).purchase_units[0]!;
    expect(description).toMatch(/^Session on [A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{4} at 3:30\sPM [A-Z]{3,4}$/);
    expect(description).not.toMatch(/therapy|yoga/i);

    await approve(orderID);
    const res = await book(client, slot.id, { paypalOrderId: orderID, sessionType: THERAPY });
    expect(res.status).toBe(200);
    // The payer's first name from PayPal's capture (Pat), not the account's (Ana).
    expect(await res.json()).toEqual({ success: true, message: BOOKING_CONFIRMED, payerFirstName: 'Pat' });

    expect(await slotRow(slot.id)).toMatchObject({
      bookedBy: client.id,
      firstName: 'Ana',
      lastName: 'Lima',
      email: client.email,
      sessionType: THERAPY,
      message: 'First session, a sore shoulder.',
      amountCents: 7550,
      couponUsed: false,
      paypalOrderId: orderID,
    });
    expect((await slotRow(slot.id)).bookedAt).not.toBeNull();
    expect(await orderStatus(orderID)).toBe('COMPLETED');
    expect(notified).toContain(slot.id);

    const day = new Intl.DateTimeFormat('en-US', { timeZone: zone(), weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(
      new Date(slot.startsAt),
    );
    const mail = itemAt(await mailbox(client.email), 0);
    expect(mail.subject).toBe(`Booking Confirmed! ${THERAPY} on ${day}`);
    expect(mail.text).toContain('Booking Confirmed!');
    expect(mail.text).toContain(`Date: ${day}`);
    expect(mail.text).toMatch(/Time: 3:30 PM P[SD]T/);
    expect(mail.text).toContain(`Session: ${THERAPY}`);
    expect(mail.text).toContain('Duration: 60 mins');
    expect(mail.text).toContain('$75.50');
    expect(mail.attachments).toEqual([
      {
        filename: 'session.ics',
        contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
        size: expect.any(Number),
        encoding: 'utf-8',
        content: expect.stringContaining('BEGIN:VCALENDAR'),
      },
    ]);
    const stored = await server.services.db.selectFrom('mails').select('attachments').where('to', '=', client.email).executeTakeFirstOrThrow();
    const ics = Buffer.from(itemAt(stored.attachments, 0).content, 'base64').toString('utf8');
    expect(ics).toContain(`\r\nDTSTART;TZID=${zone()}:${slot.date.replaceAll('-', '')}T153000\r\n`);
    expect(ics).toContain(`\r\nUID:booking-${slot.id}-`);

    const teacher = (await mailbox(TEACHER)).find((m) => m.text.includes(client.email) && m.subject.startsWith('New booking'));
    expect(teacher).toBeDefined();
    expect(must(teacher, 'teacher').text).toContain(orderID);
  });

  it("answers the account's first name as payerFirstName when PayPal gives the payer none", async () => {
    const client = await createUser(server, { firstName: 'Bea' });
    const slot = await addSlot();
    const created = await createOrder(client, slot.id, { amount: 80, sessionType: YOGA });
    const { orderID } = await created.json();
    await approve(orderID, '  ');
    const res = await book(client, slot.id, { paypalOrderId: orderID, firstName: 'Someone' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, message: BOOKING_CONFIRMED, payerFirstName: 'Bea' });
  });

  it("accepts the bounds of the chosen type's range (individual yoga $80–$110, yoga therapy $10–$80) and refuses amounts outside it or not money", async () => {
    const client = await createUser(server);
    const slot = await addSlot();
    for (const [amount, sessionType] of [
      [80, YOGA],
      [110, YOGA],
      ['80.00', YOGA],
      [109.99, YOGA],
      [10, THERAPY],
      [80, THERAPY],
      [30, THERAPY],
    ] as const) {
      const res = await createOrder(client, slot.id, { amount, sessionType });
      expect(res.status, `${amount} ${sessionType}`).toBe(200);
    }
    for (const amount of [79.99, 110.01, 30, 111, 0, -80, '80.123', 'abc', '', null, 1e9]) {
      const res = await createOrder(client, slot.id, { amount, sessionType: YOGA });
      expect(res.status, String(amount)).toBe(400);
      expect((await res.json()).message).toMatch(/amount/i);
    }
    // Another client: the limit on order attempts is per account.
    const other = await createUser(server);
    for (const amount of [9.99, 80.01, 5]) {
      const res = await createOrder(other, slot.id, { amount, sessionType: THERAPY });
      expect(res.status, String(amount)).toBe(400);
      expect((await res.json()).message).toBe('The amount for yoga therapy must be between $10 and $80.');
    }
    const noType = await createOrder(client, slot.id, { amount: 80, sessionType: 'Massage' });
    expect(noType.status).toBe(400);
    expect((await noType.json()).message).toMatch(/session type/i);
  });

  it('refuses an approved order whose amount is outside the range, even one made around the endpoint', async () => {
    const client = await createUser(server);
    const slot = await addSlot();
    // An order with the right reference but an amount our endpoint would never have made.
    const order = await server.services.payments.createOrder({ amountCents: 500, referenceId: `slot:${slot.id}:${client.id}` });
    await approve(order.id);
    const res = await book(client, slot.id, { paypalOrderId: order.id });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('The amount for individual yoga must be between $80 and $110.');
    await expectFree(slot.id);
    expect(await orderStatus(order.id)).toBe('APPROVED');
  });

  it("refuses an order made for another slot or another client, and one that isn't approved", async () => {
    const ana = await createUser(server);
    const bea = await createUser(server);
    const slotA = await addSlot();
    const slotB = await addSlot();
    const forA = await paidOrder(ana, slotA.id);

    const otherSlot = await book(ana, slotB.id, { paypalOrderId: forA });
    expect(otherSlot.status).toBe(400);
    expect((await otherSlot.json()).message).toMatch(/another booking/);
    const otherClient = await book(bea, slotA.id, { paypalOrderId: forA });
    expect(otherClient.status).toBe(400);

    const unapproved = await (await createOrder(ana, slotB.id, { amount: 80, sessionType: YOGA })).json();
    const notApproved = await book(ana, slotB.id, { paypalOrderId: unapproved.orderID });
    expect(notApproved.status).toBe(400);
    expect((await notApproved.json()).message).toBe(PAYMENT_UNSUCCESSFUL);
    const unknown = await book(ana, slotB.id, { paypalOrderId: 'NOSUCHORDER123' });
    expect(unknown.status).toBe(400);

    await expectFree(slotA.id);
    await expectFree(slotB.id);
    expect(await orderStatus(forA)).toBe('APPROVED');
    expect(await orderStatus(unapproved.orderID)).toBe('CREATED');
  });

  it('refuses a slot that has passed or does not exist, before any order is made', async () => {
    const client = await createUser(server);
    const past = await addSlot(-1);
    const res = await createOrder(client, past.id, { amount: 80, sessionType: YOGA });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('This time slot has passed. Please pick another.');
    const gone = await createOrder(client, 'no-such-slot', { amount: 80, sessionType: YOGA });
    expect(gone.status).toBe(404);

    // An order approved for a slot whose time has come since.
    const soon = await addSlot();
    const order = await paidOrder(client, soon.id);
    await server.services.db
      .updateTable('slots')
      .set({ startsAt: new Date(Date.now() - 60_000) })
      .where('id', '=', soon.id)
      .execute();
    const late = await book(client, soon.id, { paypalOrderId: order });
    expect(late.status).toBe(400);
    await expectFree(soon.id);
    expect(await orderStatus(order)).toBe('APPROVED');

    const coupon = await book(client, past.id, { couponCode: 'JOURNEY' });
    expect(coupon.status).toBe(400);
    await expectFree(past.id);
  });

  it("refuses another user's id (403) and a request without a session (401), changing nothing", async () => {
    const ana = await createUser(server);
    const bea = await createUser(server);
    const slot = await addSlot();
    const order = await paidOrder(ana, slot.id);
    const res = await server.api(`/api/bookings/${slot.id}/book`, {
      method: 'PUT',
      json: bookingBody(ana, { paypalOrderId: order }),
      headers: { cookie: bea.cookie },
    });
    expect(res.status).toBe(403);
    const anonymous = await server.api(`/api/bookings/${slot.id}/book`, { method: 'PUT', json: bookingBody(ana, { couponCode: 'JOURNEY' }) });
    expect(anonymous.status).toBe(401);
    expect((await server.api(`/api/bookings/${slot.id}/paypal-order`, { method: 'POST', json: { amount: 80, sessionType: YOGA } })).status).toBe(401);
    await expectFree(slot.id);
    expect(await orderStatus(order)).toBe('APPROVED');
  });

  it('needs exactly one of a payment or the coupon', async () => {
    const client = await createUser(server);
    const slot = await addSlot();
    const none = await book(client, slot.id, { couponCode: '  ' });
    expect(none.status).toBe(400);
    expect((await none.json()).message).toBe('Please choose time, session type and/or complete payment before finalizing your appointment.');
    const order = await paidOrder(client, slot.id);
    const both = await book(client, slot.id, { couponCode: 'JOURNEY', paypalOrderId: order });
    expect(both.status).toBe(400);
    await expectFree(slot.id);
  });
});

describe(`the booking coupon on ${testDbKind()}`, () => {
  it('books for free with "  journey " (case and surrounding spaces ignored), no order involved', async () => {
    const client = await createUser(server);
    const slot = await addSlot();
    const check = await server.api('/api/bookings/validate-coupon', { method: 'POST', json: { code: '  journey ' }, headers: { cookie: client.cookie } });
    expect(check.status).toBe(200);
    expect(await check.json()).toEqual({ valid: true, message: COUPON_VALID });

    const res = await book(client, slot.id, { couponCode: '  journey ' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, message: BOOKING_CONFIRMED });
    expect(await slotRow(slot.id)).toMatchObject({ bookedBy: client.id, couponUsed: true, amountCents: null, paypalOrderId: null, sessionType: YOGA });
    const mail = itemAt(await mailbox(client.email), 0);
    expect(mail.text).toContain('Coupon applied (no charge)');
  });

  it('refuses a wrong coupon and never shows the right one', async () => {
    const client = await createUser(server);
    const slot = await addSlot();
    for (const code of ['JOURNEYS', 'journ ey', 'FREE', '']) {
      const check = await server.api('/api/bookings/validate-coupon', { method: 'POST', json: { code }, headers: { cookie: client.cookie } });
      expect(check.status, code).toBe(400);
      const answer = await check.json();
      expect(answer).toEqual({ valid: false, message: COUPON_INVALID });
    }
    const res = await book(client, slot.id, { couponCode: 'JOURNEYS' });
    expect(res.status).toBe(400);
    const answer = await res.json();
    expect(answer).toEqual({ message: COUPON_INVALID });
    expect(JSON.stringify(answer)).not.toMatch(/journey/i);
    await expectFree(slot.id);
    const config = await (await server.api('/api/config/public')).text();
    expect(config).not.toMatch(/journey/i);
  });
});

describe(`one slot, many clients on ${testDbKind()}`, () => {
  it('gives the slot to exactly one of many concurrent finalisations and charges none of the others', async () => {
    const n = testDbKind() === 'postgres' ? 30 : 10;
    const slot = await addSlot(5);
    const clients = await Promise.all(Array.from({ length: n }, () => createUser(server)));
    const orders: string[] = [];
    for (const [i, client] of clients.entries()) orders.push(await paidOrder(client, slot.id, 80 + i, ip(i + 1)));

    const answers = await Promise.all(clients.map((client, i) => book(client, slot.id, { paypalOrderId: orders[i] }, ip(i + 1))));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(n - 1);
    for (const r of answers) if (r.status === 409) expect(await r.json()).toEqual({ message: BOOKING_FAILED });

    const winner = statuses.indexOf(200);
    const row = await slotRow(slot.id);
    expect(row).toMatchObject({ bookedBy: itemAt(clients, winner).id, paypalOrderId: orders[winner], amountCents: (80 + winner) * 100 });
    for (const [i, order] of orders.entries()) {
      expect(await orderStatus(order), `order of client ${i}`).toBe(i === winner ? 'COMPLETED' : 'APPROVED');
    }
    const confirmations = (await Promise.all(clients.map((c) => mailbox(c.email)))).map((m) => m.length);
    expect(confirmations.filter((k) => k === 1)).toHaveLength(1);
  });

  it('answers a double-clicked booking (8 concurrent posts of one order) with one booking, one capture and one mail', async () => {
    const client = await createUser(server);
    const slot = await addSlot(6);
    const order = await paidOrder(client, slot.id, 85);
    const { payments } = server.services;
    const capture = payments.captureOrder;
    let captures = 0;
    payments.captureOrder = async (...args) => {
      captures++;
      return capture.apply(payments, args);
    };
    try {
      const answers = await Promise.all(Array.from({ length: 8 }, () => book(client, slot.id, { paypalOrderId: order })));
      expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
      for (const r of answers) expect(await r.json()).toMatchObject({ message: BOOKING_CONFIRMED });
    } finally {
      payments.captureOrder = capture;
    }
    expect(captures).toBe(1);
    expect(await slotRow(slot.id)).toMatchObject({ bookedBy: client.id, paypalOrderId: order, amountCents: 8500 });
    expect(await mailbox(client.email)).toHaveLength(1);
  });

  it('captures only after the claim: a slot taken between the checks and the claim costs the loser nothing', async () => {
    const winner = await createUser(server);
    const loser = await createUser(server);
    const slot = await addSlot();
    const order = await paidOrder(loser, slot.id);
    // The winner books while the loser's request is reading its order at PayPal: after the
    // loser's slot check, before its claim. (Deterministic on PGlite too, which runs one query at a time.)
    const { payments } = server.services;
    const getOrder = payments.getOrder;
    payments.getOrder = async (id) => {
      const answer = await getOrder(id);
      await server.services.db.updateTable('slots').set({ bookedBy: winner.id, bookedAt: new Date(), couponUsed: true }).where('id', '=', slot.id).execute();
      return answer;
    };
    try {
      const res = await book(loser, slot.id, { paypalOrderId: order });
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ message: BOOKING_FAILED });
    } finally {
      payments.getOrder = getOrder;
    }
    expect(await orderStatus(order)).toBe('APPROVED');
    expect(await slotRow(slot.id)).toMatchObject({ bookedBy: winner.id, paypalOrderId: null });
    expect(await mailbox(loser.email)).toHaveLength(0);
  });

  it('refuses a slot someone already booked without charging the latecomer', async () => {
    const first = await createUser(server);
    const late = await createUser(server);
    const slot = await addSlot();
    const order = await paidOrder(late, slot.id);
    expect((await book(first, slot.id, { couponCode: 'journey' })).status).toBe(200);
    const res = await book(late, slot.id, { paypalOrderId: order });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: BOOKING_FAILED });
    expect(await orderStatus(order)).toBe('APPROVED');
    expect((await slotRow(slot.id)).bookedBy).toBe(first.id);
  });
});

describe(`a capture that fails on ${testDbKind()}`, () => {
  const payments = () => server.services.payments as { -readonly [K in keyof Payments]: Payments[K] };

  it('rolls the claim back: the slot stays free and can be booked again', async () => {
    const client = await createUser(server);
    const slot = await addSlot();
    const order = await paidOrder(client, slot.id);
    const original = payments().captureOrder;
    payments().captureOrder = async () => {
      throw new PayPalError('PayPal POST capture failed (422 INSTRUMENT_DECLINED)', 422, 'INSTRUMENT_DECLINED');
    };
    try {
      const res = await book(client, slot.id, { paypalOrderId: order });
      expect(res.status).toBe(402);
      expect(await res.json()).toEqual({ message: PAYMENT_UNSUCCESSFUL });
    } finally {
      payments().captureOrder = original;
    }
    await expectFree(slot.id);
    expect(await mailbox(client.email)).toHaveLength(0);
    expect(notified).not.toContain(slot.id);

    const retry = await book(client, slot.id, { paypalOrderId: order });
    expect(retry.status).toBe(200);
    expect(await orderStatus(order)).toBe('COMPLETED');
  });

  it('refunds a capture that does not match the approved amount and keeps the slot free', async () => {
    const client = await createUser(server);
    const slot = await addSlot();
    const order = await paidOrder(client, slot.id, 80);
    const original = payments().captureOrder;
    const originalRefund = payments().refundCapture;
    const refunded: string[] = [];
    payments().captureOrder = async (id) => ({ ...(await original(id)), amountCents: 100 });
    payments().refundCapture = async (captureId) => {
      refunded.push(captureId);
      return originalRefund(captureId);
    };
    try {
      const res = await book(client, slot.id, { paypalOrderId: order });
      expect(res.status).toBe(402);
    } finally {
      payments().captureOrder = original;
      payments().refundCapture = originalRefund;
    }
    expect(refunded).toHaveLength(1);
    await expectFree(slot.id);
  });
});
