import { expect, test, type Locator } from '@playwright/test';
import { GIFT_CARD_AMOUNT_INVALID, GIFT_CARD_NOT_FOUND } from '../../../contract/gift-cards.ts';
import { PAYMENT_ALREADY_USED } from '../../../contract/booking.ts';
import {
  closeAlert,
  expectAlert,
  expectAlertText,
  fillGiftCard,
  fitsThePhone,
  loginAdmin,
  mailsTo,
  teacherToday,
  uniqueEmail,
  visitorHeaders,
  visitorPhoneAhead,
} from '../helpers';
import { itemAt } from '../../helpers/guards.ts';

/**
 * Issue 33's buyer at 390 × 844, on a phone in Kiritimati (UTC+14, a day ahead of her most of the
 * day): she finds /gift-cards in the footer, picks a Linden Cacao Co. card for $50 after an amount
 * off the range is refused, writes to the recipient and has it mailed tomorrow (her tomorrow, as
 * the date field offers it), pays with the PayPal emulator and sees where and when it goes; her
 * receipt is in her mail and the recipient's card waits for its day. The balance check answers a
 * wrong code with the one message for every wrong code, and a real card with what is left on it.
 */
test.use(visitorPhoneAhead());

/** A $50 Linden Cacao Co. card from Gia to Rosa, mailed on `day`, up to the PayPal step. */
const fillCard = (form: Locator, buyer: string, recipient: string, day: string) =>
  fillGiftCard(form, {
    amount: '$50',
    brand: 'Linden Cacao Co.',
    buyer: { name: 'Gia Giver', email: buyer },
    recipient: { name: 'Rosa Receiver', email: recipient },
    message: 'Happy December! A tin or a session, as you like.',
    day,
  });

/** "Saturday, November 29" for her day YYYY-MM-DD, as the success dialog says it. */
const dayWords = (day: string) => new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' });

