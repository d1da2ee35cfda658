import { expect, test, type APIRequestContext } from '@playwright/test';
import { BASE_URL, loginAdmin, postAdminLogin, visitorHeaders } from '../helpers';

/**
 * Issue 36, on her phone: the admin's Journal lists her posts a page at a time, "Show more"
 * draws the next page under it, and the search by title asks the server, so a post on no page
 * drawn yet is found. 55 drafts are made for the run (the page is 50) and deleted at the end.
 */

const RUN = `Paged ${Date.now().toString(36)}`;
const COUNT = 55;

test.use({ viewport: { width: 390, height: 844 }, extraHTTPHeaders: visitorHeaders(), timezoneId: 'America/Los_Angeles', locale: 'en-US' });
test.describe.configure({ mode: 'serial' });

let admin: APIRequestContext;
const ids: string[] = [];

test.beforeAll(async ({ playwright }) => {
  admin = await playwright.request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { ...visitorHeaders(), origin: BASE_URL } });
  await postAdminLogin(admin);
  for (let i = 0; i < COUNT; i++) {
    const res = await admin.post('/api/admin/posts', { data: { title: `${RUN} number ${i}`, brand: 'yoga', body: 'Words.' } });
    expect(res.status()).toBe(201);
    ids.push(((await res.json()) as { id: string }).id);
  }
});

test.afterAll(async () => {
  for (const id of ids) await admin.delete(`/api/admin/posts/${id}`);
  await admin.dispose();
});

test('her posts a page at a time: Show more draws the next page, the search finds a post on no page drawn', async ({ page }) => {
  await loginAdmin(page);
  await page.goto('/admin/journal');
  const cards = page.locator('li[data-post]');
  // Newest first: the drafts of this run lead, 50 of them on the first page.
  await expect(cards).toHaveCount(50);
  await expect(cards.first()).toContainText(`${RUN} number ${COUNT - 1}`);
  await expect(page.getByText(`${RUN} number 0`, { exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'Show more' }).click();
  await expect(page.getByRole('link', { name: `${RUN} number 0`, exact: true })).toBeVisible();
  expect(await cards.count()).toBeGreaterThan(COUNT - 1);

  const search = page.getByRole('search', { name: 'Search posts by title' });
  await search.getByLabel('Search posts by title').fill(`${RUN} number 42`);
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(cards).toHaveCount(1);
  await expect(cards).toContainText(`${RUN} number 42`);
  await expect(page.getByRole('button', { name: 'Show more' })).toHaveCount(0);
  await search.getByLabel('Search posts by title').fill(`${RUN} nothing like it`);
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText(`No post has “${RUN} nothing like it” in its title.`)).toBeVisible();
});
