import { expect, test, type Page } from '@playwright/test';
import { closeAlert, expectAlertText, loginAdmin, teacherToday } from '../helpers';

/**
 * Issue 24 at 390×844: a buyer sees the sales tax before paying and pays it through the PayPal
 * emulator (issue 29: where she collects, at the address's rate: "Tax (WA 10.35%)" in Seattle;
 * none where she doesn't; a pickup at her shop's); she changes where she collects on her phone; the teacher adds a weekly gig, marks one class paid,
 * adds a trip and reads the year's page (issue 30: open on the current quarter, the others folded; its
 * income is Finances' for the same months).
 */
test.use({ viewport: { width: 390, height: 844 } });

const openShop = async (page: Page) => {
  await page.goto('/chocolates');
  await page.locator('#products').scrollIntoViewIfNeeded();
  await expect(page.locator('[data-product]').first()).toBeVisible();
};

test('a buyer sees the tax of the address it ships to, where she collects, before paying, and pays it', async ({ page }) => {
  // Issue 29: a fresh site (her shop in Portland, Oregon) collects nowhere; here she is registered
  // in Washington with a shop in Seattle, and the rate is the address's (the stand-in's ZIPs).
  await loginAdmin(page);
  const seeded = await (await page.request.get('/api/admin/settings/tax')).json();
  const seattle = { collectsIn: ['WA'], shopAddress: { line1: '500 Pike St', city: 'Seattle', state: 'WA', zip: '98101' } };
  expect((await page.request.put('/api/admin/settings/tax', { data: seattle })).status()).toBe(200);
  try {
    await openShop(page);
    await page
      .locator('[data-product="Sea Salt Caramel Tin"]')
      .getByRole('button', { name: /Add to Cart/ })
      .click();
    await expect(page.locator('[data-cart-button]')).toHaveText('Cart (1)');
    await page.goto('/cart');

    // Shipped: no state, no payment; in Washington, no ZIP, no payment either.
    const continueButton = page.getByRole('button', { name: 'Continue to Payment' });
    await expect(continueButton).toBeDisabled();
    await page.getByLabel('Ships to (state)', { exact: true }).selectOption('WA');
    await expect(continueButton).toBeDisabled();
    await page.getByLabel('ZIP code', { exact: true }).fill('98101');
    // $18 + $5 shipping; Seattle's 10.35% of $18 = $1.86 (shipping not taxed in her table).
    await expect(page.locator('[data-tax-label]')).toHaveText('Tax (WA 10.35%)');
    await expect(page.locator('[data-total="tax"]')).toHaveText('$1.86');
    await expect(page.locator('[data-total="total"]')).toHaveText('$24.86');
    await expect(page.locator('#ship-to-zip-help')).toContainText('SEATTLE');

    // California: she is not registered there: no ZIP asked, no tax named.
    await page.getByLabel('Ships to (state)', { exact: true }).selectOption('CA');
    await expect(page.getByLabel('ZIP code', { exact: true })).toHaveCount(0);
    await expect(page.locator('[data-tax-label]')).toHaveCount(0);
    await expect(page.locator('[data-total="total"]')).toHaveText('$23.00');
    // A pickup is taxed at her shop in Seattle.
    await page.getByLabel(/Local pickup/).check();
    await expect(page.locator('[data-tax-label]')).toHaveText('Tax (WA 10.35%)');
    await expect(page.locator('[data-total="total"]')).toHaveText('$19.86');
    await page.getByLabel(/Local pickup/).uncheck();
    await page.getByLabel('Ships to (state)', { exact: true }).selectOption('WA');
    await expect(page.getByLabel('ZIP code', { exact: true })).toHaveValue('98101');
    await expect(page.locator('[data-total="total"]')).toHaveText('$24.86');

    await continueButton.click();
    await page.getByRole('button', { name: 'Pay with PayPal (emulator)' }).click();
    await expectAlertText(page, 'Payment Successful', 'Transaction completed by Pat');
    await closeAlert(page, 'Payment Successful');

    const orders: { total: number; taxCents: number; taxState: string | null; taxLabel: string; taxLocationCode: string | null }[] = await (
      await page.request.get('/api/admin/orders')
    ).json();
    expect(orders.find((o) => o.total === 24.86)).toMatchObject({ taxCents: 186, taxState: 'WA', taxLabel: 'Tax (WA 10.35%)', taxLocationCode: '1726' });
    await page.goto('/admin/orders');
    await expect(page.locator('[data-order-tax]').first()).toHaveText('Tax (WA 10.35%): $1.86');
    // Her Sales tax panel says where she collects.
    await page.goto('/admin/tax-year');
    await expect(page.locator('[data-collects-in]')).toContainText('You collect sales tax in Washington (WA)');
  } finally {
    await page.request.put('/api/admin/settings/tax', { data: seeded });
  }
});

