/**
 * Two server processes on one fresh PostgreSQL database (the replicas tests): each serves the
 * built site, both share one APP_SECRET, and the test holds its own connection and an admin
 * cookie valid on both.
 */
import { openDatabase, type DatabaseHandle } from '../../db/client.ts';
import { sessionStore } from '../../api/middleware/sessions.ts';
import { SESSION_COOKIES } from '../../api/middleware/session-cookies.ts';
import { freshDatabase } from './database.ts';
import { startChild, type Child } from './child.ts';

const SERVER = 'tests/helpers/server-process.ts';

export interface Replicas {
  a: Child;
  b: Child;
  handle: DatabaseHandle;
  cookie: string;
  /** An admin API call (JSON in) on one replica, with the cookie valid on both. */
  admin(server: Child, path: string, init?: { method?: string; json?: unknown }): Promise<Response>;
  /** SIGTERM to both, then the connection closed and the database dropped. */
  stop(): Promise<void>;
}

/**
 * One replica's environment (these tests' and scripts/bench-publish.ts's): the real server on
 * `databaseUrl` serving the built site (DIST_DIR passed on when set), with the APP_SECRET every
 * replica shares so that a cookie made on one is valid on all.
 */
export const replicaEnv = (databaseUrl: string, appSecret: string): Record<string, string> => ({
  NODE_ENV: 'test',
  HOST: '127.0.0.1',
  PORT: '0',
  QUIET: '1',
  SERVE_SITE: '1',
  DATABASE_URL: databaseUrl,
  APP_SECRET: appSecret,
  ...(process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {}),
});

/** The two server processes alone, with the built site, on the database at `databaseUrl`; started at once, as a first deploy's. */
export async function startSitePair(databaseUrl: string, env: Record<string, string> = {}): Promise<[Child, Child]> {
  const childEnv = { ...replicaEnv(databaseUrl, 'two-replicas-share-this-secret-of-32+chars'), ...env };
  return Promise.all([startChild(SERVER, childEnv, 60_000), startChild(SERVER, childEnv, 60_000)]);
}

export async function startReplicas(env: Record<string, string> = {}): Promise<Replicas> {
  const fresh = await freshDatabase('postgres');
  const [a, b] = await startSitePair(fresh.env.DATABASE_URL!, env);
  const handle = await openDatabase({ url: fresh.env.DATABASE_URL, pgliteDir: 'memory://' });
  const admin = await handle.db.selectFrom('admins').select('id').executeTakeFirstOrThrow();
  const cookie = `${SESSION_COOKIES.admin}=${(await sessionStore(handle.db, 'admin').create(admin.id)).token}`;
  return {
    a,
    b,
    handle,
    cookie,
    admin: (server, path, init = {}) =>
      fetch(`${server.url}${path}`, {
        method: init.method ?? 'GET',
        headers: { cookie, ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
      }),
    stop: async () => {
      await Promise.all([a.kill('SIGTERM'), b.kill('SIGTERM')]);
      await handle.close();
      await fresh.drop();
    },
  };
}

/** Milliseconds until `server` serves `path` (200) containing `text`; fails after `within` ms. */
export async function servedWithin(server: Child, path: string, text: string, within = 5_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < within) {
    const res = await fetch(`${server.url}${path}`);
    if (res.status === 200 && (await res.text()).includes(text)) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${server.url}${path} did not show "${text}" within ${within} ms`);
}
