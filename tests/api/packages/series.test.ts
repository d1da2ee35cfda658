/**
 * Issue 32: a weekly series. The same weekday and time (her clock) for N weeks, each free week
 * booked with one credit; the weeks that could not be booked listed with the nearest free times;
 * a race for one week ends booked or missed with the credits matching; the wall-clock time kept
 * across a change of the clocks; she can make the slots and book them for a client; one session
 * of a series is cancelled or moved alone, as a single session is.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { addDays, wallClock, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import type { BalanceView } from '../../../contract/packages.ts';
import type { SeriesView } from '../../../contract/series.ts';
import type { ClientSlotsView } from '../../../contract/slots.ts';
import { itemAt } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
const YOGA = 'Individual Yoga Session (60 min)';
const zone = () => server.env.SITE_TIMEZONE;

const asAdmin = async (path: string, method = 'GET', json?: unknown) => server.api(path, { method, json, headers: { cookie: await adminCookie(server) } });
const today = () => zonedNow(zone(), server.services.clock.now()).date;
const balanceOf = async (id: string): Promise<BalanceView> => (await asAdmin(`/api/user/${id}/balance`)).json();

/** A client holding `sessions` credits of every type (her adjustment). */
async function clientWith(sessions: number) {
  const client = await createUser(server);
  expect((await asAdmin(`/api/admin/users/${client.id}/credits`, 'POST', { sessions, reason: 'Paid by Venmo' })).status).toBe(201);
  return client;
}

/** A free slot at her date and time. */
async function slotAt(date: string, time: string) {
  return server.services.db
    .insertInto('slots')
    .values({ date, time, startsAt: zonedInstant(date, time, zone()) })
    .returning(['id', 'startsAt'])
    .executeTakeFirstOrThrow();
}

/** `n` weekly slots from `date` at `time`. */
const weekly = async (date: string, time: string, n: number) => Promise.all(Array.from({ length: n }, (_, k) => slotAt(addDays(date, 7 * k), time)));

const series = (client: { id: string; cookie: string }, slotId: string, weeks: number, extra: object = {}) =>
  server.api(`/api/user/${client.id}/series`, { method: 'POST', headers: { cookie: client.cookie }, json: { slotId, weeks, sessionType: YOGA, ...extra } });

const book = (client: { id: string; cookie: string }, slotId: string) =>
  server.api(`/api/bookings/${slotId}/book`, {
    method: 'PUT',
    headers: { cookie: client.cookie },
    json: { userId: client.id, firstName: 'Other', lastName: 'Client', email: 'x@example.com', sessionType: YOGA, message: '', useCredit: true },
  });

const bookedBy = async (slotId: string) =>
  await server.services.db.selectFrom('slots').select(['bookedBy', 'seriesId']).where('id', '=', slotId).executeTakeFirstOrThrow();

