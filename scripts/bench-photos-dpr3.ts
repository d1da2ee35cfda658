/**
 * `npm run bench:photos-dpr3` (also a step of `npm run bench`, BENCH_SKIP_PHOTOS_DPR3 to skip it):
 * issue 36's photo figure. Every public page that shows photos, read to the end on a DPR 3 phone
 * (412 × 915), with every photo one of her 12-MP camera photos of fine texture
 * (tests/helpers/camera.ts, `texture: 'fine'`: the kind that compresses worst), uploaded through
 * the admin API as she uploads them:
 *  - both slideshows (8 photos each), every product, every picture of the built-in pages (the
 *    offerings, the hero, the portrait, the video posters), a page of her own with three photos,
 *    and a journal of 12 posts, each with its cover, one of them with two photos in its text;
 *  - for each page: every byte transferred after a full scroll (and one slideshow turn), the
 *    photos' share, the sizes fetched, and the most device pixels fetched per CSS pixel shown;
 *  - the bytes of each size the pipeline makes of one textured and one smooth photo.
 * Goal: ≤ 600 KB on every page. Writes docs/bench/photos-dpr3.md; exits 1 on a miss.
 */
import { writeBenchReport, kb } from './lib/bench-report.ts';
import { serveBuiltSite } from './lib/bench-site.ts';
import { chromium } from '@playwright/test';
import { CHROMIUM, CHROMIUM_FLAGS } from './chromium.ts';
import { scrollToBottom, transferOf } from './lib/scroll-transfer.ts';
import { processImage } from '../api/images/process.ts';
import { cameraJpeg } from '../tests/helpers/camera.ts';

