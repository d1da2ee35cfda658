/**
 * What the journal's public pages are made of (issue 22, decision 0021): the published posts
 * newest first, each as a card and as its page (the body made safe HTML by the Markdown
 * renderer, her photos at their intrinsic size), the index and tag pages, which of them a change
 * touches, the Atom feed and the sitemap's entries. The pages themselves are rendered ahead by
 * render-ahead.ts through site/pages/render-ahead/blog*.astro, like every other public page.
 */
import {
  postContent,
  POSTS_PER_PAGE,
  type JournalRender,
  type PostCardView,
  type PostView,
  type RenderContext,
  type SiteContent,
} from '../../contract/content.ts';
import type { PictureView } from '../../contract/images.ts';
import type { DB } from '../../db/client.ts';
import { excerptOf, postImageIds, postWords, renderPostMarkdown } from '../lib/markdown.ts';
import { pictureViews } from '../images/images.repo.ts';
import { publishedPostHeads, publishedPostRows } from './posts.repo.ts';
import { contextFor, type PublishedSource } from './render-context.ts';
import type { PostPlace, PublishedPost } from '../site/publisher.ts';

/** Newest first; one date for two posts is ordered by id, the same on every replica. */
export const newestFirst = (a: { date: Date; id: string }, b: { date: Date; id: string }) => b.date.getTime() - a.date.getTime() || a.id.localeCompare(b.id);

/** Every published post, newest first (parsed again, so defaults are filled in). */
/**
 * A post published before the schemas refused noncharacters (issue 29) keeps its place in the
 * journal, less those characters, rather than failing its schema and vanishing.
 */
const withoutNoncharacters = (content: unknown): unknown =>
  content === undefined ? content : JSON.parse(JSON.stringify(content).replace(/\p{Noncharacter_Code_Point}/gu, ''));

/** Parsed posts by id with the version they were parsed at (publishedPostHeads): kept by each process between loads. */
export type PostsKept = Map<string, { version: string; post: PublishedPost | undefined }>;

/**
 * Every published post, newest first. With `kept`, only the posts published since it was filled
 * are read and parsed again (at 3,000 posts, reading and parsing all their text cost most of a
 * publish); the rest come from it.
 */
export async function loadPosts(db: DB, kept: PostsKept = new Map()): Promise<PublishedPost[]> {
  const heads = await publishedPostHeads(db);
  const changed = heads.filter((h) => kept.get(h.id)?.version !== h.version).map((h) => h.id);
  // A first load (or most of the journal changed): one read of everything rather than a long list of ids.
  const rows = await publishedPostRows(db, changed.length > heads.length / 2 ? undefined : changed);
  for (const r of rows) {
    const parsed = postContent.safeParse(withoutNoncharacters(r.content));
    kept.set(r.id, {
      version: r.version,
      post: parsed.success ? { id: r.id, content: parsed.data, date: new Date(r.date), updated: new Date(r.publishedAt) } : undefined,
    });
  }
  const live = new Set(heads.map((h) => h.id));
  for (const id of kept.keys()) if (!live.has(id)) kept.delete(id);
  const posts: PublishedPost[] = [];
  for (const h of heads) {
    const post = kept.get(h.id)?.post;
    if (post) posts.push(post);
  }
  return posts.sort(newestFirst);
}

export const postPath = (slug: string) => `/blog/${slug}`;
export const indexPath = (base: string, page: number) => (page <= 1 ? base : `${base}/page/${page}`);
export const tagBase = (tag: string) => `/blog/tag/${tag}`;
export const FEED_PATH = '/blog/feed.xml';
/** Where readers and feed readers try a site's feed first (issue 30): each answers 301 to FEED_PATH. */
export const FEED_ALIASES = ['/rss.xml', '/feed', '/atom.xml', '/feed.xml'] as const;
export const pageCount = (n: number) => Math.max(1, Math.ceil(n / POSTS_PER_PAGE));

/** The tags of the published posts with their posts, newest first. */
export function postsByTag(posts: readonly PublishedPost[]): Map<string, PublishedPost[]> {
  const out = new Map<string, PublishedPost[]>();
  for (const p of posts)
    for (const t of p.content.tags) {
      const list = out.get(t);
      if (list) list.push(p);
      else out.set(t, [p]);
    }
  return out;
}

