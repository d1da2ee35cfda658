/**
 * The photo benchmarks' start, written once (bench-photos and bench-photos-dpr3): the production
 * build (made first when it is stale) served on a fresh in-memory database, with her admin
 * session's headers for uploading through the API as the admin page does.
 */
import { build, isBuildCurrent } from '../build.ts';
import { loadEnv } from '../../api/env.ts';
import { startServer } from '../../api/server.ts';
import { sessionStore } from '../../api/middleware/sessions.ts';
import { SESSION_COOKIES } from '../../api/middleware/session-cookies.ts';

export async function serveBuiltSite() {
  if (!isBuildCurrent()) build();
  const env = loadEnv({ ...process.env, NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', PGLITE_DIR: 'memory://', QUIET: '1', DATABASE_URL: '' });
  const server = await startServer(env);
  const base = `http://127.0.0.1:${server.port}`;
  const adminRow = await server.services.db.selectFrom('admins').select('id').executeTakeFirstOrThrow();
  const { token } = await sessionStore(server.services.db, 'admin').create(adminRow.id);
  return { server, base, headers: { cookie: `${SESSION_COOKIES.admin}=${token}`, origin: base } };
}
