/**
 * The Google Calendar stand-in in a process of its own, for the test that kills the server mid-write:
 * Google outlives our crash, and so must the events it holds. Serves createGoogleEmulator() on
 * 127.0.0.1 (a free port) and prints `{"url": …}` once listening.
 *
 *   node tests/helpers/google-emulator-process.ts
 */
import { serve } from '@hono/node-server';
import { createGoogleEmulator } from '../../api/services/calendar/emulator.ts';

const emulator = createGoogleEmulator();
const server = serve({ fetch: emulator.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  console.log(JSON.stringify({ url: `http://127.0.0.1:${info.port}` }));
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
