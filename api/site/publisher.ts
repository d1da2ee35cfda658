/**
 * The page publisher as every wing and the server may name it (Services.publisher): what
 * changed, a page made ahead, the renderer it starts with, the journal's posts it shows. Types
 * only: api/pages/render-ahead.ts makes the publisher (createPublisher), the composition root
 * (api/boot.ts) builds it once per process, and a wing asks it to regenerate what a change
 * touches (api/middleware/regenerate-after.ts) without importing the pages wing.
 */
import type { BuiltinSlug, PostContent, RenderContext } from '../../contract/content.ts';

/** A published post of her journal. */
export interface PublishedPost {
  id: string;
  content: PostContent;
  /** Its date: the first publish. */
  date: Date;
  /** Its last publish. */
  updated: Date;
}

/** Where a post is (or was) on the journal: what a change of it touches. */
export interface PostPlace {
  slug: string;
  tags: string[];
  date: Date;
}

/** Renders one of the site's render-ahead routes (site/pages/render-ahead/<route>.astro) with a context. */
export type PageRenderer = (route: string, context: RenderContext) => Promise<{ status: number; html: string }>;

/** What changed, so only what shows it is made again. */
export type Change =
  | { kind: 'all' }
  | { kind: 'builtin'; slug: BuiltinSlug }
  /** One of her pages; `navigation`: its link in a navigation bar or footer came, went or changed. */
  | { kind: 'custom'; slug: string; navigation: boolean; gone?: boolean; renamedFrom?: string }
  | { kind: 'facts'; facts: 'products' | 'classes' | 'packages' }
  /** A post of her journal (issue 22): where it was published before the change, and is after (null: not published). */
  | { kind: 'journal'; id: string; before: PostPlace | null; after: PostPlace | null };

export interface CachedPage {
  status: number;
  contentType: string;
  body: string;
  etag: string;
  br: Buffer;
  gzip: Buffer;
}

export interface Publisher {
  /** The page to serve for a path, if one was rendered ahead. */
  lookup(path: string): CachedPage | undefined;
  /**
   * A page of the journal not in memory (stale since a change moved its cards, or never made for
   * this build), made now and stored for every replica; undefined at once for any other path,
   * and the promise's undefined: nothing is served there.
   */
  renderOnDemand(path: string): Promise<CachedPage | undefined> | undefined;
  /** The published content for on-demand pages (client and admin areas): navigation and footer. */
  liveContext(path: string): RenderContext | undefined;
  /** Renders what a change touches, stores it, and serves it here at once (others within RENDER_POLL_MS). */
  regenerate(change: Change): Promise<void>;
  /** A preview: the real page rendered with a draft in place of the published content. */
  preview(slug: string, draft: unknown): Promise<string | undefined>;
  /** A post's preview: its page as it will be, among the published posts. */
  previewPost(post: PublishedPost): Promise<string | undefined>;
  /** Loads rows newer than what this process has. */
  refresh(): Promise<void>;
  /** Server start: the renderer, a first load, a render of everything, then the poll. */
  start(renderer: PageRenderer, pollMs: number): Promise<() => Promise<void>>;
  readonly rendering: boolean;
}
