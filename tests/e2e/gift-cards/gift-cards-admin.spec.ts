import { expect, type Page } from '@playwright/test';
import { adminTest as test, axeClean, closeAlert, expectAlert, hydrated, mailsTo, teacherToday, uniqueEmail } from '../helpers';
import { itemAt } from '../../helpers/guards.ts';

/**
 * Issue 33, her side at 390 × 844 (her phone): she issues a card by hand and reads its code once,
 * finds it in her list with its balance, takes $5 off it with a reason and sees the history line
 * and the new balance; a card for a later day she voids before it goes. Every screen axe clean.
 */
test.use({ viewport: { width: 390, height: 844 }, timezoneId: 'America/Los_Angeles', locale: 'en-US' });

/** A code as the page shows it: four groups of four from the alphabet without 0/O and 1/I. */
const GROUPED_CODE = /^[A-HJ-NP-Z2-9]{4}(-[A-HJ-NP-Z2-9]{4}){3}$/;

/** Her day as the admin writes it: "Tue, Dec 8", the year only when it is not this year. */
function dayWords(day: string): string {
  const words = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' }).format(new Date(`${day}T12:00:00Z`));
  return day.slice(0, 4) === teacherToday().slice(0, 4) ? words : `${words}, ${day.slice(0, 4)}`;
}

/** Her figures (issue 50: each kind of money on its own line) in cents: "−$5.00" is -500. */
const FIGURES = ['sold', 'given', 'adjusted', 'spent', 'outstanding'] as const;
async function figures(page: Page): Promise<Record<(typeof FIGURES)[number], number>> {
  const cents = (text: string) => (text.startsWith('−') ? -1 : 1) * Math.round(Number(text.replace(/[^\d.]/g, '')) * 100);
  const read = await Promise.all(FIGURES.map(async (key) => [key, cents(await page.locator(`[data-total="${key}"]`).innerText())] as const));
  return Object.fromEntries(read) as Record<(typeof FIGURES)[number], number>;
}

/** Issues a card on the form and reads the code shown once; answers the code. */
async function issueCard(page: Page, card: { dollars: string; name: string; email: string; day: string; design?: 'yoga' | 'chocolates'; message?: string }) {
  const form = page.getByRole('form', { name: 'Issue a card' });
  await form.getByLabel('Amount ($)').fill(card.dollars);
  if (card.design) await form.getByLabel('Design').selectOption(card.design);
  await form.getByLabel('Recipient’s name').fill(card.name);
  await form.getByLabel('Recipient’s e-mail').fill(card.email);
  if (card.message) await form.getByLabel('Message (optional)').fill(card.message);
  await form.getByLabel('Day it goes').fill(card.day);
  await form.getByRole('button', { name: 'Issue the card' }).click();
  const shown = page.getByRole('dialog', { name: 'The card’s code' });
  await expect(shown.locator('[data-gift-code]')).toHaveText(GROUPED_CODE);
  await expect(shown).toContainText('it is not shown again');
  return { code: (await shown.locator('[data-gift-code]').textContent())!, shown };
}

