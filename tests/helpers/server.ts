/**
 * The API under test: the real Node server (api/server.ts) on a free port with a fresh
 * database, reached over real HTTP. The site is left out unless `site: true` (the build that
 * tests/global-setup.ts makes: pages rendered ahead, static files, the 404 page); Playwright
 * covers the browser side.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { loadEnv } from '../../api/env.ts';
import { resetRateLimits } from '../../api/middleware/rate-limit.ts';
import { startServer, type RunningServer } from '../../api/server.ts';
import { freshDatabase } from './database.ts';

export interface TestServer extends RunningServer {
  /** fetch relative to the server, JSON bodies by default. */
  api(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
}

/** A test server's environment: a free port on loopback, quiet, its timers idle (see below); `more` on top. */
export const testServerEnv = (more: Record<string, string | undefined>) =>
  loadEnv({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', QUIET: '1', OUTBOX_INTERVAL_MS: '3600000', GOOGLE_CALENDAR_WRITE_MS: '3600000', ...more });

export async function startTestServer(options: Omit<TestServerOptions, 'resetRateLimits'> = {}): Promise<TestServer> {
  const database = await freshDatabase(undefined, { migrated: true });
  // The outbox's periodic sender waits an hour between ticks: a mail a test let fail is retried only
  // when the test says so (sendDueMails), never in the middle of a later test's count. So does the
  // write-back to her Google Calendar (mirrorCalendar): its writes, and the refreshes Google's
  // pushes about them start, never land in the middle of a test comparing tables.
  const env = testServerEnv({ ...database.env, ...(typeof options.env === 'function' ? options.env() : options.env) });
  const running = await startServer(env, {
    site: options.site ?? false,
    seedContent: options.seedContent ?? false,
    ...(database.migratedCopy ? { migratedCopy: database.migratedCopy } : {}),
    ...(options.fastPath === false ? { fastPath: false } : {}),
  });
  const base = `http://127.0.0.1:${running.port}`;
  return {
    ...running,
    url: base,
    api: (path, init = {}) => {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (json !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
      return fetch(`${base}${path}`, { ...rest, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) });
    },
    close: async () => {
      await running.close();
      await database.drop();
    },
  };
}

export interface TestServerOptions {
  /** With useTestServer, a function is read when the server starts (say, to name a fake server started before it). */
  env?: Record<string, string> | (() => Record<string, string>);
  seedContent?: boolean;
  site?: boolean;
  /** false: pages and files go through the Hono fallback, not the fast path (tests/api/pages/one-page-server.test.ts). */
  fastPath?: boolean;
  /** Empty the rate limiters before each test (most suites send more than one client's share). */
  resetRateLimits?: boolean;
}

/**
 * A suite's server: starts one before the suite's tests (beforeAll), closes it after (afterAll),
 * and with `resetRateLimits` empties the limiters before each test. Call it at the top of a file
 * or inside a describe; it returns a stand-in for the running server (`server.api(…)`,
 * `server.env`, `server.services`…) that reads the server once beforeAll has started it.
 * Hooks a suite registers after this call run with the server started.
 */
export function useTestServer(options: TestServerOptions = {}): TestServer {
  const { resetRateLimits: reset, ...start } = options;
  let running: TestServer | undefined;
  beforeAll(async () => {
    running = await startTestServer(start);
  });
  afterAll(async () => {
    await running?.close();
    running = undefined;
  });
  if (reset) beforeEach(() => resetRateLimits());
  const current = (): TestServer => {
    if (!running) throw new Error('The test server is not running: use it inside a test or a hook after useTestServer().');
    return running;
  };
  return new Proxy({} as TestServer, {
    get: (_, key) => Reflect.get(current(), key),
    set: (_, key, value) => Reflect.set(current(), key, value),
    has: (_, key) => Reflect.has(current(), key),
    ownKeys: () => Reflect.ownKeys(current()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(current(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}

/** An answer as it crossed the wire: its status, headers and bytes, not decoded (fetch would decode them). */
export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request to `base` with `path` sent as written: no URL normalisation of `..` or `%2e`, no decoding of the answer. */
export function rawRequest(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