describe(`a weekly series on ${testDbKind()}`, () => {
  it('books the free weeks of eight, lists the two taken with the nearest free times, spends exactly six credits, mails one confirmation', async () => {
    const start = addDays(today(), 10);
    const slots = await weekly(start, '06:17', 8);
    const other = await clientWith(2);
    expect((await book(other, itemAt(slots, 2).id)).status).toBe(200);
    expect((await book(other, itemAt(slots, 5).id)).status).toBe(200);
    // A free time an hour after each taken week: the nearest one to offer.
    const later2 = await slotAt(addDays(start, 14), '11:17');
    const later5 = await slotAt(addDays(start, 35), '11:17');

    const client = await clientWith(8);
    const res = await series(client, itemAt(slots, 0).id, 8);
    expect(res.status).toBe(201);
    const body = (await res.json()) as SeriesView;
    expect(body.message).toBe('6 of 8 weeks are booked.');
    expect(body.booked.map((b) => b.slotId)).toEqual([0, 1, 3, 4, 6, 7].map((k) => itemAt(slots, k).id));
    expect(body.missed.map((m) => [m.startsAt, m.reason])).toEqual([
      [new Date(itemAt(slots, 2).startsAt).toISOString(), 'taken'],
      [new Date(itemAt(slots, 5).startsAt).toISOString(), 'taken'],
    ]);
    expect(itemAt(body.missed, 0).nearest[0]).toEqual({ slotId: later2.id, startsAt: new Date(later2.startsAt).toISOString() });
    expect(itemAt(body.missed, 1).nearest[0]).toEqual({ slotId: later5.id, startsAt: new Date(later5.startsAt).toISOString() });
    expect(itemAt(body.missed, 0).nearest.length).toBeGreaterThan(0);

    const balance = await balanceOf(client.id);
    expect(balance.sessionsRemaining).toBe(2);
    expect(balance.history.filter((h) => h.reason === 'used')).toHaveLength(6);
    for (const b of body.booked) expect(await bookedBy(b.slotId)).toEqual({ bookedBy: client.id, seriesId: body.seriesId });

    const mails = await readMailbox(server, client.email);
    expect(mails).toHaveLength(1);
    expect(itemAt(mails, 0).subject).toBe(`Weekly sessions booked: ${YOGA}, 6 sessions`);

    // "My Bookings": the six, sharing the series id.
    const mine = (await (await server.api(`/api/bookings?userId=${client.id}`, { headers: { cookie: client.cookie } })).json()) as ClientSlotsView;
    expect(mine.bookedSlots.filter((s) => s.seriesId === body.seriesId)).toHaveLength(6);
  });

  it('books as many weeks as the credits cover and lists the rest; with none at all it is 409 naming the type', async () => {
    const slots = await weekly(addDays(today(), 11), '07:23', 5);
    const client = await clientWith(3);
    const body = (await (await series(client, itemAt(slots, 0).id, 5)).json()) as SeriesView;
    expect(body.booked).toHaveLength(3);
    expect(body.missed.map((m) => m.reason)).toEqual(['no-credit', 'no-credit']);
    expect((await balanceOf(client.id)).sessionsRemaining).toBe(0);

    const none = await createUser(server);
    const refused = await series(none, itemAt(slots, 3).id, 2);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toContain(YOGA);
    expect((await bookedBy(itemAt(slots, 3).id)).bookedBy).toBeNull();
  });

  it('refuses another account, a slot that does not exist and weeks out of range, booking nothing', async () => {
    const slots = await weekly(addDays(today(), 12), '08:29', 2);
    const client = await clientWith(2);
    const stranger = await createUser(server);
    expect(
      (
        await server.api(`/api/user/${client.id}/series`, {
          method: 'POST',
          headers: { cookie: stranger.cookie },
          json: { slotId: itemAt(slots, 0).id, weeks: 2, sessionType: YOGA },
        })
      ).status,
    ).toBe(403);
    expect((await series(client, '00000000-0000-0000-0000-000000000000', 2)).status).toBe(404);
    expect((await series(client, itemAt(slots, 0).id, 13)).status).toBe(400);
    expect((await series(client, itemAt(slots, 0).id, 1)).status).toBe(400);
    expect((await balanceOf(client.id)).sessionsRemaining).toBe(2);
  });

  it('a week raced by another client ends booked or missed, and every credit matches a session', async () => {
    const slots = await weekly(addDays(today(), 13), '15:31', 4);
    const client = await clientWith(4);
    const other = await clientWith(1);
    const [mine, theirs] = await Promise.all([series(client, itemAt(slots, 0).id, 4), book(other, itemAt(slots, 2).id)]);
    const body = (await mine.json()) as SeriesView;
    const owner = (await bookedBy(itemAt(slots, 2).id)).bookedBy;
    if (theirs.status === 200) {
      expect(owner).toBe(other.id);
      expect(body.missed.map((m) => m.reason)).toEqual(['taken']);
    } else {
      expect(owner).toBe(client.id);
      expect(body.missed).toEqual([]);
    }
    expect(body.booked.length + body.missed.length).toBe(4);
    expect((await balanceOf(client.id)).sessionsRemaining).toBe(4 - body.booked.length);
    expect((await balanceOf(other.id)).sessionsRemaining).toBe(theirs.status === 200 ? 0 : 1);
    const held = await server.services.db.selectFrom('slots').select('id').where('bookedBy', '=', client.id).execute();
    expect(held).toHaveLength(body.booked.length);
  });

  it('a week whose claim fails after its credit was taken rolls that week back alone: no credit is spent without its session', async () => {
    const slots = await weekly(addDays(today(), 17), '10:37', 3);
    // The database's clock has passed the middle week's start (its row says so), so its claim
    // fails after the spend: the week's savepoint undoes the spend, the others stand.
    await server.services.db
      .updateTable('slots')
      .set({ startsAt: new Date(Date.now() - 60_000) })
      .where('id', '=', itemAt(slots, 1).id)
      .execute();
    const client = await clientWith(3);
    const body = (await (await series(client, itemAt(slots, 0).id, 3)).json()) as SeriesView;
    expect(body.booked.map((b) => b.slotId)).toEqual([itemAt(slots, 0).id, itemAt(slots, 2).id]);
    expect(body.missed.map((m) => m.reason)).toEqual(['taken']);
    const balance = await balanceOf(client.id);
    expect(balance.sessionsRemaining).toBe(1);
    expect(balance.history.filter((h) => h.reason === 'used')).toHaveLength(2);
  });

  it('keeps the wall-clock time across the spring change of the clocks', async () => {
    // US clocks spring forward on 14 March 2027: 10:41 stays 10:41, the instant moves an hour.
    const slots = await weekly('2027-03-02', '10:41', 3);
    const client = await clientWith(3);
    const body = (await (await series(client, itemAt(slots, 0).id, 3)).json()) as SeriesView;
    expect(body.booked).toHaveLength(3);
    const clocks = body.booked.map((b) => wallClock(new Date(b.startsAt).getTime(), zone()));
    expect(clocks.map((w) => `${w.hour}:${w.minute}`)).toEqual(['10:41', '10:41', '10:41']);
    expect(new Date(itemAt(body.booked, 2).startsAt).getTime() - new Date(itemAt(body.booked, 1).startsAt).getTime()).toBe((7 * 24 - 1) * 3_600_000);
  });

  it('lets her make the missing slots and book the series for a client, never over another slot', async () => {
    const start = addDays(today(), 20);
    const client = await clientWith(4);
    const existing = await slotAt(addDays(start, 7), '09:13');
    // A slot half an hour after week three: a slot there would overlap it.
    await slotAt(addDays(start, 14), '09:43');
    const res = await asAdmin(`/api/admin/users/${client.id}/series`, 'POST', { date: start, time: '09:13', weeks: 4, sessionType: YOGA, createSlots: true });
    expect(res.status).toBe(201);
    const body = (await res.json()) as SeriesView;
    expect(body.booked).toHaveLength(3);
    expect(itemAt(body.booked, 1).slotId).toBe(existing.id);
    expect(body.missed.map((m) => m.reason)).toEqual(['overlap']);
    const made = await server.services.db
      .selectFrom('slots')
      .select(['date', 'bookedBy'])
      .where('time', '=', '09:13')
      .where('date', '>=', start)
      .orderBy('date')
      .execute();
    expect(made.map((s) => [s.date, s.bookedBy])).toEqual([
      [start, client.id],
      [addDays(start, 7), client.id],
      [addDays(start, 21), client.id],
    ]);
    expect((await balanceOf(client.id)).sessionsRemaining).toBe(1);
    // Her series' spends are hers in the ledger, as her single booking's are.
    const spends = await server.services.db
      .selectFrom('ledgerEntries')
      .select('createdBy')
      .where('userId', '=', client.id)
      .where('reason', '=', 'used')
      .execute();
    expect(spends.map((e) => e.createdBy)).toEqual(['admin', 'admin', 'admin']);
    const mails = await readMailbox(server, client.email);
    expect(mails).toHaveLength(1);
    // Without createSlots a week with no slot is missed, nothing is made.
    const other = await clientWith(2);
    const plain = (await (
      await asAdmin(`/api/admin/users/${other.id}/series`, 'POST', { date: addDays(start, 1), time: '09:13', weeks: 2, sessionType: YOGA })
    ).json()) as SeriesView;
    expect(plain.booked).toEqual([]);
    expect(plain.missed.map((m) => m.reason)).toEqual(['no-slot', 'no-slot']);
    expect((await asAdmin(`/api/admin/users/${client.id}/series`, 'POST', { date: start, time: '09:13', weeks: 2, sessionType: YOGA })).status).toBe(200);
    expect(
      (await server.api(`/api/admin/users/${client.id}/series`, { method: 'POST', json: { date: start, time: '09:13', weeks: 2, sessionType: YOGA } })).status,
    ).toBe(401);
  });

  it('cancels one session of a series in time, returning its credit, and moves another alone', async () => {
    const slots = await weekly(addDays(today(), 15), '12:53', 3);
    const spare = await slotAt(addDays(today(), 16), '12:53');
    const client = await clientWith(3);
    const body = (await (await series(client, itemAt(slots, 0).id, 3)).json()) as SeriesView;
    expect(body.booked).toHaveLength(3);
    const cancel = await server.api(`/api/bookings/${itemAt(slots, 1).id}/cancel`, { method: 'POST', headers: { cookie: client.cookie } });
    expect(cancel.status).toBe(200);
    expect(await cancel.json()).toMatchObject({ credit: 'returned' });
    expect((await balanceOf(client.id)).sessionsRemaining).toBe(1);
    expect(await bookedBy(itemAt(slots, 1).id)).toEqual({ bookedBy: null, seriesId: null });

    const move = await server.api(`/api/bookings/${itemAt(slots, 2).id}/reschedule`, {
      method: 'POST',
      headers: { cookie: client.cookie },
      json: { toSlotId: spare.id },
    });
    expect(move.status).toBe(200);
    expect(await bookedBy(spare.id)).toEqual({ bookedBy: client.id, seriesId: body.seriesId });
    expect(await bookedBy(itemAt(slots, 0).id)).toEqual({ bookedBy: client.id, seriesId: body.seriesId });
    expect((await balanceOf(client.id)).sessionsRemaining).toBe(1);
  });
});
