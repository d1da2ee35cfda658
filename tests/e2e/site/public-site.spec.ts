import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { must } from '../../helpers/guards.ts';

/** The content pages of issue 3 and the headings SPEC.md section 2 lists for each. */
const pages: Record<string, string[]> = {
  '/': ["Hi, I'm Maya", 'Book a free 30-minute meeting', 'Sample class'],
  '/yoga': ['Offerings', 'My approach', 'My sessions are', 'Who I Work With', 'Group Class Descriptions', 'FAQ', 'Trainings', 'Ready to Begin'],
  '/about': ['What matters to me', 'Group Class Descriptions'],
  '/aboutwebsite': ['What it is built with', 'Planned features'],
  '/chocolates': ['The tins', 'The culture of cacao', 'Shipping and discounts', 'Tasting events', "How it's made", 'Kind words'],
  '/contact': ['Send a message'],
  '/gift-cards': ['Give a gift card', 'Check a card’s balance'],
};

/**
 * Stores a client profile as login would, once (a later logout must stick), and answers the
 * navbar's session check as a live session does: without one the header forgets the profile.
 */
async function loginAs(page: Page, user: object | null) {
  await page.route('**/api/user/validate-token', (r) => r.fulfill({ json: { isValid: true, user } }));
  await page.addInitScript((u) => {
    if (u && !sessionStorage.getItem('seeded')) {
      localStorage.setItem('user', JSON.stringify(u));
      sessionStorage.setItem('seeded', '1');
    }
  }, user);
}

for (const [path, headings] of Object.entries(pages)) {
  test(`${path} renders its sections with one h1, SEO tags and no serious accessibility problem`, async ({ page }) => {
    const res = await page.goto(path);
    expect(res?.status()).toBe(200);
    await expect(page.locator('h1')).toHaveCount(1);
    for (const h of headings) await expect(page.getByRole('heading', { level: 2, name: h, exact: true })).toBeVisible();
    await expect(page).toHaveTitle(/.{10,}/);
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toBeTruthy();
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toMatch(new RegExp(`${path === '/' ? '/$' : `${path}$`}`));
    expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toBeTruthy();
    expect(await page.locator('meta[property="og:image"]').getAttribute('content')).toMatch(/og-image\.png$/);
    for (const img of await page.locator('img').all()) expect(await img.getAttribute('alt'), (await img.getAttribute('src')) ?? '').not.toBeNull();
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
  });
}

test('the home page split banner leads to yoga on the left and chocolates on the right', async ({ page }) => {
  await page.goto('/');
  const yoga = page.locator('.split a').first();
  const choc = page.locator('.split a').last();
  await expect(yoga).toHaveAttribute('href', '/yoga');
  await expect(choc).toHaveAttribute('href', '/chocolates');
  const [a, b] = [await yoga.boundingBox(), await choc.boundingBox()];
  expect(must(a, 'a').x).toBeLessThan(must(b, 'b').x);
  expect(Math.abs(must(a, 'a').width - must(b, 'b').width)).toBeLessThan(2);
});

