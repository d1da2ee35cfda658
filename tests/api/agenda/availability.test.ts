/**
 * Issue 35: her time, one rule. A slot that overlaps her class, her gig (with its place's travel
 * buffer), a booked session or a busy time she typed is not offered to clients, and a booking of
 * it is refused with 409 (the PayPal order before it too), including a busy time added between
 * the listing and the booking. What is called off or deleted frees the time again.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import { SLOT_TAKEN } from '../../../contract/booking.ts';
import type { ClientSlotsView } from '../../../contract/slots.ts';
import type { AgendaItem } from '../../../contract/agenda.ts';

const server = useTestServer({ resetRateLimits: true });
const YOGA = 'Individual Yoga Session (60 min)';
const zone = () => server.env.SITE_TIMEZONE;
let day: string;
const at = (time: string, d = day) => zonedInstant(d, time, zone());

const asAdmin = async (path: string, method = 'GET', json?: unknown) => server.api(path, { method, json, headers: { cookie: await adminCookie(server) } });

async function slot(time: string, fields: { place?: string; online?: boolean; date?: string } = {}) {
  const date = fields.date ?? day;
  return server.services.db
    .insertInto('slots')
    .values({ date, time, startsAt: at(time, date), place: fields.place ?? '', online: fields.online ?? false })
    .returning(['id', 'time'])
    .executeTakeFirstOrThrow();
}

async function offered(client: { id: string; cookie: string }, date = day): Promise<string[]> {
  const res = await server.api(`/api/bookings?userId=${client.id}&from=${date}&to=${date}`, { headers: { cookie: client.cookie } });
  expect(res.status).toBe(200);
  return ((await res.json()) as ClientSlotsView).availableSlots.map((s) => s.time).sort();
}

const book = (client: { id: string; email: string; cookie: string }, slotId: string) =>
  server.api(`/api/bookings/${slotId}/book`, {
    method: 'PUT',
    json: { userId: client.id, firstName: 'Ana', lastName: 'Lima', email: client.email, sessionType: YOGA, message: '', couponCode: 'JOURNEY' },
    headers: { cookie: client.cookie },
  });

const bookedBy = async (slotId: string) =>
  (await server.services.db.selectFrom('slots').select('bookedBy').where('id', '=', slotId).executeTakeFirstOrThrow()).bookedBy;

let riverside: string;
beforeAll(async () => {
  day = addDays(zonedNow(zone()).date, 12);
  const db = server.services.db;
  riverside = (
    await db.insertInto('locations').values({ name: 'Riverside Studio', roundTripTenthMiles: 124, bufferMinutes: 30 }).returning('id').executeTakeFirstOrThrow()
  ).id;
  // Her weekly gig at Riverside, 18:00 for an hour; her class at 10:00 for ninety minutes.
  await db
    .insertInto('gigs')
    .values({ date: day, time: '18:00', className: 'Riverside Flow', locationId: riverside, rateCents: 6000, frequency: 'perClass', paymentMethod: 'cash' })
    .execute();
  await db
    .insertInto('events')
    .values({ title: 'Gentle Flow', date: day, time: '10:00', startsAt: at('10:00'), location: 'Studio 3', minutes: 90 })
    .execute();
});

describe(`her agenda keeps clients off her taken time, on ${testDbKind()}`, () => {
  it('offers only the slots clear of her class, her gig with its travel buffer, and a busy time she typed', async () => {
    const client = await createUser(server);
    for (const t of ['08:00', '09:00', '10:30', '11:30', '13:30', '15:00', '16:30', '16:45', '19:15', '19:30']) await slot(t);
    const busy = await asAdmin('/api/admin/busy', 'POST', { start: at('14:00').toISOString(), end: at('15:00').toISOString(), title: 'Dentist' });
    expect(busy.status).toBe(201);
    const saved = (await busy.json()) as { message: string; busy: { id: string; title: string }; overlaps: unknown[] };
    expect(saved.busy.title).toBe('Dentist');

    // 10:30 is inside the class; 13:30 runs into the dentist; 16:45 and 19:15 are within half an
    // hour of the gig at Riverside (her drive there and back); 09:00, 11:30, 15:00, 16:30 and 19:30 just touch.
    expect(await offered(client)).toEqual(['08:00', '09:00', '11:30', '15:00', '16:30', '19:30']);

    // Deleting the busy time frees 13:30 at once.
    expect((await asAdmin(`/api/admin/busy/${saved.busy.id}`, 'DELETE')).status).toBe(200);
    expect(await offered(client)).toContain('13:30');
    expect((await asAdmin(`/api/admin/busy/${saved.busy.id}`, 'DELETE')).status).toBe(404);
  });

  it('a slot at the place of the gig itself needs no drive; an online one needs none either', async () => {
    const client = await createUser(server);
    const date = addDays(day, 0);
    const there = await slot('19:05', { place: 'riverside studio ', date });
    const elsewhere = await slot('19:10', { place: 'Studio 3', date });
    const online = await slot('16:59', { online: true, date });
    const times = await offered(client, date);
    expect(times).toContain(there.time);
    expect(times).not.toContain(elsewhere.time);
    // Online right before the gig: she still has to drive to Riverside (its buffer counts).
    expect(times).not.toContain(online.time);
  });

  it('a booked session takes her time: the slot overlapping it is no longer offered, nor bookable', async () => {
    const date = addDays(day, 1);
    const [first, second] = [await slot('09:00', { date }), await slot('09:30', { date })];
    const ana = await createUser(server);
    const ben = await createUser(server);
    expect((await book(ana, first.id)).status).toBe(200);
    expect(await offered(ben, date)).not.toContain('09:30');
    const res = await book(ben, second.id);
    expect(res.status).toBe(409);
    expect((await res.json()).message).toBe(SLOT_TAKEN);
    expect(await bookedBy(second.id)).toBeNull();
  });

  it('a busy time added after the page listed a slot wins: the booking and the PayPal order are refused, nothing booked', async () => {
    const date = addDays(day, 2);
    const s = await slot('12:00', { date });
    const client = await createUser(server);
    expect(await offered(client, date)).toContain('12:00');
    const busy = await asAdmin('/api/admin/busy', 'POST', { start: at('11:30', date).toISOString(), end: at('12:15', date).toISOString(), title: 'Call' });
    expect(busy.status).toBe(201);

    const order = await server.api(`/api/bookings/${s.id}/paypal-order`, {
      method: 'POST',
      json: { amount: 80, sessionType: YOGA },
      headers: { cookie: client.cookie },
    });
    expect(order.status).toBe(409);
    expect((await order.json()).message).toBe(SLOT_TAKEN);
    const res = await book(client, s.id);
    expect(res.status).toBe(409);
    expect(await bookedBy(s.id)).toBeNull();
  });

  it('what is called off frees its time: a cancelled gig and a class she called off block nothing', async () => {
    const date = addDays(day, 3);
    const db = server.services.db;
    await db
      .insertInto('gigs')
      .values({ date, time: '18:00', className: 'Off', locationId: riverside, rateCents: 6000, frequency: 'perClass', paymentMethod: 'cash', cancelled: true })
      .execute();
    await db
      .insertInto('events')
      .values({ title: 'Called off', date, time: '10:00', startsAt: at('10:00', date), cancelledAt: new Date() })
      .execute();
    await slot('10:15', { date });
    await slot('18:15', { date });
    const client = await createUser(server);
    expect(await offered(client, date)).toEqual(['10:15', '18:15']);
  });

  it('her agenda lists the day in order, each item with what it overlaps and the miles between her places', async () => {
    const date = addDays(day, 4);
    const db = server.services.db;
    await db.insertInto('locations').values({ name: 'Hillside Hall', roundTripTenthMiles: 80, bufferMinutes: 15 }).execute();
    await db
      .insertInto('events')
      .values({ title: 'Morning Flow', date, time: '09:00', startsAt: at('09:00', date), location: 'Hillside Hall' })
      .execute();
    await db
      .insertInto('gigs')
      .values({ date, time: '12:00', className: 'Noon Flow', locationId: riverside, rateCents: 6000, frequency: 'perClass', paymentMethod: 'cash' })
      .execute();
    const busy = (await (
      await asAdmin('/api/admin/busy', 'POST', { start: at('12:45', date).toISOString(), end: at('13:30', date).toISOString(), title: 'Lunch' })
    ).json()) as { busy: { id: string }; overlaps: { title: string }[] };
    expect(busy.overlaps.map((o) => o.title)).toEqual(['Noon Flow']);

    const res = await asAdmin(`/api/admin/agenda?from=${date}&to=${date}`);
    expect(res.status).toBe(200);
    const items = (await res.json()) as AgendaItem[];
    expect(items.map((i) => [i.kind, i.title])).toEqual([
      ['class', 'Morning Flow'],
      ['gig', 'Noon Flow'],
      ['busy', 'Lunch'],
    ]);
    const [flow, gig, lunch] = items as [AgendaItem, AgendaItem, AgendaItem];
    expect(gig.start).toBe(at('12:00', date).toISOString());
    expect(gig.end).toBe(at('13:00', date).toISOString());
    expect(gig.place).toBe('Riverside Studio');
    expect(gig.conflictsWith).toEqual([busy.busy.id]);
    expect(lunch.conflictsWith).toEqual([gig.id]);
    expect(lunch.source).toBe('manual');
    expect(flow.conflictsWith).toEqual([]);
    // Hillside (8.0 mi round trip) to Riverside (12.4): half of each, through home.
    expect(gig.milesFromPrevious).toBe(10.2);

    expect((await asAdmin(`/api/admin/agenda?from=${date}&to=${addDays(date, -1)}`)).status).toBe(400);
    expect((await asAdmin(`/api/admin/agenda?from=${date}&to=${addDays(date, 200)}`)).status).toBe(400);
    expect((await asAdmin(`/api/admin/agenda?from=tomorrow&to=${date}`)).status).toBe(400);
  });

  it('a busy time is hers alone: refused without her session, refused when it ends before it starts, nothing saved', async () => {
    const before = await server.services.db.selectFrom('busyTimes').select('id').execute();
    const client = await createUser(server);
    const json = { start: at('08:00').toISOString(), end: at('09:00').toISOString(), title: 'x' };
    expect((await server.api('/api/admin/busy', { method: 'POST', json })).status).toBe(401);
    expect((await server.api('/api/admin/busy', { method: 'POST', json, headers: { cookie: client.cookie } })).status).toBe(401);
    expect((await server.api(`/api/admin/agenda?from=${day}&to=${day}`, { headers: { cookie: client.cookie } })).status).toBe(401);
    const backwards = await asAdmin('/api/admin/busy', 'POST', { ...json, end: at('07:00').toISOString() });
    expect(backwards.status).toBe(400);
    expect((await backwards.json()).message).toMatch(/end must come after the start/i);
    expect((await asAdmin('/api/admin/busy', 'POST', { ...json, start: 'tomorrow' })).status).toBe(400);
    expect(await server.services.db.selectFrom('busyTimes').select('id').execute()).toHaveLength(before.length);
  });
});
