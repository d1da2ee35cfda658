import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM, CHROMIUM_FLAGS } from './scripts/chromium.ts';

const PORT = Number(process.env.E2E_PORT ?? 4399);

/** End-to-end tests against the production build (`npm start`) on a fresh PGlite database. */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: CHROMIUM,
          // Playwright runs headless its own way: the shared flags without --headless=new.
          args: CHROMIUM_FLAGS.filter((f) => f !== '--headless=new'),
        },
      },
    },
  ],
  webServer: {
    command: 'node scripts/start.ts',
    url: `http://127.0.0.1:${PORT}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      // One database per port: parallel runs never share PGlite files.
      PGLITE_DIR: `.data/e2e-${PORT}`,
      PARTYKIT_PORT: String(PORT + 1000),
      QUIET: '1',
      NODE_ENV: 'test',
      // As behind a production balancer: rate limits key on X-Forwarded-For's last entry, so
      // each simulated visitor (tests/e2e/helpers.ts visitorHeaders) has its own allowance.
      TRUST_PROXY: '1',
      // The newsletter sender ticks each second, ten mails a tick: a send finishes within the test.
      NEWSLETTER_INTERVAL_MS: '1000',
      NEWSLETTER_RATE_PER_MINUTE: '600',
    },
  },
});
