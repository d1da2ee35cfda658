/**
 * Issue 35, her Week (decision 0044): lengths and travel buffers saved and checked, her agenda
 * in order with its conflicts and miles, and the warning that names what a new slot, event or gig
 * overlaps (saved all the same: she may go ahead).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import type { AgendaItem, OverlapWarning } from '../../../contract/agenda.ts';
import type { EventsAddedView } from '../../../contract/events.ts';
import type { GigsAddedView, GigsView, LocationView } from '../../../contract/books.ts';
import type { SlotsAddedView } from '../../../contract/slots.ts';
import { itemAt } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
let cookie = '';
beforeAll(async () => {
  cookie = await adminCookie(server);
});

const zone = () => server.env.SITE_TIMEZONE;
/** A day well clear of the seed's slots and classes, on her clocks. */
const day = (inDays: number) => addDays(zonedNow(zone()).date, inDays);
const D = () => day(45);
const at = (date: string, time: string) => zonedInstant(date, time, zone()).toISOString();

async function call<T>(method: string, path: string, json?: unknown): Promise<{ status: number; body: T }> {
  const res = await server.api(path, { method, headers: { cookie }, ...(json !== undefined ? { json } : {}) });
  return { status: res.status, body: (await res.json()) as T };
}

const gigBody = (locationId: string, fields: Record<string, unknown>) => ({
  className: 'Riverside Flow',
  locationId,
  rateCents: 6000,
  frequency: 'perClass',
  paymentMethod: 'cash',
  ...fields,
});

