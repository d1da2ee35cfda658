import { expect, test } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { pickFirstFreeSlot, closeAlert, expectAlert, loginAdmin, registerAndVerify, uniqueEmail, visitorHeaders } from '../helpers';

/**
 * Issue 32 at 390 × 844: a client who paid her five sessions in cash (she records the sale) sees
 * "Use 1 of your 5 sessions (until …)" on the booking page instead of the amount, books without
 * PayPal, and has 4 left; the guided booking offers the same in one tap.
 */
test.use({ viewport: { width: 390, height: 844 }, timezoneId: 'America/Los_Angeles', locale: 'en-US' });

test('a client books with a session credit she sold by hand: no payment, one credit fewer', async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ extraHTTPHeaders: visitorHeaders() });
  const page = await context.newPage();
  const email = uniqueEmail('credit');
  const userId = await registerAndVerify(page, 'Cora', 'Credit', email);

  // The teacher records the package sold in cash.
  const admin = await browser.newContext({ extraHTTPHeaders: visitorHeaders() });
  const adminPage = await admin.newPage();
  await loginAdmin(adminPage);
  const packages = (await (await adminPage.request.get('/api/packages')).json()) as { _id: string; name: string }[];
  const five = packages.find((p) => p.name === 'Five individual yoga sessions')!;
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(new Date());
  const sold = await adminPage.request.post(`/api/admin/users/${userId}/packages`, {
    data: { packageId: five._id, amountCents: 45_000, method: 'cash', paidOn: today },
  });
  expect(sold.status()).toBe(201);

  await page.goto(`/user/${userId}/book`);
  await pickFirstFreeSlot(page);
  await page.getByLabel('Session type').selectOption('Individual Yoga Session (60 min)');
  const offer = page.locator('[data-credit-offer]');
  await expect(offer).toContainText(/^Use 1 of your 5 sessions \(until \d{1,2} [A-Z][a-z]{2}\)$/);
  await expect(offer.getByRole('checkbox')).toBeChecked();
  await expect(page.getByLabel(/Payment amount/)).toHaveCount(0);
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('button', { name: 'Pay with PayPal (emulator)' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Finalize Booking' }).click();
  await expectAlert(page, 'Booking Confirmed!');
  await closeAlert(page, 'Booking Confirmed!');
  await page.waitForURL(`**/user/${userId}`);

  const balance = await (await page.request.get(`/api/user/${userId}/balance`)).json();
  expect(balance.sessionsRemaining).toBe(4);

  // The guided booking offers the credit in one tap, instead of the payment.
  await page.goto(`/user/${userId}/book/individual-yoga`);
  await page.locator('[data-slot]').first().click();
  await expect(page.getByRole('button', { name: /Pay with PayPal/ })).toHaveCount(0);
  await page.getByRole('button', { name: /^Use 1 of your 4 sessions/ }).click();
  await expect(page.getByRole('heading', { name: 'Booking Confirmed!' })).toBeVisible();
  expect((await (await page.request.get(`/api/user/${userId}/balance`)).json()).sessionsRemaining).toBe(3);
  await admin.close();
  await context.close();
});
