import { expect } from '@playwright/test';
import { adminTest as test, fitsThePhone, uniqueEmail } from '../helpers';

/**
 * Issue 36, on her phone (390×844): a list longer than a page. The Clients page draws the first
 * page (50), a "Show more" button (a thumb's 44 px, the screen's width) brings the next below,
 * and the search finds a client from long ago, asked of the server, not of what is drawn.
 */
test.use({ viewport: { width: 390, height: 844 } });

test('Clients: the first page, Show more, and a search that finds the oldest', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const add = async (firstName: string, lastName: string) => {
    const res = await page.request.post('/api/admin/users', {
      data: { firstName, lastName, email: uniqueEmail(`page-${stamp}`), phone: '', sendWelcome: false },
    });
    expect(res.status(), await res.text()).toBe(201);
  };
  // The oldest first, then more than a page after her.
  await add('Philippa', `Longago${stamp}`);
  for (let i = 0; i < 55; i++) await add(`Pager${i}`, `Paged${stamp}`);

  await page.goto('/admin/users');
  const rows = page.locator('tr[data-user-row]');
  await expect(rows).toHaveCount(50);
  await expect(page.getByText(`Longago${stamp}`)).toHaveCount(0);
  await expect(page.locator('.admin-search-count')).toHaveText('50 shown, more below');

  const more = page.getByRole('button', { name: 'Show more clients' });
  await more.scrollIntoViewIfNeeded();
  const box = (await more.boundingBox())!;
  expect(box.height).toBeGreaterThanOrEqual(44);
  expect(box.width).toBeGreaterThan(300);
  await fitsThePhone(page);
  await more.click();
  await expect.poll(() => rows.count()).toBeGreaterThan(50);
  // What came stays, in order, no row twice.
  const ids = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-user-row')));
  expect(new Set(ids).size).toBe(ids.length);

  // The search asks the server: the oldest is found wherever her page is.
  await page.goto('/admin/users');
  await expect(rows).toHaveCount(50);
  await page.getByRole('searchbox', { name: 'Search clients by name or e-mail' }).fill(`longago${stamp}`);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Philippa');
  await expect(page.getByRole('button', { name: 'Show more clients' })).toHaveCount(0);
  await expect(page.locator('.admin-search-count')).toHaveText('1 shown');

  // A Today link to her (focus=<id>) lands on her row, though 55 newer clients push it past the first page.
  const id = (await rows.first().getAttribute('data-user-row'))!;
  await page.goto(`/admin/users?focus=${id}`);
  const hers = page.locator(`tr[data-user-row="${id}"]`);
  await expect(hers).toHaveAttribute('aria-current', 'true');
  await expect(hers).toBeFocused();
  await expect(hers).toBeInViewport();
  expect(await rows.count()).toBeGreaterThan(50);
});