test('the yoga navigation bar: title, links, Register and Log in when logged out', async ({ page }) => {
  await page.goto('/yoga');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Maya Linden Yoga' })).toHaveAttribute('href', '/');
  const links: [string, string][] = [
    ['Home', '/'],
    ['Yoga', '/yoga'],
    ['Calendar', '/calendar'],
    ['Chocolates', '/chocolates'],
    ['Contact', '/contact'],
  ];
  for (const [name, href] of links) {
    await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  }
  await expect(nav.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
  await expect(nav.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  await expect(nav.getByRole('link', { name: 'Cart' })).toHaveCount(0);
});

test('the chocolates navigation bar: brand, Back to Yoga, and the cart count in parentheses', async ({ page }) => {
  await page.goto('/chocolates');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Linden Cacao Co.' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Back to Yoga' })).toHaveAttribute('href', '/yoga');
  await expect(nav.getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/contact');
  const cart = nav.locator('[data-cart-button]');
  await expect(cart).toHaveAttribute('href', '/cart');
  await expect(cart).toHaveText('Cart');
  await page.evaluate(() =>
    localStorage.setItem(
      'cart',
      JSON.stringify([
        { _id: 'a', name: 'Tin', price: 18, quantity: 2 },
        { _id: 'b', name: 'Bar', price: 12, quantity: 1 },
      ]),
    ),
  );
  await page.reload();
  await expect(cart).toHaveText('Cart (3)');

  // On a phone too, outside the ☰ menu (issue 20).
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(cart).toBeVisible();
  await expect(cart).toHaveText('Cart (3)');
  await expect(nav.getByRole('link', { name: 'Back to Yoga' })).toBeHidden();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('the profile badge shows initials and a menu that closes on an outside click and on Escape', async ({ page }) => {
  await loginAs(page, { id: 'u123', firstName: 'ana', lastName: 'Lima' });
  await page.goto('/yoga');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Register' })).toBeHidden();
  const badge = nav.getByRole('button', { name: /Account menu/ });
  await expect(badge).toHaveText(/AL$/);
  await badge.click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'My Bookings' })).toHaveAttribute('href', '/user/u123');
  await expect(menu.getByRole('menuitem', { name: 'New Booking' })).toHaveAttribute('href', '/user/u123/book');
  await expect(menu.getByRole('menuitem', { name: 'Account' })).toHaveAttribute('href', '/user/u123/account');
  await expect(menu.getByRole('menuitem', { name: 'Log Out' })).toBeVisible();
  await page.locator('h1').click();
  await expect(menu).toBeHidden();

  // Keyboard: open with Enter, move with the arrows, close with Escape back on the badge.
  await badge.focus();
  await page.keyboard.press('Enter');
  await expect(menu.getByRole('menuitem', { name: 'My Bookings' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'New Booking' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(badge).toBeFocused();
});

test('a stored profile without names shows "?" and, without an id, offers Log in and Register, not pages that bounce', async ({ page }) => {
  await loginAs(page, { email: 'x@example.com' });
  await page.goto('/');
  const badge = page.getByRole('button', { name: /Account menu/ });
  await expect(badge).toHaveText(/\?$/);
  await badge.click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: 'Log in' })).toHaveAttribute('href', '/login');
  await expect(menu.getByRole('menuitem', { name: 'Register' })).toHaveAttribute('href', '/register');
  for (const name of ['My Bookings', 'New Booking', 'Account']) await expect(menu.getByRole('menuitem', { name })).toHaveCount(0);
});

test('a stored profile whose session has ended: the header forgets it and offers Register and Log in (issue 20)', async ({ page }) => {
  // A profile left behind with no session cookie: the server's answer is 401.
  await page.addInitScript(() => localStorage.setItem('user', JSON.stringify({ id: 'gone', firstName: 'Ex', lastName: 'Client' })));
  await page.goto('/yoga');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Register' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Log in' })).toBeVisible();
  await expect(nav.getByRole('button', { name: /Account menu/ })).toBeHidden();
  await expect(page.getByText('My Bookings', { exact: true })).toBeHidden();
});

test('Log Out forgets the stored profile and shows Register again', async ({ page }) => {
  await loginAs(page, { id: 'u1', firstName: 'Bo', lastName: 'Kim' });
  await page.goto('/yoga');
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await page.waitForURL('/');
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
});

test('the footer has its links, the outside links and the newsletter form', async ({ page }) => {
  await page.goto('/about');
  const footer = page.getByRole('contentinfo');
  const nav = footer.getByRole('navigation', { name: 'Footer' });
  for (const href of ['/', '/about', '/calendar', '/contact', '/chocolates', '/gift-cards', '/aboutwebsite']) {
    await expect(nav.locator(`a[href="${href}"]`)).toHaveCount(1);
  }
  const outside = footer.getByRole('navigation', { name: 'Elsewhere' }).getByRole('link');
  await expect(outside).toHaveCount(3);
  for (const link of await outside.all()) {
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', /noopener/);
  }
  await expect(footer.getByLabel('Email address')).toHaveAttribute('type', 'email');
  await expect(footer.getByRole('button', { name: 'Subscribe' })).toBeVisible();
});

test('each offering has a View More dialog that traps focus, closes on Escape and returns focus', async ({ page }) => {
  await page.goto('/yoga');
  const cards = page.locator('#offerings article');
  await expect(cards).toHaveCount(3);
  for (const title of ['Individual & Group Yoga', 'Workshops', 'Yoga Therapy']) {
    const card = cards.filter({ has: page.getByRole('heading', { name: title, exact: true }) });
    await expect(card.getByRole('link', { name: /Book a Session/ })).toHaveAttribute('href', '/register');
    const opener = card.getByRole('button', { name: /View More/ });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: title });
    await expect(dialog).toBeVisible();
    // Tabbing never leaves the dialog while it is open.
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('dialog[open]'))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
  }
});

