import { expect, test } from '@playwright/test';
import { closeAlert, expectAlert, logInOnTheForm, loginAdmin, teacherToday, uniqueEmail } from '../helpers';

test.describe('admin: login, guard and events', () => {
  test("the dashboard refuses a visitor with the spec's message and sends them to /admin", async ({ page }) => {
    await page.goto('/admin/dashboard');
    await expect(page.getByRole('alert')).toHaveText('You are not authorized to access this page. Redirecting to login.');
    await page.waitForURL('**/admin');
    await expect(page.getByRole('form', { name: 'Admin login' })).toBeVisible();
  });

  test('a wrong password is refused; the right one logs in; /admin then goes to the dashboard; logout ends the session', async ({ page }) => {
    await page.goto('/admin');
    await page.getByLabel('Email').fill('admin@example.com');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expectAlert(page, 'Login Failed', 'Invalid email or password. Please try again.');
    await closeAlert(page, 'Login Failed');
    await page.getByLabel('Password').fill('namaste-cacao-42');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL('**/admin/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Events' })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Admin' });
    for (const name of ['Events', 'Bookings', 'Chocolates', 'Classes', 'Clients', 'Subscribers', 'Orders'])
      await expect(nav.getByRole('link', { name })).toBeVisible();

    await page.goto('/admin');
    await page.waitForURL('**/admin/dashboard');

    await nav.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/admin');
    expect((await page.request.get('/api/admin/verify')).status()).toBe(401);
    expect(await page.evaluate(() => localStorage.getItem('admin'))).toBeNull();
  });

  test('events: weekly repeat makes 12, inline edit saves, bulk delete asks first', async ({ page }) => {
    await logInOnTheForm(page);

    // The form opens on demand: the dashboard leads with the Today panel and the events (issue 20).
    await page.getByRole('button', { name: 'New event' }).click();
    const form = page.getByRole('form', { name: 'Add event' });
    await form.getByRole('button', { name: 'Add event' }).click();
    await expectAlert(page, 'Please fill out all fields');
    await closeAlert(page, 'Please fill out all fields');

    const title = `Moon Flow ${Date.now().toString(36)}`;
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Date').fill(teacherToday(2));
    await form.getByLabel('Time').fill('19:15');
    await form.getByLabel('Location').fill('Riverside');
    await form.getByLabel('Repeat').selectOption('weekly');
    await form.getByRole('button', { name: 'Add event' }).click();
    await expectAlert(page, 'Event(s) added successfully');
    await closeAlert(page, 'Event(s) added successfully');
    const rows = page.locator('[data-event-row]').filter({ hasText: title });
    await expect(rows).toHaveCount(12);

    // Inline edit of the first one.
    const firstId = await rows.first().getAttribute('data-event-row');
    const first = page.locator(`[data-event-row="${firstId}"]`);
    await first.getByRole('button', { name: /^Edit/ }).click();
    await first.getByLabel('Title').fill(`${title} (edited)`);
    await first.getByRole('button', { name: 'Save' }).click();
    await expect(page.locator('[data-event-row]').filter({ hasText: `${title} (edited)` })).toHaveCount(1);

    // Bulk delete three; Cancel first changes nothing.
    for (const row of (await rows.all()).slice(0, 3)) await row.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Delete selected (3)' }).click();
    await page.getByRole('dialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Cancel' }).click();
    await expect(rows).toHaveCount(12);
    await page.getByRole('button', { name: 'Delete selected (3)' }).click();
    await page.getByRole('dialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Yes, delete it!' }).click();
    await expect(rows).toHaveCount(9);
  });

  test('events show how many places are taken; a failed sign-up fetch says so and still lists the events', async ({ page }) => {
    await loginAdmin(page);
    const title = `Counted Flow ${Date.now().toString(36)}`;
    const date = teacherToday(4);
    const add = await page.request.post('/api/admin/events', {
      data: { title, date, time: '08:15', location: 'Studio', signUpLink: '', isExternal: false, repeat: 'none', capacity: 5 },
    });
    expect(add.status()).toBe(201);
    const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    for (const who of ['one', 'two']) {
      const r = await page.request.post('/api/signup', {
        data: {
          name: `Student ${who}`,
          email: uniqueEmail(who),
          phone: '503-555-0100',
          classTitle: title,
          date,
          waiver: true,
          signature: png,
          recaptchaToken: 'dev:signup_form_submit',
        },
      });
      expect(r.status()).toBe(201);
    }
    await page.goto('/admin/dashboard');
    const row = page.locator('[data-event-row]').filter({ hasText: title });
    await expect(row).toContainText('2 of 5 places taken');

    await page.route('**/api/admin/signups/taken', (r) => r.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"x"}' }));
    await page.reload();
    await expectAlert(page, 'Failed to fetch signups.');
    await closeAlert(page, 'Failed to fetch signups.');
    await expect(row).toContainText('5 places');
    await expect(row).not.toContainText('taken');
  });
});
