/**
 * Issue 32 (decision 0038): the server killed with SIGKILL after PayPal captured a package's
 * payment and before the credits were committed, as tests/api/money/payment-crash.test.ts does
 * for an order and a booking. The PayPal emulator runs in a process of its own and holds back its
 * capture answer; after a restart the reconciler completes the open attempt: the credits granted
 * once, the client and the teacher mailed once, no second capture, and the client's retry answers
 * that lot.
 *
 * PostgreSQL only, as the other crash test: PGlite dies with the killed process.
 */
import { describe, expect, it } from 'vitest';
import { usePaymentCrash } from '../../helpers/payment-processes.ts';
import { itemAt } from '../../helpers/guards.ts';

const TEACHER = 'teacher@example.com';
const ZONE = 'America/Los_Angeles';
const EIGHT = 'Eight weeks of yoga therapy';
const RECONCILE_INTERVAL_MS = 300;
const STALE_MS = 500;

describe('a server killed between a package’s capture and its credits', () => {
  const crash = usePaymentCrash({ zone: ZONE, teacher: TEACHER });
  const { db, call, until } = crash;

  it('grants the credits once after a restart, and the retry answers that lot', async () => {
    const emulator = crash.emulator;
    // The first server never reconciles on its own during the test (a ten-minute interval).
    await crash.start({ interval: 600_000, stale: 600_000 });
    const { client, packageId, orderID } = await crash.packageOrderOf('crash.package@example.com', EIGHT, 36_000, { captureDelayMs: 60_000 });

    const before = await emulator.captures();
    const buy = () =>
      call(`/api/user/${client.id}/packages/${packageId}/buy`, { method: 'POST', headers: { cookie: client.cookie }, json: { paypalOrderId: orderID } });
    // PayPal captures and its answer is held back; then the crash.
    await crash.killAfterCapture(buy);

    // What the crash left: charged at PayPal, no credits, the attempt open.
    expect(await db().selectFrom('creditLots').select('id').where('userId', '=', client.id).execute()).toEqual([]);
    expect(await db().selectFrom('paymentAttempts').select(['kind', 'state']).where('paypalOrderId', '=', orderID).execute()).toEqual([
      { kind: 'package', state: 'capturing' },
    ]);

    // The restart: its reconciler runs at start and every RECONCILE_INTERVAL_MS.
    await crash.start({ interval: RECONCILE_INTERVAL_MS, stale: STALE_MS });
    await until(
      async () => (await db().selectFrom('paymentAttempts').select('state').where('paypalOrderId', '=', orderID).executeTakeFirst())?.state === 'completed',
      () => 'not reconciled',
    );
    expect(await db().selectFrom('paymentAttempts').select('settledBy').where('paypalOrderId', '=', orderID).execute()).toEqual([{ settledBy: 'reconciler' }]);
    const lots = await db()
      .selectFrom('creditLots')
      .select(['id', 'method', 'priceCents', 'paypalOrderId', 'quantity'])
      .where('userId', '=', client.id)
      .execute();
    expect(lots).toEqual([{ id: itemAt(lots, 0).id, method: 'paypal', priceCents: 36_000, paypalOrderId: orderID, quantity: 8 }]);
    expect(await db().selectFrom('ledgerEntries').select(['change', 'reason']).where('lotId', '=', itemAt(lots, 0).id).execute()).toEqual([
      { change: 8, reason: 'bought' },
    ]);

    // Mailed once each, after the completing commit.
    const mails = () => db().selectFrom('mails').select(['to']).where('text', 'like', `%${orderID}%`).execute();
    await until(
      async () => (await mails()).length >= 2,
      () => 'not mailed',
    );
    expect((await mails()).map((m) => m.to).sort()).toEqual([client.email, TEACHER].sort());

    // The client's retry answers the lot recorded; nothing more is captured, granted or mailed.
    const retry = await buy();
    expect(retry.status).toBe(201);
    expect(await retry.json()).toMatchObject({ lotId: itemAt(lots, 0).id, payerFirstName: 'Pat', balance: { sessionsRemaining: 8 } });
    expect(await emulator.captures()).toBe(before + 1);
    expect(await db().selectFrom('creditLots').select('id').where('userId', '=', client.id).execute()).toHaveLength(1);
    expect(await mails()).toHaveLength(2);
  }, 60_000);
});
