import { readdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { startChild, type Child } from '../../helpers/child';
import { visitorHeaders } from '../helpers';
import { addDays, zonedInstant, zonedNow } from '../../../api/lib/time.ts';

/**
 * Issue 29, "one clock, one zone": 21:30 in her city on the last day of a month, the hour when
 * /calendar used to throw React's error #418 (rendered on one side of midnight, hydrated on the
 * other). Her server's clock is set there through CLOCK_START (its injected clock), the
 * browser's through Playwright's clock, and the browser sits in Kiritimati (UTC+14), where it is
 * already the next month. Every public page and every admin page opens with no console error
 * and no hydration warning, and the days shown are hers.
 */
const ZONE = 'America/Los_Angeles';

/** 21:30 on the last day of this month on her clocks. */
function lastEveningOfMonth(): { day: string; instant: Date } {
  const today = zonedNow(ZONE).date;
  let day = today;
  while (addDays(day, 1).slice(0, 7) === today.slice(0, 7)) day = addDays(day, 1);
  return { day, instant: zonedInstant(day, '21:30', ZONE) };
}
const evening = lastEveningOfMonth();

/** Every page the site builds: the public ones and the admin's, read from site/pages (a new page is covered by itself). */
const pagesIn = (dir: string, prefix: string) =>
  readdirSync(new URL(`../../../site/pages/${dir}`, import.meta.url))
    .filter((f) => f.endsWith('.astro') && !/^\d{3}\.astro$/.test(f))
    .map((f) => f.replace(/\.astro$/, ''))
    .map((name) => (name === 'index' ? prefix || '/' : `${prefix}/${name}`));
const PUBLIC_PAGES = [...pagesIn('', ''), '/blog'];
const ADMIN_PAGES = pagesIn('admin', '/admin');

test.use({ timezoneId: 'Pacific/Kiritimati', extraHTTPHeaders: visitorHeaders() });

let server: Child;
test.beforeAll(async () => {
  server = await startChild(
    'tests/helpers/server-process.ts',
    {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      QUIET: '1',
      SERVE_SITE: '1',
      PGLITE_DIR: 'memory://',
      SITE_TIMEZONE: ZONE,
      CLOCK_START: evening.instant.toISOString(),
      ...(process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {}),
    },
    90_000,
  );
});
test.afterAll(async () => {
  await server?.kill('SIGTERM');
});

/** The console's errors and the page's uncaught ones (a hydration mismatch is reported as one). */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    // The browser's own network line for a session check answered 401 (/dashboard to a visitor
    // who is not signed in: the page then sends her to log in) is not an error of the page.
    if (/^Failed to load resource: the server responded with a status of 401\b/.test(m.text())) return;
    if (m.type() === 'error' || (m.type() === 'warning' && /hydrat/i.test(m.text()))) errors.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  return errors;
}

/** Every island hydrated at load has been hydrated by React (its DOM carries React's fiber). */
async function hydrated(page: Page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('astro-island[client="load"]')].every((island) => {
      const root = [...island.children].find((c) => c.tagName !== 'TEMPLATE' && c.tagName !== 'ASTRO-SLOT');
      return root ? Object.keys(root).some((k) => k.startsWith('__reactFiber')) : !island.hasAttribute('ssr');
    }),
  );
}

test.beforeEach(async ({ page }) => {
  await page.clock.install({ time: evening.instant });
});

test('every public page at 21:30 on her last evening of the month: no console error, and /calendar shows her day', async ({ page }) => {
  const errors = collectErrors(page);
  for (const path of PUBLIC_PAGES) {
    await page.goto(`${server.url}${path}`);
    // A visitor who is not signed in is sent on from her dashboard to the login page.
    if (path === '/dashboard') await page.waitForURL('**/login');
    await hydrated(page);
  }
  expect(errors).toEqual([]);

  await page.goto(`${server.url}/calendar`);
  await hydrated(page);
  const [year, month, dayOfMonth] = evening.day.split('-').map(Number) as [number, number, number];
  const monthName = new Date(Date.UTC(year, month - 1, 15)).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  await expect(page.locator('.calendar-head h2')).toHaveText(monthName);
  await expect(page.locator('.calendar-day.today')).toHaveAttribute('data-date', evening.day);
  await expect(page.locator('#day-heading')).toContainText(`${monthName.split(' ')[0]} ${dayOfMonth}`);
  // A class this evening after the clock's time is still open for sign-up; the visitor's zone is tomorrow.
  expect(await page.evaluate(() => new Date().getDate())).not.toBe(dayOfMonth);
  expect(errors).toEqual([]);
});

test('every admin page at the same hour: no console error, and her gigs default to her day', async ({ page }) => {
  const errors = collectErrors(page);
  const login = await page.request.post(`${server.url}/api/admin/login`, {
    data: { email: 'admin@example.com', password: 'namaste-cacao-42', recaptchaToken: 'dev:admin_login' },
  });
  expect(login.status()).toBe(200);
  for (const path of ADMIN_PAGES) {
    await page.goto(`${server.url}${path}`);
    // Signed in, the login page goes on to the dashboard by itself.
    if (path === '/admin') await page.waitForURL('**/admin/dashboard');
    await hydrated(page);
    // The panel itself (drawn once the session is checked), not only the shell.
    if (path !== '/admin') await expect(page.locator('main [role="status"]', { hasText: /^Loading…$/ })).toHaveCount(0);
  }
  expect(errors).toEqual([]);

  await page.goto(`${server.url}/admin/gigs`);
  await expect(page.getByRole('form', { name: 'Add a gig' }).getByLabel('First date')).toHaveValue(evening.day);
  expect(errors).toEqual([]);
});
