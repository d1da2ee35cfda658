import { expect, type APIRequestContext } from '@playwright/test';
import { BASE_URL, adminTest as test, drawSignature, fitsThePhone, teacherToday, uniqueEmail, visitorHeaders } from '../helpers';
import { itemAt } from '../../helpers/guards.ts';

/**
 * Issue 34, the roster on her phone at 390 × 844: from the class on her Events list she opens its
 * roster, checks two people in with one tap each, adds a friend who walked in and signs the
 * waiver on her phone; no no-show before the class begins, then last week's mistaken check-in made a
 * no-show (issue 50); the weekly class's last weeks show
 * as a small chart with its words. Axe clean, nothing wider than the phone.
 */
test.use({ viewport: { width: 390, height: 844 }, timezoneId: 'America/Los_Angeles', locale: 'en-US' });

const SIGNATURE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A weekly class of this run: four past weeks and tomorrow's, the one she teaches next; its events' ids, oldest first. */
async function weeklyClass(admin: APIRequestContext, title: string): Promise<{ _id: string; date: string }[]> {
  const res = await admin.post('/api/admin/events', {
    data: { title, date: teacherToday(-27), time: '18:30', location: 'Alder St Studio', signUpLink: '', isExternal: false, repeat: 'weekly', capacity: 12 },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { events: { _id: string; date: string }[] }).events;
}

test('the teacher checks two people in, adds a walk-in who signs on her phone, and marks a no-show once the class has begun', async ({ page, playwright }) => {
  test.setTimeout(90_000);
  const title = `Door Flow ${Date.now().toString(36)}`;
  const events = await weeklyClass(page.request, title);
  const tomorrow = events.find((e) => e.date === teacherToday(1))!;
  const lastWeek = events.find((e) => e.date === teacherToday(-6))!;

  // Three students sign up for tomorrow's class, each from their own phone.
  const students = ['Ana Lima', 'Ben Okafor', 'Cleo Park'];
  for (const name of students) {
    const visitor = await playwright.request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: visitorHeaders() });
    const res = await visitor.post('/api/signup', {
      data: {
        name,
        email: uniqueEmail(itemAt(name.split(' '), 0).toLowerCase()),
        phone: '503-555-0142',
        classTitle: title,
        date: tomorrow.date,
        waiver: true,
        signature: SIGNATURE,
        recaptchaToken: 'dev:signup_form_submit',
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    await visitor.dispose();
  }
  // Last week two came in at the door: the series' chart has a bar.
  for (const name of ['Dee Past', 'Eli Past']) {
    const res = await page.request.post(`/api/admin/events/${lastWeek._id}/walk-ins`, { data: { name, email: uniqueEmail('past') } });
    expect(res.status(), await res.text()).toBe(201);
  }

  // From the class on her Events list to its roster.
  await page.goto('/admin/dashboard#events');
  await page
    .locator(`[data-event-row="${tomorrow._id}"]`)
    .getByRole('link', { name: /^Roster/ })
    .click();
  await page.waitForURL(`**/admin/roster?event=${tomorrow._id}`);
  await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
  const people = page.locator('[data-roster-person]');
  await expect(people).toHaveCount(3);
  await expect(people.locator('strong')).toHaveText(students);
  await expect(page.locator('[data-roster-counts]')).toHaveText('3 of 12 places taken · 0 present · 0 no-show');
  await fitsThePhone(page);

  // One tap each: the button then reads "Present".
  for (const name of ['Ana Lima', 'Ben Okafor']) {
    await page.getByRole('button', { name: `Check in ${name}` }).click();
    await expect(page.getByRole('button', { name: `Present ${name}` })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('status').filter({ hasText: `${name} checked in.` })).toBeVisible();
  }

  // A friend walked in: her details, the waiver read and signed on the phone.
  await page.getByRole('button', { name: 'Add walk-in' }).click();
  const form = page.getByRole('form', { name: 'Add walk-in' });
  await expect(form.getByRole('group', { name: 'Liability waiver' })).toContainText('risk of injury');
  await form.getByLabel('Full name').fill('Wren Walkin');
  await form.getByLabel('Email').fill(uniqueEmail('wren'));
  await form.getByLabel('Phone (optional)').fill('503-555-0199');
  await drawSignature(page, { autoSave: true });
  await fitsThePhone(page);
  await form.getByRole('button', { name: 'Add walk-in' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Wren Walkin added as a walk-in and checked in.' })).toBeVisible();
  await expect(form).toBeHidden();
  const wren = people.filter({ hasText: 'Wren Walkin' });
  await expect(wren.getByText('Walk-in', { exact: true })).toBeVisible();
  await expect(wren.getByRole('button', { name: 'Present Wren Walkin' })).toHaveAttribute('aria-pressed', 'true');
  // She signed: no "No signed waiver" on her card.
  await expect(wren.getByText('No signed waiver')).toHaveCount(0);

  // Cleo is not here yet, but the class has not begun: no no-show before it starts (issue 50), and the page says so.
  await expect(page.getByRole('button', { name: 'No-show Cleo Park' })).toHaveCount(0);
  await expect(page.locator('[data-no-show-later]')).toHaveText('A no-show can be marked once the class has started.');
  await expect(page.locator('[data-roster-counts]')).toHaveText('4 of 12 places taken · 3 present · 0 no-show');

  // The weekly class's last weeks: a chart whose words say what the bars show.
  const chart = page.getByRole('img', { name: /^Attendance of this series over the last six months/ });
  await expect(chart).toHaveAccessibleName(/2 of 12 signed up, 2 came, 0 no-shows/);
  await page.locator('[data-series-chart]').getByText('As numbers').click();
  await expect(page.locator('.series-table tbody tr')).toHaveCount(4);

  // What she sees survives a reload: the marks are the server's.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Present Ana Lima' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'Check in Cleo Park' })).toHaveAttribute('aria-pressed', 'false');
  await fitsThePhone(page);

  // Last week's class has begun (and ended): Eli was checked in by mistake and never came.
  await page.goto(`/admin/roster?event=${lastWeek._id}`);
  await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
  await expect(page.locator('[data-no-show-later]')).toHaveCount(0);
  await page.getByRole('button', { name: 'No-show Eli Past' }).click();
  await expect(page.getByRole('button', { name: 'No-show Eli Past' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('status').filter({ hasText: 'Eli Past marked as a no-show.' })).toBeVisible();
  await expect(page.locator('[data-roster-counts]')).toHaveText('2 of 12 places taken · 1 present · 1 no-show');
  await page.reload();
  await expect(page.getByRole('button', { name: 'No-show Eli Past' })).toHaveAttribute('aria-pressed', 'true');
  await fitsThePhone(page);
});
