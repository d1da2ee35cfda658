/**
 * The SQL of her journal's posts (issue 22, decision 0021). A post is a row of `pages` with kind
 * 'post' and the key `post/<id>`; its drafts, version check and revisions are the pages' own
 * (pages.repo.ts saveDraft, publishRevision, findRevision, listRevisions), so pages and posts
 * publish the same way. What only posts have: a public slug inside the content (unique among
 * posts), a schedule, a date, and the newsletter made of it. Locking functions take a `Transaction`.
 */
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { DB } from '../../db/client.ts';
import { publishRevision } from './pages.repo.ts';
import { instantKey, keysetPage, type ListKeys } from '../lib/pages.repo.ts';

/** The row key of a post: never a page's slug (those have no '/'). */
export const postKey = (id: string) => `post/${id}`;
export const POST_KEY_PREFIX = 'post/';
/** A post's old public address kept in page_redirects (from_slug), answering 301 to where it is now. */
export const redirectKey = (slug: string) => `blog/${slug}`;

export interface PostRow {
  id: string;
  key: string;
  draft: unknown;
  draftVersion: number;
  published: unknown;
  publishedRevision: number | null;
  publishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  publishAt: Date | null;
  firstPublishedAt: Date | null;
  newsletterId: string | null;
  newsletterSentAt: Date | null;
}

const COLUMNS = [
  'slug',
  'draft',
  'draftVersion',
  'published',
  'publishedRevision',
  'publishedAt',
  'createdAt',
  'updatedAt',
  'publishAt',
  'firstPublishedAt',
  'newsletterId',
  'newsletterSentAt',
] as const;

const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));
type Selected = { slug: string; draft: string; published: string | null } & Omit<PostRow, 'id' | 'key' | 'draft' | 'published'>;
const toRow = ({ slug, draft, published, ...rest }: Selected): PostRow => ({
  ...rest,
  id: slug.slice(POST_KEY_PREFIX.length),
  key: slug,
  draft: parse(draft),
  published: parse(published),
});

/** A unique index refused the write (the post slug's): PostgreSQL and PGlite both say 23505. */
export const isUniqueViolation = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === '23505';

/** The list's order: a post's date (its first publish), a draft's when it was made; then its key. Served by the index pages_post_list (0037). */
const POST_KEYS: ListKeys = [
  { column: sql`coalesce(first_published_at, created_at)`, kind: 'instant' },
  { column: 'slug', kind: 'id' },
];

/**
 * A page of posts, newest first (api/lib/pages.repo.ts: a keyset on the indexed order, so the
 * thousandth page costs what the first does), those whose draft's title holds `q` when given;
 * one row more than `limit`, with the cursor's keys (api/lib/pages.ts answerPage).
 */
