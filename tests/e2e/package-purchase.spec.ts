import { expect, test } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { closeAlert, expectAlert, registerAndVerify, uniqueEmail, visitorHeaders } from './helpers';

/**
 * Issue 32 at 390 × 844 (decision 0038): /yoga offers her packages with what they save and leads
 * to the booking page, where a client buys "Eight weeks of yoga therapy" with the PayPal emulator, after an amount off its scale is refused with its words;
 * her dashboard then shows 8 sessions left and the last day they can book.
 */
test.use({ viewport: { width: 390, height: 844 }, timezoneId: 'America/Los_Angeles', locale: 'en-US' });

const EIGHT = 'Eight weeks of yoga therapy';

test('a client buys a package with the PayPal emulator and her dashboard shows 8 sessions left and the expiry', async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ extraHTTPHeaders: visitorHeaders() });
  const page = await context.newPage();
  const userId = await registerAndVerify(page, 'Pia', 'Package', uniqueEmail('package'));

  // /yoga offers it among her offerings (rendered ahead), and leads to her own booking page.
  await page.goto('/yoga');
  const onYoga = page.locator(`[data-packages] [data-package="${EIGHT}"]`);
  await expect(onYoga).toContainText('$45 a session at the suggested $360; saves $280 against 8 single sessions at $80');
  const yogaAxe = await new AxeBuilder({ page }).include('#offerings').analyze();
  expect(yogaAxe.violations.map((v) => v.id)).toEqual([]);
  await onYoga.getByRole('link', { name: `Buy on the booking page for ${EIGHT}` }).click();
  await page.waitForURL(`**/user/${userId}/book`);

  const offer = page.locator(`[data-package="${EIGHT}"]`);
  await expect(offer).toContainText('8 sessions (Yoga Therapy Session (60 min)) · $80–$600 · valid 4 months');
  await expect(offer).toContainText('$45 a session at the suggested $360; saves $280 against 8 single sessions at $80');
  await offer.getByRole('button', { name: `Buy ${EIGHT}` }).click();
  const amount = page.getByLabel('Amount ($80–$600)');
  await expect(amount).toHaveValue('360.00');

  // Off the scale: refused with its words, nothing asked of PayPal.
  await amount.fill('700');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.locator('#package-amount-error')).toHaveText(`The amount for ${EIGHT} must be between $80 and $600.`);
  await expect(page.getByRole('button', { name: 'Pay with PayPal (emulator)' })).toHaveCount(0);

  await amount.fill('360');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  const pay = page.getByRole('button', { name: 'Pay with PayPal (emulator)' });
  await expect(pay).toBeVisible();
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  await pay.click();
  await expectAlert(page, 'Payment Successful');
  await closeAlert(page, 'Payment Successful');
  await expectAlert(page, 'Package Bought!', `${EIGHT}: 8 sessions are yours to book.`);
  await closeAlert(page, 'Package Bought!');
  await page.waitForURL(`**/user/${userId}`);

  // Her dashboard: 8 left, until the last day (her day, four months on).
  const balance = (await (await page.request.get(`/api/user/${userId}/balance`)).json()) as { credits: { expiresOn: string }[] };
  const until = new Date(`${balance.credits[0]!.expiresOn}T12:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
  await expect(page.locator('[data-sessions-remaining]')).toHaveText('8 sessions left to book');
  await expect(page.locator(`[data-credit="${EIGHT}"]`)).toContainText(`${EIGHT}: 8 sessions left, until ${until}`);
  await page.locator('[data-balance]').getByText('History', { exact: true }).click();
  await expect(page.getByRole('list', { name: 'Session history' })).toContainText(`Bought · ${EIGHT} · +8`);
  const dashboardAxe = await new AxeBuilder({ page }).analyze();
  expect(dashboardAxe.violations.map((v) => v.id)).toEqual([]);
  await context.close();
});
