import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { ACCOUNT_ERASED_BY_ADMIN, CLIENT_NOT_FOUND } from '../../../contract/practice.ts';

const server = useTestServer();
let cookie: string;
beforeAll(async () => {
  cookie = await adminCookie(server);
});

const asAdmin = (path: string, init: RequestInit = {}) => server.api(path, { ...init, headers: { cookie } });

describe(`clients on ${testDbKind()}`, () => {
  it("lists clients newest first with the table's fields", async () => {
    const { db } = server.services;
    const older = await createUser(server, { email: 'older@example.com', firstName: 'Olga', lastName: 'Old' });
    await db
      .updateTable('users')
      .set({ createdAt: new Date('2020-01-01T00:00:00Z') } as never)
      .where('id', '=', older.id)
      .execute();
    const newer = await createUser(server, { email: 'newer@example.com', firstName: 'Nia', lastName: 'New' });
    await db
      .updateTable('users')
      .set({ phone: '5551234567', preferredName: 'Ni', pronoun: 'she/her', city: 'Portland, OR', zipcode: '97201' })
      .where('id', '=', newer.id)
      .execute();

    const res = await asAdmin('/api/admin/users');
    expect(res.status).toBe(200);
    const list = await res.json();
    expect(list.map((u: { email: string }) => u.email)).toEqual(['newer@example.com', 'older@example.com']);
    expect(list[0]).toEqual({
      _id: newer.id,
      id: newer.id,
      firstName: 'Nia',
      lastName: 'New',
      preferredName: 'Ni',
      pronoun: 'she/her',
      email: 'newer@example.com',
      phone: '5551234567',
      city: 'Portland, OR',
      zipcode: '97201',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expect(list[1].createdAt).toBe('2020-01-01T00:00:00.000Z');
  });

  it('deletes a client with the whole erasure (issue 29): sessions end, past sessions stay booked for the books without their name, coming ones are cancelled (issue 30)', async () => {
    const { db } = server.services;
    const client = await createUser(server, { email: 'leaving@example.com' });
    // Her sessions at 10:00 on `date` (UTC−7), one passed and one coming (paid by the coupon).
    const booked = (date: string, extra: { couponUsed?: boolean } = {}) =>
      db
        .insertInto('slots')
        .values({
          date,
          time: '10:00',
          startsAt: new Date(`${date}T17:00:00Z`),
          bookedBy: client.id,
          bookedAt: new Date(),
          firstName: 'Ana',
          lastName: 'Lima',
          email: 'leaving@example.com',
          sessionType: 'Individual Yoga Session (60 min)',
          ...extra,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    const slot = await booked('2025-04-01');
    const coming = await booked('2031-04-01', { couponUsed: true });
    expect((await server.api(`/api/bookings?userId=${client.id}`, { headers: { cookie: client.cookie } })).status).toBe(200);

    const res = await asAdmin(`/api/admin/users/${client.id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: ACCOUNT_ERASED_BY_ADMIN });

    expect(await db.selectFrom('users').select('id').where('id', '=', client.id).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom('userSessions').select('id').where('userId', '=', client.id).execute()).toEqual([]);
    expect((await server.api(`/api/bookings?userId=${client.id}`, { headers: { cookie: client.cookie } })).status).toBe(401);
    const kept = await db.selectFrom('slots').selectAll().where('id', '=', slot.id).executeTakeFirstOrThrow();
    expect(kept).toMatchObject({ bookedBy: null, firstName: null, lastName: null, email: null, sessionType: 'Individual Yoga Session (60 min)' });
    expect(kept.bookedAt).not.toBeNull();
    const admin = await (await asAdmin('/api/bookings')).json();
    expect(admin.passedSessions.find((s: { _id: string }) => s._id === slot.id)).toMatchObject({ userId: null });
    // The coming one is free again for anyone, its cancellation kept without who.
    expect(await db.selectFrom('slots').select(['bookedBy', 'bookedAt', 'firstName']).where('id', '=', coming.id).executeTakeFirstOrThrow()).toEqual({
      bookedBy: null,
      bookedAt: null,
      firstName: null,
    });
    expect(await db.selectFrom('bookingCancellations').select(['userId', 'email', 'refundState']).where('slotId', '=', coming.id).execute()).toEqual([
      { userId: null, email: '', refundState: 'none' },
    ]);

    const again = await asAdmin(`/api/admin/users/${client.id}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ message: CLIENT_NOT_FOUND });
    expect((await asAdmin('/api/admin/users/a%20b', { method: 'DELETE' })).status).toBe(400);
  });
});
