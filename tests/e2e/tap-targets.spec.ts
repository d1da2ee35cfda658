import { readdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { loginAdmin, visitorHeaders } from './helpers';

/**
 * Issue 30: a 24-px floor for every tap target, on every page, on a 390 × 844 phone (WCAG 2.2's
 * target size, 2.5.8, without its spacing exception: the issue asks for a floor). A link or button
 * smaller than 24 × 24 passes only inside a sentence, or a checkbox inside a label of 24 px. The
 * pages are read from site/pages, so a new page is checked by itself.
 */
test.use({ viewport: { width: 390, height: 844 }, extraHTTPHeaders: visitorHeaders() });

const pagesIn = (dir: string, prefix: string) =>
  readdirSync(new URL(`../../site/pages/${dir}`, import.meta.url))
    .filter((f) => f.endsWith('.astro') && !/^\d{3}\.astro$/.test(f))
    .map((f) => f.replace(/\.astro$/, ''))
    .map((name) => (name === 'index' ? prefix || '/' : `${prefix}/${name}`));

/** The targets under 24 px on the page as it is drawn now, that no WCAG exception covers. */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [tabindex="0"]';
    const visible = (e: Element) => {
      const r = e.getBoundingClientRect();
      const s = getComputedStyle(e);
      return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none' && !e.closest('[hidden], [aria-hidden="true"]');
    };
    const targets = [...document.querySelectorAll(selector)].filter(visible);
    const boxes = targets.map((e) => e.getBoundingClientRect());
    // A link in a line of text (WCAG's "inline" exception): its block holds other words too.
    const inline = (e: Element) => {
      if (e.tagName !== 'A') return false;
      const block = e.parentElement?.closest('p, li, dd, td, figcaption, label, span, small, h1, h2, h3, h4, h5, h6');
      return !!block && (block.textContent ?? '').replace(/\s+/g, ' ').trim().length > (e.textContent ?? '').replace(/\s+/g, ' ').trim().length + 2;
    };
    const out: string[] = [];
    targets.forEach((e, i) => {
      const r = boxes[i]!;
      if (r.width >= 24 && r.height >= 24) return;
      // A checkbox or radio inside its label: the label is the target.
      const label = e.closest('label');
      if (label && (e as HTMLInputElement).type && ['checkbox', 'radio'].includes((e as HTMLInputElement).type)) {
        const l = label.getBoundingClientRect();
        if (l.width >= 24 && l.height >= 24) return;
      }
      if (inline(e)) return;
      const name = (e.getAttribute('aria-label') || e.textContent || (e as HTMLInputElement).name || e.id || '').replace(/\s+/g, ' ').trim().slice(0, 40);
      out.push(`${e.tagName.toLowerCase()} “${name}” ${Math.round(r.width)}×${Math.round(r.height)}`);
    });
    return out;
  });
}

/** Every island hydrated at load has been hydrated by React. */
async function hydrated(page: Page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('astro-island[client="load"]')].every((island) => {
      const root = [...island.children].find((c) => c.tagName !== 'TEMPLATE' && c.tagName !== 'ASTRO-SLOT');
      return root ? Object.keys(root).some((k) => k.startsWith('__reactFiber')) : !island.hasAttribute('ssr');
    }),
  );
}

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
