/**
 * `npm run bench:first-tap` (a step of `npm run bench`, BENCH_SKIP_FIRST_TAP to skip it): issue 36's
 * "a first interaction that costs little". Builds if needed, starts the production server on a
 * fresh in-memory database, and in the system Chromium at a phone profile:
 *  - loads `/`, waits for the page to settle, then taps the name field of its form and waits for it
 *    to come alive (her free times listed): the script bytes (as transferred, brotli as served) and requests the tap brings, and those of the whole visit;
 *  - loads `/about` (a content page without an island): its script files;
 *  - runs Lighthouse mobile on `/cart` with two products in the cart (localStorage), its total
 *    blocking time and largest contentful paint beside the score.
 * Prints each figure beside its goal, writes docs/bench/first-tap.md, exits 1 on a miss.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { chromium, type Page } from '@playwright/test';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { build, isBuildCurrent } from './build.ts';
import { loadEnv } from '../api/env.ts';
import { startServer } from '../api/server.ts';
import { CHROMIUM, CHROMIUM_FLAGS } from './chromium.ts';
import { kb } from './lib/bench-report.ts';

const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };
/**
 * Issue 36's goals and the figures before it: the issue's, then this script's on the build of the
 * commit before (same machine, 2026-11-29).
 */
const GOAL = {
  tapKb: { goal: 60, before: '103 KB (116.7 KB in all); here 108.0 KB' },
  tapRequests: { goal: 4, before: '13; here 15' },
  aboutScripts: { goal: 1, before: '7 files of 0.4–0.7 KB; here 7, 13.8 KB' },
  cartScore: { goal: 98, before: '90–94; here 77–100 in 9 runs (best of 3: 100, 99, 100)' },
  cartTbt: { goal: 100, before: '218–334 ms; here 61–1,121 ms in 9 runs, median 150 ms' },
} as const;

interface Scripts {
  bytes: number;
  requests: number;
}

/** Script responses (transferred bytes, headers included, as Chromium counts them) while `run` goes on. */
async function scriptsDuring(page: Page, run: () => Promise<void>): Promise<Scripts & { urls: string[] }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const scripts = new Map<string, string>();
  const sizes = new Map<string, number>();
  cdp.on('Network.responseReceived', (e) => {
    if (e.type === 'Script') scripts.set(e.requestId, e.response.url);
  });
  cdp.on('Network.loadingFinished', (e) => sizes.set(e.requestId, e.encodedDataLength));
  await run();
  await cdp.detach();
  const ids = [...scripts.keys()].filter((id) => sizes.has(id));
  return { bytes: ids.reduce((a, id) => a + sizes.get(id)!, 0), requests: ids.length, urls: ids.map((id) => new URL(scripts.get(id)!).pathname) };
}

