import { expect, test } from '@playwright/test';
import { pickFirstFreeSlot, loginAdmin, registerAndVerify, uniqueEmail, visitorHeaders } from '../helpers';
import { must } from '../../helpers/guards.ts';

/**
 * Issue 30 (decision 0032) at 390×844: one amount range per session type. A therapy client typing
 * $30, inside the page's own "$10–$80", can press Continue; the label, the field and the hint
 * follow the chosen type; the sliding-scale sentence is written from the same ranges. Her
 * Settings show one range per type on a phone. Nothing here saves a setting: other suites share
 * the server.
 */
test.use({ viewport: { width: 390, height: 844 }, timezoneId: 'America/Los_Angeles', locale: 'en-US' });

const SENTENCE =
  'Sliding scale: individual yoga $80–$110 per hour; yoga therapy $10–$80 per hour through June 2026. Pay what is sustainable for you. I suggest committing to at least 8 weeks.';

test('a therapy client typing $30 can press Continue; individual yoga at $30 is told its range', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, extraHTTPHeaders: visitorHeaders() });
  const page = await context.newPage();
  const email = uniqueEmail('tia');
  const id = await registerAndVerify(page, 'Tia', 'Scale', email);
  // Her intake is practice.spec.ts's subject: here it counts as done, so Continue reaches the payment step.
  await page.route(`**/api/user/${id}/intake*`, (r) =>
    r.fulfill({
      json: { required: true, requiredFor: { individualYoga: false, yogaTherapy: true }, missingFor: [], completed: true, version: 1, questions: [] },
    }),
  );

  await page.goto(`/user/${id}/book`);
  await expect(page.locator('[data-sliding-scale]')).toHaveText(SENTENCE);
  // Before a type is chosen: both ranges together, the spec's label.
  await expect(page.getByLabel('Payment amount ($10-$110)')).toBeVisible();
  await pickFirstFreeSlot(page);

  const continueButton = page.getByRole('button', { name: 'Continue' });
  const amount = page.getByLabel(/Payment amount/);
  await page.getByLabel('Session type').selectOption('Individual Yoga Session (60 min)');
  await expect(page.getByLabel('Payment amount ($80-$110)')).toHaveAttribute('min', '80');
  await amount.fill('30');
  await expect(continueButton).toBeDisabled();
  await expect(page.locator('[data-continue-hint]')).toHaveText('To continue, enter an amount between $80 and $110 for individual yoga.');

  await page.getByLabel('Session type').selectOption('Yoga Therapy Session (60 min)');
  await expect(amount).toHaveAttribute('min', '10');
  await expect(amount).toHaveAttribute('max', '80');
  await expect(page.getByLabel('Payment amount ($10-$80)')).toHaveValue('30');
  await expect(continueButton).toBeEnabled();
  await expect(page.locator('[data-continue-hint]')).toHaveCount(0);
  const box = must(await continueButton.boundingBox(), 'box');
  expect(box.height).toBeGreaterThanOrEqual(24);
  await continueButton.click();
  await expect(page.getByText('Invalid Payment Amount')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Pay with PayPal (emulator)' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await context.close();
});

test('her Settings show one range per session type on a phone, and the sentence they write', async ({ page }) => {
  await loginAdmin(page);
  await page.goto('/admin/settings');
  const yoga = page.getByRole('group', { name: 'Individual yoga' });
  const therapy = page.getByRole('group', { name: 'Yoga therapy' });
  await expect(yoga.getByLabel('Lowest ($)')).toHaveValue('80');
  await expect(yoga.getByLabel('Highest ($)')).toHaveValue('110');
  await expect(therapy.getByLabel('Lowest ($)')).toHaveValue('10');
  await expect(therapy.getByLabel('Highest ($)')).toHaveValue('80');
  await expect(therapy.getByLabel('After “per hour” (optional)')).toHaveValue('through June 2026');
  // Only these two: issue 20's label, accepted, Continue and click ranges are gone.
  await expect(page.locator('[data-type-amounts]')).toHaveCount(2);
  await expect(page.getByText('Amounts accepted')).toHaveCount(0);
  // Lowest and highest side by side on the phone, inside it.
  const [low, high] = [await therapy.getByLabel('Lowest ($)').boundingBox(), await therapy.getByLabel('Highest ($)').boundingBox()];
  expect(Math.abs(must(low, 'low').y - must(high, 'high').y)).toBeLessThan(2);
  expect(must(high, 'high').x + must(high, 'high').width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expect(page.locator('[data-sliding-preview]')).toHaveText(`The booking page says: “${SENTENCE}”`);

  // The preview follows what she types; a range upside down is refused in the page, nothing sent.
  await therapy.getByLabel('Highest ($)').fill('70');
  await expect(page.locator('[data-sliding-preview]')).toContainText('yoga therapy $10–$70 per hour through June 2026.');
  await therapy.getByLabel('Lowest ($)').fill('90');
  let puts = 0;
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().endsWith('/api/admin/settings')) puts++;
  });
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(therapy.getByText('the lowest amount (min) must not be above the highest (max)')).toBeVisible();
  expect(puts).toBe(0);
});
