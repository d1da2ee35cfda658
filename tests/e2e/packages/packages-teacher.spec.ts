import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { closeAlert, expectAlert, loginAdmin, teacherToday, uniqueEmail, clearSlotTime } from '../helpers';
import { itemAt, mustFind } from '../../helpers/guards.ts';

/**
 * Issue 32, the teacher's side at 390 × 844 (her phone): she adds a client who called, records
 * the Venmo payment of "Five individual yoga sessions" on the client's page, books them into a
 * free slot with one of those credits, and the balance shows one fewer; her packages screen
 * lists, adds, retires and deletes a package. Every screen axe clean.
 */
test.use({ viewport: { width: 390, height: 844 }, timezoneId: 'America/Los_Angeles', locale: 'en-US' });

async function axeClean(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
}

/** A free slot of hers, nine days ahead, clear of her agenda that day (clearSlotTime). */
async function freeSlot(page: Page): Promise<string> {
  const date = teacherToday(9);
  const res = await page.request.post('/api/bookings', { data: { slots: [{ date, time: await clearSlotTime(page.request, [date], 7 * 60) }] } });
  expect(res.status()).toBe(201);
  const { slots } = (await res.json()) as { slots: { _id: string }[] };
  expect(slots).toHaveLength(1);
  return itemAt(slots, 0)._id;
}

