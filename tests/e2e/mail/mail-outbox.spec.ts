import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import type { TodayView } from '../../../contract/backoffice.ts';
import { closeAlert, expectAlert, loginAdmin, mailsTo, uniqueEmail } from '../helpers';

/**
 * Issue 21's outbox as a tester tries it by hand: the mailbox stand-in's "Bounce" button posts a
 * signed Resend event through the real webhook route, so the next mail to that address is skipped,
 * not sent, and the teacher sees why under Mail and on the Today panel.
 */

async function sendContactForm(page: Page, email: string, message: string) {
  await page.goto('/contact');
  const form = page.getByRole('form', { name: 'Contact form' });
  await form.getByLabel('Name').fill('Rae Bounce');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Message').fill(message);
  await form.getByRole('button', { name: 'Send message' }).click();
  await expectAlert(page, 'Message Sent!');
  await closeAlert(page, 'Message Sent!');
}

test('a bounce pressed in the mailbox stops the next mail to that address; the teacher sees it skipped', async ({ page }) => {
  const email = uniqueEmail('bounce');
  await sendContactForm(page, email, 'First message, the copy arrives.');
  expect(await mailsTo(page.request, email)).toHaveLength(1);

  // The tester presses "Bounce" on the visitor's copy in the mailbox page.
  await page.goto('/dev/mailbox');
  const copy = page.getByRole('article').filter({ hasText: `To ${email}` });
  await expect(copy).toHaveCount(1);
  await copy.getByRole('button', { name: 'Bounce' }).click();
  await expect(page).toHaveURL(/\/dev\/mailbox\?event=bounced/);
  await expect(page.getByRole('status')).toContainText(`${email} bounced`);

  // The same visitor writes again: the teacher gets the message, the visitor's copy is not sent.
  const teacherBefore = (await mailsTo(page.request, 'teacher@example.com')).length;
  await sendContactForm(page, email, 'Second message, the copy is skipped.');
  const teacher = await mailsTo(page.request, 'teacher@example.com', teacherBefore + 1);
  expect(teacher.some((m) => m.text.includes('Second message, the copy is skipped.'))).toBe(true);
  expect(await mailsTo(page.request, email)).toHaveLength(1);

  // The teacher sees why under Mail, and the Today panel counts it.
  await loginAdmin(page);
  await page.goto('/admin/mail');
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Skipped: the address bounced');
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);

  const today = (await (await page.request.get('/api/admin/today')).json()) as TodayView;
  // One group of failed mails (issue 29), newsletters' and others alike.
  expect(today.failedMails.items.some((m) => m.source === 'outbox' && m.to === email && m.state === 'skipped')).toBe(true);
  await page.goto('/admin/dashboard');
  const group = page.locator('[data-today] [data-today-group="failedMails"]');
  await expect(group).toHaveAttribute('data-count', String(today.failedMails.count));
  expect(today.failedMails.count).toBeGreaterThanOrEqual(1);
  await expect(group).toContainText(`to ${email} · skipped`);
  await expect(group.getByRole('heading').getByRole('link')).toHaveAttribute('href', '/admin/mail');
});