const GOAL_KB = 600;
const PHONE = { viewport: { width: 412, height: 915 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const PER_GALLERY = 8;
/** Distinct photos for products, pages and covers: no page shows the same one twice (the browser would fetch it once). */
const POOL = 10;
const POSTS = 12;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Every 12-MP photo is textured; every other one is held upright (a landscape photo), the rest sideways (portrait). */
const textured = (seed: number) => (seed % 2 ? cameraJpeg(seed, 3024, 4032, { texture: 'fine' }) : cameraJpeg(seed, 4032, 3024, { texture: 'fine' }));

interface PageFigure {
  path: string;
  bytes: number;
  images: number;
  fetched: string;
  worstDensity: number;
}

/** Each size of one photo, AVIF and WebP, whole and cut: the table of bytes per size. */
async function sizesOf(jpeg: Buffer): Promise<Map<string, number>> {
  const done = await processImage(jpeg);
  if ('refused' in done) throw new Error(done.message);
  return new Map(done.variants.map((v) => [`${v.crop ? 'cut' : 'whole'} ${v.format} ${v.width}`, v.bytes.length]));
}

async function main() {
  const { server, base, headers } = await serveBuiltSite();
  const problems: string[] = [];
  const lines: string[] = [];
  try {
    /** A call to the API with her session (paths under /api). */
    const admin = async <T>(method: string, path: string, json?: unknown): Promise<T> => {
      const res = await fetch(`${base}/api${path}`, {
        method,
        headers: { ...headers, 'content-type': 'application/json' },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    };
    const uploadTimes: number[] = [];
    let seed = 500;
    const upload = async (path: string, alt?: string) => {
      const form = new FormData();
      if (alt) form.append('alt', alt);
      form.append('file', new Blob([new Uint8Array(await textured(seed++))], { type: 'image/jpeg' }), 'photo.jpg');
      const started = performance.now();
      const res = await fetch(`${base}/api/admin${path}`, { method: 'POST', body: form, headers });
      uploadTimes.push(performance.now() - started);
      if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { url: string };
    };

    // --- her photos ----------------------------------------------------------------------
    console.log(`Uploading ${PER_GALLERY * 2 + POOL} textured 12-MP photos…`);
    for (const gallery of ['yoga', 'chocolates']) for (let i = 0; i < PER_GALLERY; i++) await upload(`/galleries/${gallery}/photos`, `${gallery} ${i + 1}`);
    const pool: string[] = [];
    for (let i = 0; i < POOL; i++) pool.push((await upload('/images')).url);
    const photo = (i: number) => pool[i % POOL]!;

    type Product = { _id: string; name: string; description: string; details: string; price: number; inventory: number; picture?: unknown };
    const products = (await (await fetch(`${base}/api/chocolates`)).json()) as Product[];
    for (const [i, p] of products.entries()) {
      const { name, description, details, price, inventory } = p;
      await admin('PUT', `/chocolates/${p._id}`, { name, description, details, price, inventory: Math.max(inventory, 10), image: photo(i) });
    }

    // Every picture of a built-in page (an illustration by default) becomes one of her photos,
    // counted from `from` so none repeats on its page (the products take the first ones).
    const republish = async (slug: string, from: number) => {
      const page = await admin<{ content: unknown; version: number }>('GET', `/admin/pages/${slug}`);
      let n = from;
      const swap = (v: unknown): unknown =>
        typeof v === 'string' && /^\/images\/.+\.svg$/.test(v)
          ? photo(n++)
          : Array.isArray(v)
            ? v.map(swap)
            : v && typeof v === 'object'
              ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x)]))
              : v;
      const saved = await admin<{ version: number }>('PUT', `/admin/pages/${slug}`, { content: swap(page.content), version: page.version });
      await admin('POST', `/admin/pages/${slug}/publish`, { version: saved.version });
    };
    await republish('home', 0);
    await republish('yoga', 0);
    await republish('about', 0);
    await republish('chocolates', products.length);
    const imageId = (url: string) => url.split('/').pop()!;
    await admin('POST', '/admin/pages', {
      slug: 'retreats',
      title: 'Retreats',
      description: 'Three days by the sea.',
      brand: 'yoga',
      sections: [0, 1, 2].map((i) => ({
        heading: `Day ${i + 1}`,
        markdown: 'Morning practice, a long walk, cacao at dusk.',
        imageId: imageId(photo(i)),
        imageAlt: `Day ${i + 1}`,
      })),
    });
    await admin('POST', '/admin/pages/retreats/publish', {});
    for (let i = 1; i <= POSTS; i++) {
      const body = ['Morning practice by the window.', ...(i === POSTS ? [`![The mat](${photo(i + 1)})`, 'Then cacao.', `![The cup](${photo(i + 2)})`] : [])];
      const { id } = await admin<{ id: string }>('POST', '/admin/posts', {
        title: `Notes from the mat, number ${i}`,
        slug: `notes-${i}`,
        body: body.join('\n\n'),
        brand: 'yoga',
        tags: ['mornings'],
        coverImageId: imageId(photo(i)),
        coverAlt: `Photo ${i}`,
      });
      await admin('POST', `/admin/posts/${id}/publish`, {});
    }
    // Published pages are made ahead by the server: wait until each names her photos.
    const pages = ['/', '/yoga', '/chocolates', '/about', '/retreats', '/blog', `/blog/notes-${POSTS}`];
    for (const p of pages) {
      const started = Date.now();
      while (!(await (await fetch(base + p)).text()).includes('/api/images/')) {
        if (Date.now() - started > 30_000) throw new Error(`${p} shows none of her photos`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    const cart = ((await (await fetch(`${base}/api/chocolates`)).json()) as Product[])
      .slice(0, 2)
      .map((p) => ({ _id: p._id, name: p.name, price: p.price, picture: p.picture, quantity: 1 }));

    // --- every page read to the end at DPR 3 ---------------------------------------------
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS.filter((f) => f !== '--headless=new') });
    const figures: PageFigure[] = [];
    try {
      for (const p of [...pages, '/cart']) {
        const context = await browser.newContext(PHONE);
        if (p === '/cart') await context.addInitScript((items) => localStorage.setItem('cart', JSON.stringify(items)), cart);
        const page = await context.newPage();
        const sizes: string[] = [];
        page.on('response', (r) => {
          const m = /\/api\/images\/[^/]+\/(?:(c[^/]+)\/)?(\d+)\.(avif|webp)$/.exec(new URL(r.url()).pathname);
          if (m) sizes.push(`${m[2]}${m[1] ? ' cut' : ''} ${m[3]}`);
        });
        const t = await transferOf(page, async () => {
          await page.goto(base + p, { waitUntil: 'networkidle' });
          await scrollToBottom(page);
          if (await page.locator('[data-slideshow]').count()) {
            await page.locator('[data-slideshow]').scrollIntoViewIfNeeded();
            // One turn: every slide shown once (two per view on a phone, one step every 3 s).
            await page.waitForTimeout(3000 * PER_GALLERY + 1000);
          }
          await page.waitForLoadState('networkidle');
        });
        // Device pixels fetched per CSS pixel shown, the worst photo of the page (3 would be all a DPR 3 screen can show).
        const worstDensity = await page.evaluate(() =>
          Math.max(
            0,
            ...[...document.querySelectorAll<HTMLImageElement>('picture img')]
              .filter((i) => i.complete && i.naturalWidth > 0 && i.getBoundingClientRect().width > 0 && /\/api\/images\//.test(i.currentSrc))
              .map((i) => Number(/\/(\d+)\.(?:avif|webp)$/.exec(i.currentSrc)?.[1] ?? i.naturalWidth) / i.getBoundingClientRect().width),
          ),
        );
        const counted = new Map<string, number>();
        for (const s of sizes) counted.set(s, (counted.get(s) ?? 0) + 1);
        const fetched = [...counted].map(([s, n]) => `${n}× ${s}`).join(', ') || 'none';
        figures.push({ path: p, bytes: t.bytes, images: t.images, fetched, worstDensity });
        console.log(
          `${p}: ${kb(t.bytes)} KB after a full scroll (photos ${kb(t.images)} KB; ${fetched}; at most ${worstDensity.toFixed(2)} device px per CSS px)`,
        );
        if (t.bytes / 1024 > GOAL_KB) problems.push(`${p} ${kb(t.bytes)} KB > ${GOAL_KB} KB`);
        await context.close();
      }
    } finally {
      await browser.close();
    }

    // --- bytes per size ------------------------------------------------------------------
    const smooth = await sizesOf(await cameraJpeg(101));
    const fine = await sizesOf(await cameraJpeg(101, 4032, 3024, { texture: 'fine' }));
    const sizeRows = [...fine.keys()]
      .filter((k) => smooth.has(k))
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
      .map((k) => `| ${k} | ${kb(smooth.get(k)!)} KB | ${kb(fine.get(k)!)} KB |`);

    lines.push(
      '# Photos at DPR 3 (issue 36)',
      '',
      `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench:photos-dpr3\` on the production build.`,
      `A 412 × 915 phone at DPR 3. Every photo a textured 12-MP camera JPEG (tests/helpers/camera.ts, \`texture: 'fine'\`), uploaded through the admin API:`,
      `${PER_GALLERY} per slideshow, one per product, every picture of the built-in pages, a page of her own with three, ${POSTS} posts with covers (the`,
      `last with two photos in its text). Uploads: median ${median(uploadTimes).toFixed(0)} ms, worst ${Math.max(...uploadTimes).toFixed(0)} ms.`,
      '',
      '## After a full scroll (and one slideshow turn)',
      '',
      'Every byte transferred (HTML, CSS, JS, images, API answers). "Device px per CSS px": of the photos on the page, the most pixels',
      'fetched per CSS pixel shown (a DPR 3 screen shows 3; decision 0049 chooses for 1.6, so 1.6–2.4 arrives).',
      '',
      '| page | bytes | of which photos | device px per CSS px (worst) | sizes fetched | goal |',
      '|---|---:|---:|---:|---|---|',
      ...figures.map((f) => `| \`${f.path}\` | ${kb(f.bytes)} KB | ${kb(f.images)} KB | ${f.worstDensity.toFixed(2)} | ${f.fetched} | ≤ ${GOAL_KB} KB |`),
      '',
      '## Bytes of each size of one photo (api/images/process.ts)',
      '',
      'A smooth 12-MP camera photo and the same scene with fine texture; "cut": the 4:3 landscape cut of the portrait photo.',
      '',
      '| size | smooth | textured |',
      '|---|---:|---:|',
      ...sizeRows,
      '',
      problems.length ? `Missed: ${problems.join('; ')}.` : `Every page within ${GOAL_KB} KB.`,
      '',
    );
  } finally {
    await server.close();
  }
  writeBenchReport('photos-dpr3', lines.join('\n'), problems);
}

await main();
