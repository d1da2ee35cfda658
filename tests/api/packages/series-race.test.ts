/**
 * Issue 32, a weekly series racing a booking for one of its weeks, interleaved for certain on
 * PostgreSQL: another client's claim of week three is made and not yet committed when the series
 * reaches it, so the series' claim waits on that row, then finds it taken. That week alone is
 * rolled back (its savepoint, its credit with it): it is listed missed, the other weeks booked,
 * and the credits spent are exactly the sessions held.
 *
 * Only on PostgreSQL (vitest.config.ts leaves it out of api-pglite): PGlite runs one transaction
 * at a time, so the series would wait for a commit that could never come.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { someoneWaitsOnALock } from '../../helpers/database.ts';
import { adminCookie, createUser } from '../../helpers/auth.ts';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import type { BalanceView } from '../../../contract/packages.ts';
import type { SeriesView } from '../../../contract/series.ts';
import { itemAt } from '../../helpers/guards.ts';

const server = useTestServer({ resetRateLimits: true });
const YOGA = 'Individual Yoga Session (60 min)';

const asAdmin = async (path: string, method = 'GET', json?: unknown) => server.api(path, { method, json, headers: { cookie: await adminCookie(server) } });

describe('a weekly series racing a booking on postgres', () => {
  it('the week claimed by another client first is missed, its credit never spent; the other weeks are booked', async () => {
    const db = server.services.db;
    const zone = server.env.SITE_TIMEZONE;
    const start = addDays(zonedNow(zone, server.services.clock.now()).date, 40);
    const slots = await Promise.all(
      [0, 1, 2, 3].map((k) => {
        const date = addDays(start, 7 * k);
        return db
          .insertInto('slots')
          .values({ date, time: '08:19', startsAt: zonedInstant(date, '08:19', zone) })
          .returning('id')
          .executeTakeFirstOrThrow();
      }),
    );
    const client = await createUser(server);
    const other = await createUser(server);
    expect((await asAdmin(`/api/admin/users/${client.id}/credits`, 'POST', { sessions: 4, reason: 'Paid by check' })).status).toBe(201);

    // The other client's claim of week three, made and held open until the series waits on it.
    let commit!: () => void;
    const held = new Promise<void>((r) => (commit = r));
    let claimed!: () => void;
    const isClaimed = new Promise<void>((r) => (claimed = r));
    const theirs = db.transaction().execute(async (trx) => {
      await trx
        .updateTable('slots')
        .set({ bookedBy: other.id, bookedAt: new Date(), email: other.email, sessionType: YOGA })
        .where('id', '=', itemAt(slots, 2).id)
        .execute();
      claimed();
      await held;
    });
    await isClaimed;
    const mine = server.api(`/api/user/${client.id}/series`, {
      method: 'POST',
      headers: { cookie: client.cookie },
      json: { slotId: itemAt(slots, 0).id, weeks: 4, sessionType: YOGA },
    });
    await someoneWaitsOnALock(server.services.db, 'the held week');
    commit();
    await theirs;
    const res = await mine;
    expect(res.status).toBe(201);
    const body = (await res.json()) as SeriesView;
    expect(body.booked.map((b) => b.slotId)).toEqual([itemAt(slots, 0).id, itemAt(slots, 1).id, itemAt(slots, 3).id]);
    expect(body.missed.map((m) => m.reason)).toEqual(['taken']);

    const balance = (await (await asAdmin(`/api/user/${client.id}/balance`)).json()) as BalanceView;
    expect(balance.sessionsRemaining).toBe(1);
    expect(balance.history.filter((h) => h.reason === 'used')).toHaveLength(3);
    const week3 = await db.selectFrom('slots').select('bookedBy').where('id', '=', itemAt(slots, 2).id).executeTakeFirstOrThrow();
    expect(week3.bookedBy).toBe(other.id);
  });
});