/** Every address of the journal that serves a page now (its old addresses' 301s aside). */
export function journalPaths(posts: readonly PublishedPost[]): Set<string> {
  const paths = new Set<string>([FEED_PATH]);
  for (let page = 1; page <= pageCount(posts.length); page++) paths.add(indexPath('/blog', page));
  for (const [tag, tagged] of postsByTag(posts)) for (let page = 1; page <= pageCount(tagged.length); page++) paths.add(indexPath(tagBase(tag), page));
  for (const p of posts) paths.add(postPath(p.content.slug));
  return paths;
}

export interface JournalTargets {
  /** Posts whose page to make now. */
  posts: PublishedPost[];
  /** Page numbers of /blog to make now. */
  index: number[];
  /** Page numbers of each tag's pages to make now. */
  tags: { tag: string; pages: number[] }[];
  /**
   * Addresses the change touches too but made only when first asked for (render-ahead.ts
   * renderOnDemand): the pages behind the one a post appears on, whose cards all move by one when
   * a post comes or goes. Rendering them all at once made a publish cost the whole journal
   * (issue 36: 11 s at 3,000 posts); now it costs what a reader sees first, bounded.
   */
  stale: string[];
}

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** The first `n` of `pages` to make now, the rest's addresses under `base` for later. */
function splitPages(base: string, pages: number[], n: number, stale: string[]): number[] {
  for (const page of pages.slice(n)) stale.push(indexPath(base, page));
  return pages.slice(0, n);
}

/**
 * Everything: the start of a build, or a change every page shows (navigation, footer). Made now:
 * the first page of /blog and of each tag, the posts it lists and the feed; every other address
 * of the journal when first asked for (a start at 3,000 posts rendered 3,500 pages: 65 s).
 */
export function allTargets(posts: readonly PublishedPost[]): JournalTargets {
  const stale: string[] = [];
  const index = splitPages('/blog', range(1, pageCount(posts.length)), 1, stale);
  const tags = [...postsByTag(posts)].map(([tag, tagged]) => ({ tag, pages: splitPages(tagBase(tag), range(1, pageCount(tagged.length)), 1, stale) }));
  const now = posts.slice(0, POSTS_PER_PAGE);
  for (const p of posts.slice(POSTS_PER_PAGE)) stale.push(postPath(p.content.slug));
  return { posts: now, index, tags, stale };
}

/**
 * What a change of one post touches: its page; its neighbours (their next/previous links name
 * it); the index pages from where it sits to the end when it came or went (every later card
 * moves), else only the page that shows it; the same on the pages of each tag it has or had.
 * Of the index pages, the one that shows it is made now, the later ones when first asked for.
 */
export function targetsOf(posts: readonly PublishedPost[], change: { id: string; before: PostPlace | null; after: PostPlace | null }): JournalTargets {
  const place = change.after ?? change.before;
  if (!place) return { posts: [], index: [], tags: [], stale: [] };
  const me = { date: place.date, id: change.id };
  const stale: string[] = [];
  /** The pages of `list` that show a change of it: from where it sits to the end if it came or went, else its own. */
  const pagesOf = (list: readonly PublishedPost[], moved: boolean) => {
    // Where it sits (or sat) among the others: the count of posts newer than it.
    const at = list.filter((p) => p.id !== change.id && newestFirst(p, me) < 0).length;
    const first = Math.floor(at / POSTS_PER_PAGE) + 1;
    return moved ? range(first, pageCount(list.length)) : [first];
  };
  const others = posts.filter((p) => p.id !== change.id);
  const at = others.filter((p) => newestFirst(p, me) < 0).length;
  const targets = new Set<PublishedPost>();
  const self = posts.find((p) => p.id === change.id);
  if (self) targets.add(self);
  if (others[at - 1]) targets.add(others[at - 1]!);
  if (others[at]) targets.add(others[at]!);
  const index = splitPages('/blog', pagesOf(posts, (change.before === null) !== (change.after === null)), 1, stale);
  const byTag = postsByTag(posts);
  const tags = [...new Set([...(change.before?.tags ?? []), ...(change.after?.tags ?? [])])].map((tag) => ({
    tag,
    pages: splitPages(
      tagBase(tag),
      pagesOf(byTag.get(tag) ?? [], (change.before?.tags.includes(tag) ?? false) !== (change.after?.tags.includes(tag) ?? false)),
      1,
      stale,
    ),
  }));
  return { posts: [...targets], index, tags, stale };
}

/** What the journal serves at `path` now: a post's page or a page of /blog or of a tag; undefined: nothing. */
export type JournalPage = { kind: 'post'; post: PublishedPost } | { kind: 'index'; listed: readonly PublishedPost[]; tag: string | null; page: number };

