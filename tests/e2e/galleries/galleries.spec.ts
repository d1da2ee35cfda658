import { expect, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { adminTest, BASE_URL, nextPaint } from '../helpers';
import { must } from '../../helpers/guards.ts';

/**
 * Issue 14: the teacher's photos. A gallery change on the admin page reaches /yoga's slideshow
 * without a rebuild (and no slide image loads before the slideshow comes near), the product
 * grid uses srcset, and nothing shifts while photos load. Everything made here is deleted at
 * the end: the other specs expect the illustrations and the seeded products.
 */

const test = adminTest.extend<{ admin: APIRequestContext }>({
  admin: async ({ playwright, adminState }, use) => {
    const ctx = await playwright.request.newContext({ baseURL: BASE_URL, storageState: adminState, extraHTTPHeaders: { origin: BASE_URL } });
    await use(ctx);
    await ctx.dispose();
  },
});

/** A photo with some texture (a flat colour would compress to nothing), as a phone JPEG would be. */
async function photo(width: number, height: number, hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},60%,35%)"/><stop offset="1" stop-color="hsl(${hue + 40},70%,75%)"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 2}" cy="${height / 2}" r="${height / 4}" fill="hsl(${hue + 180},50%,50%)"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

async function emptyGallery(admin: APIRequestContext, gallery: 'yoga' | 'chocolates') {
  const { photos } = (await (await admin.get(`/api/admin/galleries/${gallery}`)).json()) as { photos: { _id: string }[] };
  for (const p of photos) expect((await admin.delete(`/api/admin/galleries/${gallery}/photos/${p._id}`)).status()).toBe(200);
}

