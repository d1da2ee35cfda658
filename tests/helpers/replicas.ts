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
  /** SIGTERM to both, then the connection closed and the database dropped. */
  stop(): Promise<void>;
}

export async function startReplicas(env: Record<string, string> = {}): Promise<Replicas> {
  const fresh = await freshDatabase('postgres');
  const childEnv = {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    QUIET: '1',
    SERVE_SITE: '1',
    DATABASE_URL: fresh.env.DATABASE_URL!,
    APP_SECRET: 'two-replicas-share-this-secret-of-32+chars',
    ...(process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {}),
    ...env,
  };
  const [a, b] = await Promise.all([startChild(SERVER, childEnv, 60_000), startChild(SERVER, childEnv, 60_000)]);
  const handle = await openDatabase({ url: fresh.env.DATABASE_URL, pgliteDir: 'memory://' });
  const admin = await handle.db.selectFrom('admins').select('id').executeTakeFirstOrThrow();
  const cookie = `${SESSION_COOKIES.admin}=${(await sessionStore(handle.db, 'admin').create(admin.id)).token}`;
  return {
    a,
    b,
    handle,
    cookie,
    stop: async () => {
      await Promise.all([a.kill('SIGTERM'), b.kill('SIGTERM')]);
      await handle.close();
      await fresh.drop();
    },
  };
}
