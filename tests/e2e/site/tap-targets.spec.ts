import { readdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { hydrated, loginAdmin, smallTargets, visitorHeaders } from '../helpers';

/**
 * Issue 30: a 24-px floor for every tap target, on every page, on a 390 × 844 phone (WCAG 2.2's
 * target size, 2.5.8, without its spacing exception: the issue asks for a floor). A link or button
 * smaller than 24 × 24 passes only inside a sentence, or a checkbox inside a label of 24 px. The
 * pages are read from site/pages, so a new page is checked by itself.
 */
test.use({ viewport: { width: 390, height: 844 }, extraHTTPHeaders: visitorHeaders() });

const pagesIn = (dir: string, prefix: string) =>
  readdirSync(new URL(`../../../site/pages/${dir}`, import.meta.url))
    .filter((f) => f.endsWith('.astro') && !/^\d{3}\.astro$/.test(f))
    .map((f) => f.replace(/\.astro$/, ''))
    .map((name) => (name === 'index' ? prefix || '/' : `${prefix}/${name}`));

test('every public page: no tap target under 24 px', async ({ page }) => {
  test.setTimeout(120_000);
  // A cart with a chocolate in it, so /cart shows its controls (local pickup, quantities, coupon).
  const products = (await (await page.request.get('/api/chocolates')).json()) as { _id: string; name: string; price: number; picture?: unknown }[];
  const cart = products.slice(0, 1).map((p) => ({ _id: p._id, name: p.name, price: p.price, picture: p.picture, quantity: 1 }));
  await page.addInitScript((items) => localStorage.setItem('cart', JSON.stringify(items)), cart);
  const found: string[] = [];
  for (const path of [...pagesIn('', ''), '/blog']) {
    await page.goto(path);
    if (path === '/dashboard') await page.waitForURL('**/login');
    await hydrated(page);
    found.push(...(await smallTargets(page)).map((t) => `${path}: ${t}`));
  }
  expect(found).toEqual([]);
});

test('every admin page: no tap target under 24 px', async ({ page }) => {
  test.setTimeout(120_000);
  await loginAdmin(page);
  const found: string[] = [];
  for (const path of pagesIn('admin', '/admin')) {
    await page.goto(path);
    if (path === '/admin') await page.waitForURL('**/admin/dashboard');
    await hydrated(page);
    // The panel itself, drawn once the session is checked.
    await expect(page.locator('main [role="status"]', { hasText: /^Loading…$/ })).toHaveCount(0);
    found.push(...(await smallTargets(page)).map((t) => `${path}: ${t}`));
  }
  expect(found).toEqual([]);
});
