import { expect, test } from '@playwright/test';
import { closeAlert, expectAlert, expectAlertText, fitsThePhone, loginAdmin, mailsTo, teacherToday, uniqueEmail, visitorHeaders } from '../helpers';
import { itemAt, must } from '../../helpers/guards.ts';

/**
 * Issue 34's private tasting at 390 × 844: a visitor asks for one on /chocolates (the form says
 * what it needs first); the teacher finds the request on Today, answers it with her standard
 * quote in two taps; the client opens the mail's link, pays the deposit with the PayPal emulator
 * and sees the day held; the teacher finds it in her agenda (the Events list) and on her
 * Tastings page as booked. Axe-clean and phone-sized at every step.
 */
test.use({ viewport: { width: 390, height: 844 }, locale: 'en-US', extraHTTPHeaders: visitorHeaders() });

test('a tasting request becomes a quote, a paid deposit and an entry in her agenda', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('taster');
  const occasion = `Team retreat ${Date.now().toString(36)}`;
  const first = teacherToday(9);

  // The visitor, on /chocolates.
  await page.goto('/chocolates');
  const form = page.getByRole('form', { name: 'Ask for a tasting' });
  await form.scrollIntoViewIfNeeded();
  await form.getByRole('button', { name: 'Ask for a quote' }).click();
  await expect(form.locator('#tasting-name-error')).toHaveText('Name is required');
  await expect(form.getByLabel('Name')).toBeFocused();
  await expect(form.locator('#tasting-dates-error')).toBeVisible();
  await fitsThePhone(page);

  await form.getByLabel('Name').fill('Tess Taster');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Phone').fill('503-555-0100');
  await form.getByLabel('Occasion').fill(occasion);
  await form.getByLabel('Number of guests').fill('18');
  await form.getByLabel('First day').fill(first);
  await form.getByLabel('Second day').fill(teacherToday(11));
  await form.getByLabel('Place').fill('12 Cacao Lane, Portland');
  await form.getByRole('button', { name: 'Ask for a quote' }).click();
  await expectAlert(page, 'Request Sent!', 'You will get a quote by e-mail soon.');
  await closeAlert(page, 'Request Sent!');
  await expect(form.getByLabel('Occasion')).toHaveValue('');

  // The teacher: the request on Today, a tap from her Tastings page.
  const herContext = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US', extraHTTPHeaders: visitorHeaders() });
  const her = await herContext.newPage();
  await loginAdmin(her);
  await her.goto('/admin/dashboard');
  const requests = her.locator('[data-today-group="tastingRequests"]');
  await requests.getByRole('link', { name: new RegExp(occasion) }).click();
  await her.waitForURL('**/admin/tastings?focus=*');
  const card = her.locator('[data-tasting]', { hasText: occasion });
  await expect(card).toHaveAttribute('aria-current', 'true');

  // Two taps: her standard tasting, then send.
  await card.getByRole('button', { name: 'Use standard tasting' }).click();
  await expect(card.getByLabel('Price ($)')).toHaveValue('520.00');
  await expect(card.getByLabel('Deposit ($)')).toHaveValue('260.00');
  await expect(card.getByLabel('Day')).toHaveValue(first);
  await expect(card.getByLabel('Time')).toHaveValue('18:00');
  await card.getByRole('button', { name: 'Send quote' }).click();
  await expect(card.getByText(/Waiting for the \$260\.00 deposit/i)).toBeVisible();
  await fitsThePhone(her);

  // The client: the quote's mail and its link.
  const quote = itemAt(await mailsTo(page.request, email), 0);
  expect(quote.subject).toBe(`Your tasting quote: ${occasion} on ${first}`);
  const link = new URL(must(/https?:\/\/\S+\/tastings\/pay\?\S+/.exec(quote.text), 'a match in quote.text')[0]);
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole('heading', { level: 2, name: occasion })).toBeVisible();
  await expect(page.getByText('Due now: the deposit, $260.00. Your day is held once it is paid.')).toBeVisible();
  await fitsThePhone(page);
  await page.getByRole('button', { name: 'Pay the deposit ($260.00)' }).click();
  await expect(page.getByText('Paying the deposit of $260.00 for your tasting.')).toBeFocused();
  await page.getByRole('button', { name: 'Pay with PayPal (emulator)' }).click();
  await expectAlertText(page, 'Payment Successful', 'Transaction completed by Pat');
  await closeAlert(page, 'Payment Successful');
  await expect(page.getByText('Your day is held. Still to pay: $260.00, here or on the day.')).toBeVisible();
  await expect(page.locator('[data-paid]')).toHaveText('$260.00');
  await fitsThePhone(page);

  // The teacher: the tasting in her agenda, and booked on her Tastings page.
  await her.goto('/admin/dashboard#events');
  await expect(her.locator('[data-event-row]', { hasText: `Private tasting: ${occasion}` })).toBeVisible();
  await her.goto('/admin/tastings');
  await expect(her.locator('[data-tasting]', { hasText: occasion }).locator('[data-tasting-booked]')).toContainText('held in your agenda');
  await fitsThePhone(her);
  await herContext.close();
});