describe('her week', () => {
  let riverside: LocationView;
  let oakHall: LocationView;
  const ids = { class: '', busy: '', session: '', gig: '' };

  it('a location keeps its travel buffer: saved, shown, kept by an edit that leaves it out, refused out of range', async () => {
    const made = await call<LocationView>('POST', '/api/admin/locations', { name: 'Riverside Studio', roundTripMiles: 12, bufferMinutes: 30 });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ _id: expect.any(String), name: 'Riverside Studio', roundTripMiles: 12, bufferMinutes: 30 });
    riverside = made.body;
    const plain = await call<LocationView>('POST', '/api/admin/locations', { name: 'Oak Hall', roundTripMiles: 20 });
    expect(plain.body.bufferMinutes).toBe(0);
    oakHall = plain.body;

    for (const [bad, message] of [
      [241, 'Travel buffer must be at most 240 minutes'],
      [-5, 'Travel buffer must not be negative'],
      [12.5, 'Travel buffer must be a whole number of minutes'],
      ['30', 'Travel buffer must be a whole number of minutes'],
    ] as const) {
      const refused = await call<{ message: string }>('POST', '/api/admin/locations', { name: 'Elm Studio', roundTripMiles: 3, bufferMinutes: bad });
      expect(refused.status, String(bad)).toBe(400);
      expect(refused.body.message).toContain(message);
      const edit = await call<{ message: string }>('PUT', `/api/admin/locations/${riverside._id}`, {
        name: 'Riverside Studio',
        roundTripMiles: 12,
        bufferMinutes: bad,
      });
      expect(edit.status).toBe(400);
    }
    const list = await call<LocationView[]>('GET', '/api/admin/locations');
    expect(list.body.map((l) => [l.name, l.bufferMinutes])).toEqual([
      ['Oak Hall', 0],
      ['Riverside Studio', 30],
    ]);

    // An edit that says nothing of the buffer keeps it; one that does changes it.
    const renamed = await call<LocationView>('PUT', `/api/admin/locations/${riverside._id}`, { name: 'Riverside Studio', roundTripMiles: 12 });
    expect(renamed.body.bufferMinutes).toBe(30);
    const changed = await call<LocationView>('PUT', `/api/admin/locations/${riverside._id}`, {
      name: 'Riverside Studio',
      roundTripMiles: 12,
      bufferMinutes: 45,
    });
    expect(changed.body.bufferMinutes).toBe(45);
    await call('PUT', `/api/admin/locations/${riverside._id}`, { name: 'Riverside Studio', roundTripMiles: 12, bufferMinutes: 30 });
  });

  it("an event's length: 60 unless she says, saved by add and edit, refused out of range with nothing changed", async () => {
    const plain = await call<EventsAddedView>('POST', '/api/admin/events', { title: 'Plain Class', date: day(50), time: '10:00' });
    expect(plain.status).toBe(201);
    expect(itemAt(plain.body.events, 0).minutes).toBe(60);
    expect(plain.body.overlaps).toEqual([]);

    const made = await call<EventsAddedView>('POST', '/api/admin/events', {
      title: 'Morning Flow',
      date: D(),
      time: '09:00',
      location: 'Oak Hall',
      minutes: 90,
    });
    expect(made.status).toBe(201);
    expect(itemAt(made.body.events, 0).minutes).toBe(90);
    ids.class = itemAt(made.body.events, 0)._id;

    const count = async () => (await call<unknown[]>('GET', '/api/admin/events')).body.length;
    const before = await count();
    for (const [bad, message] of [
      [0, 'Length must be at least 1 minute'],
      [1441, 'Length must be at most 1440 minutes (a day)'],
      [30.5, 'Length must be a whole number of minutes'],
      ['90', 'Length must be a whole number of minutes'],
    ] as const) {
      const refused = await call<{ message: string }>('POST', '/api/admin/events', { title: 'Bad', date: D(), time: '07:00', minutes: bad });
      expect(refused.status, String(bad)).toBe(400);
      expect(refused.body.message).toContain(message);
      const edit = await call<{ message: string }>('PUT', `/api/events/${ids.class}`, { minutes: bad });
      expect(edit.status).toBe(400);
      expect(edit.body.message).toContain(message);
    }
    expect(await count()).toBe(before);
    const edited = await call<{ event: { minutes: number } }>('PUT', `/api/events/${ids.class}`, { minutes: 75 });
    expect(edited.body.event.minutes).toBe(75);
    // The public calendar shows the length too (an added field; the rest as it was).
    const pub = await server.api(`/api/events?from=${D()}&to=${D()}`);
    expect(((await pub.json()) as { _id: string; minutes: number }[]).find((e) => e._id === ids.class)?.minutes).toBe(75);
  });

  it("a gig's length: 60 unless she says, saved, listed and edited; refused out of range with no class made", async () => {
    const gigs = async () => (await call<GigsView>('GET', '/api/admin/gigs')).body.gigs;
    const refused = await call<{ message: string }>('POST', '/api/admin/gigs', gigBody(riverside._id, { date: D(), time: '18:00', minutes: 0 }));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('Length must be at least 1 minute');
    expect(await gigs()).toEqual([]);

    const made = await call<GigsAddedView>('POST', '/api/admin/gigs', gigBody(riverside._id, { date: D(), time: '18:00' }));
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ message: 'Gig added.', ids: [expect.any(String)], overlaps: [] });
    ids.gig = made.body.ids[0]!;
    expect(itemAt(await gigs(), 0).minutes).toBe(60);

    const edit = await call<{ minutes: number }>('PUT', `/api/admin/gigs/${ids.gig}`, { minutes: 1441 });
    expect(edit.status).toBe(400);
    const longer = await call<{ minutes: number }>('PUT', `/api/admin/gigs/${ids.gig}`, { minutes: 90 });
    expect(longer.body.minutes).toBe(90);
    await call('PUT', `/api/admin/gigs/${ids.gig}`, { minutes: 60 });
  });

  it('her agenda: the class, her busy time, a booked session and the gig in order; the travel buffer makes the session and the gig conflict', async () => {
    const busy = await call<{ busy: { id: string } } & OverlapWarning>('POST', '/api/admin/busy', {
      start: at(D(), '12:00'),
      end: at(D(), '13:00'),
      title: 'Dentist',
    });
    expect(busy.status).toBe(201);
    ids.busy = busy.body.busy.id;
    // A session booked at Oak Hall 17:00–18:00: the gig at Riverside Studio starts at 18:00, and its 30 minutes' drive overlap it.
    const session = await server.services.db
      .insertInto('slots')
      .values({
        date: D(),
        time: '17:00',
        startsAt: new Date(at(D(), '17:00')),
        place: 'Oak Hall',
        bookedAt: new Date(),
        firstName: 'Ana',
        lastName: 'Lima',
        sessionType: 'Yoga Therapy',
        duration: '60 mins',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.session = session.id;

    const agenda = await call<AgendaItem[]>('GET', `/api/admin/agenda?from=${D()}&to=${D()}`);
    expect(agenda.status).toBe(200);
    // One item of D: its id, kind, times on her clocks and title, and what else it carries.
    const item = (id: string, kind: string, from: string, to: string, title: string, rest: object) => ({
      id,
      kind,
      start: at(D(), from),
      end: at(D(), to),
      title,
      ...rest,
    });
    expect(agenda.body).toEqual([
      item(ids.class, 'class', '09:00', '10:15', 'Morning Flow', { place: 'Oak Hall', conflictsWith: [] }),
      item(ids.busy, 'busy', '12:00', '13:00', 'Dentist', { source: 'manual', conflictsWith: [] }),
      item(ids.session, 'session', '17:00', '18:00', 'Yoga Therapy: Ana Lima', { place: 'Oak Hall', conflictsWith: [ids.gig] }),
      // Half of each place's round trip from home: (20 + 12) / 2.
      item(ids.gig, 'gig', '18:00', '19:00', 'Riverside Flow', { place: 'Riverside Studio', conflictsWith: [ids.session], milesFromPrevious: 16 }),
    ]);
  });

  it('slots she adds are saved and the answer names what each overlaps: the gig, its travel buffer, her busy time; a clear one nothing', async () => {
    const add = (time: string, place = 'Oak Hall') => call<SlotsAddedView>('POST', '/api/bookings', { slots: [{ date: D(), time, place }] });
    const gig = { id: ids.gig, kind: 'gig', title: 'Riverside Flow', start: at(D(), '18:00'), end: at(D(), '19:00') };
    const during = await add('18:30');
    expect(during.status).toBe(201);
    expect(during.body.added).toBe(1);
    expect(during.body.overlaps).toEqual([gig]);
    // 19:15 at Oak Hall: after the gig's end, inside its 30 minutes' drive.
    expect((await add('19:15')).body.overlaps).toEqual([gig]);
    // At Riverside Studio itself no drive is needed.
    expect((await add('19:05', 'Riverside Studio')).body.overlaps).toEqual([]);
    expect((await add('12:30')).body.overlaps).toEqual([{ id: ids.busy, kind: 'busy', title: 'Dentist', start: at(D(), '12:00'), end: at(D(), '13:00') }]);
    expect((await add('20:00')).body.overlaps).toEqual([]);

    // A weekly run: only the week that falls on D overlaps.
    const run = await call<SlotsAddedView>('POST', '/api/bookings', {
      slots: [-14, -7, 0, 7].map((d) => ({ date: addDays(D(), d), time: '12:15', place: 'Oak Hall' })),
    });
    expect(run.body.added).toBe(4);
    expect(run.body.overlaps.map((o) => o.id)).toEqual([ids.busy]);
  });

  it('a repeating event and a repeating gig: every occurrence weighed, what they overlap named once each', async () => {
    // Weekly from a week before D: its second class, on D, lands on her dentist.
    const events = await call<EventsAddedView>('POST', '/api/admin/events', { title: 'Lunch Yoga', date: addDays(D(), -7), time: '12:30', repeat: 'weekly' });
    expect(events.status).toBe(201);
    expect(events.body.events).toHaveLength(12);
    expect(events.body.overlaps).toEqual([{ id: ids.busy, kind: 'busy', title: 'Dentist', start: at(D(), '12:00'), end: at(D(), '13:00') }]);

    // Weekly at Oak Hall from two weeks before D to D: its class on D overlaps Morning Flow (09:00–10:15).
    const gigs = await call<GigsAddedView>('POST', '/api/admin/gigs', {
      ...gigBody(oakHall._id, { date: addDays(D(), -14), time: '09:30', className: 'Hall Hatha' }),
      frequency: 'weekly',
      repeatUntil: D(),
    });
    expect(gigs.status).toBe(201);
    expect(gigs.body.ids).toHaveLength(3);
    expect(gigs.body.overlaps).toEqual([{ id: ids.class, kind: 'class', title: 'Morning Flow', start: at(D(), '09:00'), end: at(D(), '10:15') }]);
  });

  it('a long list of overlaps is capped: the first ten named, the rest counted', async () => {
    const first = day(70);
    for (let w = 0; w < 12; w++) {
      const date = addDays(first, w * 7);
      const res = await call('POST', '/api/admin/busy', { start: at(date, '07:00'), end: at(date, '08:00'), title: `Early ${w}` });
      expect(res.status).toBe(201);
    }
    const gigs = await call<GigsAddedView>('POST', '/api/admin/gigs', {
      ...gigBody(riverside._id, { date: first, time: '07:30', className: 'Sunrise' }),
      frequency: 'weekly',
      repeatUntil: addDays(first, 77),
    });
    expect(gigs.status).toBe(201);
    expect(gigs.body.ids).toHaveLength(12);
    expect(gigs.body.overlaps.map((o) => o.title)).toEqual(Array.from({ length: 10 }, (_, w) => `Early ${w}`));
    expect(gigs.body.moreOverlaps).toBe(2);
  });
});