test('the Sales tax panel changes where she collects, on a phone', async ({ page }) => {
  await loginAdmin(page);
  await page.goto('/admin/tax-year');
  const panel = page.locator('[data-sales-tax]');
  await expect(panel.locator('[data-collects-in]')).toHaveText('You collect sales tax in Oregon (OR): no order is charged sales tax.');
  await panel.getByLabel('Add a state', { exact: true }).selectOption('ID');
  await panel.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(panel.locator('[data-collects="ID"]')).toBeVisible();
  await panel.getByRole('button', { name: 'Save where you collect' }).click();
  await expect(panel.locator('[data-collects-in]')).toContainText('You collect sales tax in Idaho (ID)');
  expect((await (await page.request.get('/api/admin/settings/tax')).json()).collectsIn).toEqual(['ID', 'OR']);
  await panel
    .locator('[data-collects="ID"]')
    .getByRole('button', { name: /Remove/ })
    .click();
  await panel.getByRole('button', { name: 'Save where you collect' }).click();
  await expect(panel.locator('[data-collects-in]')).toHaveText('You collect sales tax in Oregon (OR): no order is charged sales tax.');
  expect((await (await page.request.get('/api/admin/settings/tax')).json()).collectsIn).toEqual(['OR']);
});

test('the teacher adds a weekly gig, marks a class paid, adds a trip and reads the year', async ({ page }) => {
  await loginAdmin(page);
  await page.goto('/admin/gigs');
  await expect(page.getByRole('heading', { name: 'Unpaid' })).toBeVisible();

  // Her studio, once, with the round trip from home.
  const locations = page.getByRole('form', { name: 'Add a location' });
  await locations.getByLabel('Name', { exact: true }).fill('Riverside Studio');
  await locations.getByLabel('Round trip (miles)', { exact: true }).fill('12.4');
  await locations.getByRole('button', { name: 'Add location' }).click();
  await expect(page.locator('[data-location="Riverside Studio"]')).toContainText('12.4 mi round trip');

  // Every week from three weeks ago, $60 a class.
  const start = teacherToday(-21);
  const gig = page.getByRole('form', { name: 'Add a gig' });
  await gig.getByLabel('Class', { exact: true }).fill('Vinyasa Flow');
  await gig.getByLabel('Location', { exact: true }).selectOption({ label: 'Riverside Studio' });
  await gig.getByLabel('First date', { exact: true }).fill(start);
  await gig.getByLabel('Time', { exact: true }).fill('18:00');
  await gig.getByLabel('Rate per class ($)', { exact: true }).fill('60');
  await gig.getByLabel('Repeats', { exact: true }).selectOption('weekly');
  await gig.getByLabel('Until (optional)', { exact: true }).fill(teacherToday(35));
  await gig.getByRole('button', { name: 'Add gig' }).click();
  await expect(gig.getByRole('status')).toContainText('classes added');

  // The classes taught so far wait for their money; one tap marks the first paid.
  const unpaid = page.getByRole('region', { name: 'Unpaid classes table' });
  await expect(unpaid.locator(`[data-gig="${start}"]`)).toBeVisible();
  const before = await unpaid.locator('tr[data-gig]').count();
  expect(before).toBeGreaterThanOrEqual(3);
  await unpaid
    .locator(`[data-gig="${start}"]`)
    .getByRole('button', { name: /Mark paid/ })
    .click();
  await expect(unpaid.locator('tr[data-gig]')).toHaveCount(before - 1);

  // One class edited alone: the last one ahead pays $65.
  // Classes by month (issue 30): this month open, the last one's month a tap away.
  const lastMonth = page.locator(`details.month-fold[data-month="${teacherToday(35).slice(0, 7)}"]`);
  if (!(await lastMonth.evaluate((d) => (d as HTMLDetailsElement).open))) await lastMonth.locator('summary').click();
  const last = lastMonth.locator(`tr[data-gig="${teacherToday(35)}"]`).last();
  await last.getByRole('button', { name: /^Edit/ }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Rate ($)', { exact: true }).fill('65');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(last).toContainText('$65.00');

  // A trip by hand.
  const trip = page.getByRole('form', { name: 'Add a trip' });
  await trip.getByLabel('Date', { exact: true }).fill(teacherToday(-1));
  await trip.getByLabel('Purpose', { exact: true }).fill('Cacao supplier');
  await trip.getByLabel('Miles', { exact: true }).fill('23.5');
  await trip.getByRole('button', { name: 'Add trip' }).click();
  await expect(page.locator('[data-trip="Cacao supplier"]')).toContainText('23.5 mi');

  // The year: the paid class is income, the others are unpaid, the miles are counted.
  await page.goto('/admin/tax-year');
  const year = page.locator(`[data-tax-year="${teacherToday().slice(0, 4)}"]`);
  await expect(year).toBeVisible();
  await expect(year.locator('[data-gig-location="Riverside Studio"]')).toContainText('$60.00');
  await expect(year).toContainText(`unpaid ${before - 1} (`);
  await expect(year.locator('[data-tax-state="WA"]')).toContainText('$1.86');
  // Within Washington, by location code (issue 29): Seattle's 1726.
  await expect(year.locator('[data-tax-location="1726"]')).toContainText('$1.86');
  const taxYear = await (await page.request.get(`/api/admin/tax-year/${teacherToday().slice(0, 4)}`)).json();
  expect(taxYear.totals.gigsCents).toBe(6000);
  expect(taxYear.totals.mileage.tenthMiles).toBe(before * 124 + 235);
  await expect(page.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', /tax-year-\d{4}\.csv$/);

  // Issue 30: on her phone the year opens on the quarter she is in, the others folded; one opens with a tap.
  const thisYear = teacherToday().slice(0, 4);
  const current = Math.floor((Number(teacherToday().slice(5, 7)) - 1) / 3) + 1;
  for (const q of [1, 2, 3, 4]) {
    const fold = year.locator(`details[data-quarter="${q}"]`);
    if (q === current) await expect(fold).toHaveAttribute('open', '');
    else await expect(fold).not.toHaveAttribute('open');
  }
  const other = current === 1 ? 2 : 1;
  await year.locator(`details[data-quarter="${other}"] > summary`).click();
  await expect(year.locator(`details[data-quarter="${other}"]`)).toHaveAttribute('open', '');
  await expect(year.getByRole('region', { name: `Q${other} ${thisYear} by month table` })).toBeVisible();

  // One definition of income (issue 30): Finances over January–December says what the Tax year says, gig included, line by line.
  const income = 'Income (shop + sessions + classes + tastings + gigs)';
  const yearIncome = (
    await year
      .getByRole('region', { name: `The year ${thisYear} table` })
      .locator(`[data-tax-row="${income}"] td`)
      .innerText()
  ).trim();
  expect(yearIncome).not.toBe('$0.00');
  await page.goto('/admin/finances');
  await page.getByLabel('From', { exact: true }).fill(`${thisYear}-01`);
  await page.getByLabel('To', { exact: true }).fill(`${thisYear}-12`);
  await expect(page.locator('[data-export="finances"]')).toHaveAttribute('href', new RegExp(`from=${thisYear}-01&to=${thisYear}-12`));
  await expect(page.locator('[data-finance-row="incomeCents"] th')).toHaveText(income);
  await expect(page.locator('[data-finance-row="incomeCents"] td').first()).toHaveText(yearIncome);
  await expect(page.locator('[data-finance-row="gigsCents"] td').first()).toHaveText('$60.00');
  const finances = await (await page.request.get(`/api/admin/finances?from=${thisYear}-01&to=${thisYear}-12`)).json();
  for (const key of ['shopNetCents', 'sessionsCents', 'gigsCents', 'incomeCents', 'salesTaxCents', 'refundsCents'])
    expect(finances.totals[key], key).toBe(taxYear.totals[key]);
});
