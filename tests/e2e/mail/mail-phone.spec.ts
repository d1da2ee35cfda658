import { expect, test } from '@playwright/test';
import { loginAdmin, visitorHeaders, type MailboxEntry } from '../helpers';
import { smallJpeg } from '../../helpers/photos';
import { itemAt, mustFind } from '../../helpers/guards.ts';

/**
 * Issue 30: mails read on a phone. A newsletter with a cover photo (a 1200-px picture) used to be
 * drawn 1,410 px wide in a phone's mail program. Every kind of mail the site has sent by now in
 * this run (bookings, orders, login links, class sign-ups, newsletters…), and such a newsletter,
 * is drawn in a 390-px-wide window: nothing wider than the screen, no picture wider than it.
 */
test.use({ viewport: { width: 390, height: 844 }, extraHTTPHeaders: visitorHeaders() });

test('every mail the site sends fits a 390-px phone, a newsletter with a cover photo included', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await loginAdmin(page);
  const upload = await page.request.post('/api/admin/images', {
    multipart: { file: { name: 'cover.jpg', mimeType: 'image/jpeg', buffer: await smallJpeg(1600, 1000) } },
  });
  expect(upload.status()).toBe(201);
  const { url } = (await upload.json()) as { url: string };
  const subject = `Winter cacao ${Date.now().toString(36)}`;
  const made = await page.request.post('/api/admin/newsletters', {
    data: { subject, body: `![Cacao pods on a table](${baseURL}${url}/og.jpg)\n\nA long word: ${'cacao'.repeat(30)}\n\nSee ${baseURL}/blog/${'a'.repeat(80)}` },
  });
  expect(made.ok()).toBe(true);
  const { id } = (await made.json()) as { id: string };
  expect((await page.request.post(`/api/admin/newsletters/${id}/test`)).ok()).toBe(true);

  // Mails of other kinds, whatever ran before: a message through the contact form (the visitor's
  // copy and the teacher's), a registration (the link to verify).
  const stamp = Date.now().toString(36);
  expect(
    (
      await page.request.post('/api/contact', {
        data: {
          name: 'Mia Rossi',
          email: `mia-${stamp}@example.com`,
          message: `Sundays? https://example.com/${'x'.repeat(90)}`,
          recaptchaToken: 'dev:contact_form_submit',
        },
      })
    ).ok(),
  ).toBe(true);
  expect(
    (
      await page.request.post('/api/user/register', {
        data: { firstName: 'Vera', lastName: 'Link', email: `vera-${stamp}@example.com`, recaptchaToken: 'dev:register' },
      })
    ).ok(),
  ).toBe(true);
  const mails = (await (await page.request.get('/api/dev/mailbox')).json()) as MailboxEntry[];
  expect(mails.some((m) => m.subject.includes(subject))).toBe(true);
  // One of each kind (by subject's first words), the newest: the layout is per kind.
  const kinds = new Map<string, MailboxEntry>();
  for (const m of mails) {
    const kind = itemAt(m.subject.replace(/[0-9a-z]{6,}|\d+/gi, '#').split(/[:!]/), 0).trim();
    if (!kinds.has(kind)) kinds.set(kind, m);
  }
  expect(kinds.size).toBeGreaterThanOrEqual(4);
  for (const [kind, mail] of kinds) {
    await page.setContent(mail.html, { waitUntil: 'load' });
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      widest: Math.max(0, ...[...document.querySelectorAll('img, table, pre, a, p')].map((e) => Math.ceil(e.getBoundingClientRect().right))),
    }));
    expect(widths.page, `${kind}: the page`).toBeLessThanOrEqual(390);
    expect(widths.widest, `${kind}: its widest element`).toBeLessThanOrEqual(390);
  }
  // The cover itself was loaded and drawn across the column, not at its own 1200 px.
  await page.setContent(mustFind(mails, (m) => m.subject.includes(subject)).html, { waitUntil: 'load' });
  const cover = page.getByRole('img', { name: 'Cacao pods on a table' });
  await expect(cover).toBeVisible();
  const box = (await cover.boundingBox())!;
  expect(box.width).toBeGreaterThan(300);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
});
