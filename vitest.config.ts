import { defineConfig } from 'vitest/config';

/**
 * Unit tests, and the API suite twice: on PGlite always, on PostgreSQL when
 * TEST_DATABASE_URL is set (CI sets it). Playwright's *.spec.ts files are not Vitest's.
 */
const apiOn = (db: 'pglite' | 'postgres') => ({
  test: {
    name: `api-${db}`,
    include: ['tests/api/**/*.test.ts'],
    // The race tests need real concurrency: PGlite runs one transaction at a time. The crash test
    // kills a server process: an embedded PGlite dies with it (PostgreSQL, like PayPal, outlives it).
    exclude:
      db === 'pglite'
        ? [
            'tests/api/system/hardening-races.test.ts',
            'tests/api/payments/payment-crash.test.ts',
            'tests/api/packages/package-crash.test.ts',
            'tests/api/packages/refund-owed-crash.test.ts',
            'tests/api/gift-cards/gift-card-crash.test.ts',
            'tests/api/system/two-processes.test.ts',
            'tests/api/pages/pages-replicas.test.ts',
            'tests/api/pages/journal-replicas.test.ts',
            'tests/api/packages/series-race.test.ts',
            'tests/api/classes/paid-events-race.test.ts',
            'tests/api/classes/event-cancel-crash.test.ts',
            'tests/api/agenda/availability-race.test.ts',
            'tests/api/agenda/calendar-write-back-crash.test.ts',
          ]
        : [],
    env: { TEST_DB: db },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    globalSetup: ['tests/global-setup.ts'],
    projects: [
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 } },
      apiOn('pglite'),
      ...(process.env.TEST_DATABASE_URL ? [apiOn('postgres')] : []),
    ],
  },
});
