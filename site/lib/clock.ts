/**
 * The page's clock (DESIGN.md "One clock, one zone"): the instant and her zone the server drew
 * the page with. Pages hand it to the islands that show a date, which draw their first frame
 * from it (site/islands/useToday.ts), so hydration never meets a different day.
 */
import type { PageClock } from '../../contract/content.ts';

/** Until the server says (the build's own defaults): the zone SITE_TIMEZONE defaults to. */
const DEFAULT_ZONE = 'America/Los_Angeles';

/** In a page's frontmatter: the clock the server drew it with; for the build's defaults, the build's. */
export const pageClock = (locals: App.Locals): PageClock => locals.render?.clock ?? { now: new Date().toISOString(), zone: DEFAULT_ZONE };

/**
 * In the browser: the clock the page was drawn with, from its `<meta name="page-clock">` (the
 * admin pages carry one: their panels draw only in the browser, after the session is checked,
 * and read her zone from it without asking the server).
 */
export function documentClock(): PageClock | undefined {
  if (typeof document === 'undefined') return undefined;
  try {
    const clock = JSON.parse(document.querySelector('meta[name="page-clock"]')?.getAttribute('content') ?? '') as Partial<PageClock>;
    return typeof clock.zone === 'string' && typeof clock.now === 'string' ? { zone: clock.zone, now: clock.now } : undefined;
  } catch {
    return undefined;
  }
}
