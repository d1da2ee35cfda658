/**
 * The client's data in their own hands (issue 23; GDPR articles 15, 17, 20), on PGlite and
 * PostgreSQL: the export holds everything about the client (profile, bookings, payments,
 * orders, class sign-ups, newsletter, messages, intake answers) and nothing about anyone else;
 * deletion is confirmed by a mailed link, leaves the finances page and the CSV files' sums as
 * they were, and leaves no personal data of that client in any table (each table read whole).
 */
// The exports end every row with CRLF, as the shared reader expects.
import { parseCsv } from '../../helpers/csv.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { addDays, zonedNow } from '../../../api/lib/time.ts';
import { insertOrder } from '../../../api/shop/orders.repo.ts';
import { insertSignup } from '../../../api/classes/signups.repo.ts';
import { useTestServer } from '../../helpers/server.ts';
import { recordingRealtime } from '../../helpers/realtime.ts';
import { addFreeSlot } from '../../helpers/slots.ts';
import { testDbKind } from '../../helpers/database.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { PNG, SIGNATURE } from '../../helpers/endpoints.ts';
import { everyTable as auditTables } from '../../helpers/every-table.ts';
import { must } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
let admin: string;
beforeAll(async () => {
  server.services.realtime = recordingRealtime();
  admin = await adminCookie(server);
});

const YOGA = 'Individual Yoga Session (60 min)';
const addSlot = (days = 6) => addFreeSlot(server, days);

type Client = Awaited<ReturnType<typeof createUser>> & { first: string; last: string; phone: string; city: string; marker: string };

/** A client with a trace in every place the site keeps one: unique words to look for afterwards. */
async function busyClient(tag: string): Promise<Client> {
  const r = randomBytes(4).toString('hex');
  const first = `Zel${tag}${r}`;
  const last = `Quor${tag}${r}`;
  const phone = `555${String(parseInt(r, 16) % 10_000_000).padStart(7, '0')}`;
  const city = `Marrow${tag}${r}`;
  const user = await createUser(server, { email: `zel-${tag}-${r}@example.com`, firstName: first, lastName: last });
  const { db } = server.services;
  await db
    .updateTable('users')
    .set({ phone, city, zipcode: '94110', pronoun: 'she/her', preferredName: `Z${tag}${r}` })
    .where('id', '=', user.id)
    .execute();
  const c: Client = { ...user, first, last, phone, city, marker: `intake-${tag}-${r}` };
  const cookie = { cookie: user.cookie };

  // Intake answers.
  const { version } = await (await server.api(`/api/user/${user.id}/intake`, { headers: cookie })).json();
  const saved = await server.api(`/api/user/${user.id}/intake`, {
    method: 'PUT',
    headers: cookie,
    json: {
      version,
      answers: {
        conditions: c.marker,
        injuries: 'None',
        pregnant: false,
        hopes: 'Rest',
        'emergency-contact': `${first} senior`,
        consent: true,
        signature: SIGNATURE,
      },
    },
  });
  expect(saved.status).toBe(200);

  // A paid session, through PayPal (the emulator), then a note she writes.
  const paid = await addSlot();
  const { orderID } = await (
    await server.api(`/api/bookings/${paid.id}/paypal-order`, { method: 'POST', headers: cookie, json: { amount: 90, sessionType: YOGA } })
  ).json();
  await server.api(`/dev/paypal/v2/checkout/orders/${orderID}/approve`, { method: 'POST', json: { givenName: first, surname: last, email: user.email } });
  const book = (slotId: string, payment: Record<string, string>) =>
    server.api(`/api/bookings/${slotId}/book`, {
      method: 'PUT',
      headers: cookie,
      json: { userId: user.id, firstName: first, lastName: last, email: user.email, sessionType: YOGA, message: `See you ${first}`, ...payment },
    });
  expect((await book(paid.id, { paypalOrderId: orderID })).status).toBe(200);
  expect(
    (await server.api(`/api/admin/bookings/${paid.id}/notes`, { method: 'PUT', headers: { cookie: admin }, json: { text: `note-${tag}-${r}` } })).status,
  ).toBe(200);

  // A second paid session, cancelled (refunded), and one with the coupon.
  const cancelled = await addSlot();
  const second = await (
    await server.api(`/api/bookings/${cancelled.id}/paypal-order`, { method: 'POST', headers: cookie, json: { amount: 105, sessionType: YOGA } })
  ).json();
  await server.api(`/dev/paypal/v2/checkout/orders/${second.orderID}/approve`, { method: 'POST', json: { givenName: first, surname: last } });
  expect((await book(cancelled.id, { paypalOrderId: second.orderID })).status).toBe(200);
  expect((await server.api(`/api/bookings/${cancelled.id}/cancel`, { method: 'POST', headers: cookie })).status).toBe(200);
  expect((await book((await addSlot()).id, { couponCode: server.env.BOOKING_COUPON })).status).toBe(200);

  // A chocolate order paid with their address, a class sign-up, the newsletter, a message.
  const order = await insertOrder(db, {
    paypalOrderId: `PAYPAL-${tag}-${r}`.toUpperCase(),
    payerName: `${first} ${last}`,
    payerEmail: user.email,
    itemsTotalCents: 3600,
    discountCents: 0,
    shippingCents: 500,
    totalCents: 4100,
    couponCode: null,
    isLocalPickup: false,
  });
  await db
    .updateTable('orders')
    .set({ shipToName: `${first} ${last}`, shipToAddress: `1 ${city} Way\nSan Francisco CA 94110` })
    .where('id', '=', order.id)
    .execute();
  await db.insertInto('orderItems').values({ orderId: order.id, productId: null, name: 'Sea Salt Tin', unitPriceCents: 1800, quantity: 2 }).execute();
  const event = await db
    .insertInto('events')
    .values({
      title: `Gentle Flow ${tag}${r}`,
      date: addDays(zonedNow(server.env.SITE_TIMEZONE).date, 9),
      time: '18:00',
      startsAt: new Date(Date.now() + 9 * 86_400_000),
      location: 'Studio',
    })
    .returning(['id', 'title', 'date'])
    .executeTakeFirstOrThrow();
  await insertSignup(db, {
    eventId: event.id,
    classTitle: event.title,
    date: event.date,
    name: `${first} ${last}`,
    email: user.email,
    phone,
    waiverAccepted: true,
    signaturePng: new Uint8Array(PNG),
  });
  await db.insertInto('subscribers').values({ email: user.email }).execute();
  await db
    .insertInto('contactMessages')
    .values({ name: `${first} ${last}`, email: user.email, message: `Hello from ${city}` })
    .execute();
  await db
    .insertInto('bookingRequests')
    .values({ name: `${first} ${last}`, email: user.email, phone, sessionType: 'yoga therapy', message: 'Intro?' })
    .execute();
  // She has read their record: the access log has a line.
  expect((await server.api(`/api/admin/users/${user.id}/record`, { headers: { cookie: admin } })).status).toBe(200);
  return c;
}

