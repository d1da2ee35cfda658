import { expect, test, type Page } from '@playwright/test';
import { closeAlert, expectAlert, hydrated, loginAdmin, nextPaint, scrollThrough, uniqueEmail } from '../helpers';
import { must } from '../../helpers/guards.ts';

/**
 * The Content-Security-Policy (api/middleware/security-headers.ts) against the real pages:
 * every page loads with no violation at all, and what the pages do still works under it
 * (islands hydrate, forms send, the PayPal emulator's SDK renders, the video player frame
 * is allowed, the booking page reaches the realtime room).
 */

const publicPages = [
  '/',
  '/yoga',
  '/about',
  '/aboutwebsite',
  '/chocolates',
  '/contact',
  '/gift-cards',
  '/calendar',
  '/cart',
  '/register',
  '/login',
  '/signup-selection',
  '/signup',
  '/admin',
];

interface Violation {
  directive: string;
  blocked: string;
  source: string;
}

/**
 * Records every violation the page reports, two ways: the securitypolicyviolation event
 * (registered before any of the page's own scripts run) and the console message Chromium
 * prints for each blocked load or inline script.
 */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const messages: string[] = [];
  page.on('console', (m) => {
    const text = m.text();
    if (text.includes('Content Security Policy') && !text.includes('[Report Only]')) messages.push(text);
  });
  await page.addInitScript(() => {
    if (window.top !== window) return;
    const seen: Violation[] = [];
    (window as unknown as { __csp: Violation[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) => {
      seen.push({ directive: e.effectiveDirective, blocked: e.blockedURI, source: `${e.sourceFile}:${e.lineNumber}` });
    });
  });
  return async () => {
    const events = await page.evaluate(() => (window as unknown as { __csp?: Violation[] }).__csp ?? []);
    return [...events.map((v) => `${v.directive} blocked ${v.blocked || 'inline'} at ${v.source}`), ...messages];
  };
}

/**
 * Brings every lazily hydrated island and photo to life: scroll through the page, each step
 * painted. A blocked load reports its violation when it is asked for, not when it would arrive.
 */
async function visitWhole(page: Page) {
  await page.waitForLoadState('load');
  await scrollThrough(page);
  await hydrated(page);
  await nextPaint(page);
}

