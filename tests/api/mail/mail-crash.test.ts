/**
 * Issue 21's crash test: the server killed with SIGKILL at a random moment while completing a
 * chocolate order or a paid booking (claiming, capturing at PayPal, committing, sending the
 * mails, marking them sent), ten times each, on PostgreSQL and on the embedded database (a folder
 * PGlite, restarted from its files). PayPal (the emulator) and Resend (a local fake that, like
 * Resend, takes each Idempotency-Key once) run outside the killed process and outlive it. After
 * a last restart has settled every payment and drained the outbox: every completed purchase has
 * its confirmation, once; a mail repeated by a retry carried the key of the first; and no
 * uncompleted purchase was confirmed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type DatabaseHandle } from '../../../db/client.ts';
import { migrateToLatest } from '../../../db/migrate.ts';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';
import { freshDatabase, testDbKind, type FreshDatabase } from '../../helpers/database.ts';
import { createUser } from '../../helpers/auth.ts';
import type { TestServer } from '../../helpers/server.ts';
import { startChild, type Child } from '../../helpers/child.ts';
import { serverProcessEnv, startEmulator, type EmulatorChild } from '../../helpers/payment-processes.ts';
import { must } from '../../helpers/guards.ts';

const YOGA = 'Individual Yoga Session (60 min)';
const TEACHER = 'teacher@example.com';
const ZONE = 'America/Los_Angeles';
const RUNS = 10;

interface Sent {
  key: string;
  to: string;
  subject: string;
}

/** A local Resend: POST /emails, 0–60 ms to answer, each Idempotency-Key taken once (a repeat answered, not kept again). */
async function fakeResend() {
  const requests: Sent[] = [];
  const kept = new Map<string, Sent>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { to: string[]; subject: string };
      const sent = { key: String(req.headers['idempotency-key'] ?? ''), to: body.to[0]!, subject: body.subject };
      requests.push(sent);
      if (!kept.has(sent.key)) kept.set(sent.key, sent);
      setTimeout(
        () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id: `email-${kept.size}` }));
        },
        Math.floor(Math.random() * 60),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    kept,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const kind = testDbKind();