test('?section=classDescriptions scrolls to the class descriptions on /yoga and /about', async ({ page }) => {
  for (const path of ['/yoga', '/about']) {
    await page.goto(`${path}?section=classDescriptions`);
    await expect(page.locator('#classDescriptions')).toBeInViewport();
    await page.goto(path);
    await expect(page.locator('#classDescriptions')).not.toBeInViewport();
  }
});

test('slideshows show 4 slides, advance every 3000 ms, and pause on hover', async ({ page }) => {
  // Time stands still from before the page starts, so the 3000 ms interval has a known phase.
  const start = new Date('2026-12-01T10:00:00Z');
  await page.clock.install({ time: start });
  await page.clock.pauseAt(new Date(start.getTime() + 1000));
  await page.goto('/yoga');
  const show = page.locator('[data-slideshow]');
  await show.scrollIntoViewIfNeeded();
  await expect(show).toHaveAttribute('data-per-view', '4');
  await expect(show.locator('.slide:not([inert])')).toHaveCount(4);
  await expect(show).toHaveAttribute('data-index', '0');
  await page.clock.runFor(2900);
  await expect(show).toHaveAttribute('data-index', '0');
  await page.clock.runFor(200);
  await expect(show).toHaveAttribute('data-index', '1');
  await show.hover();
  await page.clock.runFor(6000);
  await expect(show).toHaveAttribute('data-index', '1');
  await page.mouse.move(0, 0);
  await page.clock.runFor(3000);
  await expect(show).toHaveAttribute('data-index', '2');
  await show.getByRole('button', { name: 'Pause' }).click();
  await page.mouse.move(0, 0);
  await page.clock.runFor(9000);
  await expect(show).toHaveAttribute('data-index', '2');
});

test('slideshows show 2 slides under 768 px', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/chocolates');
  const show = page.locator('[data-slideshow]');
  await expect(show).toHaveAttribute('data-per-view', '2');
  await expect(show.locator('.slide:not([inert])')).toHaveCount(2);
});

test('slideshows do not move on their own for visitors who prefer reduced motion', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.clock.install({ time: new Date('2026-12-01T10:00:00Z') });
  await page.clock.pauseAt(new Date('2026-12-01T10:00:01Z'));
  await page.goto('/yoga');
  const show = page.locator('[data-slideshow]');
  await expect(show).toHaveAttribute('data-autoplay', 'false');
  await page.clock.runFor(10_000);
  await expect(show).toHaveAttribute('data-index', '0');
  await show.getByRole('button', { name: 'Next slides' }).click();
  await expect(show).toHaveAttribute('data-index', '1');
});

test('videos load no player until asked', async ({ page }) => {
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto('/');
  await page.locator('#sample-class').scrollIntoViewIfNeeded();
  await expect(page.locator('#sample-class iframe')).toHaveCount(0);
  expect(requests.filter((u) => u.includes('youtube'))).toEqual([]);
  await page.getByRole('button', { name: /Play video/ }).click();
  await expect(page.locator('#sample-class iframe')).toHaveAttribute('src', /youtube-nocookie\.com\/embed\/.+autoplay=1/);
});

test('the layout holds from 320 px: no horizontal scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 700 });
  for (const path of Object.keys(pages)) {
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
});

test('the mobile menu opens from its button', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Calendar' })).toBeHidden();
  await nav.getByRole('button', { name: 'Menu' }).click();
  await expect(nav.getByRole('link', { name: 'Calendar' })).toBeVisible();
});

test('robots.txt, sitemap.xml, the 404 page and the error page', async ({ page, request }) => {
  expect(await (await request.get('/robots.txt')).text()).toContain('Sitemap:');
  const sitemap = await (await request.get('/sitemap.xml')).text();
  for (const p of ['/yoga', '/about', '/chocolates', '/contact', '/aboutwebsite', '/calendar']) expect(sitemap).toContain(`${p}</loc>`);
  const res = await page.goto('/definitely-not-here');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('link', { name: 'Home' }).last()).toBeVisible();
  // The page shown when an on-demand page fails carries the spec's generic heading.
  await page.goto('/500.html');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Unexpected Application Error!');
});
