import { expect, test, type Browser } from '@playwright/test';
import { smallJpeg } from '../../helpers/photos';
import { axeClean, BASE_URL, fitsThePhone, logInOnTheForm, mailsTo, postAdminLogin, uniqueEmail, visitorHeaders } from '../helpers';
import { itemAt } from '../../helpers/guards.ts';

/**
 * Issue 22, as the teacher does it on her phone (390×844): in the admin's Journal she writes a
 * post, uploads its cover photo on the spot (alt text required), puts a second photo into the
 * text, saves the draft, previews the real page, publishes; the post is on /blog (its cover
 * through the pipeline's sizes), on its own page (date, reading time, the cover at its intrinsic
 * size, no JavaScript beyond every page's) and in the feed; she sends it as a newsletter and a
 * subscriber gets it once. Axe finds nothing on the editor, the journal or the post. The post is
 * deleted at the end, so the other specs meet the journal as they left it.
 */

const TITLE = 'Ten slow breaths before coffee';
const SLUG = 'ten-slow-breaths-before-coffee';

test.use({ viewport: { width: 390, height: 844 }, extraHTTPHeaders: visitorHeaders(), timezoneId: 'America/Los_Angeles', locale: 'en-US' });
test.describe.configure({ mode: 'serial' });

/** A visitor's page (no session), after the publish has reached it (within 5 s, issue 19). */
async function visitorPage(browser: Browser, path: string, text: string) {
  const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await expect
    .poll(
      async () => {
        const res = await page.goto(path);
        return res?.status() === 200 && (await page.content()).includes(text);
      },
      { timeout: 5_000, intervals: [250] },
    )
    .toBe(true);
  return { page, close: () => context.close() };
}

test.beforeAll(async ({ playwright }) => {
  // A rerun on the same database starts without the post this spec makes.
  const admin = await playwright.request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { ...visitorHeaders(), origin: BASE_URL } });
  await postAdminLogin(admin);
  const posts = (await (await admin.get(`/api/admin/posts?q=${encodeURIComponent(TITLE)}`)).json()) as { id: string; slug: string }[];
  for (const p of posts.filter((x) => x.slug === SLUG)) expect((await admin.delete(`/api/admin/posts/${p.id}`)).status()).toBe(200);
  await admin.dispose();
});

