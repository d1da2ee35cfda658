import { expect, test } from '@playwright/test';
import { freshDatabase, type FreshDatabase } from '../../helpers/database';
import type { Child } from '../../helpers/child';
import { startSitePair } from '../../helpers/replicas';
import { logInOnTheForm, visitorHeaders } from '../helpers';

/**
 * Issue 19 on two replicas, as the teacher does it on her phone: she edits a FAQ answer in
 * /admin on one server process and publishes; a second server process on the same PostgreSQL
 * database serves the new words within 5 seconds, with no rebuild and no restart. Both run
 * the built site (tests/helpers/server-process.ts with SERVE_SITE=1). PostgreSQL only: an
 * embedded PGlite lives inside one process (CI sets TEST_DATABASE_URL, as for the API suite's
 * two-process test).
 */
test.skip(!process.env.TEST_DATABASE_URL, 'two replicas share a PostgreSQL database: set TEST_DATABASE_URL');
test.use({ viewport: { width: 390, height: 844 }, extraHTTPHeaders: visitorHeaders() });

let fresh: FreshDatabase;
let a: Child;
let b: Child;

test.beforeAll(async () => {
  fresh = await freshDatabase('postgres');
  [a, b] = await startSitePair(fresh.env.DATABASE_URL!);
});
test.afterAll(async () => {
  await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
  await fresh?.drop();
});

test('a FAQ answer published on one replica is on the other within 5 s', async ({ page, request }) => {
  await logInOnTheForm(page, a.url);
  await page.goto(`${a.url}/admin/pages?page=yoga`);
  const form = page.getByRole('form', { name: 'Yoga' });
  await form.locator('summary').filter({ hasText: /^FAQ$/ }).click();
  const answer = form.getByRole('group', { name: 'FAQ item 1', exact: true }).getByRole('textbox', { name: 'Answer' });
  const newAnswer = `Published on replica A, read on replica B (${Date.now().toString(36)}).`;
  await answer.fill(newAnswer);
  const bar = page.getByRole('group', { name: 'Page actions' });
  await bar.getByRole('button', { name: 'Publish' }).click();
  await expect(bar.getByRole('status')).toContainText('Published as revision');
  const published = Date.now();
  await expect.poll(async () => (await (await request.get(`${b.url}/yoga`)).text()).includes(newAnswer), { timeout: 5_000, intervals: [100] }).toBe(true);
  expect(Date.now() - published).toBeLessThan(5_000);
});
