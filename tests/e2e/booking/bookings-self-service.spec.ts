import { expect, test, type Browser, type Page } from '@playwright/test';
import { newClient, closeAlert, expectAlert, loginAdmin, mailsTo, recordAlerts, teacherToday, visitorHeaders, clearSlotTime, teacherClock } from '../helpers';
import { itemAt } from '../../helpers/guards.ts';

/**
 * Clients change their own sessions from the dashboard (issue 15): cancel (a second browser on
 * the booking page sees the freed slot appear, through the realtime room), reschedule through
 * the free-slot picker, and the login link that goes on to the dashboard by itself.
 */

const YOGA = 'Individual Yoga Session (60 min)';

/** A new free slot `days` ahead at a time no other run uses (or exactly at `at`, on the teacher's clocks); its id and date. */
async function adminSlot(browser: Browser, days: number, at?: { date: string; time: string }): Promise<{ id: string; date: string }> {
  const context = await browser.newContext({ extraHTTPHeaders: visitorHeaders() });
  const page = await context.newPage();
  await loginAdmin(page);
  const date = at?.date ?? teacherToday(days);
  // Clear of her agenda that day (a slot overlapping a session booked by another test is not offered).
  const time = at?.time ?? (await clearSlotTime(page.request, [date], 6 * 60));
  const res = await page.request.post('/api/bookings', { data: { slots: [{ date, time }] } });
  expect(res.status()).toBe(201);
  const { slots } = await res.json();
  await context.close();
  expect(slots, `a new slot at ${date} ${time}`).toHaveLength(1);
  return { id: slots[0]._id, date };
}

/** Books the slot with the coupon, as the booking page's Finalize does. */
async function bookWithCoupon(page: Page, userId: string, email: string, slotId: string) {
  const res = await page.request.put(`/api/bookings/${slotId}/book`, {
    data: { userId, firstName: 'Test', lastName: 'Tester', email, sessionType: YOGA, message: '', couponCode: 'JOURNEY' },
  });
  expect(res.status()).toBe(200);
}

/** Shows `date` in the month grid inside `scope` (moving a month or two ahead if needed) and picks it. */
async function openDay(page: Page, scope: string, date: string) {
  // The grid first (the island hydrates after load), then the month that holds the date.
  await expect(page.locator(`${scope} .calendar-day`).first()).toBeVisible();
  const cell = page.locator(`${scope} .calendar-day[data-date="${date}"]:not(.outside)`);
  for (let i = 0; i < 3 && (await cell.count()) === 0; i++) await page.locator(scope).getByRole('button', { name: 'Next month' }).click();
  await cell.click();
}

