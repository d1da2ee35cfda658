import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  closeAlert,
  drawSignature,
  expectAlert,
  heldResponse,
  loginAdmin,
  mailsTo,
  registerAndVerify,
  teacherToday,
  uniqueEmail,
  visitorHeaders,
} from '../helpers';
import { must } from '../../helpers/guards.ts';

/**
 * Issue 15 (class places): giving a place back by the mail's link and from the dashboard,
 * joining a full class's waitlist and being promoted, forms busy from the first click and
 * focused on the first field in error, class times with the zone abbreviation and the feed link.
 */

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
let classes = 0;

/** A class added by the admin; returns its title and date. */
async function addClass(page: Page, fields: { inDays?: number; time?: string; capacity?: number } = {}) {
  await loginAdmin(page);
  const title = `Place Flow ${Date.now().toString(36)}${++classes}`;
  const date = teacherToday(fields.inDays ?? 4);
  const res = await page.request.post('/api/admin/events', {
    data: {
      title,
      date,
      time: fields.time ?? '18:00',
      location: 'Studio One',
      signUpLink: '',
      isExternal: false,
      repeat: 'none',
      capacity: fields.capacity ?? 12,
    },
  });
  expect(res.status()).toBe(201);
  // Leave the admin's page before its cookie goes: a 401 there would navigate on its own and cut
  // the caller's next navigation short.
  await page.goto('about:blank');
  await page.context().clearCookies();
  return { title, date };
}

async function signUpByApi(request: APIRequestContext, cls: { title: string; date: string }, email: string) {
  const res = await request.post('/api/signup', {
    headers: visitorHeaders(),
    data: {
      name: 'Seat Holder',
      email,
      phone: '503-555-0100',
      classTitle: cls.title,
      date: cls.date,
      waiver: true,
      signature: PNG,
      recaptchaToken: 'dev:signup_form_submit',
    },
  });
  expect(res.status()).toBe(201);
}

const taken = async (request: APIRequestContext, cls: { title: string; date: string }) =>
  ((await (await request.get(`/api/class-status?classTitle=${encodeURIComponent(cls.title)}&date=${cls.date}`)).json()) as { taken: number }).taken;

/** The path of the link in the newest mail to `email` with this subject start. */
async function linkIn(request: APIRequestContext, email: string, subject: string, contains: string) {
  await expect.poll(async () => (await mailsTo(request, email)).some((m) => m.subject.startsWith(subject))).toBe(true);
  const mail = (await mailsTo(request, email)).find((m) => m.subject.startsWith(subject))!;
  const url = new URL(mail.links.find((l) => l.includes(contains))!);
  return url.pathname + url.search;
}

