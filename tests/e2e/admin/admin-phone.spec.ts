import { expect, type APIRequestContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { smallJpeg } from '../../helpers/photos';
import { ADMIN_NAV } from '../../../site/lib/nav.ts';
import type { TodayView } from '../../../contract/backoffice.ts';
import {
  adminTest as test,
  BASE_URL,
  closeAlert,
  expectAlert,
  hydrated,
  nextPaint,
  teacherToday,
  uniqueEmail,
  visitorHeaders,
  clearSlotOnSomeDay,
  bookWithCoupon,
  verifiedClient,
} from '../helpers';
import { TODAY_GROUPS } from '../../helpers/today';
import { itemAt, must } from '../../helpers/guards.ts';

/**
 * Issue 20, as the teacher holds it: every admin page at 390×844 with data in it fits the phone
 * (nothing wider than the screen, no container that scrolls sideways, every control at least
 * 24×24 CSS px, the navigation one bar of at most 80 px, axe clean), the same pages at 1280×800
 * have no inputs on top of each other, and the Today panel's counts are the rows of the lists
 * it links to. The data is seeded through the API first: orders, sessions, sign-ups, clients,
 * subscribers, a product with a photo, a gallery photo, a newsletter draft, an announcement.
 */

test.use({ timezoneId: 'America/Los_Angeles', locale: 'en-US' });

/** Every page of the admin's navigation, once (Events is a place on the dashboard). */
const PAGES = [...new Set(ADMIN_NAV.map((l) => l.href.replace(/#.*$/, '')))];

const LONG = 'Maximiliana Wolkenstein-Featherstonehaugh';
/** This run's mark on what it seeds, so a search finds only this run's rows. */
const STAMP = Date.now().toString(36);
/** What the seeding leaves on public pages, taken away after the spec (afterAll): other specs meet the site as seeded. */
const seeded = { products: [] as string[], events: [] as string[], galleryPhotos: [] as string[], gigs: [] as string[], locations: [] as string[] };
/** The clients seeded below: the search looks for them. */
const clients: { firstName: string; lastName: string; email: string }[] = [];

/** A paid order through the PayPal emulator, as a buyer would place it. */
async function placeOrder(admin: APIRequestContext, productId: string, buyer: { name: string; email: string }, pickup: boolean) {
  // Shipped orders name their state (issue 24's sales tax); the emulator's shipping address says the same.
  const cart = { cartItems: [{ _id: productId, quantity: 2 }], isLocalPickup: pickup, couponCode: null, ...(pickup ? {} : { shipToState: 'OR' }) };
  const { orderID } = await (await admin.post('/api/orders/paypal', { data: cart })).json();
  const [givenName, ...rest] = buyer.name.split(' ');
  const shipping = pickup
    ? undefined
    : {
        name: { full_name: buyer.name },
        address: {
          address_line_1: '1234 Long Meadowlark Boulevard, Apartment 5678',
          admin_area_2: 'Eugene',
          admin_area_1: 'OR',
          postal_code: '97401',
          country_code: 'US',
        },
      };
  const approved = await admin.post(`/dev/paypal/v2/checkout/orders/${orderID}/approve`, {
    data: { givenName, surname: rest.join(' '), email: buyer.email, shipping },
  });
  expect(approved.status()).toBe(200);
  const placed = await admin.post('/api/orders', { data: { ...cart, orderId: orderID, payerName: buyer.name, payerEmail: buyer.email } });
  expect(placed.status(), await placed.text()).toBe(201);
}

test.beforeAll(async ({ playwright, adminState }) => {
  test.setTimeout(120_000);
  const admin = await playwright.request.newContext({ baseURL: BASE_URL, storageState: adminState, extraHTTPHeaders: visitorHeaders() });
  const visitor = () => playwright.request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: visitorHeaders() });
  const stamp = STAMP;

  // A product with an uploaded photo (the list shows it through its srcset), and one without.
  const upload = await admin.post('/api/admin/images', {
    multipart: { file: { name: 'tin.jpg', mimeType: 'image/jpeg', buffer: await smallJpeg(1200, 900) } },
  });
  expect(upload.status()).toBe(201);
  const { url } = (await upload.json()) as { url: string };
  const made = await admin.post('/api/chocolates', {
    data: { name: `Phone Photo Tin ${stamp}`, image: url, price: 14.5, inventory: 40, description: 'Seeded for the phone walk.', details: '' },
  });
  expect(made.status()).toBe(201);
  const productId = ((await made.json()) as { product: { _id: string } }).product._id;
  const soldOut = await admin.post('/api/chocolates', { data: { name: `Extraordinarily Long Named Salted Caramel Tin ${stamp}`, price: 9, inventory: 0 } });
  expect(soldOut.status()).toBe(201);
  seeded.products.push(productId, ((await soldOut.json()) as { product: { _id: string } }).product._id);

  // Orders to ship and to hand over, one with a long name and address.
  await placeOrder(admin, productId, { name: `Ines ${LONG}${stamp}`, email: uniqueEmail('phone-buyer-with-a-rather-long-address') }, false);
  await placeOrder(admin, productId, { name: 'Bo Kim', email: uniqueEmail('phone-buyer') }, false);
  await placeOrder(admin, productId, { name: 'Ana Lima', email: uniqueEmail('phone-pickup') }, true);
  // Issue 30: a second pickup, made ready (the Today panel's pickups coming).
  await placeOrder(admin, productId, { name: 'Ines Ready', email: uniqueEmail('phone-ready') }, true);
  const ready = ((await (await admin.get('/api/admin/orders?status=paid')).json()) as { _id: string; isLocalPickup: boolean; payerName: string }[]).find(
    (o) => o.isLocalPickup && o.payerName === 'Ines Ready',
  )!;
  expect((await admin.put(`/api/admin/orders/${ready._id}/status`, { data: { status: 'ready_for_pickup' } })).status()).toBe(200);

  // Issue 30: a class she taught (yesterday, or today on the year's first day: the year's books stay as they were) and was not paid for.
  const location = await admin.post('/api/admin/locations', { data: { name: `Phone Studio ${stamp}`, roundTripMiles: 8 } });
  expect(location.status()).toBe(201);
  const locationId = ((await location.json()) as { _id: string })._id;
  seeded.locations.push(locationId);
  const taught = teacherToday(-1).slice(0, 4) === teacherToday().slice(0, 4) ? teacherToday(-1) : teacherToday();
  const gig = await admin.post('/api/admin/gigs', {
    data: { date: taught, time: '07:00', className: `Phone Flow Gig ${stamp}`, locationId, rateCents: 18000, frequency: 'perClass', paymentMethod: 'venmo' },
  });
  expect(gig.status(), await gig.text()).toBe(201);
  seeded.gigs.push(...((await gig.json()) as { ids: string[] }).ids);

  // Issue 30: a mail that did not leave: the address bounced, then a message from it.
  const bounced = uniqueEmail('phone-bounced');
  expect((await admin.post('/api/dev/mailbox/events', { data: { type: 'bounced', email: bounced } })).ok()).toBe(true);
  // Her contact form mails the visitor a copy: skipped now, the teacher's own copy still goes.
  const writing = await visitor();
  const wrote = await writing.post('/api/contact', {
    data: { name: 'Bo Unce', email: bounced, message: 'A question about classes.', recaptchaToken: 'dev:contact_form_submit' },
  });
  expect(wrote.ok(), await wrote.text()).toBe(true);
  await writing.dispose();

  // Subscribers.
  for (const name of ['phone-reader', 'phone-reader-with-an-unusually-long-mailbox-name']) {
    const v = await visitor();
    expect((await v.post('/api/subscribers/subscribe', { data: { email: uniqueEmail(name) } })).status()).toBe(201);
    await v.dispose();
  }

  // A class this week and two sign-ups for it.
  const classTitle = `Phone Flow ${stamp}`;
  const classDate = teacherToday(2);
  const event = await admin.post('/api/admin/events', {
    data: {
      title: classTitle,
      date: classDate,
      time: '18:30',
      location: 'Community Studio, 12 Alder St',
      signUpLink: '',
      isExternal: false,
      repeat: 'none',
      capacity: 8,
    },
  });
  expect(event.status()).toBe(201);
  seeded.events.push(...((await event.json()) as { events: { _id: string }[] }).events.map((e) => e._id));
  const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
  for (const who of ['Noor Haddad', LONG]) {
    const v = await visitor();
    const r = await v.post('/api/signup', {
      data: {
        name: who,
        email: uniqueEmail('phone-student'),
        phone: '503-555-0142',
        classTitle,
        date: classDate,
        waiver: true,
        signature: png,
        recaptchaToken: 'dev:signup_form_submit',
      },
    });
    expect(r.status(), await r.text()).toBe(201);
    await v.dispose();
  }

  // Two sessions this week, booked by two new clients with the coupon (individual yoga: the therapy's intake is required, issue 30).
  // Times clear of her agenda (a second seeding, a retried worker, finds the first run's sessions there and adds new slots).
  // Two different days of this week (Today's seven from today), the first that still have a clear hour.
  const first = await clearSlotOnSomeDay(
    admin,
    [1, 2, 3].map((d) => teacherToday(d)),
    9 * 60,
  );
  const second = await clearSlotOnSomeDay(
    admin,
    [3, 4, 5, 6].map((d) => teacherToday(d)).filter((d) => d !== first.date),
    16 * 60,
  );
  const added = await admin.post('/api/bookings', { data: { slots: [first, second] } });
  expect(added.status()).toBe(201);
  const { slots } = (await added.json()) as { slots: { _id: string }[] };
  expect(slots).toHaveLength(2);
  for (const [i, { _id: id }] of slots.entries()) {
    const c = await verifiedClient(
      admin,
      playwright,
      i === 0 ? 'Rosa' : 'Maximiliana',
      i === 0 ? `Lindqvist${stamp}` : `Wolkenstein-Featherstonehaugh${stamp}`,
    );
    await bookWithCoupon(c, id, 'Gentle on the knees, please.');
    clients.push({ firstName: c.firstName, lastName: c.lastName, email: c.email });
    await c.client.dispose();
  }

  // A gallery photo, a newsletter draft and an announcement, so those pages show their lists too.
  const photo = await admin.post('/api/admin/galleries/yoga/photos', {
    multipart: { alt: 'Mats in a row by the window', file: { name: 'mats.jpg', mimeType: 'image/jpeg', buffer: await smallJpeg(1000, 750, '#557766') } },
  });
  expect(photo.status()).toBe(201);
  seeded.galleryPhotos.push(((await photo.json()) as { photo: { _id: string } }).photo._id);
  expect(
    (await admin.post('/api/admin/newsletters', { data: { subject: `Solstice classes ${stamp}`, body: '## Solstice\n\nClasses on **December 21**.' } })).ok(),
  ).toBe(true);
  expect((await admin.put('/api/admin/announcement', { data: { message: 'Studio closed on Thanksgiving.', link: '' } })).ok()).toBe(true);
  // Issue 33: a gift card for next week with a long name, so her Gift cards page shows a card and its actions.
  const card = await admin.post('/api/admin/gift-cards', {
    data: {
      amountCents: 75_00,
      recipientName: `${LONG} ${stamp}`,
      recipientEmail: uniqueEmail('phone-gift-with-a-rather-long-address'),
      sendOn: teacherToday(7),
    },
  });
  expect(card.status(), await card.text()).toBe(201);
  await admin.dispose();
});

test.afterAll(async ({ playwright, adminState }) => {
  const admin = await playwright.request.newContext({ baseURL: BASE_URL, storageState: adminState, extraHTTPHeaders: visitorHeaders() });
  // The slideshow, the shop's grid, the calendar and the announcement bar are other specs' to check as seeded.
  for (const id of seeded.galleryPhotos) await admin.delete(`/api/admin/galleries/yoga/photos/${id}`);
  for (const id of seeded.products) await admin.delete(`/api/chocolates/${id}`);
  if (seeded.events.length > 0) await admin.delete('/api/events/bulk', { data: { eventIds: seeded.events } });
  // The gig and its place: the books spec reads the year as it seeds it.
  for (const id of seeded.gigs) await admin.delete(`/api/admin/gigs/${id}`);
  for (const id of seeded.locations) await admin.delete(`/api/admin/locations/${id}`);
  await admin.put('/api/admin/announcement', { data: { message: '' } });
  await admin.dispose();
});

/** The page has drawn its data: its islands alive, no "Loading…" left, painted. */
async function settled(page: Page) {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await hydrated(page);
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
  await nextPaint(page);
}

/** Opens what a page keeps closed, so its fields are measured too: the event form, the product editor and the add form. */
async function openForms(page: Page, path: string) {
  if (path === '/admin/dashboard') await page.getByRole('button', { name: 'New event' }).click();
  if (path === '/admin/chocolates') {
    await page.getByRole('button', { name: 'New product' }).click();
    await page.locator('li.product-card').first().getByRole('button', { name: /^Edit/ }).click();
  }
}

/** Elements wider than the screen or reaching past its edges, and containers that scroll sideways. */
function overflowing(page: Page) {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const found: string[] = [];
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    if (document.documentElement.scrollWidth > vw) found.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${vw}`);
    for (const el of document.body.querySelectorAll('*')) {
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      // Screen-reader-only text is clipped to a pixel on purpose.
      if (el.closest('.sr-only')) continue;
      // A field scrolls its own text: that is not the page scrolling.
      const own = ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
      if (!own && ['auto', 'scroll'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1) {
        found.push(`${describe(el)} scrolls sideways: ${el.scrollWidth} > ${el.clientWidth}`);
      }
      // Wholly off to the left (the skip link until focused) is a hiding place, not an overflow.
      if (box.right <= 0) continue;
      if (box.width > vw + 0.5 || box.right > vw + 0.5 || box.left < -0.5) {
        // Inside a box that clips it (a thumbnail's frame), the overflow never shows.
        let clipped = false;
        for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
          const ps = getComputedStyle(p);
          const pb = p.getBoundingClientRect();
          if (ps.overflowX !== 'visible' && pb.left >= -0.5 && pb.right <= vw + 0.5) {
            clipped = true;
            break;
          }
        }
        if (!clipped) found.push(`${describe(el)} spans ${Math.round(box.left)}..${Math.round(box.right)} of ${vw}`);
      }
    }
    return found;
  });
}

/** Visible buttons, fields, selects and checkboxes smaller than 24×24 CSS px (WCAG 2.2, 2.5.8). */
function tooSmall(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, input:not([type="hidden"]), select, textarea, summary, a.button')]
      .filter((el) => el.offsetParent !== null && !el.closest('.sr-only') && getComputedStyle(el).visibility !== 'hidden')
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width < 24 || box.height < 24)
      .map(
        ({ el, box }) =>
          `${el.tagName} ${el.getAttribute('type') ?? ''} "${el.textContent?.trim() || el.getAttribute('aria-label') || el.id}" ${Math.round(box.width)}×${Math.round(box.height)}`,
      ),
  );
}

/** Each admin page in turn, as a step: opened, settled, its forms open; then `check` on it. */
async function onEachPage(page: Page, check: (path: string) => Promise<void>) {
  for (const path of PAGES) {
    await test.step(path, async () => {
      await page.goto(path);
      await settled(page);
      await openForms(page, path);
      await check(path);
    });
  }
}

async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target).join(', ')}`);
}

test.describe('at 390×844', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('every admin page fits the phone: nothing sideways, controls ≥ 24 px, a one-bar navigation, axe clean', async ({ page }) => {
    test.setTimeout(180_000);
    expect(PAGES).toEqual(
      expect.arrayContaining([
        '/admin/dashboard',
        '/admin/bookings',
        '/admin/chocolates',
        '/admin/orders',
        '/admin/signups',
        '/admin/users',
        '/admin/subscribers',
        '/admin/packages',
        '/admin/gift-cards',
      ]),
    );
    await onEachPage(page, async (path) => {
      const nav = page.getByRole('navigation', { name: 'Admin' });
      const toggle = nav.getByRole('button', { name: 'Menu' });
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      const bar = must(await page.locator('.admin-header').boundingBox(), 'bar');
      expect.soft(bar.height, `${path}: navigation height`).toBeLessThanOrEqual(80);

      // Soft: one walk reports every page's problems.
      expect.soft(await overflowing(page), path).toEqual([]);
      expect.soft(await tooSmall(page), path).toEqual([]);
      expect.soft(await axeViolations(page), path).toEqual([]);
    });
  });

  test('the menu: grouped, opens from its button, Escape closes it and gives focus back', async ({ page }) => {
    await page.goto('/admin/orders');
    await settled(page);
    const nav = page.getByRole('navigation', { name: 'Admin' });
    const toggle = nav.getByRole('button', { name: 'Menu' });
    await expect(nav.getByRole('link', { name: 'Clients' })).toBeHidden();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    for (const group of ['Calendar', 'Shop', 'People', 'Words', 'Money']) await expect(nav.getByText(group, { exact: true })).toBeVisible();
    await expect(nav.getByRole('list', { name: 'People' }).getByRole('link', { name: 'Clients' })).toHaveAttribute('href', '/admin/users');
    // Focus starts on the page she is on.
    await expect(nav.getByRole('link', { name: 'Orders' })).toBeFocused();
    await expect(nav.getByRole('link', { name: 'Orders' })).toHaveAttribute('aria-current', 'page');
    expect(await overflowing(page)).toEqual([]);
    expect(await tooSmall(page)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toBeFocused();
    await expect(nav.getByRole('link', { name: 'Clients' })).toBeHidden();

    // A tap outside closes it too; a link in it goes to its page.
    await toggle.click();
    const menu = (await page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`).boundingBox())!;
    await page.mouse.click(195, Math.min(menu.y + menu.height + 40, 840));
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await nav.getByRole('link', { name: 'Clients' }).click();
    await page.waitForURL('**/admin/users');
    await expect(page.getByRole('heading', { level: 1, name: 'Clients' })).toBeVisible();
  });

  test('lists: cards with their column names, months, search; a product opens its own editor with its photo', async ({ page }) => {
    await page.goto('/admin/users');
    await settled(page);
    const rows = page.locator('tr[data-user-row]');
    const all = await rows.count();
    expect(all).toBeGreaterThanOrEqual(2);
    // A card says what each value is.
    await expect(rows.first().locator('td').nth(5)).toHaveAttribute('data-label', 'Email');
    await expect(page.locator('.month-row').first()).toHaveText(/^Joined in [A-Z][a-z]+ \d{4}$/);
    // Search by name, then by e-mail.
    const search = page.getByRole('searchbox', { name: 'Search clients by name or e-mail' });
    await search.fill(`wolkenstein-featherstonehaugh${STAMP}`);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Maximiliana');
    await search.fill(itemAt(clients, 0).email.toUpperCase());
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(itemAt(clients, 0).lastName);
    await search.fill('');
    await expect(rows).toHaveCount(all);

    // Orders by buyer or number.
    await page.goto('/admin/orders');
    await settled(page);
    const orders = page.locator('tr[data-order-row]');
    await page.getByRole('searchbox', { name: /Search orders/ }).fill(`featherstonehaugh${STAMP}`);
    await expect(orders).toHaveCount(1);
    const number = (await orders.first().getAttribute('data-order-number'))!;
    expect(number).toMatch(/^[0-9A-F]{8}$/);
    await page.getByRole('searchbox', { name: /Search orders/ }).fill(number.toLowerCase());
    await expect(orders).toHaveCount(1);
    // Its status is the card's one action, at its top.
    const status = orders.first().getByRole('combobox');
    await expect(status).toBeVisible();
    expect(must(await status.boundingBox(), 'status.boundingBox()').y).toBeLessThan(
      must(await orders.first().locator('td').first().boundingBox(), '….boundingBox(…)').y + 200,
    );

    // A slot's place: an online link, set on the slot, shown as a link.
    await page.goto('/admin/bookings');
    await settled(page);
    const slot = page
      .locator('section', { has: page.getByRole('heading', { name: 'Available Slots' }) })
      .locator('li[data-slot-row]')
      .first();
    await slot.getByRole('button', { name: /^Place/ }).click();
    const dialog = page.getByRole('dialog', { name: /^Place of the slot at/ });
    await dialog.getByLabel('Place').fill(`https://meet.example.com/maya-${STAMP}`);
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Save the place' }).click();
    await expectAlert(page, 'Place saved.');
    await closeAlert(page, 'Place saved.');
    await expect(slot.getByRole('link', { name: `https://meet.example.com/maya-${STAMP}` })).toHaveAttribute('target', '_blank');

    // Dates read as she says them.
    await page.goto('/admin/dashboard');
    await settled(page);
    await expect(page.locator('[data-event-row] .event-when').first()).toHaveText(/^[A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}(, \d{4})? · \d{1,2}:\d{2}\s(AM|PM)$/);

    // Products: lines with thumbnails; one editor at a time; an upload shows as the photo.
    await page.goto('/admin/chocolates');
    await settled(page);
    const cards = page.locator('li.product-card');
    const photoCard = cards.filter({ hasText: 'Phone Photo Tin' }).first();
    await expect(photoCard.locator('.product-thumb source[type="image/webp"]')).toHaveAttribute('srcset', /\/api\/images\/[\w-]+\/320\.webp 320w/);
    await expect(page.locator('form.product-editor')).toHaveCount(0);
    await photoCard.getByRole('button', { name: /^Edit/ }).click();
    await expect(page.locator('form.product-editor')).toHaveCount(1);
    await expect(photoCard.getByLabel('Image address')).toBeHidden();
    await expect(photoCard.locator('.product-preview img')).toHaveAttribute('src', /^\/api\/images\/[\w-]+$/);
    await cards.filter({ hasText: 'Salted Caramel' }).first().getByRole('button', { name: /^Edit/ }).click();
    await expect(page.locator('form.product-editor')).toHaveCount(1);
    await expect(photoCard.getByRole('button', { name: /^Edit/ })).toHaveAttribute('aria-expanded', 'false');
  });
});

test.describe('at 1280×800', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('no input lies over another on any admin page; the navigation is a side bar', async ({ page }) => {
    test.setTimeout(120_000);
    await onEachPage(page, async (path) => {
      const nav = page.getByRole('navigation', { name: 'Admin' });
      await expect(nav.getByRole('button', { name: 'Menu' })).toBeHidden();
      await expect(nav.getByRole('link', { name: 'Subscribers' })).toBeVisible();
      const overlaps = await page.evaluate(() => {
        const fields = [...document.querySelectorAll<HTMLElement>('input:not([type="hidden"]), select, textarea')]
          .filter((el) => el.offsetParent !== null && !el.closest('.sr-only'))
          .map((el) => ({ el, box: el.getBoundingClientRect() }))
          .filter(({ box }) => box.width > 0 && box.height > 0);
        const found: string[] = [];
        const name = (el: HTMLElement) => el.id || el.getAttribute('aria-label') || el.tagName;
        for (let i = 0; i < fields.length; i++) {
          for (let j = i + 1; j < fields.length; j++) {
            const a = fields[i]!.box;
            const b = fields[j]!.box;
            const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
            const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
            if (w > 1 && h > 1) found.push(`${name(fields[i]!.el)} × ${name(fields[j]!.el)}`);
          }
        }
        return found;
      });
      expect.soft(overlaps, path).toEqual([]);
    });
  });
});

test('the Today panel: each count is the number of rows of the list it links to', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const today = (await (await page.request.get('/api/admin/today')).json()) as TodayView;
  expect(today.ordersToDeliver.count).toBeGreaterThanOrEqual(3);
  expect(today.ordersToDeliver.toHandOver).toBeGreaterThanOrEqual(1);
  expect(today.sessionsThisWeek.count).toBeGreaterThanOrEqual(2);
  expect(today.nextClasses.count).toBeGreaterThanOrEqual(1);
  expect(today.newSignups.count).toBeGreaterThanOrEqual(2);
  expect(today.newClients.count).toBeGreaterThanOrEqual(2);

  // The panel shows them, each a link.
  await page.goto('/admin/dashboard');
  await settled(page);
  const panel = page.locator('[data-today]');
  for (const key of TODAY_GROUPS) {
    const group = panel.locator(`[data-today-group="${key}"]`);
    await expect(group).toHaveAttribute('data-count', String(today[key].count));
    // The same list and filter; a "since" is the moment of each request, so only its shape is compared.
    const sinceless = (href: string) => href.replace(/since=[^&#]+/, 'since=…');
    expect(sinceless((await group.getByRole('heading').getByRole('link').getAttribute('href'))!)).toBe(sinceless(today[key].href));
  }
  // The panel names the week's first sessions by their start (other specs' sessions may come first);
  // the seeded one is on the list it links to (below, once Show more has drawn every row).
  await expect(panel.locator('[data-today-group="sessionsThisWeek"]')).toContainText(itemAt(today.sessionsThisWeek.items, 0).clientName || 'A client');

  // Each list, opened by its link, has that many rows.
  const rowsOn: Record<(typeof TODAY_GROUPS)[number], string> = {
    ordersToDeliver: 'tr[data-order-row]',
    comingPickups: 'tr[data-order-row]',
    sessionsToday: 'tr[data-slot-row]',
    sessionsThisWeek: 'tr[data-slot-row]',
    nextClasses: '[data-event-row]',
    failedMails: 'tr[data-unsent-mail]',
    // The Gigs page's first list, the classes taught and not paid (issue 30): always all of them.
    unpaidGigs: '[aria-label="Unpaid classes table"] tr[data-gig]',
    newSignups: 'tr[data-signup-row]',
    newClients: 'tr[data-user-row]',
  };
  for (const key of TODAY_GROUPS) {
    await test.step(key, async () => {
      await page.goto('/admin/dashboard');
      await settled(page);
      // The panel's own count and link, followed as she would tap it.
      const group = panel.locator(`[data-today-group="${key}"]`);
      const count = Number(await group.getAttribute('data-count'));
      const href = (await group.getByRole('heading').getByRole('link').getAttribute('href'))!;
      await group.getByRole('heading').getByRole('link').click();
      await page.waitForURL((u) => `${u.pathname}${u.search}${u.hash}` === href);
      await settled(page);
      if (key === 'failedMails') {
        // One group (issue 29), counted in mails: the Mail page's mails that did not leave, and the
        // failed mails of the newsletters it lists below them. The whole list, not a narrowed one.
        await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
        // The newsletters come by their own request: polled until both lists are in.
        await expect
          .poll(async () => {
            const unsent = await page.locator(rowsOn[key]).count();
            const newsletters = await page
              .locator('tr[data-newsletter-failed]')
              .evaluateAll((rows) => rows.reduce((n, r) => n + Number(r.getAttribute('data-newsletter-failed') || 0), 0));
            return unsent + newsletters;
          })
          .toBe(count);
        return;
      }
      // A list longer than a page (issue 36) is all there once she has pressed Show more.
      const rows = page.locator(rowsOn[key]);
      const more = page.locator('.show-more-button');
      while ((await more.count()) > 0) {
        const drawn = await rows.count();
        await more.first().click();
        await expect.poll(() => rows.count()).toBeGreaterThan(drawn);
      }
      await expect(rows).toHaveCount(count);
      if (key === 'sessionsThisWeek') await expect(rows.filter({ hasText: 'Maximiliana' })).toHaveCount(1);
      if (key === 'unpaidGigs') return;
      // The list says it is narrowed, and leads to all of it.
      await expect(page.locator('[data-list-filter]')).toBeVisible();
    });
  }
});

/**
 * Issue 30, as she holds it: every item on Today opens its own row on its list, scrolled into
 * view below the bar, marked (aria-current) and focused, once the list has drawn; the month that
 * holds it is open; the page stays axe clean with every control at least 24 px, the Today panel's
 * links included.
 */
test.describe('Today leads to the thing, at 390×844', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('each kind of Today item opens its row in view', async ({ page }) => {
    test.setTimeout(180_000);
    const today = (await (await page.request.get('/api/admin/today')).json()) as TodayView;
    // Every kind has an item (sessions today only when the hour left one to book).
    for (const key of TODAY_GROUPS) if (key !== 'sessionsToday') expect(today[key].items.length, key).toBeGreaterThan(0);
    expect(today.comingPickups.ready).toBeGreaterThanOrEqual(1);
    expect(today.unpaidGigs.items.some((g) => g.rateCents === 18000 && g.className.startsWith('Phone Flow Gig'))).toBe(true);

    await page.goto('/admin/dashboard');
    await settled(page);
    const panel = page.locator('[data-today]');
    await expect(panel.locator('[data-today-group="unpaidGigs"]')).toContainText('$180.00');
    await expect(panel.locator('[data-today-group="comingPickups"]')).toContainText('ready');
    // Every link on the panel is a thumb's target: 24 px at least.
    const small = await panel.locator('a').evaluateAll((links) =>
      links
        .map((a) => ({ text: a.textContent?.trim().slice(0, 40), box: a.getBoundingClientRect() }))
        .filter(({ box }) => box.width > 0 && (box.width < 24 || box.height < 24))
        .map(({ text, box }) => `${text} ${Math.round(box.width)}×${Math.round(box.height)}`),
    );
    expect(small).toEqual([]);
    expect(await tooSmall(page)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);

    for (const key of TODAY_GROUPS) {
      if (today[key].items.length === 0) continue;
      await test.step(key, async () => {
        await page.goto('/admin/dashboard');
        await settled(page);
        // The first item of the group, tapped as she would.
        const item = panel.locator(`[data-today-group="${key}"] [data-today-item] a.today-item`).first();
        const href = (await item.getAttribute('href'))!;
        const focus = new URL(href, BASE_URL).searchParams.get('focus')!;
        expect(focus, key).toBeTruthy();
        await item.click();
        await page.waitForURL((u) => `${u.pathname}${u.search}` === href);
        // The row: drawn, in view below the bar, marked and focused.
        const row = page.locator(`[data-focus-id="${focus}"][aria-current="true"]`).first();
        await expect(row).toBeVisible();
        await expect(row).toBeInViewport();
        await expect(row).toBeFocused();
        const bar = (await page.locator('.admin-header').boundingBox())!;
        expect(must(await row.boundingBox(), 'row.boundingBox()').y, `${key}: below the bar`).toBeGreaterThanOrEqual(bar.y + bar.height - 1);
        await settled(page);
        await expect(row).toBeInViewport();
        // Its month, where the list folds by month, is open.
        const fold = row.locator('xpath=ancestor::details[1]');
        if ((await fold.count()) > 0) await expect(fold).toHaveAttribute('open', '');
        expect.soft(await tooSmall(page), href).toEqual([]);
        expect.soft(await axeViolations(page), href).toEqual([]);
      });
    }
  });

  test('the Gigs page and the sessions list open on this month, the others folded', async ({ page }) => {
    const month = teacherToday().slice(0, 7);
    for (const path of ['/admin/gigs', '/admin/bookings']) {
      await page.goto(path);
      await settled(page);
      const folds = page.locator('details.month-fold');
      expect(await folds.count(), path).toBeGreaterThan(0);
      // Open: this month (or, in a list without one, its nearest); each other month is one line, folded.
      const states = await folds.evaluateAll((ds) => ds.map((d) => ({ month: d.getAttribute('data-month'), open: (d as HTMLDetailsElement).open })));
      for (const s of states) if (s.month === month) expect(s.open, `${path} ${s.month}`).toBe(true);
      for (const list of await page.locator('.month-folds').all()) {
        const open = await list.locator(':scope > details[open]').count();
        expect(open, path).toBe(1);
      }
      // A folded month opens with a tap on its name.
      const first = states.findIndex((st) => !st.open);
      if (first >= 0) {
        const folded = folds.nth(first);
        await expect(folded.locator('tbody tr, li.item').first()).toBeHidden();
        await folded.locator('summary').click();
        await expect(folded).toHaveAttribute('open', '');
        await expect(folded.locator('tbody tr, li.item').first()).toBeVisible();
      }
      expect.soft(await tooSmall(page), path).toEqual([]);
      expect.soft(await axeViolations(page), path).toEqual([]);
    }
  });
});
