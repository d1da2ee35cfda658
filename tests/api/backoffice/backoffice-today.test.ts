/**
 * Issue 20: the Today panel's API. GET /api/admin/today (admin only) answers what needs her
 * today, each group with a count and the admin list it links to; with seeded data, every count
 * equals what that list's API answers for the same filter: paid orders, sessions today and this
 * week (her calendar), the next classes with places and waitlists, failed newsletter mails, new
 * class sign-ups and new clients. Issue 30: pickups coming (paid or ready, not picked up) and
 * unpaid gigs with their amount and age are groups too, and every item links to its own row on
 * its group's list (the list's filter and `focus=<id>`), a row that list holds.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import type { TodayView } from '../../../contract/backoffice.ts';
import { inDateRange, isComingPickup, isSince, readListFilter } from '../../../contract/admin-links.ts';
import type { GigsView } from '../../../contract/books.ts';
import { TODAY_GROUPS } from '../../helpers/today.ts';
import { itemAt, must } from '../../helpers/guards.ts';

// The seed's classes (six weeks) and chocolates, and no other process's checks in the way.
const server = useTestServer({ seedContent: true, env: { NEWSLETTER_INTERVAL_MS: '3600000' } });
let admin: string;
let today: string;
/** Issue 30's rows: a pickup made ready, one picked up, and the classes she taught (the unpaid ones first). */
const seeded = { readyPickup: '', pickedUp: '', unpaidGigs: [] as string[], paidGig: '' };

const get = async <T>(path: string): Promise<T> => {
  const res = await server.api(path, { headers: { cookie: admin } });
  expect(res.status, path).toBe(200);
  return res.json() as Promise<T>;
};

async function buy(isLocalPickup: boolean, email: string) {
  const product = await server.services.db.selectFrom('products').select('id').where('inventory', '>', 5).executeTakeFirstOrThrow();
  const cart = { cartItems: [{ _id: product.id, quantity: 1 }], isLocalPickup };
  const { orderID } = await (await server.api('/api/orders/paypal', { method: 'POST', json: { shipToState: 'OR', ...cart } })).json();
  await server.api(`/dev/paypal/v2/checkout/orders/${orderID}/approve`, { method: 'POST', json: { givenName: 'Ana', surname: 'Lima', email } });
  const res = await server.api('/api/orders', { method: 'POST', json: { shipToState: 'OR', orderId: orderID, ...cart } });
  expect(res.status).toBe(201);
  return (await res.json()).order._id as string;
}

/** A booked session on her calendar's `date` at `time`, stored as a booking is. */
async function bookedSession(date: string, time: string, name: string, userId: string) {
  await server.services.db
    .insertInto('slots')
    .values({
      date,
      time,
      startsAt: zonedInstant(date, time, server.env.SITE_TIMEZONE),
      bookedBy: userId,
      bookedAt: new Date(),
      firstName: name,
      lastName: 'Client',
      email: `${name.toLowerCase()}@example.com`,
      sessionType: 'Individual Yoga Session (60 min)',
      message: '',
      couponUsed: true,
      place: 'Studio 3',
    })
    .execute();
}