test.describe('Content-Security-Policy', () => {
  test('every public page loads with the headers and no violation', async ({ page }) => {
    const violations = await watchCsp(page);
    for (const path of publicPages) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(200);
      const headers = must(res, 'res').headers();
      expect(headers['content-security-policy'], path).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+[;]/);
      expect(headers['content-security-policy'], path).not.toContain('unsafe-eval');
      expect(headers['content-security-policy'], path).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(headers['x-content-type-options'], path).toBe('nosniff');
      expect(headers['x-frame-options'], path).toBe('DENY');
      expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
      // Not production: no HSTS on a developer's localhost.
      expect(headers['strict-transport-security'], path).toBeUndefined();
      await visitWhole(page);
      expect(await violations(), path).toEqual([]);
    }
  });

  test('the 404 page carries the headers and loads with no violation', async ({ page }) => {
    const violations = await watchCsp(page);
    const res = await page.goto('/no-such-page');
    expect(res?.status()).toBe(404);
    expect(must(res, 'res').headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await page.waitForLoadState('load');
    await hydrated(page);
    expect(await violations()).toEqual([]);
  });

  test('the navbar badge still appears before first paint for a stored profile', async ({ page }) => {
    const violations = await watchCsp(page);
    await page.addInitScript(() => localStorage.setItem('user', JSON.stringify({ id: 'u1', firstName: 'Ana', lastName: 'Lima' })));
    // No bundled script may run: only the hashed inline one can have shown the badge.
    await page.route('**/_astro/**', (r) => r.abort());
    await page.goto('/yoga');
    await expect(page.locator('[data-auth-in]')).toBeVisible();
    await expect(page.locator('[data-auth-out]')).toBeHidden();
    expect(await violations()).toEqual([]);
  });

  test('islands hydrate: the contact form sends and the calendar lists its days', async ({ page }) => {
    const violations = await watchCsp(page);
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Contact form' });
    await form.getByLabel('Name').fill('Cy Policy');
    await form.getByLabel('Email').fill(uniqueEmail('csp'));
    await form.getByLabel('Message').fill('Does the policy let this through?');
    await form.getByRole('button', { name: 'Send message' }).click();
    await expectAlert(page, 'Message Sent!');
    await closeAlert(page, 'Message Sent!');
    expect(await violations()).toEqual([]);

    await page.goto('/calendar');
    await expect(page.locator('.calendar-day')).toHaveCount(42);
    await page.getByRole('button', { name: 'Next month' }).click();
    await expect(page.locator('.calendar-day').first()).toBeEnabled();
    expect(await violations()).toEqual([]);
  });

  test('the class description link scrolls under the policy', async ({ page }) => {
    const violations = await watchCsp(page);
    await page.goto('/about?section=classDescriptions');
    await expect(page.locator('#classDescriptions')).toBeFocused();
    expect(await violations()).toEqual([]);
  });

  test('the PayPal emulator buttons render on /cart after Continue to Payment', async ({ page }) => {
    const violations = await watchCsp(page);
    await page.goto('/chocolates');
    await page.locator('#products').scrollIntoViewIfNeeded();
    await page
      .locator('[data-product="Sea Salt Caramel Tin"]')
      .getByRole('button', { name: /Add to Cart/ })
      .click();
    await expect(page.locator('[data-cart-button]')).toHaveText('Cart (1)');
    await page.locator('[data-cart-button]').click();
    await page.waitForURL('**/cart');
    // A shipped order names its state (issue 24).
    await page.getByLabel('Ships to (state)').selectOption('OR');
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await expect(page.getByRole('button', { name: 'Pay with PayPal (emulator)' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Decline (emulator)' })).toBeVisible();
    expect(await violations()).toEqual([]);
  });

  test('the video facade may create its youtube-nocookie player', async ({ page }) => {
    const violations = await watchCsp(page);
    // The player's own page is not ours to test (and may be offline here): answer it locally.
    await page.route('https://www.youtube-nocookie.com/**', (r) => r.fulfill({ contentType: 'text/html', body: '<p>player</p>' }));
    await page.goto('/');
    await page.locator('#sample-class').scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: /Play video/ }).click();
    const iframe = page.locator('#sample-class iframe');
    await expect(iframe).toHaveAttribute('src', /^https:\/\/www\.youtube-nocookie\.com\/embed\//);
    await expect(page.frameLocator('#sample-class iframe').getByText('player')).toBeVisible();
    expect(await violations()).toEqual([]);
  });

  test('the client area (rendered on demand) hydrates and reaches the realtime room', async ({ page }) => {
    const violations = await watchCsp(page);
    // The client's session is faked in the page: a real one needs /api/user/register, whose
    // limit (10 per 15 minutes per address) the client and admin suites already spend in a
    // full run. Under test here are the page Astro renders on demand, the headers it gets,
    // and what its scripts may load and connect to; none of that depends on the session.
    const user = {
      id: 'csp-client',
      firstName: 'Cy',
      lastName: 'Policy',
      email: 'cy@example.com',
      image: null,
      phone: '',
      preferredName: '',
      pronoun: '',
      city: '',
      zipcode: '',
    };
    await page.addInitScript((u) => localStorage.setItem('user', JSON.stringify(u)), user);
    await page.route('**/api/user/validate-token', (r) => r.fulfill({ json: { isValid: true, user } }));
    await page.route('**/api/bookings?userId=*', (r) => r.fulfill({ json: { availableSlots: [] } }));
    // The booking page asks whether the intake is done (issue 23): not required here.
    await page.route('**/api/user/csp-client/intake*', (r) =>
      r.fulfill({
        json: { required: false, requiredFor: { individualYoga: false, yogaTherapy: false }, missingFor: [], completed: false, version: 1, questions: [] },
      }),
    );
    // Her session credits (issue 32): none.
    await page.route('**/api/user/csp-client/balance', (r) => r.fulfill({ json: { sessionsRemaining: 0, credits: [], history: [] } }));
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));

    const res = must(await page.goto('/user/csp-client/book'), 'res');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-security-policy']).toMatch(/connect-src 'self' ws:\/\/127\.0\.0\.1:\d+/);
    await expect(page.getByRole('heading', { name: 'Hi, Cy!' })).toBeVisible();
    await expect(page.locator('.calendar-day').first()).toBeVisible();
    await expect.poll(() => sockets.some((u) => u.startsWith('ws://127.0.0.1:'))).toBe(true);
    await hydrated(page);
    expect(await violations()).toEqual([]);
  });

  test('the admin area hydrates under the policy', async ({ page }) => {
    const violations = await watchCsp(page);
    await loginAdmin(page);
    for (const path of [
      '/admin/dashboard',
      '/admin/bookings',
      '/admin/chocolates',
      '/admin/orders',
      '/admin/signups',
      '/admin/subscribers',
      '/admin/users',
      '/admin/packages',
      '/admin/gift-cards',
    ]) {
      await page.goto(path);
      await expect(page.locator('main')).toBeVisible();
      // The panel drawn: its session checked and its data in.
      await hydrated(page);
      await expect(page.locator('main [role="status"]', { hasText: /^Loading…$/ })).toHaveCount(0);
      expect(await violations(), path).toEqual([]);
    }
  });
});
