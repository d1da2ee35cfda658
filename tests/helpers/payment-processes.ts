/**
 * What the tests that kill a server mid-payment, or run two, start besides it: the PayPal
 * emulator in a process of its own, and the server process's environment pointed at it.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { openDatabase, type DatabaseHandle, type DB } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { EMULATOR_CLIENT_ID, EMULATOR_CLIENT_SECRET } from '../../api/services/payments/emulator.ts';
import { freshDatabase, type FreshDatabase } from './database.ts';
import { startChild, type Child } from './child.ts';
import { createUser } from './auth.ts';
import type { TestServer } from './server.ts';
import { must } from './guards.ts';

/** The PayPal emulator in a process of its own (tests/helpers/emulator-process.ts): PayPal outlives our crash. */
export interface EmulatorChild extends Child {
  /** How many captures it has made (a capture repeated with its PayPal-Request-Id is not made again). */
  captures(): Promise<number>;
  /** How many refunds it has made (one refused as made already is not one). */
  refunds(): Promise<number>;
  /** The buyer approves `orderId` with `body` (the payer's names, captureDelayMs…); the emulator must take it. */
  approve(orderId: string, body: Record<string, unknown>): Promise<void>;
  /** PayPal's refunds from now on: made ('ok'), refused ('fail') or held unmade until the mode changes ('hang'). */
  refundMode(mode: 'ok' | 'fail' | 'hang'): Promise<void>;
}

export async function startEmulator(): Promise<EmulatorChild> {
  const child = await startChild('tests/helpers/emulator-process.ts', {});
  return Object.assign(child, {
    captures: async () => ((await (await fetch(`${child.url}/__stats`)).json()) as { captures: number }).captures,
    refunds: async () => ((await (await fetch(`${child.url}/__stats`)).json()) as { refunds: number }).refunds,
    approve: async (orderId: string, body: Record<string, unknown>) => {
      const res = await fetch(`${child.url}/v2/checkout/orders/${orderId}/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
    },
    refundMode: async (mode: 'ok' | 'fail' | 'hang') => {
      const res = await fetch(`${child.url}/v2/emulator/refunds`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mode }),
      });
      expect(res.status).toBe(200);
    },
  });
}

/**
 * The environment of a server process (tests/helpers/server-process.ts) as the crash and
 * two-process tests run it: on `database` (DATABASE_URL or PGLITE_DIR), in `zone`, mailing
 * `teacher`, paying through `emulator`, and reconciling open payments every `interval` ms once
 * they are `stale` ms old; `extra` on top.
 */
export function serverProcessEnv(
  setting: { database: Record<string, string>; zone: string; teacher: string; emulator: Child; reconcile: { interval: number; stale: number } },
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    QUIET: '1',
    ...setting.database,
    SITE_TIMEZONE: setting.zone,
    TEACHER_EMAIL: setting.teacher,
    PAYPAL_CLIENT_ID: EMULATOR_CLIENT_ID,
    PAYPAL_CLIENT_SECRET: EMULATOR_CLIENT_SECRET,
    PAYPAL_API_BASE: setting.emulator.url,
    RECONCILE_INTERVAL_MS: String(setting.reconcile.interval),
    PAYMENT_ATTEMPT_STALE_MS: String(setting.reconcile.stale),
    ...extra,
  };
}

/** A request to a server process, its body `json` as JSON when given. */
export function callProcess(server: Child, path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });
}

/** What usePaymentCrash hands a test: the database, the emulator, and the server process it starts, kills and starts again. */
export interface PaymentCrash {
  db(): DB;
  readonly emulator: EmulatorChild;
  /** The server last started (killed or not), if any. */
  readonly server: Child | undefined;
  /** Starts a server process, reconciling every `interval` ms the payments `stale` ms old; `extra` on top of its environment. */
  start(reconcile: { interval: number; stale: number }, extra?: Record<string, string>): Promise<Child>;
  /** A request to the server last started. */
  call(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  /**
   * A new client's PayPal order for the package named `name` at `amountCents`, approved at the
   * emulator with `approve` (its test switches): the client, the package's id and the order's.
   */
  packageOrderOf(
    email: string,
    name: string,
    amountCents: number,
    approve?: Record<string, unknown>,
  ): Promise<{ client: Awaited<ReturnType<typeof createUser>>; packageId: string; orderID: string }>;
  /** Polls `what` every 20 ms until true; fails after `ms` with `why` and the server's output. */
  until(what: () => Promise<boolean>, why: () => string, ms?: number): Promise<void>;
  /**
   * Sends `request` to a server whose PayPal answer is held back, waits until PayPal has captured,
   * then kills the server with SIGKILL: the request dies unanswered, the money taken, nothing committed.
   */
  killAfterCapture(request: () => Promise<Response>): Promise<void>;
}

/**
 * The set-up of a test that kills the server mid-payment and starts it again (PostgreSQL only:
 * PGlite dies with the killed process): a fresh database, migrated, and the emulator before the
 * file's tests; the server, the emulator and the database gone after them.
 */
export function usePaymentCrash(site: { zone: string; teacher: string }): PaymentCrash {
  let fresh: FreshDatabase;
  let handle: DatabaseHandle;
  let emulator: EmulatorChild;
  let server: Child | undefined;
  beforeAll(async () => {
    fresh = await freshDatabase('postgres');
    handle = await openDatabase({ url: fresh.env.DATABASE_URL, pgliteDir: 'memory://' });
    await migrateToLatest(handle.db);
    emulator = await startEmulator();
  });
  afterAll(async () => {
    await server?.kill();
    await emulator?.kill('SIGTERM');
    await handle?.close();
    await fresh?.drop();
  });
  return {
    db: () => handle.db,
    get emulator() {
      return emulator;
    },
    get server() {
      return server;
    },
    start: async (reconcile, extra = {}) =>
      (server = await startChild(
        'tests/helpers/server-process.ts',
        serverProcessEnv({ database: { DATABASE_URL: fresh.env.DATABASE_URL! }, ...site, emulator, reconcile }, extra),
      )),
    call: (path, init) => callProcess(server!, path, init),
    async packageOrderOf(email, name, amountCents, approve = {}) {
      const client = await createUser({ services: { db: handle.db } } as unknown as TestServer, { email });
      const { id: packageId } = await handle.db.selectFrom('packages').select('id').where('name', '=', name).executeTakeFirstOrThrow();
      const made = await callProcess(server!, `/api/user/${client.id}/packages/${packageId}/paypal-order`, {
        method: 'POST',
        headers: { cookie: client.cookie },
        json: { amountCents },
      });
      expect(made.status).toBe(200);
      const { orderID } = (await made.json()) as { orderID: string };
      await emulator.approve(orderID, { givenName: 'Pat', ...approve });
      return { client, packageId, orderID };
    },
    until,
    async killAfterCapture(request) {
      const before = await emulator.captures();
      const hanging = request().catch(() => 'killed');
      await until(
        async () => (await emulator.captures()) > before,
        () => 'no capture',
      );
      await must(server, 'server').kill('SIGKILL');
      expect(await hanging).toBe('killed');
    },
  };

  async function until(what: () => Promise<boolean>, why: () => string, ms = 15_000) {
    const deadline = Date.now() + ms;
    while (!(await what())) {
      if (Date.now() > deadline) throw new Error(`${why()}\n${server?.output() ?? ''}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