const tracesOf = (c: Client) => [c.email, c.first, c.last, c.phone, c.city, c.marker, c.id];

/** Every row of every table, as text, by table (the erasure's audit: tests/helpers/every-table.ts). */
const everyTable = () => auditTables(server.services.db);

let a: Client;
let b: Client;

/**
 * Her sessions are behind her when she leaves: what the books keep (issue 30 cancels and refunds
 * sessions still to come, tests/api/booking/booking-changes.test.ts). Time passes in the database: her
 * booked slots move a week into the past.
 */
async function sessionsBehind(client: Client) {
  await sql`update slots set starts_at = starts_at - interval '8 days', date = to_char((starts_at - interval '8 days') at time zone ${server.env.SITE_TIMEZONE}, 'YYYY-MM-DD') where booked_by = ${client.id}`.execute(
    server.services.db,
  );
}

describe(`a client's data on ${testDbKind()}`, () => {
  beforeAll(async () => {
    a = await busyClient('a');
    b = await busyClient('b');
  }, 60_000);

  it('the export holds everything about the client and nothing about anyone else', async () => {
    const res = await server.api(`/api/user/${a.id}/export`, { headers: { cookie: a.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.json"/);
    const text = await res.text();
    const data = JSON.parse(text);
    expect(data.profile).toMatchObject({ id: a.id, email: a.email, firstName: a.first, lastName: a.last, phone: a.phone, city: a.city });
    expect(data.bookings).toHaveLength(2);
    expect(data.bookings.map((x: { couponUsed: boolean }) => x.couponUsed).sort()).toEqual([false, true]);
    expect(data.cancelledBookings).toEqual([expect.objectContaining({ amount: '105.00', refund: 'refunded' })]);
    expect(data.payments.map((p: { amount: string }) => p.amount).sort()).toEqual(['41.00', '90.00']);
    expect(data.orders[0]).toMatchObject({ total: '41.00', items: [{ name: 'Sea Salt Tin', quantity: 2 }], shipTo: { name: `${a.first} ${a.last}` } });
    expect(data.classSignups[0]).toMatchObject({ email: a.email, waiverAccepted: true });
    expect(data.classSignups[0].signature).toMatch(/^data:image\/png;base64,/);
    expect(data.newsletter).toMatchObject({ email: a.email });
    expect(data.contactMessages[0].message).toBe(`Hello from ${a.city}`);
    expect(data.meetingRequests).toHaveLength(1);
    expect(data.intakeAnswers[0].answers).toContainEqual({ question: 'Health conditions', answer: a.marker });
    // Nothing about B, and not her notes.
    for (const trace of tracesOf(b)) expect(text, trace).not.toContain(trace);
    expect(text).not.toContain('note-a-');

    const html = await server.api(`/api/user/${a.id}/export/html`, { headers: { cookie: a.cookie } });
    expect(html.headers.get('content-type')).toMatch(/text\/html/);
    const page = await html.text();
    expect(page).toContain(a.marker);
    expect(page).toContain('<h2>Intake answers</h2>');
    for (const trace of tracesOf(b)) expect(page, trace).not.toContain(trace);

    // Another client can't ask for it; the admin can (for a client who asks by mail), and it is logged.
    expect((await server.api(`/api/user/${a.id}/export`, { headers: { cookie: b.cookie } })).status).toBe(403);
    const byAdmin = await server.api(`/api/admin/users/${a.id}/export`, { headers: { cookie: admin } });
    const forClient = await byAdmin.json();
    expect(forClient.profile.email).toBe(a.email);
    // Her notes come with her export (a client who asks her by mail), never the self-service one.
    expect(JSON.stringify(forClient.sessionNotes)).toContain('note-a-');
    expect(data.sessionNotes).toBeUndefined();
    expect(page).not.toContain('Session notes');
    const log = await (await server.api(`/api/admin/users/${a.id}/access-log`, { headers: { cookie: admin } })).json();
    expect(log.entries.map((e: { what: string }) => e.what)).toEqual(expect.arrayContaining(['data export', 'their data export']));
  });

  it('deletion by the mailed link keeps the books and their CSV sums, and leaves no personal data of the client in any table', async () => {
    const month = zonedNow(server.env.SITE_TIMEZONE).date.slice(0, 7);
    const books = async () => ({
      finances: await (await server.api(`/api/admin/finances?from=${month}&to=${month}`, { headers: { cookie: admin } })).json(),
      financesCsv: await (await server.api(`/api/admin/exports/finances.csv?from=${month}&to=${month}`, { headers: { cookie: admin } })).text(),
      ordersCsv: await (await server.api('/api/admin/exports/orders.csv', { headers: { cookie: admin } })).text(),
    });
    const csvSums = (csv: string) => {
      const [head, ...lines] = parseCsv(csv);
      return must(head, 'head').map((col, i) => [col, lines.reduce((sum, line) => sum + (Number(line[i]) || 0), 0)]);
    };
    await sessionsBehind(a);
    const before = await books();
    expect(before.finances.totals.incomeCents).toBeGreaterThan(0);
    // The search finds A wherever A is before the deletion (so its silence after means something).
    const holding = [...(await everyTable())].filter(([, rows]) => rows.includes(a.email) || rows.includes(a.first)).map(([t]) => t);
    expect(holding).toEqual(
      expect.arrayContaining([
        'users',
        'slots',
        'orders',
        'class_signups',
        'subscribers',
        'contact_messages',
        'booking_requests',
        'booking_cancellations',
        'mails',
      ]),
    );

    // Asked from the account page: a mail with the link; nothing is deleted yet.
    const asked = await server.api(`/api/user/${a.id}/delete-request`, { method: 'POST', headers: { cookie: a.cookie } });
    expect(asked.status).toBe(200);
    expect((await asked.json()).message).toMatch(/e-mail with a link/);
    expect((await server.api(`/api/user/${a.id}`, { headers: { cookie: a.cookie } })).status).toBe(200);
    const mail = (await readMailbox(server, a.email)).find((m) => m.subject.startsWith('Confirm the deletion'));
    expect(mail).toBeDefined();
    const token = new URL(must(/https?:\/\/\S+account-deletion\?token=[^\s"<]+/.exec(must(mail, 'mail').text), 'a match in mail.text')[0]).searchParams.get(
      'token',
    )!;
    // A client can't ask for someone else's deletion; a forged or altered token deletes nothing.
    expect((await server.api(`/api/user/${b.id}/delete-request`, { method: 'POST', headers: { cookie: a.cookie } })).status).toBe(403);
    expect((await server.api('/api/user/delete-account', { method: 'POST', json: { token: `${token.slice(0, -2)}xx` } })).status).toBe(400);

    const done = await server.api('/api/user/delete-account', { method: 'POST', json: { token } });
    expect(done.status).toBe(200);
    expect((await done.json()).message).toMatch(/deleted/);
    expect((await server.api('/api/user/delete-account', { method: 'POST', json: { token } })).status).toBe(400);
    expect((await server.api(`/api/user/${a.id}`, { headers: { cookie: a.cookie } })).status).toBe(401);

    // The books: the same figures, the same CSV sums.
    const after = await books();
    expect(after.finances).toEqual(before.finances);
    expect(after.financesCsv).toBe(before.financesCsv);
    expect(csvSums(after.ordersCsv)).toEqual(csvSums(before.ordersCsv));
    expect(parseCsv(after.ordersCsv)).toHaveLength(parseCsv(before.ordersCsv).length);

    // Table by table: no trace of A anywhere; B untouched.
    const tables = await everyTable();
    expect(tables.size).toBeGreaterThan(30);
    for (const [table, rows] of tables) {
      for (const trace of tracesOf(a)) expect(rows.toLowerCase().includes(trace.toLowerCase()), `${table} still holds ${trace}`).toBe(false);
    }
    expect(tables.get('users')).toContain(b.email);
    expect(tables.get('class_signups')).toContain(b.email);
    const bIntake = await server.api(`/api/user/${b.id}/intake`, { headers: { cookie: b.cookie } });
    expect((await bIntake.json()).answers.conditions).toBe(b.marker);
  });

  it('the admin can delete a client who asks by mail', async () => {
    const c = await busyClient('c');
    expect((await server.api(`/api/admin/users/${c.id}/erase`, { method: 'POST', headers: { cookie: c.cookie } })).status).toBe(401);
    const res = await server.api(`/api/admin/users/${c.id}/erase`, { method: 'POST', headers: { cookie: admin } });
    expect(res.status).toBe(200);
    const tables = await everyTable();
    for (const [table, rows] of tables) {
      for (const trace of tracesOf(c)) expect(rows.toLowerCase().includes(trace.toLowerCase()), `${table} still holds ${trace}`).toBe(false);
    }
    expect((await server.api(`/api/admin/users/${c.id}/erase`, { method: 'POST', headers: { cookie: admin } })).status).toBe(404);
  }, 60_000);

  it("the Clients list's Delete is the same erasure: no row names the client, the money records stay without who (issue 29)", async () => {
    const d = await busyClient('d');
    await sessionsBehind(d);
    const { db } = server.services;
    const money = async () => ({
      slots: (await db.selectFrom('slots').select('id').where('bookedAt', 'is not', null).execute()).length,
      orders: (await db.selectFrom('orders').select('id').execute()).length,
      attempts: (await db.selectFrom('paymentAttempts').select('id').execute()).length,
      cancellations: (await db.selectFrom('bookingCancellations').select('id').execute()).length,
    });
    const before = await money();
    const ordersCsv = async () => (await server.api('/api/admin/exports/orders.csv', { headers: { cookie: admin } })).text();
    const csvBefore = await ordersCsv();
    expect(csvBefore).toContain(d.email);

    const res = await server.api(`/api/admin/users/${d.id}`, { method: 'DELETE', headers: { cookie: admin } });
    expect(res.status).toBe(200);
    const tables = await everyTable();
    for (const [table, rows] of tables) {
      for (const trace of tracesOf(d)) expect(rows.toLowerCase().includes(trace.toLowerCase()), `${table} still holds ${trace}`).toBe(false);
    }
    // Every CSV export she can download is clean of them too.
    for (const name of ['orders', 'clients', 'signups', 'subscribers']) {
      const csv = await (await server.api(`/api/admin/exports/${name}.csv`, { headers: { cookie: admin } })).text();
      for (const trace of tracesOf(d)) expect(csv.toLowerCase().includes(trace.toLowerCase()), `${name}.csv still holds ${trace}`).toBe(false);
    }
    expect(await money()).toEqual(before);
    expect(parseCsv(await ordersCsv())).toHaveLength(parseCsv(csvBefore).length);
    expect((await server.api(`/api/admin/users/${d.id}`, { method: 'DELETE', headers: { cookie: admin } })).status).toBe(404);
  }, 60_000);
});