test.describe('class places', () => {
  test('a student gives a place back by the link in the confirmation: the page asks first', async ({ page }) => {
    const cls = await addClass(page);
    const email = uniqueEmail('giveback');
    await signUpByApi(page.request, cls, email);
    const path = await linkIn(page.request, email, "You're signed up", '/class-cancel?token=');

    await page.goto(path);
    await expect(page.getByText(cls.title)).toBeVisible();
    await expect(page.getByText(/6:00 PM P[SD]T/)).toBeVisible();
    // Opening the link changed nothing.
    expect(await taken(page.request, cls)).toBe(1);
    await page.getByRole('button', { name: 'Give my place back' }).click();
    await expect(page.getByRole('status')).toHaveText('Your place is given back. Thank you for letting me know!');
    await expect(page.getByRole('button', { name: 'Give my place back' })).toBeHidden();
    expect(await taken(page.request, cls)).toBe(0);

    // The link again: it says so, nothing to do.
    await page.goto(path);
    await expect(page.getByRole('status')).toHaveText('This place has been given back already: nothing more to do.');
    // A forged link is refused.
    await page.goto(path.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')));
    await expect(page.getByRole('status')).toHaveText('This link is not valid. Please use the link from your e-mail as it is.');
  });

  test('a client gives a class place back from the dashboard', async ({ browser, page: adminPage }) => {
    const cls = await addClass(adminPage);
    const context = await browser.newContext({ extraHTTPHeaders: visitorHeaders() });
    const page = await context.newPage();
    const email = uniqueEmail('dash');
    await registerAndVerify(page, 'Dee', 'Ash', email);
    await signUpByApi(page.request, cls, email);
    await page.reload();

    const places = page.getByRole('region', { name: 'My Classes' }).or(page.locator('section[aria-labelledby="class-places-heading"]'));
    const item = places.locator('[data-class-place]').filter({ hasText: cls.title });
    await expect(item).toContainText(/6:00 PM P[SD]T/);
    await item.getByRole('button', { name: /Give back/ }).click();
    const confirm = await expectAlert(page, 'Give this place back?');
    await confirm.getByRole('button', { name: 'Yes, give it back' }).click();
    await expectAlert(page, 'Place given back', 'Your place is given back.');
    await closeAlert(page, 'Place given back');
    await expect(item).toHaveCount(0);
    expect(await taken(page.request, cls)).toBe(0);
    await context.close();
  });

  test('a full class offers its waitlist on the calendar; the student joins and is promoted when a place frees', async ({ page }) => {
    const cls = await addClass(page, { capacity: 1, inDays: 1 });
    const seated = uniqueEmail('seated');
    await signUpByApi(page.request, cls, seated);

    await page.goto('/calendar');
    await expect(page.locator(`.calendar-day.today[data-date="${teacherToday(0)}"]`)).toHaveCount(1);
    if (!(await page.locator(`.calendar-day[data-date="${cls.date}"]:not(.outside)`).count())) await page.getByRole('button', { name: 'Next month' }).click();
    await page.locator(`.calendar-day[data-date="${cls.date}"]`).first().click();
    const event = page.locator('.event').filter({ hasText: cls.title });
    await expect(event.getByRole('button', { name: 'Class Full' })).toBeDisabled();
    await event.getByRole('link', { name: /Join the waitlist/ }).click();

    await page.waitForURL(/\/signup\?.*waitlist=1/);
    await expect(page.getByText('This class is full: this form puts you on its waitlist.')).toBeVisible();
    const email = uniqueEmail('waiter');
    await page.getByLabel('Full name', { exact: true }).fill('Wren Wait');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Phone', { exact: true }).fill('503-555-0124');
    await page.getByLabel('I have read and accept the liability waiver.').check();
    await drawSignature(page);
    await page.getByRole('button', { name: 'Join the waitlist' }).click();
    await expectAlert(page, "You're on the waitlist", 'You are number 1 in line.');

    // The admin's Classes page shows the line; deleting the seated student's sign-up frees the place.
    await closeAlert(page, "You're on the waitlist");
    // The form takes the student back to the calendar: that navigation ends before ours begins.
    await page.waitForURL('**/calendar');
    await loginAdmin(page);
    await page.goto('/admin/signups');
    const waiting = page.locator('tr[data-waitlist-row]').filter({ hasText: email });
    await expect(waiting).toContainText(cls.title);
    await expect(waiting).toContainText('Wren Wait');
    await expect(waiting.locator('td').nth(3)).toHaveText('1');
    await page
      .locator('tr[data-signup-row]')
      .filter({ hasText: seated })
      .getByRole('button', { name: /Delete/ })
      .click();
    await page.getByRole('dialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Yes, delete it!' }).click();
    await expect(waiting).toHaveCount(0);
    await expect(page.locator('tr[data-signup-row]').filter({ hasText: email })).toHaveCount(1);

    const [youreIn] = (await mailsTo(page.request, email, 2)).filter((m) => m.subject.startsWith("You're in: "));
    expect(youreIn).toBeDefined();
    expect(must(youreIn, 'youreIn').attachments.map((a) => a.filename)).toContain('class.ics');
    expect(await taken(page.request, cls)).toBe(1);
  });

  test('a double click on a form sends it once, busy from the first click', async ({ page }) => {
    // The human check takes a moment (its config is slow: held here until the busy button is
    // seen): the old form stayed enabled meanwhile.
    const hold = heldResponse();
    await page.route('**/api/config/public', async (route) => {
      await hold.until;
      await route.continue();
    });
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/contact')) posts.push(r.url());
    });
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Contact form' });
    await form.getByLabel('Name').fill('Dub Click');
    await form.getByLabel('Email').fill(uniqueEmail('dbl'));
    await form.getByLabel('Message').fill('Just once, please.');
    const button = form.getByRole('button', { name: 'Send message' });
    await button.dblclick();
    await expect(form.getByRole('button', { name: 'Sending...' })).toBeDisabled();
    hold.release();
    await expectAlert(page, 'Message Sent!');
    expect(posts).toHaveLength(1);
  });

  test('a failed submit moves focus to the first field in error, in the browser and from the server', async ({ page }) => {
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Contact form' });
    await form.getByLabel('Message').fill('Hello');
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByLabel('Name')).toBeFocused();
    await form.getByLabel('Name').fill('Fo Cus');
    await form.getByLabel('Email').fill('not-an-address');
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByLabel('Email')).toBeFocused();

    await form.getByLabel('Email').fill('fo@example.com');
    await page.route('**/api/contact', (r) =>
      r.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'message: Please write a longer message', issues: [{ path: 'message', message: 'Please write a longer message' }] }),
      }),
    );
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByLabel('Message')).toBeFocused();
    await expect(form.getByText('Please write a longer message')).toBeVisible();

    // The class sign-up form too: the first field in error, in the form's order.
    await page.goto('/signup?title=X&date=2030-01-01&location=Y');
    // Drawn strokes count once the island is live (its button is enabled then).
    await expect(page.getByRole('button', { name: 'Sign Up' })).toBeEnabled();
    await page.getByLabel('Phone', { exact: true }).fill('503-555-0100');
    await drawSignature(page);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByLabel('Full name', { exact: true })).toBeFocused();

    // The returning student's one field: after the spec's dialog, the focus is on it.
    await page.goto('/signup-selection?title=X&date=2030-01-01&location=Y');
    await expect(page.getByRole('button', { name: 'Sign Up' })).toBeEnabled();
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await closeAlert(page, 'Email Required');
    await expect(page.getByLabel('Email', { exact: true })).toBeFocused();
  });

  test('/calendar shows class times with the zone abbreviation and links the class feed', async ({ page }) => {
    const cls = await addClass(page, { inDays: 1, time: '18:00' });
    await page.goto('/calendar');
    await expect(page.locator(`.calendar-day.today[data-date="${teacherToday(0)}"]`)).toHaveCount(1);
    if (!(await page.locator(`.calendar-day[data-date="${cls.date}"]:not(.outside)`).count())) await page.getByRole('button', { name: 'Next month' }).click();
    await page.locator(`.calendar-day[data-date="${cls.date}"]`).first().click();
    await expect(page.locator('.event').filter({ hasText: cls.title }).locator('.meta')).toHaveText(/^6:00 PM P[SD]T · Studio One$/);
    const feed = page.getByRole('link', { name: 'Subscribe to the class calendar' });
    await expect(feed).toHaveAttribute('href', '/calendar.ics');
    const res = await page.request.get('/calendar.ics');
    expect(res.headers()['content-type']).toMatch(/^text\/calendar/);
    expect(await res.text()).toContain(`SUMMARY:${cls.title}`);
  });
});