export function journalPageAt(posts: readonly PublishedPost[], byTag: ReadonlyMap<string, readonly PublishedPost[]>, path: string): JournalPage | undefined {
  const index = /^\/blog(?:\/tag\/([^/]+))?(?:\/page\/([1-9]\d{0,6}))?$/.exec(path);
  if (index) {
    const tag = index[1] ?? null;
    const page = index[2] ? Number(index[2]) : 1;
    const listed = tag === null ? posts : byTag.get(tag);
    // Page 1 is the base address itself (indexPath), never /page/1.
    if (!listed || page > pageCount(listed.length) || indexPath(tag === null ? '/blog' : tagBase(tag), page) !== path) return undefined;
    return { kind: 'index', listed, tag, page };
  }
  const slug = /^\/blog\/([^/]+)$/.exec(path)?.[1];
  const post = slug === undefined ? undefined : posts.find((p) => p.content.slug === slug);
  return post && { kind: 'post', post };
}

// ---------------------------------------------------------------------------------------------
// Views

const dateFormats = new Map<string, Intl.DateTimeFormat>();
/** "November 25, 2026": the day in the teacher's zone. */
export function dateLabel(date: Date, timeZone: string): string {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'long', day: 'numeric' });
    dateFormats.set(timeZone, format);
  }
  return format.format(date);
}

/** About 200 words a minute, at least one. */
export const readingMinutes = (words: number) => Math.max(1, Math.round(words / 200));

export function cardOf(post: PublishedPost, timeZone: string): PostCardView {
  const c = post.content;
  return {
    id: post.id,
    slug: c.slug,
    title: c.title,
    excerpt: c.excerpt || excerptOf(c.body),
    brand: c.brand,
    tags: c.tags,
    date: post.date.toISOString(),
    dateLabel: dateLabel(post.date, timeZone),
    updated: post.updated.toISOString(),
    readingMinutes: readingMinutes(postWords(c.body).words),
    cover: c.coverImageId ? { id: c.coverImageId.toLowerCase(), alt: c.coverAlt ?? '' } : null,
  };
}

export function viewOf(post: PublishedPost, pictures: ReadonlyMap<string, PictureView>, timeZone: string): PostView {
  const card = cardOf(post, timeZone);
  const words = postWords(post.content.body).words;
  return {
    ...card,
    html: renderPostMarkdown(post.content.body, { pictures }),
    seoTitle: post.content.seoTitle || post.content.title,
    seoDescription: post.content.seoDescription || card.excerpt,
    wordCount: words,
  };
}

const photosOf = (posts: readonly PublishedPost[], withBody: boolean) => [
  ...new Set(
    posts.flatMap((p) => [...(p.content.coverImageId ? [p.content.coverImageId.toLowerCase()] : []), ...(withBody ? postImageIds(p.content.body) : [])]),
  ),
];

/** A post's page: the post, its newer and older neighbours. */
export async function postContext(
  db: DB,
  source: PublishedSource,
  posts: readonly PublishedPost[],
  post: PublishedPost,
  options: { timeZone: string; preview?: boolean },
): Promise<RenderContext> {
  const base = await contextFor(db, source, { path: postPath(post.content.slug), preview: options.preview ?? false });
  const pictures = await pictureViews(db, photosOf([post], true));
  const others = posts.filter((p) => p.id !== post.id);
  const at = others.filter((p) => newestFirst(p, post) < 0).length;
  const link = (p: PublishedPost | undefined) => (p ? { slug: p.content.slug, title: p.content.title } : null);
  const journal: JournalRender = { kind: 'post', post: viewOf(post, pictures, options.timeZone), newer: link(others[at - 1]), older: link(others[at]) };
  return { ...base, images: { ...base.images, ...Object.fromEntries(pictures) }, journal };
}

/** Page `page` of the journal, or of one tag's posts. */
export async function indexContext(
  db: DB,
  source: PublishedSource,
  listed: readonly PublishedPost[],
  options: { page: number; tag: string | null; timeZone: string },
): Promise<RenderContext> {
  const base = options.tag ? tagBase(options.tag) : '/blog';
  const shown = listed.slice((options.page - 1) * POSTS_PER_PAGE, options.page * POSTS_PER_PAGE);
  const context = await contextFor(db, source, { path: indexPath(base, options.page) });
  const pictures = await pictureViews(db, photosOf(shown, false));
  const journal: JournalRender = {
    kind: 'index',
    posts: shown.map((p) => cardOf(p, options.timeZone)),
    page: options.page,
    pages: pageCount(listed.length),
    tag: options.tag,
    base,
  };
  return { ...context, images: { ...context.images, ...Object.fromEntries(pictures) }, journal };
}

