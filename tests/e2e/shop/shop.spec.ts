import { expect, test, type Page } from '@playwright/test';
import { breakPayPalButtons, closeAlert, expectAlert, expectAlertText, failPayPalSdk, loginAdmin, mailsTo } from '../helpers';
import { itemAt } from '../../helpers/guards.ts';

/** The grid is drawn in the page made ahead; it comes alive when the visitor presses a button (issue 25). */
const openShop = async (page: Page) => {
  await page.goto('/chocolates');
  await page.locator('#products').scrollIntoViewIfNeeded();
  await expect(page.locator('[data-product]').first()).toBeVisible();
};

/** The shop opened and one Espresso Crunch Bar put in the cart. */
const cartWithOneBar = async (page: Page) => {
  await openShop(page);
  await page
    .locator('[data-product="Espresso Crunch Bar"]')
    .getByRole('button', { name: /Add to Cart/ })
    .click();
  // The press is taken once the grid is alive (a moment after the first press).
  await expect(page.locator('[data-cart-button]')).toHaveText('Cart (1)');
};

const stock = async (page: Page, name: string) => {
  const products: { name: string; inventory: number; price: number }[] = await (await page.request.get('/api/chocolates')).json();
  return products.find((p) => p.name === name)!;
};

test.describe('the chocolate shop', () => {
  test('sorts A-Z / Z-A, shows details, and a sold-out tin cannot be added', async ({ page }) => {
    await openShop(page);
    const names = page.locator('[data-product] h3');
    await expect(names.first()).toBeVisible();
    const az = await names.allTextContents();
    expect(az).toEqual([...az].sort((a, b) => a.localeCompare(b)));
    await page.getByRole('button', { name: /Sort by name/ }).click();
    await expect(page.getByRole('button', { name: /Sort by name/ })).toHaveText('Sort: Z-A');
    expect(await names.allTextContents()).toEqual([...az].reverse());

    const soldOut = page.locator('[data-product="Matcha Coconut Squares"]');
    await expect(soldOut.getByRole('button', { name: 'Sold Out' })).toBeDisabled();
    await expect(soldOut.getByRole('button', { name: /Add to Cart/ })).toHaveCount(0);

    await page
      .locator('[data-product="Chai Spice Bonbons"]')
      .getByRole('button', { name: /Details/ })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Chai Spice Bonbons' });
    await expect(dialog).toContainText('Cardamom');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  test('cart: add, quantities, coupon rules, local pickup, pay through the emulator; stock goes down; the admin sees the order', async ({ page }) => {
    const before = await stock(page, 'Sea Salt Caramel Tin');
    await openShop(page);
    const caramel = page.locator('[data-product="Sea Salt Caramel Tin"]');
    await caramel.getByRole('button', { name: /Add to Cart/ }).click();
    await caramel.getByRole('button', { name: /Add to Cart/ }).click();
    await page
      .locator('[data-product="Espresso Crunch Bar"]')
      .getByRole('button', { name: /Add to Cart/ })
      .click();
    await expect(page.locator('[data-cart-button]')).toHaveText('Cart (3)');

    await page.locator('[data-cart-button]').click();
    await page.waitForURL('**/cart');
    const total = page.locator('[data-total="total"]');
    // 2 × $18 + $12 = $48, shipping $5.
    await expect(page.locator('[data-total="items"]')).toHaveText('$48.00');
    await expect(total).toHaveText('$53.00');

    // Quantity never below 1.
    const bar = page.locator('[data-cart-item="Espresso Crunch Bar"]');
    await bar.getByLabel('Quantity').fill('0');
    await expect(bar.getByLabel('Quantity')).toHaveValue('1');
    await bar.getByRole('button', { name: /Remove/ }).click();
    await expect(page.locator('[data-total="items"]')).toHaveText('$36.00');

    // Coupons: unknown, then valid (upper-cased), then the same again.
    await page.getByLabel('Coupon code').fill('nope');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid coupon code' })).toBeVisible();
    await page.getByLabel('Coupon code').fill('welcome10');
    await expect(page.getByLabel('Coupon code')).toHaveValue('WELCOME10');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect(page.getByText('Coupon WELCOME10 applied: 10% off.')).toBeVisible();
    await expect(page.locator('[data-total="discount"]')).toHaveText('−$3.60');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expectAlert(page, 'Coupon already applied');
    await closeAlert(page, 'Coupon already applied');

    // Local pickup removes the $5.
    await page.getByLabel(/Local pickup/).check();
    await expect(total).toHaveText('$32.40');

    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await page.getByRole('button', { name: 'Pay with PayPal (emulator)' }).click();
    // The PayPal payer's first name (the emulator's buyer is Pat Buyer).
    await expectAlertText(page, 'Payment Successful', 'Transaction completed by Pat');
    await closeAlert(page, 'Payment Successful');
    await expect(page.getByText('Your cart is empty.')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('cart'))).toBe('[]');

    expect((await stock(page, 'Sea Salt Caramel Tin')).inventory).toBe(before.inventory - 2);
    const mails = await mailsTo(page.request, 'buyer@example.com');
    expect(itemAt(mails, 0).text).toContain('Sea Salt Caramel Tin');
    const teacher = await mailsTo(page.request, 'teacher@example.com');
    expect(teacher.some((m) => m.text.includes('Sea Salt Caramel Tin'))).toBe(true);

    await loginAdmin(page);
    const orders: { total: number; isLocalPickup: boolean; items: { name: string; quantity: number }[] }[] = await (
      await page.request.get('/api/admin/orders')
    ).json();
    const mine = orders.find((o) => o.total === 32.4)!;
    expect(mine.isLocalPickup).toBe(true);
    expect(mine.items).toEqual([expect.objectContaining({ name: 'Sea Salt Caramel Tin', quantity: 2 })]);
  });

  test('coupons need $15 of items; a declined payment says so and keeps the cart', async ({ page }) => {
    await cartWithOneBar(page);
    await page.goto('/cart');
    await page.getByLabel('Coupon code').fill('TAGGED15');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Coupons valid only on orders $15 or more' })).toBeVisible();
    await expect(page.locator('[data-total="discount"]')).toHaveText('−$0.00');

    // A shipped order names its state (issue 24); Oregon has no sales tax.
    await page.getByLabel('Ships to (state)').selectOption('OR');
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await page.getByRole('button', { name: 'Decline (emulator)' }).click();
    await expectAlert(page, 'Payment Unsuccessful');
    await closeAlert(page, 'Payment Unsuccessful');
    await expect(page.locator('[data-cart-item="Espresso Crunch Bar"]')).toBeVisible();
  });

  test("payment failures show SPEC.md's dialogs: no provider script, buttons that fail to render, an order the server refuses", async ({ page, context }) => {
    await cartWithOneBar(page);
    await failPayPalSdk(page);
    await page.goto('/cart');
    await page.getByLabel('Ships to (state)').selectOption('OR');
    const continueButton = page.getByRole('button', { name: 'Continue to Payment' });
    await continueButton.click();
    await expectAlertText(page, 'Payment Service Unavailable', 'We couldn’t load the payment provider. Please try again later.');
    await closeAlert(page, 'Payment Service Unavailable');

    await breakPayPalButtons(page);
    await continueButton.click();
    await expectAlertText(page, 'Payment Error', 'We couldn’t load the payment button. Please refresh the page and try again.');
    await closeAlert(page, 'Payment Error');
    await expect(continueButton).toBeEnabled();

    // The server refuses the order (here: sold out meanwhile): SPEC.md's words, not the server's,
    // and only that one dialog; back to Continue to Payment.
    const other = await context.newPage();
    await other.route('**/api/orders/paypal', (route) => route.fulfill({ status: 409, json: { message: 'Espresso Crunch Bar is sold out' } }));
    await other.goto('/cart');
    await other.getByLabel('Ships to (state)').selectOption('OR');
    await other.getByRole('button', { name: 'Continue to Payment' }).click();
    await other.getByRole('button', { name: 'Pay with PayPal (emulator)' }).click();
    await expectAlertText(other, 'Payment Button Error', 'We couldn’t display the payment buttons. Please refresh the page and try again.');
    await closeAlert(other, 'Payment Button Error');
    await expect(other.getByRole('dialog')).toHaveCount(0);
    await expect(other.getByRole('button', { name: 'Continue to Payment' })).toBeVisible();
  });
});
