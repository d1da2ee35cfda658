import { test as base, expect, type APIRequest, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import type { MailboxEntry } from '../../api/services/mail/mailbox.ts';
import { itemAt } from '../helpers/guards.ts';

/** The e2e server (playwright.config.ts), for request contexts and browser contexts made by hand. */
export const BASE_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4399)}`;

/** A mail as GET /api/dev/mailbox answers it: the mailbox stand-in's own type. */
export type { MailboxEntry };

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

/**
 * Records the title and text of every message dialog the page opens, across navigations. For a
 * message that shows while the page goes on by itself ('Login Successful' stays half a second):
 * on a loaded machine a poll can miss a dialog that was drawn, the page's own report cannot.
 * Call before the navigation that shows it.
 */
export async function recordAlerts(page: Page): Promise<{ title: string; text: string }[]> {
  const seen: { title: string; text: string }[] = [];
  await page.exposeFunction('__alertShown', (title: string, text: string) => void seen.push({ title, text }));
  await page.addInitScript(() => {
    const report = (window as unknown as { __alertShown: (title: string, text: string) => void }).__alertShown;
    new MutationObserver((changes) => {
      for (const change of changes)
        for (const node of change.addedNodes)
          if (node instanceof HTMLDialogElement && node.classList.contains('alert'))
            report(node.querySelector('#alert-title')?.textContent ?? '', node.querySelector('#alert-text')?.textContent ?? '');
    }).observe(document, { childList: true, subtree: true });
  });
  return seen;
}

export async function closeAlert(page: Page, title: string) {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByRole('button').last().click();
  await expect(dialog).toBeHidden();
}

/**
 * The seeded admin's login through the API (the request's cookie session), which must succeed;
 * answers her profile. Each login comes from an address of its own (visitorHeaders): some forty
 * specs log her in within one run, past the admin login's per-address allowance (30 in 15
 * minutes) were they all 127.0.0.1's; the limit itself is tested in the API suite.
 */
export async function postAdminLogin(request: APIRequestContext, origin = ''): Promise<unknown> {
  const res = await request.post(`${origin}/api/admin/login`, {
    data: { email: 'admin@example.com', password: 'namaste-cacao-42', recaptchaToken: 'dev:admin_login' },
    headers: visitorHeaders(),
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { admin: unknown }).admin;
}

/** Logs the page's browser context in as the seeded admin (cookie session). */
export async function loginAdmin(page: Page) {
  await postAdminLogin(page.request);
}

/** Logs in as the seeded admin on /admin's form, as she does, and lands on the dashboard. */
export async function logInOnTheForm(page: Page, origin = '') {
  await page.goto(`${origin}/admin`);
  await page.getByLabel('Email').fill('admin@example.com');
  await page.getByLabel('Password').fill('namaste-cacao-42');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL('**/admin/dashboard');
}

type StorageState = Awaited<ReturnType<APIRequestContext['storageState']>>;

/**
 * Tests that start signed in as the admin. She logs in once per worker (the login is rate
 * limited), from her own address (else every spec's logins count together); every test starts
 * from that cookie session and the stored profile, which the shell paints at once while it
 * verifies the cookie in the background.
 */
export const adminTest = base.extend<object, { adminState: StorageState }>({
  adminState: [
    async ({ playwright }, use) => {
      const ctx = await playwright.request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: visitorHeaders() });
      const admin = await postAdminLogin(ctx);
      const state = await ctx.storageState();
      await ctx.dispose();
      await use({ cookies: state.cookies, origins: [{ origin: BASE_URL, localStorage: [{ name: 'admin', value: JSON.stringify(admin) }] }] });
    },
    { scope: 'worker' },
  ],
  storageState: async ({ adminState }, use) => use(adminState),
});

/** Nothing wider than the phone's screen (390 px), every control at least 24×24 CSS px, and axe finds nothing. */
export async function fitsThePhone(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const small = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main button, main input, main select, main textarea, main summary, main a')]
      .filter((el) => el.offsetParent !== null && !el.closest('.sr-only') && getComputedStyle(el).visibility !== 'hidden')
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      // A link inside a sentence may be smaller (WCAG 2.5.8's inline exception).
      .filter(({ el, box }) => (box.width < 24 || box.height < 24) && !(el.tagName === 'A' && getComputedStyle(el).display === 'inline'))
      .map(
        ({ el, box }) =>
          `${el.tagName} "${el.textContent?.trim() || el.getAttribute('aria-label') || el.id}" ${Math.round(box.width)}×${Math.round(box.height)}`,
      ),
  );
  expect(small).toEqual([]);
  await axeClean(page);
}

/** Axe finds nothing on the page as it is now. */
export async function axeClean(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
}

/** Today in the teacher's zone (the e2e server runs with the default America/Los_Angeles). */
export function teacherToday(offsetDays = 0): string {
  const d = new Date(Date.now() + offsetDays * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles', year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
}

/** The teacher's date and time (America/Los_Angeles, as the e2e server runs) `ms` from now. */
export function teacherClock(ms: number): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: 'America/Los_Angeles',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(Date.now() + ms))
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/** Minutes since her midnight of an instant on her day `date`; -1 before that day, 1440+ after it. */
function herMinutes(iso: string, date: string): number {
  const { date: day, time } = teacherClock(Date.parse(iso) - Date.now());
  const minutes = Number(time.slice(0, 2)) * 60 + Number(time.slice(3));
  return day === date ? minutes : day < date ? -1 : 1440 + minutes;
}

/**
 * A time (HH:mm) at which a new hour-long slot is clear on each of her days `dates`: an hour and
 * more from everything her agenda holds those days (issue 35: a slot overlapping a class, a gig, a
 * booked session or a busy time is not offered), never on the hour or half hour (the seed's
 * slots), at a minute that varies between runs. `request` carries her session.
 */
export async function clearSlotTime(request: APIRequestContext, dates: string[], earliest = 5 * 60): Promise<string> {
  const time = await findClearTime(request, dates, earliest);
  if (time) return time;
  throw new Error(`no clear hour on ${dates.join(', ')}`);
}

/**
 * A day of `days` (tried in their order) with a clear hour (clearSlotTime) and that hour: specs
 * share one server, so a day another spec has filled gives way to the next.
 */
export async function clearSlotOnSomeDay(request: APIRequestContext, days: string[], earliest = 5 * 60): Promise<{ date: string; time: string }> {
  for (const date of days) {
    const time = await findClearTime(request, [date], earliest);
    if (time) return { date, time };
  }
  throw new Error(`no clear hour on any of ${days.join(', ')}`);
}

async function findClearTime(request: APIRequestContext, dates: string[], earliest: number): Promise<string | undefined> {
  const taken: [number, number][] = [];
  for (const date of dates) {
    const res = await request.get(`/api/admin/agenda?from=${date}&to=${date}`);
    expect(res.status(), `her agenda of ${date}`).toBe(200);
    for (const item of (await res.json()) as { start: string; end: string }[]) taken.push([herMinutes(item.start, date), herMinutes(item.end, date)]);
  }
  // Every few minutes from a start that varies between runs: a gap is found wherever one is.
  const offset = 1 + (Math.floor(Date.now() / 1000) % 28);
  for (let m = earliest + offset; m < 22 * 60; m += 7) {
    if (m % 30 === 0) continue;
    if (taken.every(([start, end]) => m + 60 + 60 <= start || m >= end + 60))
      return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  }
  return undefined;
}

/** The PayPal emulator's SDK script (api/services/payments/emulator.ts), whatever its query. */
const isPayPalSdk = (url: URL) => url.pathname === '/dev/paypal/sdk/js';

/** The payment provider's script fails to load (the page's next attempt to load it). */
export async function failPayPalSdk(page: Page) {
  await page.unroute(isPayPalSdk);
  await page.route(isPayPalSdk, (route) => route.abort());
}

/**
 * The emulator's SDK, but Buttons().render() rejects after it has put its buttons into the
 * container, as a real render failure does (react-paypal-js ignores a rejection whose container
 * is empty: it takes that for buttons closed on purpose).
 */
export async function breakPayPalButtons(page: Page) {
  await page.unroute(isPayPalSdk);
  await page.route(isPayPalSdk, async (route) => {
    const sdk = await (await route.fetch()).text();
    const broken = `;(() => {
      const Buttons = window.paypal.Buttons;
      window.paypal.Buttons = (props) => {
        const buttons = Buttons(props);
        return { ...buttons, render: (container) => buttons.render(container).then(() => Promise.reject(new Error('render failed (test)'))) };
      };
    })();`;
    await route.fulfill({ status: 200, contentType: 'text/javascript; charset=utf-8', body: sdk + broken });
  });
}

/** The text of the open message dialog, exactly (expectAlert checks it contains a text). */
export async function expectAlertText(page: Page, title: string, text: string) {
  await expect((await expectAlert(page, title)).locator('#alert-text')).toHaveText(text);
}

/**
 * A visitor's own address. The e2e server runs as production does behind a balancer
 * (TRUST_PROXY=1), so rate limits key on the last X-Forwarded-For entry: each simulated client
 * gets its own, as real visitors have, instead of every test sharing 127.0.0.1's allowance.
 */
let visitors = 0;
export function visitorHeaders(): Record<string, string> {
  visitors += 1;
  return { 'x-forwarded-for': `198.51.${100 + (process.pid % 50)}.${visitors % 250}` };
}

/** The targets under 24 px on the page as it is drawn now, that no WCAG exception covers. */
export async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [tabindex="0"]';
    const visible = (e: Element) => {
      const r = e.getBoundingClientRect();
      const s = getComputedStyle(e);
      return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none' && !e.closest('[hidden], [aria-hidden="true"]');
    };
    const targets = [...document.querySelectorAll(selector)].filter(visible);
    const boxes = targets.map((e) => e.getBoundingClientRect());
    // A link in a line of text (WCAG's "inline" exception): its block holds other words too.
    const inline = (e: Element) => {
      if (e.tagName !== 'A') return false;
      const block = e.parentElement?.closest('p, li, dd, td, figcaption, label, span, small, h1, h2, h3, h4, h5, h6');
      return !!block && (block.textContent ?? '').replace(/\s+/g, ' ').trim().length > (e.textContent ?? '').replace(/\s+/g, ' ').trim().length + 2;
    };
    const out: string[] = [];
    targets.forEach((e, i) => {
      const r = boxes[i]!;
      if (r.width >= 24 && r.height >= 24) return;
      // A checkbox or radio inside its label: the label is the target.
      const label = e.closest('label');
      if (label && (e as HTMLInputElement).type && ['checkbox', 'radio'].includes((e as HTMLInputElement).type)) {
        const l = label.getBoundingClientRect();
        if (l.width >= 24 && l.height >= 24) return;
      }
      if (inline(e)) return;
      const name = (e.getAttribute('aria-label') || e.textContent || (e as HTMLInputElement).name || e.id || '').replace(/\s+/g, ' ').trim().slice(0, 40);
      out.push(`${e.tagName.toLowerCase()} “${name}” ${Math.round(r.width)}×${Math.round(r.height)}`);
    });
    return out;
  });
}

/** Registers on /register (with `book`, that session's radio chosen) and opens the mailed link. */
export async function registerAndOpenLink(page: Page, first: string, last: string, email: string, book?: string) {
  await page.goto('/register');
  if (book) await page.getByRole('radio', { name: book }).check();
  await page.getByLabel('First name').fill(first);
  await page.getByLabel('Last name').fill(last);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  const mail = itemAt(await mailsTo(page.request, email), 0);
  const link = new URL(mail.links.find((l) => l.includes('/verify-email?token='))!);
  await page.goto(link.pathname + link.search);
}

/** Registers on /register, opens the mailed link and lands signed in on /user/{id}. Returns the user's id. */
export async function registerAndVerify(page: Page, first: string, last: string, email: string): Promise<string> {
  await registerAndOpenLink(page, first, last, email);
  await closeAlert(page, 'Email Verified!');
  await page.waitForURL(/\/user\/[^/]+$/);
  return page.url().split('/user/')[1]!;
}

/**
 * Waiting for what the page shows, never for time or network silence (issue 31). Two animation
 * frames: whatever the last step changed has been laid out and painted (layout shifts and
 * intersection observers report by then).
 */
export const nextPaint = (page: Page) => page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));

/** Every island hydrated at load has been hydrated by React. */
export async function hydrated(page: Page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('astro-island[client="load"]')].every((island) => {
      const root = [...island.children].find((c) => c.tagName !== 'TEMPLATE' && c.tagName !== 'ASTRO-SLOT');
      return root ? Object.keys(root).some((k) => k.startsWith('__reactFiber')) : !island.hasAttribute('ssr');
    }),
  );
}

/** Scrolls the page from top to bottom a step at a time, each step painted, so what loads near the viewport starts. */
export async function scrollThrough(page: Page, step?: number) {
  await page.evaluate(async (by) => {
    const painted = () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
    for (let y = 0; y <= document.documentElement.scrollHeight; y += by ?? Math.max(200, window.innerHeight / 2)) {
      window.scrollTo(0, y);
      await painted();
    }
  }, step);
}

/**
 * A response held until the test has seen the page's in-between state (a busy button, "Submitting…"):
 * `await hold.until` in a route handler, `hold.release()` once seen.
 */
export function heldResponse() {
  let release: () => void = () => {};
  const until = new Promise<void>((done) => (release = done));
  return { until, release: () => release() };
}

/** The first free slot on the booking page (this month's, else next month's): picks its day and its time; returns its id. */
export async function pickFirstFreeSlot(page: Page): Promise<string> {
  await expect(page.locator('.calendar-day.has-events').first()).toBeVisible();
  let day = page.locator('.calendar-day.has-events:not([disabled])').first();
  if ((await day.count()) === 0) {
    await page.getByRole('button', { name: 'Next month' }).click();
    day = page.locator('.calendar-day.has-events:not([disabled])').first();
  }
  await day.click();
  const slot = page.locator('[data-slot]').first();
  await expect(slot).toHaveText(/\d{1,2}:\d{2} (AM|PM) [A-Z]{2,5}|GMT/);
  const id = (await slot.getAttribute('data-slot'))!;
  await slot.click();
  return id;
}

/** A client registered and verified through the API and the mailed link, in a context of their own; the page is on their dashboard. */
export async function newClient(browser: Browser, name: string) {
  const context = await browser.newContext({ extraHTTPHeaders: visitorHeaders() });
  const page = await context.newPage();
  const email = uniqueEmail(name);
  const id = await registerAndVerify(page, name, 'Tester', email);
  return { context, page, email, id };
}

/** Signs the form's signature pad (a wavy stroke across its canvas) and saves the signature. */
export async function drawSignature(page: Page, options: { autoSave?: boolean } = {}) {
  await page.locator('canvas').scrollIntoViewIfNeeded();
  const box = (await page.locator('canvas').boundingBox())!;
  // In fractions of the canvas as drawn (500 × 200 on a wide screen, narrower on a phone), so the stroke stays on it.
  const at = (x: number, y: number) => page.mouse.move(box.x + box.width * x, box.y + box.height * y);
  await at(0.06, 0.6);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await at(0.06 + i * 0.05, 0.6 - Math.sin(i) * 0.2);
  await page.mouse.up();
  // A pad that saves each stroke (the intake's, the roster's walk-in) has no Save button.
  if (!options.autoSave) await page.getByRole('button', { name: 'Save Signature' }).click();
  await expect(page.getByText('Signature saved.')).toBeVisible();
}

/** A gift card as the /gift-cards form takes it (issue 33): a preset ('$50') or any whole amount. */
export interface GiftCardFields {
  amount: `$${number}` | number;
  brand: string;
  buyer: { name: string; email: string };
  recipient: { name: string; email: string };
  message: string;
  day: string;
}

/** The /gift-cards form filled in, and on to its payment step. */
export async function fillGiftCard(form: Locator, card: GiftCardFields) {
  if (typeof card.amount === 'number') await form.getByLabel('Any whole amount from $10 to $500').fill(String(card.amount));
  else await form.getByRole('radio', { name: card.amount }).check();
  await form.getByRole('radio', { name: card.brand }).check();
  await form.getByLabel('Your name').fill(card.buyer.name);
  await form.getByLabel('Your email').fill(card.buyer.email);
  await form.getByLabel('Recipient’s name').fill(card.recipient.name);
  await form.getByLabel('Recipient’s email').fill(card.recipient.email);
  await form.getByLabel('Message (optional)').fill(card.message);
  await form.getByLabel('Delivery day').fill(card.day);
  await form.getByRole('button', { name: 'Continue to payment' }).click();
}

/**
 * A visitor's phone a day ahead of her most of the day: 390 × 844 in Kiritimati (UTC+14), with
 * the visitor's own forwarded address, so every date the page shows must come from her clock.
 */
export const visitorPhoneAhead = () => ({
  viewport: { width: 390, height: 844 },
  timezoneId: 'Pacific/Kiritimati',
  locale: 'en-US',
  extraHTTPHeaders: visitorHeaders(),
});

/** Fills the home page's free-meeting form (SPEC.md section 3's fields) as Ana Lima, by phone 503-555-0101. */
export async function fillMeetingRequest(form: Locator, email: string, sessionType = 'yoga therapy') {
  await form.getByLabel('Name').fill('Ana Lima');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Phone').fill('503-555-0101');
  await form.getByLabel('Session type').selectOption(sessionType);
}

/** The seeded intake form's required answers (issue 30), as a client types them on her phone. */
export async function answerIntake(page: Page, a: { health: string; injuries: string; hope: string; emergency: string }) {
  await page.getByLabel(/^Health conditions/).fill(a.health);
  await page.getByLabel(/^Injuries and surgeries/).fill(a.injuries);
  await page
    .getByRole('group', { name: /Are you pregnant/ })
    .getByLabel('No')
    .check();
  await page.getByLabel(/^What do you hope/).fill(a.hope);
  await page.getByLabel(/^Emergency contact/).fill(a.emergency);
}

/** A client registered and verified on a request context of her own (verify-email starts her session, which a booking needs). */
export async function verifiedClient(request: APIRequestContext, playwright: { request: APIRequest }, firstName: string, lastName: string) {
  const email = uniqueEmail(firstName.toLowerCase());
  const client = await playwright.request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: visitorHeaders() });
  const reg = await client.post('/api/user/register', { data: { firstName, lastName, email, recaptchaToken: 'dev:register' } });
  expect(reg.status()).toBe(200);
  const mail = itemAt(await mailsTo(request, email), 0);
  const link = mail.links.find((l) => l.includes('/verify-email?token='));
  expect(link).toBeTruthy();
  const token = new URL(link ?? '').searchParams.get('token');
  const verified = await client.post('/api/user/verify-email', { data: { token } });
  expect(verified.status()).toBe(200);
  const { userId } = await verified.json();
  return { client, email, userId: userId as string, firstName, lastName };
}

/** `c` books the free slot `slotId` for a yoga session with the booking coupon (no payment); the booking must go through. */
export async function bookWithCoupon(c: Awaited<ReturnType<typeof verifiedClient>>, slotId: string, message: string) {
  const book = await c.client.put(`/api/bookings/${slotId}/book`, {
    data: {
      userId: c.userId,
      firstName: c.firstName,
      lastName: c.lastName,
      email: c.email,
      sessionType: 'Individual Yoga Session (60 min)',
      message,
      couponCode: 'journey',
    },
  });
  expect(book.status(), await book.text()).toBe(200);
}
