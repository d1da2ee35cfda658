import { expect, test } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { closeAlert, expectAlert, loginAdmin, registerAndVerify, teacherToday, uniqueEmail, visitorHeaders, clearSlotTime } from '../helpers';
import { itemAt } from '../../helpers/guards.ts';

/**
 * Issue 32 at 390 × 844 (decision 0038): /yoga offers her packages with what they save and leads
 * to the booking page, where a client buys "Eight weeks of yoga therapy" with the PayPal emulator, after an amount off its scale is refused with its words;
 * her dashboard then shows 8 sessions left and the last day they can book; with her intake given
 * she books a time weekly for two weeks with those credits, and the dashboard shows 6 of 8 left.
 */
test.use({ viewport: { width: 390, height: 844 }, timezoneId: 'America/Los_Angeles', locale: 'en-US' });

const EIGHT = 'Eight weeks of yoga therapy';
/** A 1×1 PNG as a drawn signature (the intake checks that it is a PNG, not what it shows). */
const SIGNATURE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** An answer to each of her intake's questions, whatever she asks today (the practice spec fills it by hand). */
const answerTo = (q: { type: string; options?: string[] }) =>
  ({
    text: 'None',
    longText: 'None',
    yesNo: false,
    choice: q.options?.[0],
    multiChoice: q.options?.slice(0, 1),
    date: '1990-01-01',
    consent: true,
    signature: SIGNATURE,
  })[q.type];

test('a client buys a package with the PayPal emulator and her dashboard shows 8 sessions left and the expiry', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ extraHTTPHeaders: visitorHeaders() });
  const page = await context.newPage();
  const userId = await registerAndVerify(page, 'Pia', 'Package', uniqueEmail('package'));

  // /yoga offers it among her offerings (rendered ahead), and leads to her own booking page.
  await page.goto('/yoga');
  const onYoga = page.locator(`[data-packages] [data-package="${EIGHT}"]`);
  await expect(onYoga).toContainText('$45 a session at the suggested $360; saves $280 against 8 single sessions at $80');
  const yogaAxe = await new AxeBuilder({ page }).include('#offerings').analyze();
  expect(yogaAxe.violations.map((v) => v.id)).toEqual([]);
  await onYoga.getByRole('link', { name: `Buy on the booking page for ${EIGHT}` }).click();
  await page.waitForURL(`**/user/${userId}/book`);

  const offer = page.locator(`[data-package="${EIGHT}"]`);
  await expect(offer).toContainText('8 sessions (Yoga Therapy Session (60 min)) · $80–$600 · valid 4 months');
  await expect(offer).toContainText('$45 a session at the suggested $360; saves $280 against 8 single sessions at $80');
  await offer.getByRole('button', { name: `Buy ${EIGHT}` }).click();
  const amount = page.getByLabel('Amount ($80–$600)');
  await expect(amount).toHaveValue('360.00');

  // Off the scale: refused with its words, nothing asked of PayPal.
  await amount.fill('700');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.locator('#package-amount-error')).toHaveText(`The amount for ${EIGHT} must be between $80 and $600.`);
  await expect(page.getByRole('button', { name: 'Pay with PayPal (emulator)' })).toHaveCount(0);

  await amount.fill('360');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  const pay = page.getByRole('button', { name: 'Pay with PayPal (emulator)' });
  await expect(pay).toBeVisible();
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  await pay.click();
  await expectAlert(page, 'Payment Successful');
  await closeAlert(page, 'Payment Successful');
  await expectAlert(page, 'Package Bought!', `${EIGHT}: 8 sessions are yours to book.`);
  await closeAlert(page, 'Package Bought!');
  await page.waitForURL(`**/user/${userId}`);

  // Her dashboard: 8 left, until the last day (her day, four months on).
  const balance = (await (await page.request.get(`/api/user/${userId}/balance`)).json()) as { credits: { expiresOn: string }[] };
  const until = new Date(`${itemAt(balance.credits, 0).expiresOn}T12:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
  await expect(page.locator('[data-sessions-remaining]')).toHaveText('8 sessions left to book');
  await expect(page.locator(`[data-credit="${EIGHT}"]`)).toContainText(`${EIGHT}: 8 sessions left, until ${until}`);
  await page.locator('[data-balance]').getByText('History', { exact: true }).click();
  await expect(page.getByRole('list', { name: 'Session history' })).toContainText(`Bought · ${EIGHT} · +8`);
  const dashboardAxe = await new AxeBuilder({ page }).analyze();
  expect(dashboardAxe.violations.map((v) => v.id)).toEqual([]);

  // Her intake given (yoga therapy asks for it first), she books a time weekly for two weeks.
  const intake = (await (await page.request.get(`/api/user/${userId}/intake`)).json()) as {
    version: number;
    questions: { id: string; type: string; options?: string[] }[];
  };
  const answers = Object.fromEntries(intake.questions.map((q) => [q.id, answerTo(q)]));
  expect((await page.request.put(`/api/user/${userId}/intake`, { data: { version: intake.version, answers } })).status()).toBe(200);
  const admin = await browser.newContext({ extraHTTPHeaders: visitorHeaders() });
  const adminPage = await admin.newPage();
  await loginAdmin(adminPage);
  // The same early time two weeks running, clear of her agenda both days.
  const dates = [10, 17].map((d) => teacherToday(d));
  const time = await clearSlotTime(adminPage.request, dates, 4 * 60);
  const added = await adminPage.request.post('/api/bookings', { data: { slots: dates.map((date) => ({ date, time })) } });
  expect(added.status()).toBe(201);
  const first = ((await added.json()) as { slots: { _id: string; date: string }[] }).slots.find((s) => s.date === dates[0])!;
  await admin.close();

  await page.goto(`/user/${userId}/book`);
  await expect(page.locator('.calendar-day.has-events').first()).toBeVisible();
  const day = page.locator(`[data-date="${dates[0]}"]`);
  if ((await day.count()) === 0 || (await day.isDisabled())) await page.getByRole('button', { name: 'Next month' }).click();
  await page.locator(`[data-date="${dates[0]}"]`).click();
  await page.locator(`[data-slot="${first._id}"]`).click();
  await page.getByLabel('Session type').selectOption('Yoga Therapy Session (60 min)');
  await expect(page.locator('[data-credit-offer]')).toContainText('Use 1 of your 8 sessions');
  await page.getByText('Book this time every week').click();
  await page.getByLabel('Book this time weekly for').fill('2');
  await page.getByRole('button', { name: 'Book weekly for 2 weeks' }).click();
  await expect(page.locator('[data-series-result]')).toContainText('All 2 weeks are booked.');
  await page.locator('[data-series-result]').getByRole('link', { name: 'See My Bookings' }).click();
  await page.waitForURL(`**/user/${userId}`);
  await expect(page.locator('[data-sessions-remaining]')).toHaveText('6 sessions left to book');
  await expect(page.locator(`[data-credit="${EIGHT}"]`)).toContainText(`${EIGHT}: 6 sessions left, until ${until}`);
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  await context.close();
});
