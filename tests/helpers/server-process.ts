/**
 * The real server (api/server.ts's startServer) in a child process, without the built site, for
 * tests that kill it: configured by its environment alone, as in production, and printing
 * `{"url": …}` once it listens.
 *
 *   DATABASE_URL=… PAYPAL_CLIENT_ID=… node tests/helpers/server-process.ts
 *
 * Tests only: REMINDER_CHECK_MS=n also runs the reminder check (api/booking/reminders.ts, once a
 * minute in the server, with no variable to change that) every n ms, so a test sees it within
 * seconds.
 */
import { loadEnvOrExit } from '../../api/env.ts';
import { startServer } from '../../api/server.ts';
import { sendDueReminders } from '../../api/booking/reminders.ts';

const running = await startServer(loadEnvOrExit(), { site: false, seedContent: false });
const reminderCheckMs = Number(process.env.REMINDER_CHECK_MS ?? 0);
if (reminderCheckMs > 0) {
  setInterval(() => {
    sendDueReminders(running.services).catch((err: unknown) => console.error('[reminders] check failed:', err instanceof Error ? err.message : err));
  }, reminderCheckMs).unref();
}
console.log(JSON.stringify({ url: `http://127.0.0.1:${running.port}` }));
process.once('SIGTERM', () => void running.close().then(() => process.exit(0)));
