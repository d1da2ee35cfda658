/**
 * Issue 35, the claims racing her busy times, on PostgreSQL (vitest.config.ts leaves it out of
 * api-pglite: PGlite runs one transaction at a time, so nothing can interleave there).
 *
 * - Twenty clients book twenty slots around a busy time she just added, all at once: none inside
 *   it (or within the slot's length of it) is booked, every one outside is.
 * - A busy time being added (its transaction holds the agenda's lock, not yet committed) while a
 *   client books the slot it covers: the booking waits for it, then is refused with 409.
 * - A class or a gig she adds waits for the agenda's lock too: while a claim holds it, the new
 *   class is not written; once it is let go, it is.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { someoneWaitsOnALock } from '../../helpers/database.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import { insertBusyTime, lockAgenda } from '../../../api/agenda/agenda.repo.ts';
import { itemAt, must } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
const YOGA = 'Individual Yoga Session (60 min)';

const book = (client: { id: string; email: string; cookie: string }, slotId: string) =>
  server.api(`/api/bookings/${slotId}/book`, {
    method: 'PUT',
    json: { userId: client.id, firstName: 'Ana', lastName: 'Lima', email: client.email, sessionType: YOGA, message: '', couponCode: 'JOURNEY' },
    headers: { cookie: client.cookie, 'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250) + 1}` },
  });

describe('claims racing her busy times on postgres', () => {
  it('twenty bookings at once around a newly busy time: none inside it, all outside it', async () => {
    const zone = server.env.SITE_TIMEZONE;
    const date = addDays(zonedNow(zone).date, 21);
    // Twenty slots, forty-five minutes apart from 05:00: free slots may overlap one another, and
    // of two overlapping ones only the first booked stands (the other overlaps its session).
    const times = Array.from({ length: 20 }, (_, k) => {
      const m = 5 * 60 + k * 45;
      return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    });
    const slots = await server.services.db
      .insertInto('slots')
      .values(times.map((time) => ({ date, time, startsAt: zonedInstant(date, time, zone) })))
      .returning(['id', 'startsAt'])
      .execute();
    const busyStart = zonedInstant(date, '12:00', zone);
    const busyEnd = zonedInstant(date, '15:00', zone);
    const res = await server.api('/api/admin/busy', {
      method: 'POST',
      json: { start: busyStart.toISOString(), end: busyEnd.toISOString(), title: 'Dentist' },
      headers: { cookie: await adminCookie(server) },
    });
    expect(res.status).toBe(201);

    const clients = await Promise.all(slots.map(() => createUser(server)));
    const answers = await Promise.all(slots.map((s, i) => book(clients[i]!, s.id)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);

    const rows = await server.services.db.selectFrom('slots').select(['id', 'startsAt', 'bookedAt']).where('date', '=', date).orderBy('startsAt').execute();
    const hour = 3_600_000;
    const inside = (at: Date) => new Date(at).getTime() < busyEnd.getTime() && new Date(at).getTime() + hour > busyStart.getTime();
    const booked = rows.filter((r) => r.bookedAt !== null);
    // Nothing booked inside her busy time.
    expect(booked.filter((r) => inside(r.startsAt))).toEqual([]);
    // Outside it, the booked sessions never overlap one another, and every slot left free overlaps one of them.
    for (let i = 1; i < booked.length; i++)
      expect(new Date(itemAt(booked, i).startsAt).getTime() - new Date(itemAt(booked, i - 1).startsAt).getTime()).toBeGreaterThanOrEqual(hour);
    const free = rows.filter((r) => r.bookedAt === null && !inside(r.startsAt));
    for (const f of free) expect(booked.some((b) => Math.abs(new Date(b.startsAt).getTime() - new Date(f.startsAt).getTime()) < hour)).toBe(true);
    expect(booked.length).toBeGreaterThanOrEqual(5);
    expect(statuses.filter((s) => s === 200)).toHaveLength(booked.length);
  });

  it('a busy time being added while a client books the slot it covers: the booking waits, then is refused; nothing booked', async () => {
    const zone = server.env.SITE_TIMEZONE;
    const date = addDays(zonedNow(zone).date, 22);
    const startsAt = zonedInstant(date, '10:00', zone);
    const slot = await server.services.db.insertInto('slots').values({ date, time: '10:00', startsAt }).returning('id').executeTakeFirstOrThrow();
    const client = await createUser(server);
    let booking: Promise<Response> | undefined;
    await server.services.db.transaction().execute(async (trx) => {
      await lockAgenda(trx);
      await insertBusyTime(trx, {
        startsAt: new Date(startsAt.getTime() - 30 * 60_000),
        endsAt: new Date(startsAt.getTime() + 30 * 60_000),
        title: 'Just now',
      });
      booking = book(client, slot.id);
      await someoneWaitsOnALock(server.services.db, 'the agenda');
    });
    const res = await booking!;
    expect(res.status).toBe(409);
    const row = await server.services.db.selectFrom('slots').select('bookedBy').where('id', '=', slot.id).executeTakeFirstOrThrow();
    expect(row.bookedBy).toBeNull();
  });

  it("a class and a gig she adds wait for the agenda's lock a claim holds, then are saved", async () => {
    const db = server.services.db;
    const cookie = await adminCookie(server);
    const date = addDays(zonedNow(server.env.SITE_TIMEZONE).date, 23);
    const location = await db.insertInto('locations').values({ name: 'Lock Hall', roundTripTenthMiles: 10 }).returning('id').executeTakeFirstOrThrow();
    let adding: Promise<Response[]> | undefined;
    await db.transaction().execute(async (trx) => {
      await lockAgenda(trx);
      adding = Promise.all([
        server.api('/api/admin/events', { method: 'POST', json: { title: 'Locked Flow', date, time: '09:00' }, headers: { cookie } }),
        server.api('/api/admin/gigs', {
          method: 'POST',
          json: { date, time: '18:00', className: 'Locked Gig', locationId: location.id, rateCents: 5000, frequency: 'perClass', paymentMethod: 'cash' },
          headers: { cookie },
        }),
      ]);
      await someoneWaitsOnALock(db, 'the agenda');
      // Held by the claim: neither is written yet.
      expect(await db.selectFrom('events').select('id').where('title', '=', 'Locked Flow').execute()).toHaveLength(0);
      expect(await db.selectFrom('gigs').select('id').where('className', '=', 'Locked Gig').execute()).toHaveLength(0);
    });
    const [event, gig] = await adding!;
    expect(must(event, 'event').status).toBe(201);
    expect(must(gig, 'gig').status).toBe(201);
    expect(await db.selectFrom('events').select('id').where('title', '=', 'Locked Flow').execute()).toHaveLength(1);
  });
});
