/** The endpoint table's booking part (tests/helpers/endpoints.ts holds the whole table, in order). */
import { pagedList, BOOKING_SESSION, text, optionalText, match, type Endpoint, type Fixtures } from './common.ts';
import { SESSION_TYPES } from '../../../contract/booking.ts';
import { addDays, zonedInstant } from '../../../api/lib/time.ts';

export const BOOKING_ENDPOINTS: Endpoint[] = [
  // --- slots and booked sessions -------------------------------------------------------------
  {
    method: 'POST',
    route: '/api/bookings',
    auth: 'admin',
    body: 'json',
    fields: {
      slots: {
        kind: 'array',
        required: true,
        bad: [
          [],
          [{}],
          [null],
          ['2031-01-01 10:00'],
          [{ date: '2031-02-30', time: '10:00' }],
          [{ date: '2031-03-01', time: '25:00' }],
          [{ date: '2001-03-01', time: '10:00' }],
          Array.from({ length: 367 }, () => ({ date: '2031-03-01', time: '10:00' })),
        ],
      },
    },
    writes: ['slots'],
    example: async (fx) => ({
      json: {
        slots: [
          { date: fx.date(60 + (Date.now() % 200)), time: '10:00' },
          { date: fx.date(61 + (Date.now() % 200)), time: '11:00' },
        ],
      },
    }),
  },
  pagedList('/api/bookings', { list: optionalText({ in: 'query', role: 'match', bad: ['all', 'passed'] }) }),
  // One slot's place (issue 20): an address or an http(s) link; '' for none, so not "required".
  {
    method: 'PUT',
    route: '/api/bookings/:id/place',
    auth: 'admin',
    body: 'json',
    fields: { place: optionalText({ bad: ['javascript://alert(1)', 'ftp://files.example.com/x', 'Room 1\nRoom 2'] }) },
    writes: ['slots'],
    example: async (fx) => ({ params: { id: (await fx.slot()).id }, json: { place: 'Studio 3, 12 Alder St' } }),
  },
  {
    method: 'GET',
    route: '/api/bookings?userId',
    auth: 'user',
    body: 'none',
    fields: { userId: match({ in: 'query' }) },
    writes: [],
    example: async (fx) => {
      const user = await fx.user();
      return { cookie: user.cookie, query: { userId: user.id } };
    },
  },
  {
    method: 'DELETE',
    route: '/api/bookings/:id',
    auth: 'admin',
    body: 'none',
    writes: ['slots'],
    example: async (fx) => ({ params: { id: (await fx.slot()).id } }),
  },
  {
    method: 'POST',
    route: '/api/bookings/validate-coupon',
    auth: 'user',
    body: 'json',
    fields: { code: match() },
    writes: [],
    example: async (fx) => ({ cookie: (await fx.user()).cookie, json: { code: fx.server.env.BOOKING_COUPON.toLowerCase() } }),
  },
  {
    method: 'POST',
    route: '/api/bookings/:slotId/paypal-order',
    auth: 'user',
    body: 'json',
    fields: {
      amount: { kind: 'money', required: true, bad: [49.99, 200.01, 0, -80, '80.123', '8e1', 'NaN', 'Infinity', '0x50', ' ', 1e308] },
      sessionType: match(),
      // Issue 33: a gift card pays what it holds, the order the rest.
      giftCardCode: optionalText({ role: 'match' }),
    },
    // The order is recorded, so an approval never finalized can be found again (issue 20).
    writes: ['bookingOrders'],
    example: async (fx) => ({ cookie: (await fx.user()).cookie, params: { slotId: (await fx.slot()).id }, json: { amount: 80, sessionType: BOOKING_SESSION } }),
  },
  {
    method: 'PUT',
    route: '/api/bookings/:slotId/book',
    auth: 'user',
    body: 'json',
    fields: {
      userId: match(),
      firstName: text(),
      lastName: text(),
      // Checked, never stored: the confirmation goes to the account's own address.
      email: text({ role: 'lookup' }),
      sessionType: match(),
      message: optionalText(),
      paypalOrderId: match(),
      couponCode: optionalText({ role: 'match' }),
      // Issue 32: a session credit instead of a payment; with the example's PayPal order any value is one way too many.
      useCredit: { kind: 'boolean', role: 'match', bad: [false] },
      // Issue 33: a gift card; beside the example's PayPal order it pays part, and without its amount any code is refused.
      giftCardCode: optionalText({ role: 'match' }),
      amount: { kind: 'money', bad: [0, -5, 1e7, '12.345'] },
    },
    writes: ['slots', 'paymentAttempts', 'mails', 'ledgerEntries', 'creditLots'],
    example: async (fx) => {
      const user = await fx.user({ firstName: 'Ana', lastName: 'Lima' });
      const slot = await fx.slot();
      const paypalOrderId = await fx.slotOrder(user, slot.id);
      return {
        cookie: user.cookie,
        params: { slotId: slot.id },
        json: {
          userId: user.id,
          firstName: 'Ana',
          lastName: 'Lima',
          email: user.email,
          sessionType: BOOKING_SESSION,
          message: 'A sore shoulder.',
          paypalOrderId,
        },
      };
    },
  },
  // Issue 32: a weekly series, booked with the client's credits (two weeks, two credits).
  {
    method: 'POST',
    route: '/api/user/:id/series',
    auth: 'user',
    body: 'json',
    fields: {
      slotId: match(),
      weeks: { kind: 'number', required: true, bad: [1, 13, 2.5] },
      sessionType: match(),
      message: optionalText(),
    },
    writes: ['slots', 'mails', 'ledgerEntries'],
    example: async (fx) => {
      const user = await fx.user({ firstName: 'Ana', lastName: 'Lima' });
      await seriesCredits(fx, user.id);
      const { first } = await weeklySlots(fx);
      return { cookie: user.cookie, params: { id: user.id }, json: { slotId: first.id, weeks: 2, sessionType: BOOKING_SESSION, message: 'Tuesdays suit me.' } };
    },
  },
  {
    method: 'POST',
    route: '/api/admin/users/:id/series',
    auth: 'admin',
    body: 'json',
    fields: {
      date: match({ bad: ['2031-02-30', '31-01-2031'] }),
      time: match({ bad: ['25:00', '9am'] }),
      weeks: { kind: 'number', required: true, bad: [1, 13, 2.5] },
      sessionType: match(),
      createSlots: { kind: 'boolean' },
    },
    writes: ['slots', 'mails', 'ledgerEntries'],
    example: async (fx) => {
      const user = await fx.user();
      await seriesCredits(fx, user.id);
      const { first } = await weeklySlots(fx);
      return {
        cookie: await fx.adminCookie(),
        params: { id: user.id },
        json: { date: first.date, time: first.time, weeks: 2, sessionType: BOOKING_SESSION, createSlots: true },
      };
    },
  },
  // Issue 32: the teacher books a free slot for a client, with one of their credits or a payment she records.
  {
    method: 'POST',
    route: '/api/admin/users/:id/sessions',
    auth: 'admin',
    body: 'json',
    fields: {
      slotId: match(),
      sessionType: match(),
      pay: {
        kind: 'object',
        required: true,
        role: 'match',
        bad: [
          {},
          { credit: false },
          { credit: true, method: 'cash' },
          { method: 'bitcoin', amountCents: 100, paidOn: '2031-01-01' },
          { method: 'cash', amountCents: -1, paidOn: '2031-01-01' },
          { method: 'cash', amountCents: 100, paidOn: '2031-02-30' },
        ],
      },
      message: optionalText(),
      sendConfirmation: { kind: 'boolean' },
    },
    writes: ['slots', 'creditLots', 'ledgerEntries', 'mails'],
    example: async (fx) => ({
      cookie: await fx.adminCookie(),
      params: { id: (await fx.user()).id },
      json: {
        slotId: (await fx.slot()).id,
        sessionType: BOOKING_SESSION,
        pay: { method: 'cash', amountCents: 9_000, paidOn: fx.date(0) },
        message: 'By phone.',
      },
    }),
  },
];

/** Two session credits of every type for `userId` (her adjustment, written as the ledger writes it). */
async function seriesCredits(fx: Fixtures, userId: string) {
  const lot = await fx.db
    .insertInto('creditLots')
    .values({
      userId,
      packageId: null,
      name: 'Sessions given',
      sessionTypes: JSON.stringify(SESSION_TYPES),
      quantity: 2,
      priceCents: 0,
      method: 'adjustment',
      paidOn: fx.date(0),
      expiresOn: null,
      createdBy: 'admin',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await fx.db.insertInto('ledgerEntries').values({ userId, lotId: lot.id, change: 2, reason: 'adjusted', note: '', createdBy: 'admin' }).execute();
}

/** A free slot and the one a week after it, at the same time. */
async function weeklySlots(fx: Fixtures) {
  const first = await fx.slot();
  const date = addDays(first.date, 7);
  fx.takeTime(date, first.time);
  await fx.db
    .insertInto('slots')
    .values({ date, time: first.time, startsAt: zonedInstant(date, first.time, fx.server.env.SITE_TIMEZONE) })
    .onConflict((oc) => oc.columns(['date', 'time']).doNothing())
    .execute();
  return { first };
}
