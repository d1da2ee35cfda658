/**
 * The addresses the site itself serves, which no page of hers may take (issue 29, decision
 * 0029). Derived from what serves them, never listed by hand: a page added to site/pages, a file
 * to site/public or a route to the Hono app is reserved the moment it exists. A page of hers at
 * one of them would otherwise be served in place of the site's own (`/privacy`), and deleting it
 * would leave that address answering 404.
 *
 * Reserved is the first segment of each served path (`admin` for `/admin/users`):
 * - site/pages: each file's route (`privacy.astro` → privacy, `robots.txt.ts` → robots.txt) and
 *   each folder (admin, user, render-ahead);
 * - site/public and the built client folder (DIST_DIR/client: what the build made of both, and
 *   its assets), when present;
 * - the pages rendered ahead (SITE_ROUTES) and the journal's (/blog);
 * - every route of the Hono app (/api, /dev, /calendar.ics), recorded by createApp through
 *   reserveRoutesOf.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAGE_MESSAGES } from '../../contract/content.ts';
import { distDirOf } from '../lib/build-info.ts';
import { FEED_PATH } from './journal-render.ts';
import { NOT_FOUND, SITE_ROUTES } from './site-routes.ts';

const site = fileURLToPath(new URL('../../site/', import.meta.url));

/** `/admin/users` → admin; nothing for `/`, a parameter or a wildcard. */
export function firstSegment(path: string): string | undefined {
  const segment = path.split('/').filter(Boolean)[0];
  return segment && !/[:*[\]]/.test(segment) ? segment.toLowerCase() : undefined;
}

/** A file's route name: its extension dropped (`about.astro`, `sitemap.xml.ts` → sitemap.xml). */
const routeOf = (file: string) => file.replace(/\.(astro|md|mdx|html|ts|js|mjs)$/, '');

const entriesOf = (dir: string) => (existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : []);

function siteSegments(): string[] {
  return [
    // A dynamic route at the top (`[slug].astro`) would serve every address; none exists, and a
    // name with brackets is never a slug anyway.
    ...entriesOf(join(site, 'pages')).map((e) => (e.isDirectory() ? e.name : routeOf(e.name))),
    ...entriesOf(join(site, 'public')).map((e) => e.name),
    ...entriesOf(join(distDirOf(), 'client')).map((e) => (e.isDirectory() ? e.name : routeOf(e.name))),
    ...[...SITE_ROUTES.map((r) => r.path), NOT_FOUND, FEED_PATH, '/sitemap.xml'].map((p) => firstSegment(p) ?? ''),
  ].filter((s) => s !== '');
}

let files: Set<string> | undefined;
const routes = new Set<string>();

/** Records the first segment of every route of `app` (createApp calls it once its routes are in). */
export function reserveRoutesOf(app: { routes: readonly { path: string }[] }): void {
  for (const r of app.routes) {
    const segment = firstSegment(r.path);
    if (segment) routes.add(segment);
  }
}

/** Every first segment the site serves. */
export function servedSegments(): ReadonlySet<string> {
  files ??= new Set(siteSegments().map((s) => s.toLowerCase()));
  return new Set([...files, ...routes]);
}

/** Whether `/slug` is an address the site itself serves. */
export function isServedSlug(slug: string): boolean {
  const segment = firstSegment(slug);
  return segment !== undefined && servedSegments().has(segment);
}

/** The refusal of a slug the site serves, as the page routes answer a slug's other faults. */
export function servedSlugRefusal(slug: string): { message: string; issues: { path: 'slug'; message: string }[] } | undefined {
  if (!isServedSlug(slug)) return undefined;
  return { message: `slug: ${PAGE_MESSAGES.slugReserved}`, issues: [{ path: 'slug', message: PAGE_MESSAGES.slugReserved }] };
}