// ---------------------------------------------------------------------------------------------
// The feed and the sitemap

/** How many posts the feed carries, newest first, each in full. */
export const FEED_ENTRIES = 20;

/**
 * What XML 1.0 can't carry (the C0 controls but tab and newlines, lone surrogates, U+FFFE and
 * U+FFFF) and the other noncharacters: dropped, so no text of hers makes the feed ill-formed
 * and a reader drop it whole. The schemas refuse them (isCleanText); this holds for anything
 * stored before they did.
 */
const NOT_IN_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF]|\p{Noncharacter_Code_Point}/gu;
export const xml = (s: string) =>
  s.replace(NOT_IN_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/**
 * The Atom feed (RFC 4287) of the newest posts: each in full, every address absolute (a feed
 * reader has no page to resolve a path against), the cover first. The entry id is the post's
 * id, so a renamed post is the same entry to a reader.
 */
export async function atomFeed(db: DB, posts: readonly PublishedPost[], site: SiteContent['site'], siteUrl: string, fallbackUpdated: Date): Promise<string> {
  const origin = siteUrl.replace(/\/+$/, '');
  const entries = posts.slice(0, FEED_ENTRIES);
  const pictures = await pictureViews(db, photosOf(entries, true));
  const updated = entries.reduce((max, p) => (p.updated > max ? p.updated : max), entries.length ? new Date(0) : fallbackUpdated);
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">',
    `  <title>${xml(`${site.teacherTitle} · Journal`)}</title>`,
    `  <subtitle>${xml(site.tagline)}</subtitle>`,
    `  <id>${xml(`${origin}/blog`)}</id>`,
    `  <link rel="self" type="application/atom+xml" href="${xml(origin + FEED_PATH)}"/>`,
    `  <link rel="alternate" type="text/html" href="${xml(`${origin}/blog`)}"/>`,
    `  <updated>${updated.toISOString()}</updated>`,
    `  <author><name>${xml(site.teacherName)}</name><uri>${xml(`${origin}/about`)}</uri></author>`,
  ];
  for (const p of entries) {
    const c = p.content;
    const url = origin + postPath(c.slug);
    const cover = c.coverImageId ? pictures.get(c.coverImageId.toLowerCase()) : undefined;
    const coverHtml = cover
      ? `<p><img src="${xml(origin + cover.src)}" width="${cover.width}" height="${cover.height}" alt="${xml(c.coverAlt ?? '')}" /></p>\n`
      : '';
    const html = coverHtml + renderPostMarkdown(c.body, { pictures, origin });
    lines.push(
      '  <entry>',
      `    <title>${xml(c.title)}</title>`,
      `    <link rel="alternate" type="text/html" href="${xml(url)}"/>`,
      `    <id>urn:uuid:${xml(p.id)}</id>`,
      `    <published>${p.date.toISOString()}</published>`,
      `    <updated>${p.updated.toISOString()}</updated>`,
      ...c.tags.map((t) => `    <category term="${xml(t)}" scheme="${xml(`${origin}/blog/tag/`)}" label="${xml(t)}"/>`),
      `    <summary type="text">${xml(c.excerpt || excerptOf(c.body))}</summary>`,
      `    <content type="html" xml:base="${xml(url)}">${xml(html)}</content>`,
      '  </entry>',
    );
  }
  lines.push('</feed>', '');
  return lines.join('\n');
}

/** The journal's addresses for sitemap.xml: /blog, each tag's page and each post, with when they last changed. */
export function sitemapEntries(posts: readonly PublishedPost[], siteChanged: Date | undefined): { path: string; lastmod: Date }[] {
  const latest = (...dates: (Date | undefined)[]) => new Date(Math.max(...dates.filter((d): d is Date => !!d).map((d) => d.getTime())));
  const newest = (list: readonly PublishedPost[]) => latest(...list.map((p) => p.updated));
  const out = [{ path: '/blog', lastmod: posts.length ? latest(siteChanged, newest(posts)) : (siteChanged ?? new Date()) }];
  for (const [tag, tagged] of postsByTag(posts)) out.push({ path: tagBase(tag), lastmod: latest(siteChanged, newest(tagged)) });
  for (const p of posts) out.push({ path: postPath(p.content.slug), lastmod: latest(siteChanged, p.updated) });
  return out;
}
