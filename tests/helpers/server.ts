/**
 * The API under test: the real Node server (api/server.ts) on a free port with a fresh
 * database, reached over real HTTP. The site is left out unless `site: true` (the build that
 * tests/global-setup.ts makes: pages rendered ahead, static files, the 404 page); Playwright
 * covers the browser side.
 */
import { loadEnv } from '../../api/env.ts';
import { startServer, type RunningServer } from '../../api/server.ts';
import { freshDatabase } from './database.ts';

export interface TestServer extends RunningServer {
  /** fetch relative to the server, JSON bodies by default. */
  api(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
}

export async function startTestServer(options: { env?: Record<string, string>; seedContent?: boolean; site?: boolean } = {}): Promise<TestServer> {
  const database = await freshDatabase();
  // The outbox's periodic sender waits an hour between ticks: a mail a test let fail is retried only
  // when the test says so (sendDueMails), never in the middle of a later test's count.
  const env = loadEnv({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', QUIET: '1', OUTBOX_INTERVAL_MS: '3600000', ...database.env, ...options.env });
  const running = await startServer(env, { site: options.site ?? false, seedContent: options.seedContent ?? false });
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
