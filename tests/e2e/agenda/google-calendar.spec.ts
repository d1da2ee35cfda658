/**
 * Issue 35 (decision 0044), on her phone: she connects her Google Calendar (the stand-in at
 * /dev/google) on Settings, ticks a calendar as busy; an event there (added through the
 * stand-in, as if she typed it in Google) makes the client's slot vanish from the booking page.
 *
 * Her side runs on SITE_URL's origin (http://localhost:PORT, the server's default): Google's
 * consent sends her back to the redirect address registered for SITE_URL, and her session
 * cookie must go along.
 */
import { expect, test, type Page } from '@playwright/test';
import { clearSlotTime, fitsThePhone, logInOnTheForm, newClient, teacherToday, visitorHeaders } from '../helpers.ts';
import { must } from '../../helpers/guards.ts';

const PORT = Number(process.env.E2E_PORT ?? 4399);
const SITE = `http://localhost:${PORT}`;
const FAMILY = 'family@group.calendar.google.com';

test.use({ viewport: { width: 390, height: 844 }, timezoneId: 'America/Los_Angeles', locale: 'en-US' });

/** The client's booking page on `date`: the grid ready (its slots loaded), the day picked. */
async function openDay(page: Page, userId: string, date: string) {
  await page.goto(`/user/${userId}/book`);
  await expect(page.locator('.calendar-day').first()).toBeVisible();
  const cell = page.locator(`.calendar-day[data-date="${date}"]:not(.outside)`);
  for (let i = 0; i < 3 && (await cell.count()) === 0; i++) await page.getByRole('button', { name: 'Next month' }).click();
  await expect(cell).toBeEnabled();
  await cell.click();
}

test('she connects Google Calendar on Settings, marks a calendar busy, and an event there takes the slot off the client’s page', async ({ browser }) => {
  // Two people, a registration by mail, a consent round trip and three axe runs.
  test.slow();
  const her = await browser.newContext({ baseURL: SITE, extraHTTPHeaders: visitorHeaders(), viewport: { width: 390, height: 844 } });
  const admin = await her.newPage();
  await admin.request.post('/dev/google/emulator/reset');
  await logInOnTheForm(admin, SITE);

  // A slot of this run's own, three days ahead at a time her agenda leaves clear (another spec's
  // session that day would hide it before her calendar does).
  const date = teacherToday(3);
  const added = await admin.request.post('/api/bookings', { data: { slots: [{ date, time: await clearSlotTime(admin.request, [date], 6 * 60) }] } });
  expect(added.status()).toBe(201);
  const [slot] = ((await added.json()) as { slots: { _id: string; startsAt: string }[] }).slots;

  const client = await newClient(browser, 'Ines');
  await client.page.setViewportSize({ width: 390, height: 844 });
  await openDay(client.page, client.id, date);
  await expect(client.page.locator(`[data-slot="${must(slot, 'slot')._id}"]`)).toBeVisible();

  // Settings: connect, through Google's consent (the stand-in approves at once), back to Settings.
  await admin.goto('/admin/settings');
  const section = admin.locator('#google-calendar');
  await section.getByRole('link', { name: 'Connect Google Calendar' }).click();
  await admin.waitForURL('**/admin/settings?calendar=connected*');
  await expect(section.getByRole('status')).toHaveText('Google Calendar connected.');
  await expect(section.locator('[data-calendar-account]')).toHaveText('teacher.calendar@example.com');
  await expect(section.locator('[data-calendar-refreshed]')).toContainText('Busy times last refreshed');

  // She ticks Family as busy and saves.
  await section.getByRole('checkbox', { name: 'Family' }).check();
  await section.getByRole('button', { name: 'Save calendars' }).click();
  await expect(section.getByRole('status')).toHaveText('Calendar choices saved.');
  await expect(section.getByRole('checkbox', { name: 'Family' })).toBeChecked();
  await fitsThePhone(admin);

  // Her family puts an event over the slot in Google: the push reaches the site, the slot goes.
  const start = new Date(must(slot, 'slot').startsAt);
  const event = await admin.request.post('/dev/google/emulator/events', {
    data: { calendarId: FAMILY, start: start.toISOString(), end: new Date(start.getTime() + 3_600_000).toISOString(), summary: 'School play' },
  });
  expect(event.status()).toBe(201);
  await expect(async () => {
    await openDay(client.page, client.id, date);
    await expect(client.page.locator(`[data-slot="${must(slot, 'slot')._id}"]`)).toHaveCount(0);
  }).toPass({ timeout: 15_000 });
  await fitsThePhone(client.page);

  // Disconnected: the Settings page offers to connect again.
  await section.getByRole('button', { name: 'Disconnect' }).click();
  await expect(section.getByRole('status')).toHaveText('Google Calendar disconnected.');
  await expect(section.getByRole('link', { name: 'Connect Google Calendar' })).toBeVisible();
  await her.close();
  await client.context.close();
});