describe(`mails of purchases a kill -9 interrupted, on ${kind}`, () => {
  let fresh: FreshDatabase | undefined;
  let pgliteDir: string | undefined;
  let emulator: EmulatorChild;
  let resend: Awaited<ReturnType<typeof fakeResend>>;
  let server: Child | undefined;

  const databaseEnv = (): Record<string, string> => (fresh ? { DATABASE_URL: fresh.env.DATABASE_URL! } : { PGLITE_DIR: pgliteDir! });
  // While crashing, the server settles nothing on its own; the last start settles everything quickly.
  const serverEnv = (settle: boolean) =>
    serverProcessEnv(
      {
        database: databaseEnv(),
        zone: ZONE,
        teacher: TEACHER,
        emulator,
        reconcile: settle ? { interval: 200, stale: 300 } : { interval: 3_600_000, stale: 3_600_000 },
      },
      {
        RESEND_API_KEY: 're_crash_test',
        RESEND_BASE_URL: resend.url,
        BACKUP_AUTO: '0',
        UNFINALIZED_BOOKING_MINUTES: settle ? '0' : '1440',
        OUTBOX_INTERVAL_MS: settle ? '100' : '3600000',
        OUTBOX_CLAIM_STALE_MS: settle ? '300' : '3600000',
        OUTBOX_RETRY_BASE_MS: '50',
      },
    );

  /** The database, opened by the test only while no server holds it (PGlite is one process's). */
  async function withDb<T>(fn: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
    const handle = await openDatabase(fresh ? { url: fresh.env.DATABASE_URL, pgliteDir: 'memory://' } : { pgliteDir: pgliteDir! });
    try {
      return await fn(handle);
    } finally {
      await handle.close();
    }
  }

  beforeAll(async () => {
    if (kind === 'postgres') fresh = await freshDatabase('postgres');
    else pgliteDir = mkdtempSync(join(tmpdir(), 'mail-crash-'));
    emulator = await startEmulator();
    resend = await fakeResend();
  }, 60_000);
  afterAll(async () => {
    await server?.kill();
    await emulator?.kill('SIGTERM');
    await resend?.close();
    await fresh?.drop();
    if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
  });

  it(`completes or leaves each of ${RUNS} orders and ${RUNS} bookings, and mails every completed one once`, async () => {
    // Fixtures, made before any server runs: a product, a slot and a client per booking.
    const fixtures = await withDb(async ({ db }) => {
      await migrateToLatest(db);
      const product = await db.insertInto('products').values({ name: 'Crash Tin', priceCents: 1800, inventory: 100 }).returning('id').executeTakeFirstOrThrow();
      const date = addDays(zonedNow(ZONE).date, 3);
      const bookings = [];
      for (let i = 0; i < RUNS; i++) {
        const time = `${String(8 + i).padStart(2, '0')}:00`;
        const slot = await db
          .insertInto('slots')
          .values({ date, time, startsAt: zonedInstant(date, time, ZONE) })
          .returning('id')
          .executeTakeFirstOrThrow();
        const client = await createUser({ services: { db } } as unknown as TestServer, { email: `crash-client-${i}@example.com` });
        bookings.push({ slotId: slot.id, client });
      }
      return { productId: product.id, bookings };
    });

    const call = (path: string, init: { method: string; json?: unknown; cookie?: string }) =>
      fetch(`${must(server, 'server').url}${path}`, {
        method: init.method,
        headers: { 'content-type': 'application/json', ...(init.cookie ? { cookie: init.cookie } : {}) },
        ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
      });
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

    for (let i = 0; i < RUNS; i++) {
      // An order: quoted, approved (PayPal answers its capture 0–150 ms late), placed, and the server killed 0–400 ms in.
      server = await startChild('tests/helpers/server-process.ts', serverEnv(false));
      const cart = { cartItems: [{ _id: fixtures.productId, quantity: 1 }], isLocalPickup: true };
      const quote = await (await call('/api/orders/paypal', { method: 'POST', json: cart })).json();
      await emulator.approve(quote.orderID, {
        givenName: 'Ana',
        surname: 'Lima',
        email: `crash-buyer-${i}@example.com`,
        captureDelayMs: Math.floor(Math.random() * 150),
      });
      const placing = call('/api/orders', { method: 'POST', json: { orderId: quote.orderID, ...cart } }).catch(() => 'killed');
      await pause(Math.floor(Math.random() * 400));
      await server.kill('SIGKILL');
      await placing;

      // A paid booking, the same way.
      server = await startChild('tests/helpers/server-process.ts', serverEnv(false));
      const { slotId, client } = fixtures.bookings[i]!;
      const made = await call(`/api/bookings/${slotId}/paypal-order`, { method: 'POST', cookie: client.cookie, json: { amount: 80, sessionType: YOGA } });
      expect(made.status, await made.clone().text()).toBe(200);
      const { orderID } = await made.json();
      await emulator.approve(orderID, { givenName: 'Pat', captureDelayMs: Math.floor(Math.random() * 150) });
      const booking = { userId: client.id, firstName: 'Ana', lastName: 'Lima', email: client.email, sessionType: YOGA, message: '', paypalOrderId: orderID };
      const finalizing = call(`/api/bookings/${slotId}/book`, { method: 'PUT', cookie: client.cookie, json: booking }).catch(() => 'killed');
      await pause(Math.floor(Math.random() * 400));
      await server.kill('SIGKILL');
      await finalizing;
    }

    // The last start: the reconciler settles every payment left open, the outbox sends what is left.
    server = await startChild('tests/helpers/server-process.ts', serverEnv(true));
    const settledBy = Date.now() + 30_000;
    const pending = async () =>
      fresh
        ? withDb(async ({ db }) => {
            const open = await db.selectFrom('paymentAttempts').select('id').where('state', 'in', ['claimed', 'capturing']).execute();
            const unresolved = await db.selectFrom('bookingOrders').select('paypalOrderId').where('resolvedAt', 'is', null).execute();
            const unsent = await db.selectFrom('mailOutbox').select('id').where('state', 'in', ['pending', 'sending']).execute();
            return open.length + unresolved.length + unsent.length;
          })
        : // PGlite is the server's alone while it runs: wait long enough for its settling passes.
          (await pause(6_000), 0);
    while ((await pending()) > 0) {
      if (Date.now() > settledBy) throw new Error(`not settled:\n${server.output()}`);
      await pause(100);
    }
    await server.kill('SIGTERM');
    server = undefined;

    const { orders, booked, released, outbox } = await withDb(async ({ db }) => ({
      orders: await db.selectFrom('orders').select(['paypalOrderId', 'payerEmail']).execute(),
      booked: await db.selectFrom('slots').select(['email', 'paypalOrderId']).where('bookedAt', 'is not', null).execute(),
      released: await db.selectFrom('paymentAttempts').select(['paypalOrderId', 'kind']).where('state', '=', 'released').execute(),
      outbox: await db.selectFrom('mailOutbox').select(['id', 'state', 'kind', 'to']).execute(),
    }));
    console.info(
      `[mail crash on ${kind}] ${orders.length}/${RUNS} orders and ${booked.length}/${RUNS} bookings completed, ${released.length} payments released; ` +
        `${resend.requests.length} sends for ${resend.kept.size} mails`,
    );
    // Nothing left unsent or given up.
    expect(outbox.filter((m) => m.state !== 'sent')).toEqual([]);
    // A repeat always carried the first send's key (and so was the same mail): Resend kept it once.
    for (const r of resend.requests) expect(resend.kept.get(r.key), r.key).toEqual(r);
    const kept = [...resend.kept.values()];
    const confirmations = (to: string) => kept.filter((m) => m.to === to && /^(Booking Confirmed|Your chocolate order)/.test(m.subject));
    for (let i = 0; i < RUNS; i++) {
      const buyer = `crash-buyer-${i}@example.com`;
      expect(confirmations(buyer), `${buyer}: ${JSON.stringify(kept.filter((m) => m.to === buyer))}`).toHaveLength(
        orders.some((o) => o.payerEmail === buyer) ? 1 : 0,
      );
      const client = `crash-client-${i}@example.com`;
      expect(
        kept.filter((m) => m.to === client && m.subject.startsWith('Booking Confirmed')),
        client,
      ).toHaveLength(booked.some((s) => s.email === client) ? 1 : 0);
    }
    // The teacher: one mail per completed purchase about it.
    expect(outbox.filter((r) => r.kind === 'order-confirmation' && r.to === TEACHER)).toHaveLength(orders.length);
    expect(outbox.filter((r) => r.kind === 'booking-confirmation' && r.to === TEACHER)).toHaveLength(booked.length);
    // Every sent row reached Resend under its own key.
    for (const r of outbox) expect(resend.kept.has(`mail/${r.id}`), `${r.kind} to ${r.to}`).toBe(true);
  }, 240_000);
});
