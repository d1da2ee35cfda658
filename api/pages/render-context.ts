/**
 * What a page rendered ahead of the request is handed (contract/content.ts RenderContext):
 * the published content of every page of the site, her photos it names, her pages' links for
 * the navigation, and the facts structured data needs. One query per kind of thing; the
 * chocolates come through the shop's view of them (api/shop/product-views.ts), never its tables;
 * her packages through the packages' view (api/packages/packages.repo.ts packageView).
 */
import {
  BUILTIN_SLUGS,
  customPageContent,
  fillPlaceholders,
  type ClassFact,
  type CustomPageContent,
  type NavLinkView,
  type RenderContext,
  type SiteContent,
} from '../../contract/content.ts';
import type { DB } from '../../db/client.ts';
import { renderMarkdown } from '../lib/markdown.ts';
import { pictureViews } from '../images/images.repo.ts';
import { listProductViews, productFacts } from '../shop/product-views.ts';
import { defaultContent } from '../site/defaults.ts';
import { publishedPages } from './pages.repo.ts';
import { classesWithPlacesTaken } from './render-context.repo.ts';
import { readSettings } from '../settings/settings.repo.ts';
import { listPackages, packageView } from '../packages/packages.repo.ts';

export interface PublishedCustomPage {
  slug: string;
  content: CustomPageContent;
  publishedAt: Date;
}

/** Everything published, read once per regeneration. */
export interface PublishedSource {
  content: SiteContent;
  /** When each built-in page was last published. */
  publishedAt: Partial<Record<string, Date>>;
  custom: PublishedCustomPage[];
}

export async function loadPublished(db: DB): Promise<PublishedSource> {
  const rows = await publishedPages(db);
  const content = { ...defaultContent() } as Record<string, unknown>;
  const publishedAt: Record<string, Date> = {};
  const custom: PublishedCustomPage[] = [];
  for (const row of rows) {
    if (row.kind === 'builtin') {
      if ((BUILTIN_SLUGS as string[]).includes(row.slug)) {
        content[row.slug] = row.content;
        publishedAt[row.slug] = row.publishedAt;
      }
    } else {
      // Saved through the schema; parsed again so defaults (inNavigation…) are filled in.
      const parsed = customPageContent.safeParse(row.content);
      if (parsed.success) custom.push({ slug: row.slug, content: parsed.data, publishedAt: row.publishedAt });
    }
  }
  custom.sort((a, b) => a.slug.localeCompare(b.slug));
  return { content: content as SiteContent, publishedAt, custom };
}

export function extraNavOf(custom: readonly PublishedCustomPage[]): RenderContext['extraNav'] {
  const link = (p: PublishedCustomPage): NavLinkView => ({ label: p.content.title, href: `/${p.slug}` });
  return {
    yoga: custom.filter((p) => p.content.inNavigation && p.content.brand === 'yoga').map(link),
    chocolates: custom.filter((p) => p.content.inNavigation && p.content.brand === 'chocolates').map(link),
    footer: custom.filter((p) => p.content.inFooter).map(link),
  };
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** Her uploaded photos a piece of content names: `/api/images/{id}` strings and `imageId`/`ogImage` fields. */
export function imageIdsIn(value: unknown): string[] {
  const json = JSON.stringify(value) ?? '';
  const ids = new Set<string>();
  for (const m of json.matchAll(new RegExp(`/api/images/(${UUID})`, 'gi'))) ids.add(m[1]!.toLowerCase());
  for (const m of json.matchAll(new RegExp(`"(?:imageId|ogImage)":"(${UUID})"`, 'gi'))) ids.add(m[1]!.toLowerCase());
  return [...ids];
}

/** The classes of the coming eight weeks, with their places left (for schema.org Event). */
export async function classFacts(db: DB, now = new Date()): Promise<ClassFact[]> {
  const rows = await classesWithPlacesTaken(db, now, new Date(now.getTime() + 56 * 86_400_000));
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    description: r.title,
    location: r.location,
    start: new Date(r.startsAt).toISOString(),
    end: null,
    priceCents: null,
    placesLeft: r.isExternal ? null : Math.max(0, r.capacity - r.taken),
  }));
}

export interface ContextOptions {
  path: string;
  page?: PublishedCustomPage;
  facts?: 'products' | 'classes' | 'packages';
  preview?: boolean;
}

/** The context one page is rendered with. */
export async function contextFor(db: DB, source: PublishedSource, options: ContextOptions): Promise<RenderContext> {
  const ids = imageIdsIn([source.content, options.page?.content ?? null]);
  const [views, settings] = await Promise.all([ids.length ? pictureViews(db, ids) : new Map(), readSettings(db)]);
  // Her words with her settings written in where she put a placeholder (issue 30).
  const page = options.page && { ...options.page, content: fillPlaceholders(options.page.content, settings) };
  return {
    path: options.path,
    content: fillPlaceholders(source.content, settings),
    settings,
    images: Object.fromEntries(views),
    extraNav: extraNavOf(source.custom),
    page: page && {
      slug: page.slug,
      content: page.content,
      sectionsHtml: page.content.sections.map((s) => renderMarkdown(s.markdown)),
    },
    products: options.facts === 'products' ? await productFacts(db) : [],
    ...(options.facts === 'products' ? { shop: await listProductViews(db) } : {}),
    classes: options.facts === 'classes' ? await classFacts(db) : [],
    // On /yoga: the packages she offers, as the public API shows them (issue 32).
    ...(options.facts === 'packages' ? { packages: (await listPackages(db, 'active')).map(packageView) } : {}),
    preview: options.preview ?? false,
  };
}
