/**
 * The PayPal emulator in a process of its own, for tests that kill the server: PayPal outlives
 * our crash, and so must what it captured. Serves createPayPalEmulator() on 127.0.0.1 (a free
 * port), prints `{"url": …}` once listening, and adds GET /__stats: how many captures it made
 * (a capture repeated with its PayPal-Request-Id is answered, not made again) and refunds.
 *
 *   node tests/helpers/emulator-process.ts
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createPayPalEmulator, emulatorCaptureCount, emulatorRefundCount } from '../../api/services/payments/emulator.ts';

const app = new Hono();
app.get('/__stats', (c) => c.json({ captures: emulatorCaptureCount(), refunds: emulatorRefundCount() }));
app.route('/', createPayPalEmulator());

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  console.log(JSON.stringify({ url: `http://127.0.0.1:${info.port}` }));
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
