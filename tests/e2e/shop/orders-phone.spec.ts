import { expect, test } from '@playwright/test';
import { loginAdmin, uniqueEmail, visitorHeaders } from '../helpers';

/**
 * Issue 30, on her phone: in the list of paid orders (Today's "orders to deliver"), she marks a
 * pickup order ready for pickup. The order stays where her thumb is, with its new status, and
 * what happened (the buyer was mailed where and when) is said beside it, on the screen, not at
 * the top of the list.
 */
test.use({ viewport: { width: 390, height: 844 }, extraHTTPHeaders: visitorHeaders() });

test('a pickup marked ready in the paid list stays in view with its confirmation beside it', async ({ page }) => {
  await loginAdmin(page);
  const created = await page.request.post('/api/chocolates', {
    data: { name: `Pickup Tin ${Date.now().toString(36)}`, price: 9.5, inventory: 20, description: '', details: '', image: '' },
  });
  expect(created.status()).toBe(201);
  const product = (await created.json()).product as { _id: string };
  const buyer = uniqueEmail('pickup-buyer');
  const cart = { cartItems: [{ _id: product._id, quantity: 1 }], isLocalPickup: true, couponCode: null };
  const { orderID } = await (await page.request.post('/api/orders/paypal', { data: cart })).json();
  expect(
    (await page.request.post(`/dev/paypal/v2/checkout/orders/${orderID}/approve`, { data: { givenName: 'Rosa', surname: 'Pick', email: buyer } })).status(),
  ).toBe(200);
  const placed = await page.request.post('/api/orders', { data: { ...cart, orderId: orderID } });
  expect(placed.status(), await placed.text()).toBe(201);
  const id = ((await placed.json()) as { order: { _id: string } }).order._id;

  await page.goto('/admin/orders?status=paid');
  const row = page.locator(`tr[data-order-row="${id}"]`);
  await row.scrollIntoViewIfNeeded();
  const status = row.getByRole('combobox');
  await expect(status).toHaveValue('paid');
  await status.selectOption('ready_for_pickup');
  const said = row.locator('[data-order-confirmation]');
  await expect(said).toHaveText('Marked ready for pickup. Rosa was mailed where and when to collect it.');
  await expect(said).toBeInViewport();
  // Still in the paid list, with its new status, though it is no longer "paid".
  await expect(row).toBeVisible();
  await expect(status).toHaveValue('ready_for_pickup');
  // Leaving and coming back, the list shows only what is paid now.
  await page.reload();
  await expect(page.getByText('Paid orders only: to ship or hand over.')).toBeVisible();
  await expect(row).toHaveCount(0);
});