test('a buyer sends a chocolates card for tomorrow from the footer, pays with the emulator and gets the receipt', async ({ page }) => {
  test.setTimeout(90_000);
  const buyer = uniqueEmail('gift-buyer');
  const recipient = uniqueEmail('gift-recipient');
  const today = teacherToday();
  const tomorrow = teacherToday(1);

  await page.goto('/chocolates');
  await page.getByRole('contentinfo').getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Gift cards' }).click();
  await page.waitForURL('**/gift-cards');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Gift cards');
  await expect(page.locator('main')).toContainText('never expires');

  const form = page.getByRole('form', { name: 'Buy a gift card' });
  const day = form.getByLabel('Delivery day');
  // Her today and a year of her days, whatever the phone's own calendar says.
  await day.scrollIntoViewIfNeeded();
  await expect(day).toHaveValue(today);
  await expect(day).toHaveAttribute('min', today);
  await expect(form.getByText('by the calendar in Pacific Time')).toBeVisible();
  await expect(form.getByRole('radio', { name: '$50' })).toBeChecked();

  // Nothing filled in and an amount off the range: each field says what it needs, nothing asked of PayPal.
  await form.getByLabel('Any whole amount from $10 to $500').fill('7');
  await expect(form.getByRole('radio', { name: 'Another amount' })).toBeChecked();
  await form.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(form.locator('#gift-amount-error')).toHaveText(GIFT_CARD_AMOUNT_INVALID);
  await expect(form.getByLabel('Any whole amount from $10 to $500')).toBeFocused();
  await expect(form.getByLabel('Your name')).toHaveAttribute('aria-describedby', 'gift-buyer-name-error');
  await expect(form.locator('#gift-design-error')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pay with PayPal (emulator)' })).toHaveCount(0);
  await fitsThePhone(page);

  await fillCard(form, buyer, recipient, tomorrow);
  const pay = page.getByRole('button', { name: 'Pay with PayPal (emulator)' });
  await expect(pay).toBeVisible();
  // Focus moves from the button that gave way to what is being paid for.
  await expect(page.getByText('A $50.00 gift card for Rosa Receiver, no sales tax.')).toBeFocused();
  await fitsThePhone(page);
  await pay.click();
  await expectAlertText(page, 'Payment Successful', 'Transaction completed by Gia');
  await closeAlert(page, 'Payment Successful');
  await expectAlert(
    page,
    'Gift Card Bought!',
    `Your $50.00 gift card goes to Rosa Receiver on ${dayWords(tomorrow)}. Your receipt is in your mail (${buyer}).`,
  );
  await fitsThePhone(page);
  await closeAlert(page, 'Gift Card Bought!');
  // Ready for the next card.
  await expect(form.getByLabel('Your name')).toHaveValue('');
  await expect(day).toHaveValue(today);

  // The buyer's receipt at once; the recipient's card waits for its day.
  const receipt = itemAt(await mailsTo(page.request, buyer), 0);
  expect(receipt.subject).toBe('Your receipt: a $50.00 gift card for Rosa Receiver');
  expect(receipt.text).toContain(`Linden Cacao Co. gift card`);
  expect(receipt.text).toContain(`goes to Rosa Receiver at ${recipient} on ${tomorrow}`);
  expect(await (await page.request.get(`/api/dev/mailbox?to=${encodeURIComponent(recipient)}`)).json()).toEqual([]);
});

test('a purchase the server refuses shows its words, and nothing is bought', async ({ page }) => {
  await page.goto('/gift-cards');
  // The server's answer for a PayPal order already spent on another card, as if it were.
  await page.route(
    (url) => url.pathname === '/api/gift-cards',
    (route) => (route.request().method() === 'POST' ? route.fulfill({ status: 409, json: { message: PAYMENT_ALREADY_USED } }) : route.fallback()),
  );
  const form = page.getByRole('form', { name: 'Buy a gift card' });
  // The form comes alive when it comes into sight (client:visible).
  await form.scrollIntoViewIfNeeded();
  await expect(form.getByLabel('Delivery day')).toHaveValue(teacherToday());
  await fillCard(form, uniqueEmail('gift-refused'), uniqueEmail('gift-refused-to'), teacherToday());
  await page.getByRole('button', { name: 'Pay with PayPal (emulator)' }).click();
  await expectAlertText(page, 'Payment Unsuccessful', PAYMENT_ALREADY_USED);
  await closeAlert(page, 'Payment Unsuccessful');
  await expect(form.getByRole('button', { name: 'Continue to payment' })).toBeEnabled();
  await expect(form.getByLabel('Recipient’s name')).toHaveValue('Rosa Receiver');
});

test('the balance check: a wrong code gets the one message, a real card what is left on it', async ({ page, browser }) => {
  await page.goto('/gift-cards');
  const form = page.getByRole('form', { name: 'Check a card’s balance' });
  const code = form.getByLabel('Gift card code');
  const answer = form.getByRole('status');

  await form.getByRole('button', { name: 'Check balance' }).click();
  await expect(form.locator('#gift-balance-code-error')).toHaveText('Enter the gift card code');

  await code.fill('WXYZ-2345-6789-ABCD');
  await form.getByRole('button', { name: 'Check balance' }).click();
  await expect(answer).toHaveText(GIFT_CARD_NOT_FOUND);
  await fitsThePhone(page);

  // A card she issues herself: its code is answered once, to her.
  const admin = await browser.newContext({ extraHTTPHeaders: visitorHeaders() });
  const adminPage = await admin.newPage();
  await loginAdmin(adminPage);
  const issued = await adminPage.request.post('/api/admin/gift-cards', {
    data: { amountCents: 2500, recipientName: 'Pia Prize', recipientEmail: uniqueEmail('gift-prize') },
  });
  expect(issued.status()).toBe(201);
  const { code: real } = (await issued.json()) as { code: string };
  await admin.close();

  await code.fill(real);
  await form.getByRole('button', { name: 'Check balance' }).click();
  await expect(answer).toHaveText('$25.00 left on this card');
});