/** Sums layout shifts (not caused by input) from the moment the page starts. */
async function watchLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number; __shifts: string[] };
    w.__cls = 0;
    w.__shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node?: Node }[] })[]) {
        if (e.hadRecentInput) continue;
        w.__cls += e.value;
        w.__shifts.push(`${e.value.toFixed(4)} ${(e.sources ?? []).map((s) => (s.node as Element | undefined)?.outerHTML?.slice(0, 80) ?? '?').join(' | ')}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}
const layoutShift = (page: Page) => page.evaluate(() => (window as unknown as { __cls: number; __shifts: string[] }).__shifts);

/** Waits until every image in `selector` has its bytes (or failed). */
const allLoaded = (page: Page, selector: string) =>
  expect
    .poll(() => page.locator(selector).evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0)))
    .toBe(true);

test.describe.configure({ mode: 'serial' });

test.afterAll(async ({ playwright, adminState }) => {
  const admin = await playwright.request.newContext({ baseURL: BASE_URL, storageState: adminState, extraHTTPHeaders: { origin: BASE_URL } });
  await emptyGallery(admin, 'yoga');
  await emptyGallery(admin, 'chocolates');
  await admin.dispose();
});

test("photos added on the admin page reach /yoga's slideshow in their order, with no rebuild and no early loading", async ({ page, admin }) => {
  await emptyGallery(admin, 'yoga');
  await page.goto('/admin/galleries');
  await expect(page.getByRole('link', { name: 'Galleries' })).toHaveAttribute('aria-current', 'page');
  const panel = page.locator('[data-gallery="yoga"]');
  await expect(panel.getByText('No photos yet')).toBeVisible();

  // Several at once, each with its alt text (required: the upload waits until all have one).
  const files = await Promise.all([photo(1600, 1200, 20), photo(1200, 1600, 140), photo(1600, 1000, 260)]);
  await panel.getByLabel('Choose photos').setInputFiles(files.map((buffer, i) => ({ name: `class-${i + 1}.jpg`, mimeType: 'image/jpeg', buffer })));
  await panel.getByLabel('Alt text for class-1.jpg').fill('Sun salutation at dawn');
  await panel.getByLabel('Alt text for class-3.jpg').fill('Mats rolled after class');
  await panel.getByRole('button', { name: 'Upload 3 photos' }).click();
  await expect(panel.getByText('Alt text is required')).toBeVisible();
  await panel.getByLabel('Alt text for class-2.jpg').fill('Hands at the heart');
  await panel.getByRole('button', { name: 'Upload 3 photos' }).click();
  await expect(panel.getByRole('status').last()).toHaveText('3 photos added.', { timeout: 20_000 });
  const rows = panel.locator('[data-gallery-photo]');
  await expect(rows).toHaveCount(3);

  // Reorder (the third goes first) and edit an alt text.
  await panel.getByRole('button', { name: 'Move up photo 3' }).click();
  await expect(rows.nth(1).getByLabel('Alt text of photo 2')).toHaveValue('Mats rolled after class');
  await panel.getByRole('button', { name: 'Move up photo 2' }).click();
  await expect(rows.nth(0).getByLabel('Alt text of photo 1')).toHaveValue('Mats rolled after class');
  await rows.nth(2).getByLabel('Alt text of photo 3').fill('Hands in anjali mudra');
  await rows.nth(2).getByRole('button', { name: 'Save alt text of photo 3' }).click();
  await expect(rows.nth(2).getByRole('status')).toHaveText('Saved.');

  // /yoga: nothing of the slideshow loads while it is far below; near it, the gallery shows.
  const requested: string[] = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/yoga');
  await page.waitForLoadState('load');
  expect(requested.filter((p) => p.startsWith('/api/images/') || p.startsWith('/api/galleries/') || /\/slide-\d+\.svg$/.test(p))).toEqual([]);
  const show = page.locator('[data-slideshow]');
  await show.scrollIntoViewIfNeeded();
  await expect(show).toHaveAttribute('data-slides', 'gallery');
  await expect(show.locator('.slide img')).toHaveCount(3);
  expect(await show.locator('.slide img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')))).toEqual([
    'Mats rolled after class',
    'Sun salutation at dawn',
    'Hands in anjali mudra',
  ]);
  await expect(show.locator('.slide source[type="image/avif"]').first()).toHaveAttribute('srcset', /\/api\/images\/[\w-]+\/320\.avif 320w/);
  await allLoaded(page, '[data-slideshow] .slide img');

  // Deleted on the admin page ('Are you sure?'), gone from the page.
  await page.goto('/admin/galleries');
  await panel.getByRole('button', { name: 'Delete photo 1' }).click();
  const dialog = page.getByRole('dialog', { name: 'Are you sure?' });
  await dialog.getByRole('button', { name: 'Yes, delete it!' }).click();
  await expect(rows).toHaveCount(2);
  await page.goto('/yoga');
  await show.scrollIntoViewIfNeeded();
  await expect(show.locator('.slide img')).toHaveCount(2);
  expect(await show.locator('.slide img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')))).toEqual([
    'Sun salutation at dawn',
    'Hands in anjali mudra',
  ]);
});

test('the product grid and its dialog use srcset and sizes with intrinsic sizes', async ({ page, admin }) => {
  const upload = await admin.post('/api/admin/images', {
    multipart: { file: { name: 'tin.jpg', mimeType: 'image/jpeg', buffer: await photo(2400, 1800, 30) } },
  });
  expect(upload.status()).toBe(201);
  const { url } = (await upload.json()) as { url: string };
  const name = `Photo Tin ${Date.now().toString(36)}`;
  const created = await admin.post('/api/chocolates', { data: { name, image: url, price: 12, inventory: 3 } });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { product: { _id: string } }).product._id;
  try {
    await watchLayoutShifts(page);
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/chocolates');
    await page.locator('#products').scrollIntoViewIfNeeded();
    const card = page.locator(`li[data-product="${name}"]`);
    const img = card.getByRole('img', { name });
    await expect(img).toHaveAttribute('src', url);
    await expect(img).toHaveAttribute('width', '2400');
    await expect(img).toHaveAttribute('height', '1800');
    await expect(card.locator('source[type="image/avif"]')).toHaveAttribute('srcset', new RegExp(`${url}/320\\.avif 320w`));
    await expect(card.locator('source[type="image/webp"]')).toHaveAttribute('sizes', /100vw/);
    await img.scrollIntoViewIfNeeded();
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.currentSrc)).toMatch(/\/api\/images\/[\w-]+\/\d+\.avif$/);
    // A phone picks a size near its width, never the 2400 px original.
    expect(
      Number(must((await img.evaluate((i: HTMLImageElement) => i.currentSrc)).match(/\/(\d+)\.avif$/), 'a match in img.evaluate(…)')[1]),
    ).toBeLessThanOrEqual(1280);

    // Once the grid is there (its own arrival is the island's business), its photos arriving shift nothing.
    await page.evaluate(() => ((window as unknown as { __shifts: string[] }).__shifts.length = 0));
    for (let y = 0; y < 8; y++) {
      await page.mouse.wheel(0, 600);
      await nextPaint(page);
    }
    await allLoaded(page, '.product-grid img');
    expect(await layoutShift(page)).toEqual([]);

    await card.getByRole('button', { name: /^Details/ }).click();
    const dialog = page.getByRole('dialog', { name });
    await expect(dialog.locator('source[type="image/webp"]')).toHaveAttribute('srcset', /640\.webp 640w/);
    await expect(dialog.getByRole('img', { name })).toHaveAttribute('loading', 'eager');
  } finally {
    expect((await admin.delete(`/api/chocolates/${id}`)).status()).toBe(200);
  }
});

test("no layout shift while the photos of /yoga's gallery load, from the first paint", async ({ page, admin }) => {
  await emptyGallery(admin, 'yoga');
  for (const [i, hue] of [10, 90, 170, 250, 330].entries()) {
    const form = { alt: `Studio photo ${i + 1}`, file: { name: `s${i}.jpg`, mimeType: 'image/jpeg', buffer: await photo(1600, 1200, hue) } };
    expect((await admin.post('/api/admin/galleries/yoga/photos', { multipart: form })).status()).toBe(201);
  }
  await watchLayoutShifts(page);
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/yoga');
  // Scroll through every section, as a visitor would.
  for (let y = 0; y < 12; y++) {
    await page.mouse.wheel(0, 700);
    await nextPaint(page);
  }
  const show = page.locator('[data-slideshow]');
  await show.scrollIntoViewIfNeeded();
  await expect(show).toHaveAttribute('data-slides', 'gallery');
  await allLoaded(page, '[data-slideshow] .slide:not([inert]) img');
  await nextPaint(page);
  expect(await layoutShift(page)).toEqual([]);
});

test('an empty gallery keeps the illustrations, loaded only once the slideshow comes near', async ({ page, admin }) => {
  await emptyGallery(admin, 'yoga');
  const requested: string[] = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));
  await page.goto('/yoga');
  await page.waitForLoadState('load');
  expect(requested.filter((p) => /\/slide-\d+\.svg$/.test(p))).toEqual([]);
  const show = page.locator('[data-slideshow]');
  await show.scrollIntoViewIfNeeded();
  await expect(show).toHaveAttribute('data-slides', 'illustrations');
  await expect(show.locator('.slide img').first()).toHaveAttribute('src', '/images/yoga/slide-1.svg');
  await allLoaded(page, '[data-slideshow] .slide:not([inert]) img');
});
