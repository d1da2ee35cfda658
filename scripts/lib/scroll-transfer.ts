/**
 * What a page costs a visitor who reads it to the end (scripts/bench-speed.ts, bench-photos-dpr3.ts):
 * every byte on the wire as Chromium's DevTools protocol counts it (headers and bodies, compressed),
 * and a scroll that stops at every section's end as a reader would.
 */
import type { Page } from '@playwright/test';

/** Bytes transferred while `run` runs: all, scripts, images. */
export async function transferOf(page: Page, run: () => Promise<void>): Promise<{ bytes: number; js: number; images: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const sizes = new Map<string, { bytes: number; type: string }>();
  const types = new Map<string, string>();
  cdp.on('Network.responseReceived', (e) => types.set(e.requestId, e.type));
  cdp.on('Network.loadingFinished', (e) => sizes.set(e.requestId, { bytes: e.encodedDataLength, type: types.get(e.requestId) ?? '' }));
  await run();
  const all = [...sizes.values()];
  const sum = (xs: { bytes: number }[]) => xs.reduce((a, b) => a + b.bytes, 0);
  return { bytes: sum(all), js: sum(all.filter((s) => s.type === 'Script')), images: sum(all.filter((s) => s.type === 'Image')) };
}

/**
 * Scrolls a screen at a time and to every section's and the footer's end, then waits for the
 * network to rest: a long section (the journal's list) is read through, not jumped over, so every
 * lazy photo in it is fetched as a reader's scroll fetches it.
 */
export async function scrollToBottom(page: Page): Promise<void> {
  const { bottoms, height, screen } = await page.evaluate(() => ({
    bottoms: [...document.querySelectorAll('section, footer')].map((s) => Math.round(s.getBoundingClientRect().bottom + window.scrollY)),
    height: document.documentElement.scrollHeight,
    screen: window.innerHeight,
  }));
  const screens = Array.from({ length: Math.ceil(height / screen) }, (_, i) => (i + 1) * screen);
  const stops = [...new Set([...bottoms, ...screens, height])].sort((a, b) => a - b);
  for (const y of stops) {
    await page.evaluate((to) => window.scrollTo(0, Math.max(0, to - window.innerHeight)), y);
    await page.waitForTimeout(200);
  }
  await page.waitForLoadState('networkidle');
}
