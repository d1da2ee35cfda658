import { expect, type APIRequestContext, type Page } from '@playwright/test';

export interface MailboxEntry {
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  headers: Record<string, string>;
  attachments: { filename: string; contentType: string; size: number }[];
  sentAt: string;
}

/** Mails to `to`, newest first, waiting until at least `count` have arrived. */
export async function mailsTo(request: APIRequestContext, to: string, count = 1): Promise<MailboxEntry[]> {
  let mails: MailboxEntry[] = [];
  await expect
    .poll(async () => {
      mails = await (await request.get(`/api/dev/mailbox?to=${encodeURIComponent(to)}`)).json();
      return mails.length;
    })
    .toBeGreaterThanOrEqual(count);
  return mails;
}

/** A unique address per test run, so reruns against one database don't collide. */
export const uniqueEmail = (name: string) => `${name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

/** The open message dialog (site/lib/alert.ts) with its title and text. */
export async function expectAlert(page: Page, title: string, text?: string | RegExp) {
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  if (text !== undefined) await expect(dialog).toContainText(text);
  return dialog;
}

export async function closeAlert(page: Page, title: string) {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByRole('button').last().click();
  await expect(dialog).toBeHidden();
}

/** Logs the page's browser context in as the seeded admin (cookie session). */
export async function loginAdmin(page: Page) {
  const res = await page.request.post('/api/admin/login', {
    data: { email: 'admin@example.com', password: 'namaste-cacao-42', recaptchaToken: 'dev:admin_login' },
  });
  expect(res.status()).toBe(200);
}

/** Today in the teacher's zone (the e2e server runs with the default America/Los_Angeles). */
export function teacherToday(offsetDays = 0): string {
  const d = new Date(Date.now() + offsetDays * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles', year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
}
