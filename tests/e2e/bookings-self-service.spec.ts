import { expect, test, type Browser, type Page } from '@playwright/test';
import { closeAlert, expectAlert, loginAdmin, mailsTo, teacherToday, uniqueEmail, visitorHeaders } from './helpers';

/**
 * Clients change their own sessions from the dashboard (issue 15): cancel (a second browser on
 * the booking page sees the freed slot appear, through the realtime room), reschedule through
 * the free-slot picker, and the login link that goes on to the dashboard by itself.
 */

const YOGA = 'Individual Yoga Session (60 min)';

/** A client registered and verified through the API and the mailed link; the page is on their dashboard. */
async function newClient(browser: Browser, name: string) {
  const context = await browser.newContext({ extraHTTPHeaders: visitorHeaders() });
  const page = await context.newPage();
  const email = uniqueEmail(name);
  await page.goto('/register');
  await page.getByLabel('First name').fill(name);
  await page.getByLabel('Last name').fill('Tester');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expectAlert(page, 'Check your email');
  await closeAlert(page, 'Check your email');
  const [mail] = await mailsTo(page.request, email);
  const link = mail!.links.find((l) => l.includes('/verify-email?token='))!;
  await page.goto(new URL(link).pathname + new URL(link).search);
  await expectAlert(page, 'Email Verified!');
  await closeAlert(page, 'Email Verified!');
  await page.waitForURL(/\/user\/[^/]+$/);
  return { context, page, email, id: page.url().split('/user/')[1]! };
}

let counter = 0;
/** A new free slot `days` ahead at a time no other run uses; its id and date. */
async function adminSlot(browser: Browser, days: number): Promise<{ id: string; date: string }> {
  const context = await browser.newContext({ extraHTTPHeaders: visitorHeaders() });
  const page = await context.newPage();
  await loginAdmin(page);
  const date = teacherToday(days);
  const n = (Date.now() / 1000 + ++counter) % 600;
  const time = `${String(6 + Math.floor(n / 60)).padStart(2, '0')}:${String(Math.floor(n % 60)).padStart(2, '0')}`;
  const res = await page.request.post('/api/bookings', { data: { slots: [{ date, time }] } });
  expect(res.status()).toBe(201);
  const { slots } = await res.json();
  await context.close();
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
    const [moved] = await mailsTo(a.page.request, a.email, 3);
    expect(moved!.subject).toMatch(/^Session moved/);
    await a.context.close();
  });

  test('the login link goes on to the dashboard by itself, the message on top, history replaced', async ({ browser }) => {
    const a = await newClient(browser, 'Ivy');
    await a.context.clearCookies();
    await a.page.goto('/login');
    await a.page.getByLabel('Email', { exact: true }).fill(a.email);
    await a.page.getByRole('button', { name: 'Email me a login link' }).click();
    await expectAlert(a.page, 'Login Email Sent');
    const mails = await mailsTo(a.page.request, a.email, 2);
    const link = mails[0]!.links.find((l) => l.includes('/verify-login?token='))!;
    await a.page.goto(new URL(link).pathname + new URL(link).search);
    await expectAlert(a.page, 'Login Successful');
    // Nobody clicks OK.
    await a.page.waitForURL(`**/user/${a.id}`, { timeout: 5_000 });
    await expect(a.page.getByRole('heading', { name: 'Booked Sessions' })).toBeVisible();
    await a.page.goBack();
    expect(a.page.url()).not.toContain('verify-login');
    await a.context.close();
  });
});