test('the teacher adds a phone client, records their Venmo payment and books them with a credit', async ({ page }) => {
  test.setTimeout(90_000);
  await loginAdmin(page);
  const slotId = await freeSlot(page);
  const year = teacherToday().slice(0, 4);
  const venmoBefore = mustFind(
    ((await (await page.request.get(`/api/admin/tax-year/${year}`)).json()) as { sessionsByMethod: { method: string; cents: number }[] }).sessionsByMethod,
    (m) => m.method === 'venmo',
  ).cents;

  // Clients → Add a client: a phone client, no welcome mail.
  await page.goto('/admin/users');
  const add = page.getByRole('form', { name: 'Add a client' });
  await add.getByLabel('First name').fill('Pia');
  await add.getByLabel('Last name').fill('Phone');
  await add.getByLabel('Email').fill(uniqueEmail('pia'));
  await add.getByLabel('Phone (optional)').fill('555-0142');
  await expect(add.getByRole('checkbox', { name: 'Send a welcome mail' })).not.toBeChecked();
  await axeClean(page);
  await add.getByRole('button', { name: 'Add client' }).click();
  await add.getByRole('link', { name: 'Open Pia Phone’s page' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Pia Phone' })).toBeVisible();
  const clientPage = page.url();
  await expect(page.locator('[data-balance]')).toHaveText('0 sessions left to book.');

  // Sell a package: Five individual yoga sessions, $450 by Venmo, paid today (her day, the default).
  const sell = page.getByRole('form', { name: 'Sell a package' });
  await sell.getByLabel('Package').selectOption({ label: 'Five individual yoga sessions' });
  await sell.getByLabel('Paid by').selectOption('venmo');
  await sell.getByLabel('Amount ($)').fill('450');
  await expect(sell.getByLabel('Paid on')).toHaveValue(teacherToday());
  await sell.getByRole('button', { name: 'Record the sale' }).click();
  await expect(sell.getByRole('status')).toHaveText('Five individual yoga sessions recorded.');
  await expect(page.locator('[data-balance]')).toHaveText('5 sessions left to book.');

  // Book a session: the free slot, with one of the credits.
  const book = page.getByRole('form', { name: 'Book a session' });
  await book.getByLabel('Free slot').selectOption(slotId);
  await book.getByLabel('Session type').selectOption('Individual Yoga Session (60 min)');
  await book.getByLabel('Paid with').selectOption('credit');
  await axeClean(page);
  await book.getByRole('button', { name: 'Book the session' }).click();
  await expect(book.getByRole('status')).toHaveText(/^Booked: /);
  await expect(page.locator('[data-balance]')).toHaveText('4 sessions left to book.');
  // The slot is gone from her list of free slots, and is the client's.
  await expect(book.getByLabel('Free slot').locator(`option[value="${slotId}"]`)).toHaveCount(0);
  const slots = (await (await page.request.get('/api/bookings')).json()) as { availableSlots: { _id: string }[]; bookedSlots: { _id: string }[] };
  expect(slots.availableSlots.map((s) => s._id)).not.toContain(slotId);
  expect(slots.bookedSlots.map((s) => s._id)).toContain(slotId);
  await axeClean(page);

  // A weekly series for her: two weeks at 22:MM three weeks ahead, the slots made in the same step.
  const series = page.getByRole('form', { name: 'Book a weekly series' });
  await series.getByLabel('First date').fill(teacherToday(21));
  await series.getByLabel('Time (your clock)').fill(`22:${String(1 + (Math.floor(Date.now() / 1000) % 58)).padStart(2, '0')}`);
  await series.getByLabel('Weeks').fill('2');
  await series.getByLabel('Session type').selectOption('Individual Yoga Session (60 min)');
  await expect(series.getByRole('checkbox', { name: 'Make the slot of each week that has none' })).toBeChecked();
  await series.getByRole('button', { name: 'Book 2 weeks with credits' }).click();
  await expect(page.getByRole('list', { name: 'Booked weeks' }).getByRole('listitem')).toHaveCount(2);
  await expect(page.locator('[data-balance]')).toHaveText('2 sessions left to book.');

  // Her books: the Venmo sale on the Tax year under Venmo.
  await page.goto('/admin/tax-year');
  const venmo = page.locator('tr[data-session-method="venmo"]');
  await expect(venmo).toContainText('Venmo');
  const after = mustFind(
    ((await (await page.request.get(`/api/admin/tax-year/${year}`)).json()) as { sessionsByMethod: { method: string; cents: number }[] }).sessionsByMethod,
    (m) => m.method === 'venmo',
  ).cents;
  expect(after - venmoBefore).toBe(45_000);
  await page.goto('/admin/finances');
  await expect(page.locator('[data-sessions-owed]')).toContainText(/sessions? still to give, worth \$/);

  await page.goto(clientPage);
  await expect(page.locator('[data-balance]')).toHaveText('2 sessions left to book.');
  // Back on the client's page she refunds the package: its two unused sessions are taken back, the three used stay used.
  await page.getByRole('button', { name: 'Refund Five individual yoga sessions' }).click();
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await expectAlert(page, 'Package refunded', '2 unused sessions taken back; sessions already used stay used. Return the money the way it was paid.');
  await closeAlert(page, 'Package refunded');
  await expect(page.locator('[data-balance]')).toHaveText('0 sessions left to book.');

  // A refunded package is no income kept: the Venmo figure is back where it was.
  const refunded = mustFind(
    ((await (await page.request.get(`/api/admin/tax-year/${year}`)).json()) as { sessionsByMethod: { method: string; cents: number }[] }).sessionsByMethod,
    (m) => m.method === 'venmo',
  ).cents;
  expect(refunded).toBe(venmoBefore);
  await axeClean(page);
});

test('her packages screen: add one, retire it, bring it back, delete it', async ({ page }) => {
  test.setTimeout(60_000);
  await loginAdmin(page);
  await page.goto('/admin/packages');
  await expect(page.locator('li[data-package]', { hasText: 'Five individual yoga sessions' })).toBeVisible();
  const name = `Three gentle sessions ${Date.now().toString(36)}`;
  const add = page.getByRole('form', { name: 'Add a package' });
  await add.getByLabel('Name', { exact: true }).fill(name);
  await add.getByRole('checkbox', { name: 'Yoga Therapy Session (60 min)' }).check();
  await add.getByLabel('Sessions', { exact: true }).fill('3');
  await add.getByLabel('Months valid').fill('2');
  await add.getByLabel('Lowest price ($)').fill('90');
  await add.getByLabel('Suggested price ($)').fill('120');
  await add.getByLabel('Highest price ($)').fill('150');
  await axeClean(page);
  await add.getByRole('button', { name: 'Add package' }).click();
  const row = page.locator('li[data-package]', { hasText: name });
  await expect(row).toContainText('3 sessions · $90.00–$150.00, suggested $120.00 · valid 2 months');
  const saved = ((await (await page.request.get('/api/admin/packages')).json()) as { name: string; minPriceCents: number; sessionTypes: string[] }[]).find(
    (p) => p.name === name,
  )!;
  expect(saved).toMatchObject({ minPriceCents: 9_000, sessionTypes: ['Individual Yoga Session (60 min)', 'Yoga Therapy Session (60 min)'] });

  await row.getByRole('button', { name: `Deactivate ${name}` }).click();
  await expect(row).toContainText('not offered');
  const offered = (await (await page.request.get('/api/packages')).json()) as { name: string }[];
  expect(offered.map((p) => p.name)).not.toContain(name);
  await row.getByRole('button', { name: `Activate ${name}` }).click();
  await expect(row).not.toContainText('not offered');

  await row.getByRole('button', { name: `Edit ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Edit ${name}` });
  await dialog.getByLabel('Sessions', { exact: true }).fill('4');
  await axeClean(page);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('4 sessions');

  await row.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, delete it!' }).click();
  await expect(row).toHaveCount(0);
});