async function main(): Promise<void> {
  // DIST_DIR names a build to measure as it is (another commit's, for a before/after); else build if needed.
  if (!process.env.DIST_DIR && !isBuildCurrent()) build();
  const env = loadEnv({ ...process.env, NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', PGLITE_DIR: 'memory://', QUIET: '1', DATABASE_URL: '' });
  const server = await startServer(env, { reminders: false, reconciler: false, newsletters: false, backups: false, journal: false });
  const base = `http://127.0.0.1:${server.port}`;
  const misses: string[] = [];
  const check = (ok: boolean, what: string) => void (ok || misses.push(what));
  try {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS.filter((f) => f !== '--headless=new') });
    let load: Scripts, tap: Scripts & { urls: string[] }, about: Scripts & { urls: string[] };
    try {
      const context = await browser.newContext(PHONE);
      const page = await context.newPage();
      let tapped: Scripts & { urls: string[] } = { bytes: 0, requests: 0, urls: [] };
      const all = await scriptsDuring(page, async () => {
        await page.goto(`${base}/`, { waitUntil: 'networkidle' });
        const name = page.locator('#book form input').first();
        await name.scrollIntoViewIfNeeded();
        await page.waitForLoadState('networkidle');
        tapped = await scriptsDuring(page, async () => {
          await name.tap();
          // Alive: the form's module has listed her free times in place of the server's "Loading free times…".
          await page.waitForFunction(() => {
            const first = document.querySelector('#book-time option');
            return !!first && first.textContent !== 'Loading free times…';
          });
          await page.waitForLoadState('networkidle');
        });
      });
      tap = tapped;
      load = { bytes: all.bytes - tap.bytes, requests: all.requests - tap.requests };
      await context.close();

      const aboutContext = await browser.newContext(PHONE);
      const aboutPage = await aboutContext.newPage();
      about = await scriptsDuring(aboutPage, () => aboutPage.goto(`${base}/about`, { waitUntil: 'networkidle' }).then(() => {}));
      await aboutContext.close();
    } finally {
      await browser.close();
    }
    console.log(`/ before the tap: ${kb(load.bytes)} KB of script in ${load.requests} requests`);
    console.log(
      `first tap of the form's name field: ${kb(tap.bytes)} KB of script (goal ≤ ${GOAL.tapKb.goal} KB) in ${tap.requests} requests (goal ≤ ${GOAL.tapRequests.goal}): ${tap.urls.join(', ')}`,
    );
    console.log(`/about: ${about.requests} script files, ${kb(about.bytes)} KB (goal ≤ ${GOAL.aboutScripts.goal} file): ${about.urls.join(', ')}`);
    check(tap.bytes / 1024 <= GOAL.tapKb.goal, `first tap ${kb(tap.bytes)} KB > ${GOAL.tapKb.goal} KB`);
    check(tap.requests <= GOAL.tapRequests.goal, `first tap ${tap.requests} requests > ${GOAL.tapRequests.goal}`);
    check(about.requests <= GOAL.aboutScripts.goal, `/about ${about.requests} script files > ${GOAL.aboutScripts.goal}`);

    // Lighthouse mobile on /cart with two products, put in the profile's storage first.
    type Product = { _id: string; name: string; price: number; picture?: unknown; image?: string };
    const products = (await (await fetch(`${base}/api/chocolates`)).json()) as Product[];
    const cart = products.slice(0, 2).map((p) => ({ _id: p._id, name: p.name, price: p.price, picture: p.picture, image: p.image, quantity: 1 }));
    const cartRuns: { score: number; tbt: number; lcp: number }[] = [];
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
    try {
      const cdpBrowser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      const page = await cdpBrowser.contexts()[0]!.newPage();
      await page.goto(`${base}/favicon.svg`);
      await page.evaluate((items) => localStorage.setItem('cart', JSON.stringify(items)), cart);
      await page.close();
      for (let run = 0; run < 3; run++) {
        const lhr = (await lighthouse(`${base}/cart`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance'],
          disableStorageReset: true,
        }))!.lhr;
        cartRuns.push({
          score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          tbt: Math.round(Number(lhr.audits['total-blocking-time']?.numericValue ?? 0)),
          lcp: Math.round(Number(lhr.audits['largest-contentful-paint']?.numericValue ?? 0)),
        });
      }
      await cdpBrowser.close().catch(() => {});
    } finally {
      chrome.kill();
    }
    // The best of three runs, as scripts/bench-speed.ts takes it: on a shared machine another process
    // only adds time to a run (Lighthouse simulates a phone from the tasks it observed), never removes it.
    const cartRun = [...cartRuns].sort((a, b) => b.score - a.score || a.tbt - b.tbt)[0]!;
    console.log(
      `/cart with two products: Lighthouse mobile ${cartRun.score} (goal ≥ ${GOAL.cartScore.goal}), blocking ${cartRun.tbt} ms (goal < ${GOAL.cartTbt.goal} ms), LCP ${cartRun.lcp} ms; runs ${cartRuns.map((r) => `${r.score}/${r.tbt} ms`).join(', ')}`,
    );
    check(cartRun.score >= GOAL.cartScore.goal, `/cart Lighthouse ${cartRun.score} < ${GOAL.cartScore.goal}`);
    check(cartRun.tbt < GOAL.cartTbt.goal, `/cart blocking ${cartRun.tbt} ms ≥ ${GOAL.cartTbt.goal} ms`);

    mkdirSync('docs/bench', { recursive: true });
    writeFileSync(
      'docs/bench/first-tap.md',
      [
        '# Issue 36: a first tap that costs little',
        '',
        `One run of \`npm run bench:first-tap\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: the production server, system Chromium at a 412 × 823 phone profile.`,
        'Script bytes are as transferred (brotli, as the build precompresses them, headers included).',
        '',
        '| figure | before issue 36 | now | goal |',
        '|---|---|---:|---|',
        `| script on the first tap of the home page form's name field | ${GOAL.tapKb.before} | ${kb(tap.bytes)} KB | ≤ ${GOAL.tapKb.goal} KB |`,
        `| script requests on that tap | ${GOAL.tapRequests.before} | ${tap.requests} | ≤ ${GOAL.tapRequests.goal} |`,
        `| \`/\`'s script before the tap, and in all with the tap | 13.8 KB in 7; in all 121.8 KB in 22 | ${kb(load.bytes)} KB in ${load.requests}; in all ${kb(load.bytes + tap.bytes)} KB in ${load.requests + tap.requests} | |`,
        `| \`/about\`'s script files | ${GOAL.aboutScripts.before} | ${about.requests} (${kb(about.bytes)} KB) | ${GOAL.aboutScripts.goal} |`,
        `| \`/cart\` with two products, Lighthouse mobile (best of 3) | ${GOAL.cartScore.before} | ${cartRun.score} | ≥ ${GOAL.cartScore.goal} |`,
        `| \`/cart\` total blocking time | ${GOAL.cartTbt.before} | ${cartRun.tbt} ms | < ${GOAL.cartTbt.goal} ms |`,
        `| \`/cart\` largest contentful paint (simulated) | 2.3–2.4 s | ${(cartRun.lcp / 1000).toFixed(1)} s | |`,
        `| \`/cart\` every run (score / blocking) | | ${cartRuns.map((r) => `${r.score} / ${r.tbt} ms`).join(', ')} | |`,
        '',
        `The tap's scripts: ${tap.urls.map((u) => `\`${u}\``).join(', ')}.`,
        '',
        misses.length ? `Missed: ${misses.join('; ')}.` : 'Every figure meets its goal.',
        '',
        "The home page's form is drawn by the server and brought alive by a module of its own, not a React island",
        "(decision 0050): React 19's runtime alone is about 59 KB of brotli, the tap's floor while the form was an island",
        '(62.3 KB in 3 requests on 2026-11-29). `npm test` holds the built tap to 2 files and 8 KB as served (scripts/check-budgets.ts).',
        '',
      ].join('\n'),
    );
  } finally {
    await server.close();
  }
  if (misses.length) {
    console.error(`[bench:first-tap] missed: ${misses.join('; ')}`);
    process.exit(1);
  }
  process.exit(0);
}

await main();
