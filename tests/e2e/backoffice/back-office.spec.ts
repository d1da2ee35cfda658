/**
 * The teacher's back office in the browser (issue 16): she writes a newsletter and sees it
 * previewed in the mail layout, sends herself a test, sends it to every subscriber and watches
 * the progress bar finish; downloads a CSV export; sets an announcement and sees it on / and
 * /chocolates, where closing it keeps it closed.
 */
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { closeAlert, expectAlert, hydrated, loginAdmin, mailsTo, nextPaint, uniqueEmail } from '../helpers.ts';
import { itemAt, must } from '../../helpers/guards.ts';

/** Content Security Policy complaints the page logs. */
function watchCsp(page: Page): string[] {
  const messages: string[] = [];
  page.on('console', (m) => {
    if (m.text().includes('Content Security Policy') && !m.text().includes('[Report Only]')) messages.push(m.text());
  });
  return messages;
}

test('the admin writes, previews, tests and sends a newsletter, and watches the progress bar finish', async ({ page }) => {
  const csp = watchCsp(page);
  await loginAdmin(page);
  const readers = [uniqueEmail('reader'), uniqueEmail('reader')];
  for (const email of readers) {
    const res = await page.request.post('/api/subscribers/subscribe', {
      data: { email },
      headers: { 'x-forwarded-for': `203.0.113.${Math.floor(Math.random() * 200) + 1}` },
    });
    expect(res.status()).toBe(201);
  }
  const subject = `Winter news ${Date.now().toString(36)}`;

  // The saved address arrives after she has started typing (held here until she has): what she typed stays.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/admin/settings/postal-address', async (route) => {
    if (route.request().method() === 'GET') await held;
    await route.fallback();
  });
  await page.goto('/admin/newsletter');
  await expect(page.getByRole('heading', { level: 1, name: 'Newsletter' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Newsletter' })).toHaveAttribute('aria-current', 'page');
  // Issue 48: every newsletter carries her postal address (CAN-SPAM); she sets it here (a fresh site has none).
  await hydrated(page);
  await page.getByLabel('Your postal address').fill('Cacao & Breath\nPO Box 4120\nPortland, OR 97208');
  release();
  await expect(page.locator('[data-postal-address]')).not.toHaveAttribute('data-postal-address', 'loading');
  await expect(page.getByLabel('Your postal address')).toHaveValue('Cacao & Breath\nPO Box 4120\nPortland, OR 97208');
  await page.getByRole('button', { name: 'Save postal address' }).click();
  await expect(page.locator('[data-postal-address-shown]')).toContainText('PO Box 4120');
  await expect(page.locator('[data-postal-address="setting"]')).toBeVisible();
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Body (Markdown)').fill('Classes **resume** on Monday.\n\n<script>alert(1)</script>\n\n[The calendar](https://example.com/calendar)');

  // The preview is the mail as sent: the Markdown rendered, the script shown as text, the unsubscribe link there.
  const preview = page.frameLocator('[data-newsletter-preview]');
  await expect(preview.locator('strong')).toHaveText('resume');
  await expect(preview.locator('body')).toContainText('<script>alert(1)</script>');
  await expect(preview.getByRole('link', { name: 'Unsubscribe' })).toBeVisible();
  await expect(preview.locator('h1')).toHaveText(subject);
  await expect(preview.locator('body')).toContainText('Cacao & Breath, PO Box 4120, Portland, OR 97208');

  await page.getByRole('button', { name: 'Send me a test' }).click();
  await expectAlert(page, 'A test was sent to your address.', 'admin@example.com');
  await closeAlert(page, 'A test was sent to your address.');
  const tests = await mailsTo(page.request, 'admin@example.com');
  expect(itemAt(tests, 0).subject).toBe(`[Test] ${subject}`);

  await page.getByRole('button', { name: 'Send to all subscribers' }).click();
  await page.getByRole('dialog', { name: 'Send to every subscriber?' }).getByRole('button', { name: 'Yes, send it!' }).click();
  const progress = page.locator('[data-newsletter-progress]');
  await expect(progress.locator('progress')).toBeVisible();
  await expect(progress).toHaveAttribute('data-newsletter-progress', 'sent', { timeout: 60_000 });
  const counts = (await progress.locator('[data-sent-count]').innerText()).split(' / ').map(Number);
  expect(counts[0]).toBe(counts[1]);
  expect(counts[1]).toBeGreaterThanOrEqual(2);
  expect(await progress.locator('progress').evaluate((p: HTMLProgressElement) => p.value === p.max)).toBe(true);

  for (const email of readers) {
    const mail = itemAt(await mailsTo(page.request, email), 0);
    expect(mail.subject).toBe(subject);
    expect(mail.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.text).toContain('Cacao & Breath, PO Box 4120, Portland, OR 97208');
  }
  // The archive lists it.
  await expect(page.locator('[data-newsletter-row]').filter({ hasText: subject })).toContainText('sent');
  expect(csp).toEqual([]);
});

test('the new admin pages: in the navigation, the finances chart drawn, no CSP complaint and no serious axe violation', async ({ page }) => {
  const csp = watchCsp(page);
  await loginAdmin(page);
  for (const [path, title] of [
    ['/admin/newsletter', 'Newsletter'],
    ['/admin/finances', 'Finances'],
    ['/admin/announcement', 'Announcement'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: title })).toHaveAttribute('aria-current', 'page');
    if (path === '/admin/finances') {
      // Five parts a month for the twelve months shown: shop sales net of tax, session payments
      // kept, gigs paid (issue 30), class places kept and tastings (issue 34).
      await expect(page.locator('[data-finance-chart] rect')).toHaveCount(60);
      await expect(page.locator('[data-finance-row="incomeCents"]')).toBeVisible();
    } else await expect(page.getByRole('form', { name: title })).toBeVisible();
    await hydrated(page);
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${path} ${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
  }
  expect(csp).toEqual([]);
});

test('the admin downloads the subscribers as CSV from their page', async ({ page }) => {
  await loginAdmin(page);
  await page.goto('/admin/subscribers');
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download subscribers (CSV)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^subscribers-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await readFile((await file.path())!, 'utf8');
  expect(text.startsWith('\uFEFFEmail,Subscribed at (UTC)\r\n')).toBe(true);
});

test.describe('the announcement', () => {
  test.afterEach(async ({ page }) => {
    // Other specs share this database: leave no bar over their pages.
    await loginAdmin(page);
    await page.request.put('/api/admin/announcement', { data: { message: '' } });
  });

  test('set by the admin, it shows on / and /chocolates, and stays closed once dismissed', async ({ page }) => {
    await loginAdmin(page);
    const message = `No classes over the holidays ${Date.now().toString(36)}`;
    await page.goto('/admin/announcement');
    await page.getByLabel('Message').fill(message);
    await page.getByLabel('Link (optional, http:// or https://)').fill('https://example.com/calendar');
    await page.getByRole('button', { name: 'Save announcement' }).click();
    await closeAlert(page, 'Announcement saved.');

    const bar = page.getByRole('complementary', { name: 'Announcement' });
    for (const path of ['/', '/chocolates']) {
      await page.goto(path);
      await expect(bar).toContainText(message);
      await expect(bar.getByRole('link', { name: 'Learn more' })).toHaveAttribute('href', 'https://example.com/calendar');
    }
    // On a phone, the end of the page can be scrolled above the bar: it covers nothing for good (issue 30).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/contact');
    await expect(bar).toBeVisible();
    const lastLine = page.locator('.site-footer .copyright');
    // Scrolled to the very end, the footer's last line sits above the bar, not under it.
    await expect
      .poll(async () => {
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        const line = (await lastLine.boundingBox())!;
        return line.y + line.height - must(await bar.boundingBox(), 'bar.boundingBox()').y;
      })
      .toBeLessThanOrEqual(0);
    await bar.getByRole('button', { name: 'Dismiss announcement' }).click();
    await expect(bar).toBeHidden();
    // The page asks for the announcement once it is idle: the answer arrives, and no bar is drawn.
    const asked = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/announcement');
    await page.goto('/');
    await asked;
    await nextPaint(page);
    await expect(bar).toHaveCount(0);
  });
});
