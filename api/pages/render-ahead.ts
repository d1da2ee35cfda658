/**
 * Public pages made ahead of the request (issue 19, decision 0020). The server renders each
 * public page once with the published content (through Astro's own handler, so the page is the
 * real one), stores the HTML in `rendered_pages` for its build, and every replica serves it
 * from memory. A publish regenerates only the pages that read what changed, then bumps the
 * render generation; every replica asks the database for newer rows every RENDER_POLL_MS and
 * so serves the new HTML within about a second, with no rebuild and no restart.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { fillPlaceholders, type BuiltinSlug, type PageClock } from '../../contract/content.ts';
import { readSettings } from '../settings/settings.repo.ts';
import type { Settings } from '../../contract/settings.ts';
import { systemClock, type Clock } from '../lib/clock.ts';
import type { DB } from '../../db/client.ts';
import { contextFor, extraNavOf, loadPublished, type PublishedCustomPage, type PublishedSource } from './render-context.ts';
import { findRedirect, listRedirects } from './pages.repo.ts';
import {
  deleteRenders,
  markStale,
  redirectsTo,
  rendersNewerThan,
  restampNotFound,
  servedJournalRenders,
  STALE,
  storeRender,
  storeRenderIfStale,
} from './rendered-pages.repo.ts';
import { runEvery } from '../lib/periodic.ts';
import { isServedSlug } from './served-paths.ts';
import { NOT_FOUND, SITE_ROUTES, type SiteRoute } from './site-routes.ts';
import { POST_KEY_PREFIX } from './posts.repo.ts';
import {
  allTargets,
  atomFeed,
  FEED_PATH,
  indexContext,
  indexPath,
  journalPageAt,
  journalPaths,
  loadPosts,
  pageCount,
  postContext,
  postPath,
  postsByTag,
  sitemapEntries,
  tagBase,
  targetsOf,
  type JournalTargets,
  type PostsKept,
} from './journal-render.ts';
import type { CachedPage, Change, PageRenderer, Publisher, PublishedPost } from '../site/publisher.ts';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

async function cachedOf(row: { status: number; contentType: string; body: string; etag: string }): Promise<CachedPage> {
  const [br, gzipped] = await Promise.all([
    brotli(row.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 10, [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(row.body) } }),
    gz(row.body, { level: 9 }),
  ]);
  return { ...row, br, gzip: gzipped };
}

const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

export function createPublisher(
  db: DB,
  options: { buildId: string; siteUrl: string; timeZone?: string; clock?: Clock; log?: (line: string) => void },
): Publisher {
  const timeZone = options.timeZone ?? 'America/Los_Angeles';
  const clock = options.clock ?? systemClock;
  // The instant and her zone a page is drawn with: its islands' first frame comes from it, so the
  // browser hydrates to the same text in any zone (contract/content.ts PageClock).
  const pageClock = (): PageClock => ({ now: clock.now().toISOString(), zone: timeZone });
  const cache = new Map<string, CachedPage>();
  /** The journal's addresses stored as stale (made when first asked for), with the generation of that mark. */
  const stale = new Map<string, string>();
  /** The published content and posts a page made on request is drawn from; dropped when newer rows come. */
  let drawn: Promise<{ source: PublishedSource; posts: PublishedPost[]; byTag: Map<string, PublishedPost[]> }> | undefined;
  const onDemand = new Map<string, Promise<CachedPage | undefined>>();
  /** The published posts as last parsed: a load reads again only those published since. */
  const kept: PostsKept = new Map();
  let seen = '0';
  let renderer: PageRenderer | undefined;
  let live: { source: PublishedSource; settings: Settings; generation: string } | undefined;
  const log = options.log ?? (() => {});

  // One load at a time: a poll and a publish's own load running together could otherwise put
  // older HTML over newer in the map.
  let loading: Promise<void> = Promise.resolve();
  const refresh = (): Promise<void> => (loading = loading.then(load, load));

  async function load(): Promise<void> {
    const rows = await rendersNewerThan(db, options.buildId, seen);
    if (rows.length === 0) return;
    drawn = undefined;
    for (const row of rows) {
      if (row.status === STALE) {
        cache.delete(row.path);
        stale.set(row.path, row.gen);
      } else {
        cache.set(row.path, await cachedOf(row));
        stale.delete(row.path);
      }
    }
    seen = rows.at(-1)!.gen;
    // Navigation and footer of the on-demand pages follow what was published (her settings written in).
    const [source, settings] = await Promise.all([loadPublished(db), readSettings(db)]);
    live = { source: { ...source, content: fillPlaceholders(source.content, settings) }, settings, generation: seen };
  }

  async function store(path: string, status: number, contentType: string, body: string): Promise<void> {
    await storeRender(db, options.buildId, { path, status, contentType, body, etag: etagOf(body) });
  }

  async function renderRoute(source: PublishedSource, route: SiteRoute): Promise<string> {
    const context = await contextFor(db, source, { path: route.path, facts: route.facts });
    const { status, html } = await renderer!(route.route, context);
    if (status !== 200 && route.path !== NOT_FOUND) throw new Error(`render-ahead ${route.path}: status ${status}`);
    await store(route.path, route.path === NOT_FOUND ? 404 : 200, 'text/html; charset=utf-8', html);
    return html;
  }

  async function renderCustom(source: PublishedSource, page: PublishedCustomPage): Promise<void> {
    const context = await contextFor(db, source, { path: `/${page.slug}`, page });
    const { status, html } = await renderer!('page', context);
    if (status !== 200) throw new Error(`render-ahead /${page.slug}: status ${status}`);
    await store(`/${page.slug}`, 200, 'text/html; charset=utf-8', html);
  }

  async function notFoundBody(source: PublishedSource, fresh: string | undefined): Promise<string> {
    if (fresh !== undefined) return fresh;
    const cached = cache.get(NOT_FOUND);
    if (cached) return cached.body;
    const context = await contextFor(db, source, { path: NOT_FOUND });
    return (await renderer!('not-found', context)).html;
  }

  /** Addresses that answer 404 (pages gone) show the 404 page as it is now: its navigation too. */
  async function restampGone(body: string): Promise<void> {
    await restampNotFound(db, options.buildId, NOT_FOUND, body, etagOf(body));
  }

  /** Every old address of a page answers 301 straight to where it is now (a rename of a rename too). */
  async function storeRedirects(toSlug?: string): Promise<void> {
    const redirects = await listRedirects(db);
    for (const r of redirects) {
      // A post's old addresses are the journal's (renderJournal).
      if ((toSlug && r.toSlug !== toSlug) || r.toSlug.startsWith(POST_KEY_PREFIX)) continue;
      // A page renamed away from one of the site's own addresses leaves the site's page there.
      if (isServedSlug(r.fromSlug)) continue;
      await store(`/${r.fromSlug}`, 301, 'text/plain; charset=utf-8', `/${r.toSlug}`);
    }
  }

  /**
   * The journal's pages a change touches (journal-render.ts says which), its feed, its posts' old
   * addresses; then every other /blog address this build served answers the 404 page (a post
   * unpublished or renamed, a tag or an index page that has no posts left).
   */
  async function renderJournal(
    source: PublishedSource,
    posts: readonly PublishedPost[],
    targets: JournalTargets,
    notFound: () => Promise<string>,
  ): Promise<void> {
    // Every replica drops these from memory and makes each when it is first asked for.
    await markStale(db, options.buildId, targets.stale);
    for (const post of targets.posts) {
      const { status, html } = await renderer!('blog-post', await postContext(db, source, posts, post, { timeZone }));
      if (status !== 200) throw new Error(`render-ahead ${postPath(post.content.slug)}: status ${status}`);
      await store(postPath(post.content.slug), 200, 'text/html; charset=utf-8', html);
    }
    const renderIndex = async (listed: readonly PublishedPost[], tag: string | null, page: number) => {
      const path = indexPath(tag ? tagBase(tag) : '/blog', page);
      const { status, html } = await renderer!('blog', await indexContext(db, source, listed, { page, tag, timeZone }));
      if (status !== 200) throw new Error(`render-ahead ${path}: status ${status}`);
      await store(path, 200, 'text/html; charset=utf-8', html);
    };
    const last = pageCount(posts.length);
    for (const page of targets.index) if (page <= last) await renderIndex(posts, null, page);
    const byTag = postsByTag(posts);
    for (const { tag, pages } of targets.tags) {
      const tagged = byTag.get(tag);
      if (tagged) for (const page of pages) if (page <= pageCount(tagged.length)) await renderIndex(tagged, tag, page);
    }
    await store(
      FEED_PATH,
      200,
      'application/atom+xml; charset=utf-8',
      await atomFeed(db, posts, source.content.site, options.siteUrl, source.publishedAt.site ?? new Date()),
    );
    // A post's old addresses lead to where it is published now.
    const moved = new Set<string>();
    for (const r of await listRedirects(db)) {
      const post = r.toSlug.startsWith(POST_KEY_PREFIX) ? posts.find((p) => p.id === r.toSlug.slice(POST_KEY_PREFIX.length)) : undefined;
      if (!post) continue;
      await store(`/${r.fromSlug}`, 301, 'text/plain; charset=utf-8', postPath(post.content.slug));
      moved.add(`/${r.fromSlug}`);
    }
    // Whatever else this build served under /blog is gone now.
    const live = journalPaths(posts);
    const served = await servedJournalRenders(db, options.buildId);
    for (const row of served) if (!live.has(row.path) && !moved.has(row.path)) await store(row.path, 404, 'text/html; charset=utf-8', await notFound());
  }

  function sitemap(source: PublishedSource, posts: readonly PublishedPost[]): string {
    const base = options.siteUrl.replace(/\/+$/, '');
    const latest = (...dates: (Date | undefined)[]) => new Date(Math.max(...dates.filter((d): d is Date => !!d).map((d) => d.getTime())));
    const urls = [
      ...SITE_ROUTES.filter((r) => r.sitemap).map((r) => ({
        loc: `${base}${r.path}`,
        lastmod: latest(source.publishedAt.site, ...r.reads.map((s) => source.publishedAt[s])),
      })),
      ...source.custom.map((p) => ({ loc: `${base}/${p.slug}`, lastmod: latest(source.publishedAt.site, p.publishedAt) })),
      ...sitemapEntries(posts, source.publishedAt.site).map((e) => ({ loc: `${base}${e.path}`, lastmod: e.lastmod })),
    ];
    const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    const body = urls.map((u) => `  <url><loc>${escape(u.loc)}</loc><lastmod>${u.lastmod.toISOString()}</lastmod></url>`).join('\n');
    return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`;
  }

  async function regenerate(change: Change): Promise<void> {
    if (!renderer) return;
    const started = performance.now();
    const published = await loadPublished(db);
    // A page of hers at an address the site serves itself (saved before those were refused) is
    // never rendered over the site's own page (issue 29).
    const source: PublishedSource = { ...published, custom: published.custom.filter((p) => !isServedSlug(p.slug)) };
    const overSite = published.custom.filter((p) => isServedSlug(p.slug)).map((p) => `/${p.slug}`);
    if (change.kind === 'all' && overSite.length > 0) {
      // What an older server rendered there goes (each replica does this as it starts); the site's own page is rendered below or served as built.
      const stale = await deleteRenders(db, options.buildId, overSite);
      for (const row of stale) cache.delete(row.path);
    }
    let routes: readonly SiteRoute[] = [];
    let custom: PublishedCustomPage[] = [];
    const everyPage = change.kind === 'all' || (change.kind === 'builtin' && change.slug === 'site') || (change.kind === 'custom' && change.navigation);
    if (everyPage) {
      routes = SITE_ROUTES;
      custom = source.custom;
    } else if (change.kind === 'builtin') {
      routes = SITE_ROUTES.filter((r) => r.reads.includes(change.slug));
    } else if (change.kind === 'facts') {
      routes = SITE_ROUTES.filter((r) => r.facts === change.facts);
    } else if (change.kind === 'custom') {
      custom = source.custom.filter((p) => p.slug === change.slug);
    }
    // The 404 page first: a page that went away answers with it.
    const notFound = routes.find((r) => r.path === NOT_FOUND);
    const freshNotFound = notFound ? await renderRoute(source, notFound) : undefined;
    if (freshNotFound !== undefined) await restampGone(freshNotFound);
    for (const route of routes) if (route !== notFound) await renderRoute(source, route);
    for (const page of custom) await renderCustom(source, page);
    if (change.kind === 'custom' && (change.gone || change.renamedFrom)) {
      // Unpublished or deleted: its address answers the 404 page; renamed: a 301 to the new one.
      // Gone from one of the site's own addresses: the site's page answers there, not a 404.
      if (change.gone && !isServedSlug(change.slug)) {
        const body = await notFoundBody(source, freshNotFound);
        await store(`/${change.slug}`, 404, 'text/html; charset=utf-8', body);
        // Its old addresses (their redirects went with the page) answer 404 too, not a 301 to a 404.
        const stale = await redirectsTo(db, options.buildId, `/${change.slug}`);
        for (const row of stale) if (!(await findRedirect(db, row.path.slice(1)))) await store(row.path, 404, 'text/html; charset=utf-8', body);
      }
      if (change.renamedFrom) await storeRedirects(change.slug);
    }
    if (change.kind === 'all') await storeRedirects();
    if (change.kind !== 'facts') {
      const posts = await loadPosts(db, kept);
      // Every page shows the navigation, posts too; a post's change touches its part of the journal.
      const journal = everyPage ? allTargets(posts) : change.kind === 'journal' ? targetsOf(posts, change) : undefined;
      if (journal) await renderJournal(source, posts, journal, () => notFoundBody(source, freshNotFound));
      await store('/sitemap.xml', 200, 'application/xml; charset=utf-8', sitemap(source, posts));
    }
    await refresh();
    log(`render-ahead: ${change.kind} ${'slug' in change ? change.slug : 'id' in change ? change.id : ''} in ${Math.round(performance.now() - started)} ms`);
  }

  /**
   * A page of the journal made on the first request for it (a stale one, or one never made for
   * this build): drawn from the posts as this replica last loaded them, stored only if no newer
   * render or stale mark came meanwhile (storeRenderIfStale), so a page drawn before a publish
   * never hides the publish's mark.
   */
  async function renderJournalPath(path: string): Promise<CachedPage | undefined> {
    const mark = stale.get(path);
    const { source, posts, byTag } = await (drawn ??= loadPublished(db).then(async (published) => {
      const posts = await loadPosts(db, kept);
      return { source: { ...published, custom: published.custom.filter((p) => !isServedSlug(p.slug)) }, posts, byTag: postsByTag(posts) };
    }));
    const at = journalPageAt(posts, byTag, path);
    if (!at) return undefined;
    const { status, html } =
      at.kind === 'post'
        ? await renderer!('blog-post', await postContext(db, source, posts, at.post, { timeZone }))
        : await renderer!('blog', await indexContext(db, source, at.listed, { page: at.page, tag: at.tag, timeZone }));
    if (status !== 200) throw new Error(`render on request ${path}: status ${status}`);
    const row = { path, status: 200, contentType: 'text/html; charset=utf-8', body: html, etag: etagOf(html) };
    const page = await cachedOf(row);
    if (await storeRenderIfStale(db, options.buildId, row, mark)) {
      // Unless a newer mark or render came in while this one was made.
      if (!cache.has(path) && stale.get(path) === mark) {
        cache.set(path, page);
        stale.delete(path);
      }
    }
    return page;
  }

  function renderOnDemand(path: string): Promise<CachedPage | undefined> | undefined {
    if (!renderer || !path.startsWith('/blog') || cache.has(path)) return undefined;
    let pending = onDemand.get(path);
    if (!pending) {
      pending = renderJournalPath(path).finally(() => onDemand.delete(path));
      onDemand.set(path, pending);
    }
    return pending;
  }

  return {
    lookup: (path) => cache.get(path),
    renderOnDemand,
    liveContext: (path) =>
      live && {
        path,
        clock: pageClock(),
        settings: live.settings,
        content: live.source.content,
        images: {},
        extraNav: extraNavOf(live.source.custom),
        products: [],
        classes: [],
        preview: false,
      },
    regenerate,
    async preview(slug, draft) {
      if (!renderer) return undefined;
      const source = await loadPublished(db);
      const builtin = SITE_ROUTES.find((r) => r.reads.includes(slug as BuiltinSlug)) ?? (slug === 'site' ? SITE_ROUTES[0] : undefined);
      if (builtin) {
        const drafted: PublishedSource = { ...source, content: { ...source.content, [slug]: draft } };
        const context = await contextFor(db, drafted, { path: builtin.path, facts: builtin.facts, preview: true });
        return (await renderer(builtin.route, context)).html;
      }
      const page: PublishedCustomPage = { slug, content: draft as PublishedCustomPage['content'], publishedAt: new Date() };
      const context = await contextFor(db, source, { path: `/${slug}`, page, preview: true });
      return (await renderer('page', context)).html;
    },
    async previewPost(post) {
      if (!renderer) return undefined;
      const [source, posts] = await Promise.all([loadPublished(db), loadPosts(db, kept)]);
      const others = posts.filter((p) => p.id !== post.id);
      const context = await postContext(
        db,
        source,
        [...others, post].sort((a, b) => b.date.getTime() - a.date.getTime() || a.id.localeCompare(b.id)),
        post,
        {
          timeZone,
          preview: true,
        },
      );
      return (await renderer('blog-post', context)).html;
    },
    refresh,
    async start(render, pollMs) {
      renderer = (route, context) => render(route, { ...context, clock: pageClock() });
      // Every page once for this build: a new build's assets have new names, and content may
      // have been published by a process of another build. The journal's first pages now, the
      // rest when first asked for (allTargets); regenerate's own load then reads what is stored,
      // the journal's older pages as stale marks, which cost no compression.
      await regenerate({ kind: 'all' });
      const stop = runEvery('render-ahead', pollMs, () => refresh());
      return async () => stop();
    },
    get rendering() {
      return renderer !== undefined;
    },
  };
}
