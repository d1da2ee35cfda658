import { expect, test, type Page } from '@playwright/test';
import { fitsThePhone, loginAdmin, visitorHeaders } from '../helpers';
import { COTTAGE_PICKUP_ONLY } from '../../../contract/food-words.ts';

/**
 * Issue 48 (decision 0057), on phones: while she sells licensed with no number (the seed), Today
 * asks for it and leads to her food licence in Settings, where she chooses the cottage-food
 * exemption; with cottage mode on, the cart offers only hand-over: pickup chosen, no shipping
 * choice, one sentence that says why. Licensed again (as the seed), the cart offers shipping again.
 */
test.use({ viewport: { width: 390, height: 844 }, extraHTTPHeaders: visitorHeaders() });

const KITCHEN = { businessName: 'Cacao Kitchen', businessAddress: '12 Elm St, Portland, OR 97201', phone: '503-555-0100' };
const sellLicensed = async (page: Page) =>
  expect((await page.request.put('/api/admin/settings/food-licence', { data: { mode: 'licensed', licenceNumber: '', ...KITCHEN } })).status()).toBe(200);

/** A cart of one tin that is in stock, as the shop's grid leaves it in the browser. */
async function oneTinInTheCart(page: Page) {
  const products = (await (await page.request.get('/api/chocolates')).json()) as { _id: string; name: string; price: number; inventory: number }[];
  const tin = products.find((p) => p.inventory > 2)!;
  // Before the page's scripts run, so the cart's store reads it as it starts.
  await page.addInitScript((t) => localStorage.setItem('cart', JSON.stringify([{ _id: t._id, name: t.name, price: t.price, quantity: 1 }])), tin);
  await page.goto('/cart');
  await expect(page.locator(`[data-cart-item="${tin.name}"]`)).toBeVisible();
}

test('Today asks for her licence number; with cottage mode on, the cart offers only hand-over', async ({ page }) => {
  await loginAdmin(page);
  // Licensed with no number, whatever an earlier spec left: what the seed asks.
  await sellLicensed(page);
  try {
    await page.goto('/admin/dashboard');
    const ask = page.locator('[data-today-group="foodLicence"]');
    await expect(ask).toContainText('Labels still need your licence number.');
    await fitsThePhone(page);
    await ask.getByRole('link', { name: 'Add your licence number in Settings' }).click();
    await page.waitForURL('**/admin/settings#food-licence');

    // Her panel says what is missing, and she chooses the cottage-food exemption on her phone.
    const panel = page.locator('[data-food-licence]');
    await expect(panel.locator('[data-licence-missing]')).toHaveText('Labels still need your licence number.');
    await expect(panel).toBeInViewport();
    await panel.getByRole('radio', { name: 'Cottage-food exemption' }).check();
    await expect(panel.getByRole('radio', { name: 'Cottage-food exemption' })).toHaveAccessibleDescription(/pickup only/);
    await panel.getByRole('button', { name: 'Save food licence' }).click();
    await expect(panel.getByRole('status')).toHaveText('Food licence saved.');
    await expect(panel.locator('[data-licence-missing]')).toHaveText('Your labels have everything your licence asks for.');
    await fitsThePhone(page);

    // A buyer's cart: pickup only, and why; nothing asks where it ships.
    await oneTinInTheCart(page);
    const summary = page.locator('.cart-summary');
    await expect(summary.locator('[data-hand-over-only]')).toContainText(COTTAGE_PICKUP_ONLY);
    await expect(summary.getByRole('checkbox', { name: /Local pickup/ })).toHaveCount(0);
    await expect(summary.getByLabel('Ships to (state)')).toHaveCount(0);
    await expect(summary.locator('[data-total="shipping"]')).toHaveText('Free (pickup)');
    await expect(summary.getByRole('button', { name: 'Continue to Payment' })).toBeEnabled();
    await fitsThePhone(page);
  } finally {
    await sellLicensed(page);
  }

  // Licensed again: the buyer may choose shipping.
  await page.reload();
  await expect(page.locator('.cart-summary').getByRole('checkbox', { name: /Local pickup/ })).toBeVisible();
  await expect(page.locator('[data-hand-over-only]')).toHaveCount(0);
});