test.describe('clients change their own sessions', () => {
  test('a client cancels from the dashboard; a second browser on the booking page sees the slot appear within 5 s', async ({ browser }) => {
    const a = await newClient(browser, 'Fay');
    const b = await newClient(browser, 'Gus');
    const slot = await adminSlot(browser, 5);
    await bookWithCoupon(a.page, a.id, a.email, slot.id);

    // B is on the booking page, looking at that day: the slot is taken.
    await b.page.goto(`/user/${b.id}/book`);
    await openDay(b.page, '.book', slot.date);
    await expect(b.page.locator(`[data-slot="${slot.id}"]`)).toHaveCount(0);

    // A cancels from the dashboard, with a confirm step.
    await a.page.goto(`/user/${a.id}`);
    const row = a.page.locator(`[data-session="${slot.id}"]`);
    await row.getByRole('button', { name: 'Cancel session' }).click();
    const confirm = a.page.getByRole('dialog', { name: 'Cancel this session?' });
    await confirm.getByRole('button', { name: 'Yes, cancel it' }).click();
    await expectAlert(a.page, 'Session cancelled', 'Your session has been cancelled.');
    await closeAlert(a.page, 'Session cancelled');
    await expect(row).toHaveCount(0);

    // B sees it free without a reload.
    await expect(b.page.locator(`[data-slot="${slot.id}"]`)).toBeVisible({ timeout: 5_000 });
    await a.context.close();
    await b.context.close();
  });

  test('a client moves a session to another free slot from the dashboard', async ({ browser }) => {
    const a = await newClient(browser, 'Hal');
    const from = await adminSlot(browser, 6);
    const to = await adminSlot(browser, 8);
    await bookWithCoupon(a.page, a.id, a.email, from.id);

    // The teacher, on her phone, writes a note on the session before it moves (issue 30).
    const teacherContext = await browser.newContext({ viewport: { width: 390, height: 844 }, extraHTTPHeaders: visitorHeaders() });
    const teacher = await teacherContext.newPage();
    await loginAdmin(teacher);
    await teacher.goto(`/admin/client?id=${a.id}`);
    const before = teacher.locator(`[data-session="${from.id}"]`);
    await before.getByLabel('Write a note').fill('Shoulders first; go slow on the twist.');
    await before.getByRole('button', { name: /^Save note/ }).click();
    await expect(before.getByText('Note saved.')).toBeVisible();

    await a.page.goto(`/user/${a.id}`);
    const row = a.page.locator(`[data-session="${from.id}"]`);
    await row.getByRole('button', { name: 'Reschedule' }).click();
    await openDay(a.page, `[data-reschedule="${from.id}"]`, to.date);
    await a.page.locator(`[data-reschedule="${from.id}"] [data-slot="${to.id}"]`).click();
    await a.page.getByRole('dialog', { name: 'Move your session?' }).getByRole('button', { name: 'Yes, move it' }).click();
    await expectAlert(a.page, 'Session moved');
    await closeAlert(a.page, 'Session moved');
    await expect(a.page.locator(`[data-session="${to.id}"]`)).toBeVisible();
    await expect(a.page.locator(`[data-session="${from.id}"]`)).toHaveCount(0);
    const moved = itemAt(await mailsTo(a.page.request, a.email, 3), 0);
    expect(moved.subject).toMatch(/^Session moved/);

    // Her record shows the note on the new time, and no phantom session holds it on the old one.
    await teacher.reload();
    const after = teacher.locator(`[data-session="${to.id}"]`);
    await expect(after).toContainText('Shoulders first; go slow on the twist.');
    await expect(after).toContainText('coming');
    await expect(teacher.locator(`[data-session="${from.id}"]`)).toHaveCount(0);
    await teacherContext.close();
    await a.context.close();
  });

  test('the login link goes on to the dashboard by itself, the message on top, history replaced', async ({ browser }) => {
    const a = await newClient(browser, 'Ivy');
    await a.context.clearCookies();
    // A fresh tab: the dashboard left behind may still be loading, and its 401 (the cookie is
    // gone) sends it to /login on its own, which would cut our own navigation short.
    await a.page.close();
    a.page = await a.context.newPage();
    await a.page.goto('/login');
    await a.page.getByLabel('Email', { exact: true }).fill(a.email);
    await a.page.getByRole('button', { name: 'Email me a login link' }).click();
    await expectAlert(a.page, 'Login Email Sent');
    const mails = await mailsTo(a.page.request, a.email, 2);
    const link = itemAt(mails, 0).links.find((l) => l.includes('/verify-login?token='))!;
    const alerts = await recordAlerts(a.page);
    await a.page.goto(new URL(link).pathname + new URL(link).search);
    // Nobody clicks OK.
    await a.page.waitForURL(`**/user/${a.id}`, { timeout: 5_000 });
    await expect.poll(() => alerts.map((alert) => alert.title)).toContain('Login Successful');
    await expect(a.page.getByRole('heading', { name: 'Booked Sessions' })).toBeVisible();
    await a.page.goBack();
    expect(a.page.url()).not.toContain('verify-login');
    await a.context.close();
  });

  test('a session within the notice window shows the too-late text instead of the buttons', async ({ browser }) => {
    const a = await newClient(browser, 'Jo');
    const soon = await adminSlot(browser, 0, teacherClock(3 * 3_600_000 + (Date.now() % 50) * 60_000));
    await bookWithCoupon(a.page, a.id, a.email, soon.id);
    await a.page.goto(`/user/${a.id}`);
    const row = a.page.locator(`[data-session="${soon.id}"]`);
    await expect(row.locator('[data-too-late]')).toContainText('It’s too late to cancel or reschedule this session online');
    await expect(row.locator('[data-too-late]')).toContainText('teacher@example.com');
    await expect(row.getByRole('button', { name: 'Cancel session' })).toHaveCount(0);
    await a.context.close();
  });

  test('the account page shows a private calendar address; a new secret ends the old one', async ({ browser }) => {
    const a = await newClient(browser, 'Kit');
    const slot = await adminSlot(browser, 4);
    await bookWithCoupon(a.page, a.id, a.email, slot.id);
    await a.page.goto(`/user/${a.id}/account`);
    await a.page.getByRole('button', { name: 'Make my calendar address' }).click();
    const field = a.page.getByLabel('Your private calendar address');
    await expect(field).toHaveValue(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    const first = new URL(await field.inputValue()).pathname;
    const feed = await a.page.request.get(first);
    expect(feed.status()).toBe(200);
    expect(feed.headers()['content-type']).toMatch(/^text\/calendar/);
    expect(await feed.text()).toContain('BEGIN:VEVENT');

    await a.page.getByRole('button', { name: 'New secret address' }).click();
    await a.page.getByRole('dialog', { name: 'Make a new address?' }).getByRole('button', { name: 'Yes, make a new one' }).click();
    await expect(field).not.toHaveValue(new RegExp(first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    expect((await a.page.request.get(first)).status()).toBe(404);
    expect((await a.page.request.get(new URL(await field.inputValue()).pathname)).status()).toBe(200);
    await a.context.close();
  });
});