beforeAll(async () => {
  admin = await adminCookie(server);
  const { db } = server.services;
  today = zonedNow(server.env.SITE_TIMEZONE).date;

  // Orders: two to ship, one to hand over, one shipped already.
  await buy(false, 'ship1@example.com');
  await buy(false, 'ship2@example.com');
  await buy(true, 'pickup@example.com');
  // Issue 30: pickups ahead, one made ready; one already picked up is not.
  seeded.readyPickup = await buy(true, 'ready@example.com');
  seeded.pickedUp = await buy(true, 'collected@example.com');
  for (const [id, status] of [
    [seeded.readyPickup, 'ready_for_pickup'],
    [seeded.pickedUp, 'picked_up'],
  ] as const)
    expect((await server.api(`/api/admin/orders/${id}/status`, { method: 'PUT', json: { status }, headers: { cookie: admin } })).status).toBe(200);
  const shipped = await buy(false, 'gone@example.com');
  expect((await server.api(`/api/admin/orders/${shipped}/status`, { method: 'PUT', json: { status: 'shipped' }, headers: { cookie: admin } })).status).toBe(
    200,
  );

  // Sessions: two today (one early, one late), one in three days, one in nine (not this week).
  const client = await createUser(server, { firstName: 'Ana' });
  await bookedSession(today, '00:01', 'Early', client.id);
  await bookedSession(today, '23:58', 'Late', client.id);
  await bookedSession(addDays(today, 3), '10:07', 'Soon', client.id);
  await bookedSession(addDays(today, 9), '10:07', 'Later', client.id);

  // A class in the coming days with sign-ups and a waitlist.
  const next = await db
    .selectFrom('events')
    .select(['id', 'title', 'date'])
    .where('startsAt', '>', new Date())
    .where('date', '<=', addDays(today, 6))
    .orderBy('startsAt')
    .executeTakeFirstOrThrow();
  for (const n of [1, 2, 3]) {
    await db
      .insertInto('classSignups')
      .values({ eventId: next.id, classTitle: next.title, date: next.date, name: `Student ${n}`, email: `s${n}@example.com` })
      .execute();
  }
  for (const n of [1, 2])
    await db
      .insertInto('classWaitlist')
      .values({ eventId: next.id, name: `Waiting ${n}`, email: `w${n}@example.com` })
      .execute();
  // An old sign-up (last month): not new.
  await db
    .insertInto('classSignups')
    .values({
      eventId: null,
      classTitle: 'Old Class',
      date: addDays(today, -30),
      name: 'Old',
      email: 'old@example.com',
      createdAt: new Date(Date.now() - 30 * 86_400_000),
    })
    .execute();

  // A newsletter whose outbox has two failed mails and one sent.
  const letter = await db
    .insertInto('newsletters')
    .values({ subject: 'Solstice', bodyMarkdown: 'Hi', status: 'sent', totalCount: 3 })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('newsletterOutbox')
    .values([
      { newsletterId: letter.id, email: 'f1@example.com', state: 'failed', error: 'bounced' },
      { newsletterId: letter.id, email: 'f2@example.com', state: 'failed', error: 'bounced' },
      { newsletterId: letter.id, email: 'ok@example.com', state: 'sent' },
    ])
    .execute();
  // A login link the mail service refused, and a booking mail skipped for a bounced address: the
  // same thing to her as a newsletter's failures (issue 29: one group).
  await db
    .insertInto('mailOutbox')
    .values([
      {
        kind: 'login-link',
        to: 'typo@exmaple.con',
        canonicalTo: 'typo@exmaple.con',
        about: '',
        subject: 'Your login link',
        text: 'Hi',
        state: 'failed',
        lastError: '422',
        nextAttemptAt: new Date(),
      },
      {
        kind: 'booking-confirmation',
        to: 'gone@example.com',
        canonicalTo: 'gone@example.com',
        about: '',
        subject: 'Booked',
        text: 'Hi',
        state: 'skipped',
        lastError: 'not sent: the address bounced',
        nextAttemptAt: new Date(),
        createdAt: new Date(Date.now() - 60_000),
      },
    ])
    .execute();

  // Gigs (issue 24): a class taught twelve days ago and one two days ago, not paid; one paid; one ahead.
  const location = await server.api('/api/admin/locations', {
    method: 'POST',
    json: { name: 'Riverside Studio', roundTripMiles: 12 },
    headers: { cookie: admin },
  });
  expect(location.status).toBe(201);
  const locationId = ((await location.json()) as { _id: string })._id;
  const gig = async (date: string, rateCents: number, paid = false) => {
    const res = await server.api('/api/admin/gigs', {
      method: 'POST',
      json: { date, time: '18:00', className: 'Vinyasa Flow', locationId, rateCents, frequency: 'perClass', paymentMethod: 'venmo', paid },
      headers: { cookie: admin },
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { ids: string[] }).ids[0]!;
  };
  seeded.unpaidGigs.push(await gig(addDays(today, -12), 6000), await gig(addDays(today, -2), 12000));
  seeded.paidGig = await gig(addDays(today, -5), 5000, true);
  await gig(addDays(today, 4), 7000);

  // Clients: one registered now (plus Ana above), one long ago.
  await createUser(server, { firstName: 'Bea' });
  await db
    .insertInto('users')
    .values({ email: 'veteran@example.com', firstName: 'Vera', lastName: 'Old', createdAt: new Date(Date.now() - 40 * 86_400_000) })
    .execute();
});

describe(`the Today panel on ${testDbKind()}`, () => {
  it('is the admin’s only', async () => {
    const client = await createUser(server);
    for (const headers of [{}, { cookie: client.cookie }] as Record<string, string>[])
      expect((await server.api('/api/admin/today', { headers })).status).toBe(401);
  });

  it('counts what each linked list shows for the same filter', async () => {
    const view = await get<TodayView>('/api/admin/today');
    expect(view.today).toBe(today);
    const weekEnd = addDays(today, 6);
    /** The filter a group's link asks its list for (contract/admin-links.ts, as the islands read it). */
    const filterOf = (href: string, page: string) => {
      const url = new URL(href, 'http://admin.test');
      expect(url.pathname).toBe(page);
      return readListFilter(url.search);
    };

    // Orders to ship or hand over: the orders list filtered to paid.
    const orderFilter = filterOf(view.ordersToDeliver.href, '/admin/orders');
    expect(orderFilter.status).toBe('paid');
    const paid = await get<{ _id: string; isLocalPickup: boolean }[]>(`/api/admin/orders?status=${orderFilter.status}`);
    expect(view.ordersToDeliver).toMatchObject({ count: paid.length, toShip: 2, toHandOver: 1 });
    expect(paid).toHaveLength(3);
    expect(view.ordersToDeliver.items.map((o) => o._id).sort()).toEqual(paid.map((o) => o._id).sort());

    // Sessions today and this week: the bookings list (upcoming and passed), by date on her calendar.
    const bookings = await get<{ bookedSlots: { _id: string; date: string }[]; passedSessions: { _id: string; date: string }[] }>('/api/bookings');
    const sessions = [...bookings.bookedSlots, ...bookings.passedSessions];
    const todayFilter = filterOf(view.sessionsToday.href, '/admin/bookings');
    expect(view.sessionsToday.count).toBe(sessions.filter((s) => s.date === today && inDateRange(s.date, todayFilter)).length);
    expect(view.sessionsToday.count).toBe(2);
    const weekFilter = filterOf(view.sessionsThisWeek.href, '/admin/bookings');
    expect(view.sessionsThisWeek.count).toBe(sessions.filter((s) => s.date >= today && s.date <= weekEnd && inDateRange(s.date, weekFilter)).length);
    expect(view.sessionsThisWeek.count).toBe(3);
    expect(view.sessionsToday.items.map((s) => s.clientName)).toEqual(['Early Client', 'Late Client']);
    expect(view.sessionsToday.items[0]).toMatchObject({ time: '00:01', place: 'Studio 3', sessionType: 'Individual Yoga Session (60 min)' });

    // The next classes: the calendar's classes not yet begun up to the end of the week, with
    // sign-ups and waitlists as the Classes page lists them.
    const classFilter = readListFilter(new URL(view.nextClasses.href, 'http://admin.test').search);
    const events = await get<{ _id: string; title: string; date: string; startsAt: string; capacity: number }[]>(`/api/events?from=${today}&to=${weekEnd}`);
    const ahead = events.filter((e) => new Date(e.startsAt).getTime() > Date.now() && inDateRange(e.date, classFilter));
    expect(view.nextClasses.count).toBe(ahead.length);
    expect(view.nextClasses.count).toBeGreaterThan(0);
    const signups = await get<{ classTitle: string; date: string; createdAt: string }[]>('/api/admin/signups');
    const waitlist = await get<{ eventId: string }[]>('/api/admin/waitlist');
    for (const c of view.nextClasses.items) {
      const e = ahead.find((x) => x._id === c._id)!;
      expect(c.taken, c.title).toBe(signups.filter((s) => s.classTitle === e.title && s.date === e.date).length);
      expect(c.capacity).toBe(e.capacity);
      expect(c.waitlist).toBe(waitlist.filter((w) => w.eventId === c._id).length);
    }
    expect(view.nextClasses.items[0]).toMatchObject({ taken: 3, waitlist: 2 });
    expect(view.nextClasses.waitlisted).toBe(waitlist.filter((w) => ahead.some((e) => e._id === w.eventId)).length);

    // Mails that failed, one group (issue 29): the mails that did not leave, then the newsletters'
    // failed mails, counted in mails, a tap from the Mail page that lists both.
    expect(Object.keys(view)).not.toContain('unsentMails');
    filterOf(view.failedMails.href, '/admin/mail');
    const letters = await get<{ id: string; failed: number }[]>('/api/admin/newsletters');
    const unsent = await get<{ id: string; to: string; state: string }[]>('/api/admin/mail/unsent');
    expect(view.failedMails.count).toBe(unsent.length + letters.reduce((n, l) => n + l.failed, 0));
    expect(view.failedMails.count).toBe(4);
    expect(view.failedMails.items).toEqual([
      expect.objectContaining({ source: 'outbox', kind: 'login-link', to: 'typo@exmaple.con', state: 'failed' }),
      expect.objectContaining({ source: 'outbox', kind: 'booking-confirmation', to: 'gone@example.com', state: 'skipped' }),
      { source: 'newsletter', newsletterId: itemAt(letters, 0).id, subject: 'Solstice', failed: 2, href: `/admin/mail?focus=${itemAt(letters, 0).id}` },
    ]);

    // New sign-ups and clients: the lists' rows since the link's instant (seven days ago).
    const signupFilter = filterOf(view.newSignups.href, '/admin/signups');
    expect(Date.now() - Date.parse(signupFilter.since!)).toBeGreaterThanOrEqual(7 * 86_400_000);
    expect(view.newSignups.count).toBe(signups.filter((s) => isSince(s.createdAt, signupFilter)).length);
    expect(view.newSignups.count).toBe(3);
    const clientFilter = filterOf(view.newClients.href, '/admin/users');
    const users = await get<{ createdAt: string }[]>('/api/admin/users');
    expect(view.newClients.count).toBe(users.filter((u) => isSince(u.createdAt, clientFilter)).length);
    expect(users.length).toBeGreaterThan(view.newClients.count);
  });

  it('counts pickups coming and unpaid gigs as their lists show them (issue 30)', async () => {
    const view = await get<TodayView>('/api/admin/today');
    // Pickups coming: the orders list's pickups paid or ready for pickup.
    const pickupUrl = new URL(view.comingPickups.href, 'http://admin.test');
    expect(pickupUrl.pathname).toBe('/admin/orders');
    const pickupFilter = readListFilter(pickupUrl.search);
    expect(pickupFilter.pickup).toBe('coming');
    const orders = await get<{ _id: string; status: string; isLocalPickup: boolean }[]>('/api/admin/orders');
    const coming = orders.filter(isComingPickup);
    expect(view.comingPickups.count).toBe(coming.length);
    expect(view.comingPickups.count).toBe(2);
    expect(view.comingPickups.ready).toBe(1);
    expect(view.comingPickups.items.map((o) => o._id).sort()).toEqual(coming.map((o) => o._id).sort());
    expect(view.comingPickups.items.find((o) => o._id === seeded.readyPickup)).toMatchObject({ status: 'ready_for_pickup', payerName: 'Ana Lima' });
    expect(view.comingPickups.items.map((o) => o._id)).not.toContain(seeded.pickedUp);

    // Unpaid gigs: the Gigs page's Unpaid list, oldest first, with the amount and the days waited.
    expect(new URL(view.unpaidGigs.href, 'http://admin.test').pathname).toBe('/admin/gigs');
    const gigs = await get<GigsView>('/api/admin/gigs');
    expect(view.unpaidGigs.count).toBe(gigs.unpaid.length);
    expect(view.unpaidGigs.count).toBe(2);
    expect(view.unpaidGigs.cents).toBe(gigs.unpaidCents);
    expect(view.unpaidGigs.cents).toBe(18000);
    expect(view.unpaidGigs.items.map((g) => g._id)).toEqual(seeded.unpaidGigs);
    expect(view.unpaidGigs.items[0]).toMatchObject({
      className: 'Vinyasa Flow',
      location: 'Riverside Studio',
      rateCents: 6000,
      ageDays: 12,
      date: addDays(today, -12),
    });
    expect(view.unpaidGigs.items[1]).toMatchObject({ rateCents: 12000, ageDays: 2 });
  });

  it('links every item to its own row on its group’s list (issue 30)', async () => {
    const view = await get<TodayView>('/api/admin/today');
    /** The rows' ids each list page draws, from its list API, under the group link's filter. */
    const orders = await get<{ _id: string; status: string; isLocalPickup: boolean }[]>('/api/admin/orders');
    const bookings = await get<{ bookedSlots: { _id: string; date: string }[]; passedSessions: { _id: string; date: string }[] }>('/api/bookings');
    const events = await get<{ _id: string }[]>('/api/events');
    const unsent = await get<{ id: string }[]>('/api/admin/mail/unsent');
    const letters = await get<{ id: string; failed: number }[]>('/api/admin/newsletters');
    const signups = await get<{ _id: string; createdAt: string }[]>('/api/admin/signups');
    const users = await get<{ _id: string; createdAt: string }[]>('/api/admin/users');
    const gigs = await get<GigsView>('/api/admin/gigs');
    const rowsOf: Record<string, (f: ReturnType<typeof readListFilter>) => string[]> = {
      '/admin/orders': (f) => orders.filter((o) => (!f.status || o.status === f.status) && (!f.pickup || isComingPickup(o))).map((o) => o._id),
      '/admin/bookings': (f) => [...bookings.bookedSlots, ...bookings.passedSessions].filter((s) => inDateRange(s.date, f)).map((s) => s._id),
      '/admin/dashboard': () => events.map((e) => e._id),
      '/admin/mail': () => [...unsent.map((m) => m.id), ...letters.filter((l) => l.failed > 0).map((l) => l.id)],
      '/admin/signups': (f) => signups.filter((s) => isSince(s.createdAt, f)).map((s) => s._id),
      '/admin/users': (f) => users.filter((u) => isSince(u.createdAt, f)).map((u) => u._id),
      '/admin/gigs': () => gigs.unpaid.map((g) => g._id),
    };
    for (const key of TODAY_GROUPS) {
      const group = view[key];
      expect(group.items.length, key).toBeGreaterThan(0);
      const list = new URL(group.href, 'http://admin.test');
      const listFilter = readListFilter(list.search);
      for (const item of group.items) {
        const url = new URL(item.href, 'http://admin.test');
        // The same page and filter as the group's link, and the row to open.
        expect(url.pathname, key).toBe(list.pathname);
        const { focus, ...filter } = readListFilter(url.search);
        expect(filter, key).toEqual(listFilter);
        expect(focus, key).toBeTruthy();
        expect(must(rowsOf[list.pathname], 'rowsOf[list.pathname]')(filter), `${key}: ${item.href}`).toContain(focus);
        const own = 'source' in item ? (item.source === 'newsletter' ? item.newsletterId : item.id) : item._id;
        expect(focus, key).toBe(own);
      }
    }
  });

  it('moves a count when the list changes: a shipped order leaves "to deliver"', async () => {
    const before = await get<TodayView>('/api/admin/today');
    const [first] = await get<{ _id: string; isLocalPickup: boolean }[]>('/api/admin/orders?status=paid');
    const status = must(first, 'first').isLocalPickup ? 'picked_up' : 'shipped';
    await server.api(`/api/admin/orders/${must(first, 'first')._id}/status`, { method: 'PUT', json: { status }, headers: { cookie: admin } });
    const after = await get<TodayView>('/api/admin/today');
    expect(after.ordersToDeliver.count).toBe(before.ordersToDeliver.count - 1);
    expect(after.ordersToDeliver.count).toBe((await get<unknown[]>('/api/admin/orders?status=paid')).length);
  });
});