export async function listPosts(db: DB, page: { limit: number; after?: string[] | undefined; q?: string | undefined }) {
  let query = db
    .selectFrom('pages')
    .select([...COLUMNS, instantKey(sql`coalesce(first_published_at, created_at)`).as('cursorAt')])
    .where('kind', '=', 'post');
  const { q } = page;
  if (q) query = query.where(sql<boolean>`draft::jsonb ->> 'title' ilike ${`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
  const rows = await keysetPage(query, { limit: page.limit, after: page.after }, POST_KEYS, 'desc').execute();
  return rows.map(({ cursorAt, ...row }) => ({ ...toRow(row), cursorAt }));
}

export async function findPost(db: DB | Transaction<Database>, id: string): Promise<PostRow | undefined> {
  const row = await db.selectFrom('pages').select(COLUMNS).where('slug', '=', postKey(id)).where('kind', '=', 'post').executeTakeFirst();
  return row && toRow(row);
}

async function lockPost(trx: Transaction<Database>, id: string): Promise<PostRow | undefined> {
  const row = await trx.selectFrom('pages').select(COLUMNS).where('slug', '=', postKey(id)).where('kind', '=', 'post').forUpdate().executeTakeFirst();
  return row && toRow(row);
}

/**
 * Whether another post has `slug` as its draft's or its published address. The draft's is
 * also held by the unique index pages_post_slug (two saves at once); the published one by this.
 */
export async function slugTaken(db: DB | Transaction<Database>, id: string, slug: string): Promise<boolean> {
  const row = await db
    .selectFrom('pages')
    .select('slug')
    .where('kind', '=', 'post')
    .where('slug', '!=', postKey(id))
    .where(sql<boolean>`(draft::jsonb ->> 'slug' = ${slug} or published::jsonb ->> 'slug' = ${slug})`)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A new post as a draft (scheduled with `publishAt`); undefined when its slug is taken. */
export async function insertPost(db: DB, id: string, content: unknown, publishAt: Date | null): Promise<PostRow | undefined> {
  const row = await db
    .insertInto('pages')
    .values({ slug: postKey(id), kind: 'post', draft: JSON.stringify(content), publishAt })
    // No conflict target: the key's and the post slug's unique indexes both answer "taken".
    .onConflict((oc) => oc.doNothing())
    .returning(COLUMNS)
    .executeTakeFirst();
  return row && toRow(row);
}

/** Saves a draft; with `version`, only if it is still the draft's version. The new version, or undefined. */
export async function savePostDraft(db: DB, id: string, content: unknown, version: number | undefined): Promise<number | undefined> {
  let query = db
    .updateTable('pages')
    .set({ draft: JSON.stringify(content), draftVersion: sql`draft_version + 1`, updatedAt: new Date() })
    .where('slug', '=', postKey(id))
    .where('kind', '=', 'post');
  if (version !== undefined) query = query.where('draftVersion', '=', version);
  const row = await query.returning('draftVersion').executeTakeFirst();
  return row?.draftVersion;
}

const slugOf = (content: unknown): string | undefined => {
  const slug = (content as { slug?: unknown } | null)?.slug;
  return typeof slug === 'string' ? slug : undefined;
};

/**
 * Publishes a post (its draft, or `content` on a restore) as the next revision, in the caller's
 * transaction: its date is set on the first publish, a schedule is done with, and an address it
 * leaves keeps answering with a 301 to the new one (an address it takes is nobody's old one now).
 */
export async function publishPostRevision(
  trx: Transaction<Database>,
  id: string,
  options: { content?: unknown; restoredFrom?: number } = {},
): Promise<{ n: number; publishedAt: Date; before: PostRow; after: PostRow } | undefined> {
  const before = await lockPost(trx, id);
  if (!before) return undefined;
  const published = await publishRevision(trx, postKey(id), options);
  if (!published) return undefined;
  await trx
    .updateTable('pages')
    .set({ firstPublishedAt: sql`coalesce(first_published_at, ${published.publishedAt}::timestamptz)`, publishAt: null })
    .where('slug', '=', postKey(id))
    .execute();
  const after = (await lockPost(trx, id))!;
  const from = slugOf(before.published);
  const to = slugOf(after.published);
  if (to) await trx.deleteFrom('pageRedirects').where('fromSlug', '=', redirectKey(to)).execute();
  if (from && to && from !== to) {
    await trx
      .insertInto('pageRedirects')
      .values({ fromSlug: redirectKey(from), toSlug: postKey(id) })
      .onConflict((oc) => oc.column('fromSlug').doUpdateSet({ toSlug: postKey(id) }))
      .execute();
  }
  return { n: published.n, publishedAt: published.publishedAt, before, after };
}

/**
 * Claims the posts whose time has come, in the caller's transaction: one statement clears
 * their schedule and returns them. A second replica running the same statement at once waits
 * for this transaction's row locks, then finds `publish_at` cleared: each post publishes once.
 */
export async function claimDuePosts(trx: Transaction<Database>, now: Date): Promise<string[]> {
  const rows = await trx.updateTable('pages').set({ publishAt: null }).where('kind', '=', 'post').where('publishAt', '<=', now).returning('slug').execute();
  return rows.map((r) => r.slug.slice(POST_KEY_PREFIX.length));
}

/** Sets (or with null clears) when a post publishes itself. False when there is no such post. */
export async function schedulePost(db: DB, id: string, at: Date | null): Promise<boolean> {
  const r = await db
    .updateTable('pages')
    .set({ publishAt: at, updatedAt: new Date() })
    .where('slug', '=', postKey(id))
    .where('kind', '=', 'post')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Off the site: its draft, history and date stay; a schedule is cancelled too. */
export async function unpublishPost(db: DB, id: string): Promise<boolean> {
  const r = await db
    .updateTable('pages')
    .set({ published: null, publishedRevision: null, publishedAt: null, publishAt: null, updatedAt: new Date() })
    .where('slug', '=', postKey(id))
    .where('kind', '=', 'post')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The post and its history; its old addresses go with it (page_redirects' foreign key). */
export async function deletePost(db: DB, id: string): Promise<boolean> {
  const r = await db.deleteFrom('pages').where('slug', '=', postKey(id)).where('kind', '=', 'post').executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/**
 * What says whether a published post changed: its id, its revision and when it was published
 * (every publish and restore writes both). A few bytes a post, so the journal's pages learn what
 * changed without reading every post's text (render-ahead.ts keeps the parsed posts).
 */
export async function publishedPostHeads(db: DB) {
  const rows = await publishedPosts(db).select(['slug', 'publishedRevision', 'publishedAt']).execute();
  return rows.map((r) => ({ id: r.slug.slice(POST_KEY_PREFIX.length), version: versionOf(r) }));
}

const publishedPosts = (db: DB) => db.selectFrom('pages').where('kind', '=', 'post').where('published', 'is not', null);
const versionOf = (r: { publishedRevision: number | null; publishedAt: Date | null }) => `${r.publishedRevision}:${new Date(r.publishedAt!).getTime()}`;

/** The published posts `ids` (every one when undefined), for the journal's pages, feed and sitemap. */
export async function publishedPostRows(db: DB, ids?: readonly string[]) {
  if (ids?.length === 0) return [];
  let query = publishedPosts(db).select(['slug', 'published', 'publishedRevision', 'publishedAt', 'firstPublishedAt']);
  if (ids)
    query = query.where(
      'slug',
      'in',
      ids.map((id) => postKey(id)),
    );
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.slug.slice(POST_KEY_PREFIX.length),
    version: versionOf(r),
    content: parse(r.published),
    publishedAt: r.publishedAt!,
    date: r.firstPublishedAt ?? r.publishedAt!,
  }));
}

/** Old addresses of posts: `/blog/{old}` → the post's id. */
export async function postRedirects(db: DB): Promise<{ fromSlug: string; id: string }[]> {
  const rows = await db.selectFrom('pageRedirects').select(['fromSlug', 'toSlug']).where('toSlug', 'like', `${POST_KEY_PREFIX}%`).execute();
  return rows.map((r) => ({ fromSlug: r.fromSlug.slice('blog/'.length), id: r.toSlug.slice(POST_KEY_PREFIX.length) }));
}

/**
 * Records, in the caller's transaction, that the post was made into newsletter `newsletterId`:
 * only if it is published and was never sent (the row is locked first, so a second click waits
 * and then finds it sent).
 */
export async function lockPostForNewsletter(trx: Transaction<Database>, id: string): Promise<PostRow | undefined> {
  return lockPost(trx, id);
}

export async function markSentAsNewsletter(trx: Transaction<Database>, id: string, newsletterId: string, now: Date): Promise<void> {
  await trx.updateTable('pages').set({ newsletterId, newsletterSentAt: now }).where('slug', '=', postKey(id)).execute();
}
