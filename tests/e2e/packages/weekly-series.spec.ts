import { expect, test } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { loginAdmin, registerAndVerify, teacherToday, uniqueEmail, visitorHeaders, clearSlotTime } from '../helpers';

/**
 * Issue 32 at 390 × 844: a client holding five session credits (she records the sale by hand)
 * picks a time on the booking page, books it weekly for four weeks in one step, and finds the
 * four sessions together in My Bookings.
 */
test.use({ viewport: { width: 390, height: 844 }, timezoneId: 'America/Los_Angeles', locale: 'en-US' });

test('a client with credits books a time weekly for four weeks and sees the four sessions in My Bookings', async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ extraHTTPHeaders: visitorHeaders() });
  const page = await context.newPage();
  const userId = await registerAndVerify(page, 'Wren', 'Weekly', uniqueEmail('series'));

  // The teacher sells five sessions in cash and offers the same early time four weeks running
  // (a minute no other run or seed uses: never on the hour or the half hour).
  const admin = await browser.newContext({ extraHTTPHeaders: visitorHeaders() });
  const adminPage = await admin.newPage();
  await loginAdmin(adminPage);
  const packages = (await (await adminPage.request.get('/api/packages')).json()) as { _id: string; name: string }[];
  const five = packages.find((p) => p.name === 'Five individual yoga sessions')!;
  const sold = await adminPage.request.post(`/api/admin/users/${userId}/packages`, {
    data: { packageId: five._id, amountCents: 45_000, method: 'cash', paidOn: teacherToday() },
  });
  expect(sold.status()).toBe(201);
  const dates = [9, 16, 23, 30].map((d) => teacherToday(d));
  const time = await clearSlotTime(adminPage.request, dates, 5 * 60);
  const added = await adminPage.request.post('/api/bookings', { data: { slots: dates.map((date) => ({ date, time })) } });
  expect(added.status()).toBe(201);
  const first = ((await added.json()) as { slots: { _id: string; date: string }[] }).slots.find((s) => s.date === dates[0])!;

  await page.goto(`/user/${userId}/book`);
  const day = page.locator(`[data-date="${dates[0]}"]`);
  await expect(page.locator('.calendar-day.has-events').first()).toBeVisible();
  if ((await day.count()) === 0 || (await day.isDisabled())) await page.getByRole('button', { name: 'Next month' }).click();
  await page.locator(`[data-date="${dates[0]}"]`).click();
  await page.locator(`[data-slot="${first._id}"]`).click();
  await page.getByLabel('Session type').selectOption('Individual Yoga Session (60 min)');
  await expect(page.locator('[data-credit-offer]')).toContainText('Use 1 of your 5 sessions');

  // Folded under its own summary, never in the way of Continue (issue 50); offered for as many weeks as credits are left; she asks for four.
  const weeks = page.getByLabel('Book this time weekly for');
  await expect(weeks).toBeHidden();
  await page.getByText('Book this time every week').click();
  await expect(weeks).toHaveValue('5');
  await weeks.fill('4');
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  await page.getByRole('button', { name: 'Book weekly for 4 weeks' }).click();
  const result = page.locator('[data-series-result]');
  await expect(result).toContainText('All 4 weeks are booked.');
  await expect(result.locator('[data-series-booked] li')).toHaveCount(4);
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  expect((await (await page.request.get(`/api/user/${userId}/balance`)).json()).sessionsRemaining).toBe(1);

  await result.getByRole('link', { name: 'See My Bookings' }).click();
  await page.waitForURL(`**/user/${userId}`);
  const series = page.locator('[data-series]');
  await expect(series.getByRole('heading', { name: 'Weekly series · 4 sessions' })).toBeVisible();
  await expect(series.locator('[data-session]')).toHaveCount(4);
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  await admin.close();
  await context.close();
});

test('a week with no slot is listed with the nearest free time, which books alone with a credit', async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ extraHTTPHeaders: visitorHeaders() });
  const page = await context.newPage();
  const userId = await registerAndVerify(page, 'Noor', 'Nearest', uniqueEmail('nearest'));
  const admin = await browser.newContext({ extraHTTPHeaders: visitorHeaders() });
  const adminPage = await admin.newPage();
  await loginAdmin(adminPage);
  const packages = (await (await adminPage.request.get('/api/packages')).json()) as { _id: string; name: string }[];
  const five = packages.find((p) => p.name === 'Five individual yoga sessions')!;
  expect(
    (
      await adminPage.request.post(`/api/admin/users/${userId}/packages`, {
        data: { packageId: five._id, amountCents: 45_000, method: 'cash', paidOn: teacherToday() },
      })
    ).status(),
  ).toBe(201);
  // Weeks one and three at the same time; week two offers only an hour later.
  const [d1, d2, d3] = [10, 17, 24].map((d) => teacherToday(d));
  // Clear of her agenda an hour either side on all three days, so an hour later is clear too.
  const time = await clearSlotTime(adminPage.request, [d1!, d2!, d3!], 5 * 60);
  const laterHour = Number(time.slice(0, 2)) + 1;
  const later = `${String(laterHour).padStart(2, '0')}${time.slice(2)}`;
  // How the page says it: 7:25 AM.
  const laterWords = `${laterHour % 12 || 12}${time.slice(2)} ${laterHour < 12 ? 'AM' : 'PM'}`;
  const added = await adminPage.request.post('/api/bookings', {
    data: {
      slots: [
        { date: d1, time },
        { date: d2, time: later },
        { date: d3, time },
      ],
    },
  });
  expect(added.status()).toBe(201);
  const made = ((await added.json()) as { slots: { _id: string; date: string }[] }).slots;
  const first = made.find((s) => s.date === d1)!;

  await page.goto(`/user/${userId}/book`);
  await expect(page.locator('.calendar-day.has-events').first()).toBeVisible();
  const day = page.locator(`[data-date="${d1}"]`);
  if ((await day.count()) === 0 || (await day.isDisabled())) await page.getByRole('button', { name: 'Next month' }).click();
  await page.locator(`[data-date="${d1}"]`).click();
  await page.locator(`[data-slot="${first._id}"]`).click();
  await page.getByLabel('Session type').selectOption('Individual Yoga Session (60 min)');
  await page.getByText('Book this time every week').click();
  await page.getByLabel('Book this time weekly for').fill('3');
  await page.getByRole('button', { name: 'Book weekly for 3 weeks' }).click();
  const result = page.locator('[data-series-result]');
  await expect(result).toContainText('2 of 3 weeks are booked.');
  const missed = result.locator('[data-series-missed] li');
  await expect(missed).toHaveCount(1);
  await expect(missed).toContainText('no session offered then');
  const nearest = missed.getByRole('button', { name: /^Book / }).first();
  await expect(nearest).toContainText(laterWords);
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  await nearest.click();
  await expect(missed).toContainText(new RegExp(`Booked .*${laterWords}`));
  expect((await (await page.request.get(`/api/user/${userId}/balance`)).json()).sessionsRemaining).toBe(2);
  await admin.close();
  await context.close();
});
