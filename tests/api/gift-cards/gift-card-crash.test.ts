/**
 * Issue 33 (decision 0041): the server killed with SIGKILL after PayPal captured a gift card's
 * payment and before the card was committed, as tests/api/packages/package-crash.test.ts does for
 * a package. The PayPal emulator runs in a process of its own and holds back its capture answer;
 * after a restart the reconciler completes the open attempt: one card, the recipient and the
 * buyer mailed once, no second capture, and the buyer's retry answers that card.
 *
 * PostgreSQL only, as the other crash tests: PGlite dies with the killed process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../db/client.ts';
import { migrateToLatest } from '../../../db/migrate.ts';
import { EMULATOR_CLIENT_ID, EMULATOR_CLIENT_SECRET } from '../../../api/services/payments/emulator.ts';
import { freshDatabase, type FreshDatabase } from '../../helpers/database.ts';
import { startChild, type Child } from '../../helpers/child.ts';

const TEACHER = 'teacher@example.com';
const ZONE = 'America/Los_Angeles';
const RECONCILE_INTERVAL_MS = 300;
const STALE_MS = 500;
const BUYER = 'crash.buyer@example.com';
const RECIPIENT = 'crash.recipient@example.com';

describe('a server killed between a gift card’s capture and the card', () => {
  let fresh: FreshDatabase;
  let handle: DatabaseHandle;
  let emulator: Child;
  let server: Child | undefined;

  const serverEnv = (reconcile: { interval: number; stale: number }) => ({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    QUIET: '1',
    DATABASE_URL: fresh.env.DATABASE_URL!,
    SITE_TIMEZONE: ZONE,
    TEACHER_EMAIL: TEACHER,
    PAYPAL_CLIENT_ID: EMULATOR_CLIENT_ID,
    PAYPAL_CLIENT_SECRET: EMULATOR_CLIENT_SECRET,
    PAYPAL_API_BASE: emulator.url,
    RECONCILE_INTERVAL_MS: String(reconcile.interval),
    PAYMENT_ATTEMPT_STALE_MS: String(reconcile.stale),
  });

  beforeAll(async () => {
    fresh = await freshDatabase('postgres');
    handle = await openDatabase({ url: fresh.env.DATABASE_URL, pgliteDir: 'memory://' });
    await migrateToLatest(handle.db);
    emulator = await startChild('tests/helpers/emulator-process.ts', {});
  });
  afterAll(async () => {
    await server?.kill();
    await emulator?.kill('SIGTERM');
    await handle?.close();
    await fresh?.drop();
  });

  const db = () => handle.db;
  const captures = async () => ((await (await fetch(`${emulator.url}/__stats`)).json()) as { captures: number }).captures;
  const call = (path: string, json: unknown) =>
    fetch(`${server!.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) });
  const until = async (what: () => Promise<boolean>, why: () => string, ms = 15_000) => {
    const deadline = Date.now() + ms;
    while (!(await what())) {
      if (Date.now() > deadline) throw new Error(`${why()}\n${server?.output() ?? ''}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const cards = (orderID: string) =>
    db()
      .selectFrom('giftCards as g')
      .innerJoin('creditLots as l', 'l.id', 'g.lotId')
      .select(['g.id', 'g.codeLast4', 'l.method', 'l.priceCents', 'l.quantity'])
      .where('l.paypalOrderId', '=', orderID)
      .execute();

  it('makes one card after a restart, mailed once, and the retry answers that card', async () => {
    // The first server never reconciles on its own during the test (a ten-minute interval).
    server = await startChild('tests/helpers/server-process.ts', serverEnv({ interval: 600_000, stale: 600_000 }));

    const made = await call('/api/gift-cards/paypal-order', { amountCents: 5_000 });
    expect(made.status).toBe(200);
    const { orderID } = (await made.json()) as { orderID: string };
    const approved = await fetch(`${emulator.url}/v2/checkout/orders/${orderID}/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ givenName: 'Bea', captureDelayMs: 60_000 }),
    });
    expect(approved.status).toBe(200);

    const before = await captures();
    const buy = () =>
      call('/api/gift-cards', {
        paypalOrderId: orderID,
        amountCents: 5_000,
        design: 'chocolates',
        buyerName: 'Bea Buyer',
        buyerEmail: BUYER,
        recipientName: 'Rae Gift',
        recipientEmail: RECIPIENT,
      });
    const hanging = buy().catch(() => 'killed');
    // PayPal has captured; its answer is held back. Now the crash.
    await until(
      async () => (await captures()) > before,
      () => 'no capture',
    );
    await server.kill('SIGKILL');
    expect(await hanging).toBe('killed');

    // What the crash left: charged at PayPal, no card, the attempt open.
    expect(await cards(orderID)).toEqual([]);
    expect(await db().selectFrom('paymentAttempts').select(['kind', 'state']).where('paypalOrderId', '=', orderID).execute()).toEqual([
      { kind: 'gift_card', state: 'capturing' },
    ]);

    // The restart: its reconciler runs at start and every RECONCILE_INTERVAL_MS.
    server = await startChild('tests/helpers/server-process.ts', serverEnv({ interval: RECONCILE_INTERVAL_MS, stale: STALE_MS }));
    await until(
      async () => (await db().selectFrom('paymentAttempts').select('state').where('paypalOrderId', '=', orderID).executeTakeFirst())?.state === 'completed',
      () => 'not reconciled',
    );
    expect(await db().selectFrom('paymentAttempts').select('settledBy').where('paypalOrderId', '=', orderID).execute()).toEqual([{ settledBy: 'reconciler' }]);
    const made1 = await cards(orderID);
    expect(made1).toEqual([{ id: made1[0]!.id, codeLast4: made1[0]!.codeLast4, method: 'paypal', priceCents: 5_000, quantity: 5_000 }]);

    // Mailed once each, after the completing commit: the card, the receipt, the note it went.
    const mails = () => db().selectFrom('mails').select(['to', 'subject']).where('to', 'in', [BUYER, RECIPIENT]).execute();
    await until(
      async () => (await mails()).length >= 3,
      () => 'not mailed',
    );
    expect((await mails()).map((m) => m.subject).sort()).toEqual([
      'A $50.00 gift card from Bea Buyer',
      'Your gift card to Rae Gift was delivered',
      'Your receipt: a $50.00 gift card for Rae Gift',
    ]);

    // The buyer's retry answers the card made; nothing more is captured, made or mailed.
    const retry = await buy();
    expect(retry.status).toBe(201);
    expect(await retry.json()).toEqual({ _id: made1[0]!.id, last4: made1[0]!.codeLast4 });
    expect(await captures()).toBe(before + 1);
    expect(await cards(orderID)).toHaveLength(1);
    expect(await mails()).toHaveLength(3);
  }, 60_000);
});
