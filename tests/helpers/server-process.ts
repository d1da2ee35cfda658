/**
 * The real server (api/server.ts's startServer) in a child process for tests that kill it or
 * run two replicas: configured by its environment alone, as in production, and printing
 * `{"url": …}` once it listens. Without the built site unless SERVE_SITE=1 (the replicas test
 * of published pages needs it; the global setup builds it).
 *
 *   DATABASE_URL=… PAYPAL_CLIENT_ID=… node tests/helpers/server-process.ts
 */
import { loadEnvOrExit } from '../../api/env.ts';
import { startServer } from '../../api/server.ts';

const running = await startServer(loadEnvOrExit(), { site: process.env.SERVE_SITE === '1', seedContent: false });
console.log(JSON.stringify({ url: `http://127.0.0.1:${running.port}` }));
process.once('SIGTERM', () => void running.close().then(() => process.exit(0)));