test('she writes a post with a cover photo from her phone, previews, publishes, and sends it as a newsletter', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const reader = uniqueEmail('journal-reader');
  expect((await page.request.post('/api/subscribers/subscribe', { data: { email: reader } })).status()).toBe(201);

  await logInOnTheForm(page);
  const adminNav = page.getByRole('navigation', { name: 'Admin' });
  // On a phone the sections are behind the Menu button (a tap before the page is ready does nothing: tap again).
  const menu = adminNav.getByRole('button', { name: 'Menu' });
  await expect(async () => {
    if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
    await expect(adminNav.getByRole('link', { name: 'Journal' })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
  await adminNav.getByRole('link', { name: 'Journal' }).click();
  await page.waitForURL('**/admin/journal');
  await expect(page.getByRole('heading', { level: 1, name: 'Journal' })).toBeVisible();
  await fitsThePhone(page);

  await page.getByRole('link', { name: 'New post' }).click();
  const form = page.getByRole('form', { name: 'New post' });
  await form.getByRole('textbox', { name: 'Title', exact: true }).fill(TITLE);
  // The address follows the title; each field's doc line is its help.
  await expect(form.getByRole('textbox', { name: 'Address (slug)' })).toHaveValue(SLUG);
  const body = form.getByRole('textbox', { name: 'Text (Markdown)' });
  await expect(body).toHaveAccessibleDescription(/Markdown/);
  await body.fill('Before the kettle, sit.\n\n## How\n\n- Breathe in for four\n- Out for six\n\n> Slow is a practice.');

  // The cover, uploaded on the spot: its alt text is asked for.
  await form
    .getByLabel(/^Upload a new photo for Cover photo/)
    .setInputFiles({ name: 'mat.jpg', mimeType: 'image/jpeg', buffer: await smallJpeg(1600, 1067, '#c9a27e') });
  const coverAlt = form.getByRole('textbox', { name: 'Cover photo alt text' });
  await expect(coverAlt).toBeFocused();
  const bar = page.getByRole('group', { name: 'Page actions' });
  await bar.getByRole('button', { name: 'Save draft' }).click();
  await expect(coverAlt).toHaveAttribute('aria-invalid', 'true');
  await coverAlt.fill('A rolled yoga mat beside a steaming cup on a wooden floor');

  // A photo in the text: the cover again, from her photos, where the cursor was.
  await body.press('End');
  await form.getByRole('button', { name: 'Insert a photo in the text' }).click();
  const insert = form.getByRole('group', { name: 'Insert a photo in the text' });
  await insert.getByRole('button', { name: /^Choose from your photos/ }).click();
  const chooser = page.getByRole('dialog', { name: 'Choose a photo' });
  await chooser.locator('.pf-chooser-photo').first().click();
  const inlineAlt = insert.getByRole('textbox', { name: 'Alt text' });
  await expect(inlineAlt).toBeFocused();
  await inlineAlt.fill('Steam rising from the cup');
  await insert.getByRole('button', { name: 'Insert the photo' }).click();
  await expect(body).toHaveValue(/!\[Steam rising from the cup\]\(\/api\/images\/[0-9a-f-]{36}\)/);

  await form.getByRole('textbox', { name: 'Excerpt' }).fill('Ten breaths, before the coffee: a morning practice that fits any kitchen.');
  await form.getByRole('button', { name: 'Add tag' }).click();
  await form.getByRole('textbox', { name: 'Tag 1' }).fill('breathwork');
  // The search-result preview follows what she types.
  await expect(form.locator('.seo-preview')).toContainText(TITLE);
  await expect(form.locator('.seo-preview')).toContainText(SLUG);
  await fitsThePhone(page);

  await bar.getByRole('button', { name: 'Save draft' }).click();
  await page.getByRole('dialog', { name: 'Draft saved' }).getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(/\?post=[0-9a-f-]{36}$/);
  const editor = page.getByRole('form', { name: TITLE });
  await expect(editor).toBeVisible();
  await expect(page.locator('[data-post-editor]')).toContainText(`/blog/${SLUG} (not public yet)`);
  expect((await page.request.get(`/blog/${SLUG}`)).status()).toBe(404);
  await fitsThePhone(page);

  // The preview is the real page with the draft.
  const popup = page.waitForEvent('popup');
  await bar.getByRole('button', { name: 'Preview' }).click();
  const preview = await popup;
  await preview.waitForURL('**/preview');
  await expect(preview.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
  await expect(preview.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  await preview.close();

  await bar.getByRole('button', { name: 'Publish' }).click();
  await expect(bar.getByRole('status')).toContainText(`Published as revision 1 at /blog/${SLUG}`);

  // On the journal: its card, the cover through the pipeline's sizes.
  const journal = await visitorPage(browser, '/blog', TITLE);
  const card = journal.page.locator('article.post-card', { hasText: TITLE });
  await expect(card.locator('source[type="image/webp"]')).toHaveAttribute('srcset', /\/api\/images\/[0-9a-f-]+\/320\.webp 320w/);
  await expect(card).toContainText('breathwork');
  await axeClean(journal.page);
  await journal.close();

  // Its own page: date in her zone, reading time, the cover at its intrinsic size, axe-clean.
  const post = await visitorPage(browser, `/blog/${SLUG}`, TITLE);
  const p = post.page;
  await expect(p.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
  const today = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', year: 'numeric', month: 'long', day: 'numeric' }).format(new Date());
  await expect(p.locator('.post-meta')).toContainText(today);
  await expect(p.locator('.post-meta')).toContainText('min read');
  const cover = p.locator('.post-cover img');
  await expect(cover).toHaveAttribute('alt', 'A rolled yoga mat beside a steaming cup on a wooden floor');
  await expect(cover).toHaveAttribute('width', '1600');
  await expect(cover).toHaveAttribute('height', '1067');
  await expect(p.locator('.post-body picture img')).toHaveAttribute('alt', 'Steam rising from the cup');
  await expect(p.locator('meta[property="og:type"]')).toHaveAttribute('content', 'article');
  await expect(p.locator('meta[property="og:image"]')).toHaveAttribute('content', /\/og\.jpg$/);
  expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await axeClean(p);
  await post.close();
  const feed = await (await page.request.get('/blog/feed.xml')).text();
  expect(feed).toContain(`<title>${TITLE}</title>`);

  // One step to a newsletter; it arrives once. Issue 48: it carries her postal address (CAN-SPAM), without which it is not sent.
  const postal = await page.request.put('/api/admin/settings/postal-address', { data: { address: 'PO Box 4120, Portland, OR 97208' } });
  expect(postal.status(), await postal.text()).toBe(200);
  await page.getByRole('button', { name: 'Send as newsletter' }).click();
  await page.getByRole('dialog', { name: 'Send this post to every subscriber?' }).getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('dialog', { name: 'On its way' })).toBeVisible();
  await page.getByRole('dialog', { name: 'On its way' }).getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('region', { name: 'Newsletter' })).toContainText('Sent to your subscribers on');
  // The subscriber had a welcome mail already: wait for the newsletter itself.
  const lettersTo = async () => (await mailsTo(page.request, reader)).filter((m) => m.subject === TITLE);
  await expect.poll(async () => (await lettersTo()).length, { timeout: 10_000 }).toBe(1);
  const letters = await lettersTo();
  expect(itemAt(letters, 0).headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  expect(itemAt(letters, 0).text).toContain('PO Box 4120, Portland, OR 97208');
  expect(itemAt(letters, 0).links.some((l) => l.endsWith(`/blog/${SLUG}`))).toBe(true);
  // Once its send has finished (every recipient sent, skipped or failed), still one.
  const finished = async () => {
    const list = (await (await page.request.get('/api/admin/newsletters')).json()) as {
      subject: string;
      status: string;
      total: number;
      sent: number;
      skipped: number;
      failed: number;
    }[];
    const letter = list.find((n) => n.subject === TITLE);
    return !!letter && letter.status === 'sent' && letter.sent + letter.skipped + letter.failed === letter.total;
  };
  await expect.poll(finished).toBe(true);
  expect(await lettersTo()).toHaveLength(1);

  // Deleted at the end (asks first): its address is the site's 404 again.
  await page.getByRole('button', { name: 'Delete post' }).click();
  await page.getByRole('dialog', { name: 'Delete this post?' }).getByRole('button', { name: 'Yes, delete it!' }).click();
  await page.getByRole('dialog', { name: 'Post deleted' }).getByRole('button', { name: 'OK' }).click();
  await expect.poll(async () => (await page.request.get(`/blog/${SLUG}`)).status(), { timeout: 5_000 }).toBe(404);
});