test('she issues a card, reads its code once, takes $5 off with a reason, and voids a card for a later day', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/admin/gift-cards');
  await expect(page.getByRole('heading', { level: 1, name: 'Gift cards' })).toBeVisible();
  await hydrated(page);
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
  // Her figures at the top, what is owed named as owed.
  for (const figure of ['sold', 'given', 'spent', 'outstanding']) await expect(page.locator(`[data-total="${figure}"]`)).toHaveText(/^\$[\d,]+\.\d{2}$/);
  await expect(page.locator('[data-total="adjusted"]')).toHaveText(/^[+−]?\$[\d,]+\.\d{2}$/);
  const before = await figures(page);
  await expect(page.locator('[data-total="delivered"]')).toHaveText(/^\d+ cards?$/);
  await expect(page.getByText('a liability, not income, until it is spent', { exact: false })).toBeVisible();
  // The menu leads here, under Money.
  const nav = page.getByRole('navigation', { name: 'Admin' });
  await nav.getByRole('button', { name: 'Menu' }).click();
  await expect(nav.getByRole('list', { name: 'Money' }).getByRole('link', { name: 'Gift cards' })).toHaveAttribute('aria-current', 'page');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('form', { name: 'Issue a card' }).getByLabel('Day it goes')).toHaveValue(teacherToday());
  await axeClean(page);

  // A raffle prize for today: the code once, large, in four groups.
  const email = uniqueEmail('gift-raffle');
  const { code, shown } = await issueCard(page, {
    dollars: '40',
    name: 'Rafa Raffle',
    email,
    day: teacherToday(),
    design: 'chocolates',
    message: 'Won at the solstice raffle.',
  });
  await axeClean(page);
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();
  const last4 = code.slice(-4);
  // The recipient's mail carries the same code; the page never shows it again.
  const mail = itemAt(await mailsTo(page.request, email), 0);
  expect(mail.text).toContain(code);
  await expect(page.locator('main')).not.toContainText(code);

  // In her list: its last four, its recipient, its balance, delivered today.
  const row = page.locator(`li[data-gift-card="${last4}"]`);
  await expect(row.getByRole('heading', { level: 3 })).toHaveText(`···· ${last4} for Rafa Raffle`);
  await expect(row.locator('[data-card-amounts]')).toHaveText('$40.00 left of $40.00');
  // A card she gives is given, not sold: what the cards owe grows by it, and nothing was spent.
  await expect.poll(() => figures(page)).toEqual({ ...before, given: before.given + 4_000, outstanding: before.outstanding + 4_000 });
  await expect(row.locator('[data-card-state]')).toHaveText(new RegExp(`^Delivered ${dayWords(teacherToday())} · \\d{1,2}:\\d{2}\\s[AP]M$`));
  await expect(row.getByRole('button', { name: `Void the card ending ${last4}` })).toHaveCount(0);

  // A delivered card's mail again, the same code.
  await row.getByRole('button', { name: `Resend the card ending ${last4}` }).click();
  await expectAlert(page, 'Card sent again', /The card (was sent again|will be sent again shortly)\./);
  await closeAlert(page, 'Card sent again');
  await mailsTo(page.request, email, 2);

  // Its history, on her clocks; $5 taken off with a reason.
  await row.getByRole('button', { name: `History of the card ending ${last4}` }).click();
  const dialog = page.getByRole('dialog', { name: `Gift card ending ${last4}` });
  const lines = dialog.getByRole('list', { name: 'History' }).getByRole('listitem');
  const when = `${dayWords(teacherToday())} · \\d{1,2}:\\d{2}\\s[AP]M`;
  await expect(lines).toHaveText([new RegExp(`^${when}: \\+\\$40\\.00 put on the card$`)]);
  await expect(dialog).toContainText('“Won at the solstice raffle.”');
  const adjust = dialog.getByRole('form', { name: `Adjust the card ending ${last4}` });
  await adjust.getByLabel('Add or take off').selectOption('take');
  await adjust.getByLabel('Dollars').fill('5');
  await adjust.getByLabel('Reason').fill('Half a tin given at the market');
  await axeClean(page);
  await adjust.getByRole('button', { name: 'Adjust' }).click();
  await expect(adjust.getByRole('status')).toHaveText('Adjusted: $35.00 left on the card.');
  await expect(lines).toHaveText([
    new RegExp(`^${when}: \\+\\$40\\.00 put on the card$`),
    new RegExp(`^${when}: −\\$5\\.00 adjusted by you \\(Half a tin given at the market\\)$`),
  ]);
  await expect(dialog.locator('[data-card-balance]')).toHaveText('$35.00 left of $35.00 ($40.00 −$5.00 by you)');
  // A make-good of $10 on top: never more left than was put on it.
  await adjust.getByLabel('Add or take off').selectOption('add');
  await adjust.getByLabel('Dollars').fill('10');
  await adjust.getByLabel('Reason').fill('A melted tin made good');
  await adjust.getByRole('button', { name: 'Adjust' }).click();
  await expect(adjust.getByRole('status')).toHaveText('Adjusted: $45.00 left on the card.');
  await expect(dialog.locator('[data-card-balance]')).toHaveText('$45.00 left of $45.00 ($40.00 +$5.00 by you)');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(row.locator('[data-card-amounts]')).toHaveText('$45.00 left of $45.00 ($40.00 +$5.00 by you)');
  // Her adjustments are their own line: Spent does not move, Sold neither.
  await expect
    .poll(() => figures(page))
    .toEqual({ ...before, given: before.given + 4_000, adjusted: before.adjusted + 500, outstanding: before.outstanding + 4_500 });

  // A card for a later day: it waits for its day, and she voids it with a confirm.
  const later = teacherToday(10);
  const second = await issueCard(page, { dollars: '25', name: 'Lia Later', email: uniqueEmail('gift-later'), day: later });
  await second.shown.getByRole('button', { name: 'Done' }).click();
  await expect(second.shown).toBeHidden();
  const laterRow = page.locator(`li[data-gift-card="${second.code.slice(-4)}"]`);
  const name = `the card ending ${second.code.slice(-4)}`;
  await expect(laterRow.locator('[data-card-state]')).toHaveText(`Goes ${dayWords(later)}`);
  await expect(laterRow.getByRole('button', { name: `Resend ${name}` })).toHaveCount(0);
  await laterRow.getByRole('button', { name: `Void ${name}` }).click();
  const ask = page.getByRole('dialog', { name: `Void ${name}?` });
  await expect(ask).toContainText('Its mail to Lia Later will not go and its $25.00 is taken back.');
  await axeClean(page);
  await ask.getByRole('button', { name: 'Void it' }).click();
  await expectAlert(page, 'Card voided', 'Gift card voided.');
  await closeAlert(page, 'Card voided');
  await expect(laterRow.locator('[data-card-state]')).toHaveText(new RegExp(`^Voided ${dayWords(teacherToday())} · `));
  await expect(laterRow.locator('[data-card-amounts]')).toHaveText('$0.00 left of $25.00');
  await expect(laterRow.getByRole('button', { name: `Void ${name}` })).toHaveCount(0);
  await laterRow.getByRole('button', { name: `History of ${name}` }).click();
  const voided = page.getByRole('dialog', { name: `Gift card ending ${second.code.slice(-4)}` });
  await expect(voided.getByRole('list', { name: 'History' }).getByRole('listitem')).toHaveText([
    / \+\$25\.00 put on the card$/,
    / −\$25\.00 taken back \(Voided before it was delivered\)$/,
  ]);
  // A voided card takes no adjustment.
  await expect(voided.getByRole('form', { name: /^Adjust/ })).toHaveCount(0);
  await axeClean(page);
});
