/**
 * The SQL of pages: drafts with a version check, revisions, redirects. Content is JSON text
 * (db/migrations/0012_pages.ts says why). Locking functions take a `Transaction`.
 */
import { createHash } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { DB } from '../../db/client.ts';

export interface PageRow {
  slug: string;
  kind: 'builtin' | 'custom';
  draft: unknown;
  draftVersion: number;
  published: unknown;
  publishedRevision: number | null;
  publishedAt: Date | null;
  updatedAt: Date;
}

const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));
const toRow = (r: {
  slug: string;
  kind: 'builtin' | 'custom' | 'post';
  draft: string;
  draftVersion: number;
  published: string | null;
  publishedRevision: number | null;
  publishedAt: Date | null;
  updatedAt: Date;
}): PageRow => ({ ...r, kind: r.kind as PageRow['kind'], draft: parse(r.draft), published: parse(r.published) });

const COLUMNS = ['slug', 'kind', 'draft', 'draftVersion', 'published', 'publishedRevision', 'publishedAt', 'updatedAt'] as const;

/** A stable fingerprint of what a revision says (the waiver's sign-ups keep it). */
export const contentHash = (content: unknown): string => createHash('sha256').update(JSON.stringify(content)).digest('hex');

/** The site's pages and hers; journal posts (kind 'post', api/pages/posts.repo.ts) are listed on their own. */
export async function listPages(db: DB): Promise<PageRow[]> {
  const rows = await db.selectFrom('pages').select(COLUMNS).where('kind', '!=', 'post').orderBy('kind').orderBy('slug').execute();
  return rows.map(toRow);
}

export async function findPage(db: DB | Transaction<Database>, slug: string): Promise<PageRow | undefined> {
  const row = await db.selectFrom('pages').select(COLUMNS).where('slug', '=', slug).executeTakeFirst();
  return row && toRow(row);
}

async function lockPage(trx: Transaction<Database>, slug: string): Promise<PageRow | undefined> {
  const row = await trx.selectFrom('pages').select(COLUMNS).where('slug', '=', slug).forUpdate().executeTakeFirst();
  return row && toRow(row);
}

/** The slugs of the built-in pages the database holds (seed-pages.ts adds the others). */
export async function builtinSlugsPresent(db: DB): Promise<string[]> {
  return (await db.selectFrom('pages').select('slug').where('kind', '=', 'builtin').execute()).map((r) => r.slug);
}

/**
 * A built-in page from its YAML, published as revision 1, unless the page exists: a database
 * with content is never overwritten by the files. Returns whether it inserted.
 */
export async function insertBuiltinIfMissing(db: DB, slug: string, content: unknown): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const json = JSON.stringify(content);
    const inserted = await trx
      .insertInto('pages')
      .values({ slug, kind: 'builtin', draft: json, published: json, publishedRevision: 1, publishedAt: new Date() })
      .onConflict((oc) => oc.column('slug').doNothing())
      .returning('slug')
      .executeTakeFirst();
    if (!inserted) return false;
    await trx
      .insertInto('pageRevisions')
      .values({ slug, n: 1, content: json, changed: JSON.stringify(['created']), textHash: contentHash(content) })
      .execute();
    return true;
  });
}

export async function insertCustomPage(db: DB, slug: string, content: unknown): Promise<PageRow | undefined> {
  const row = await db
    .insertInto('pages')
    .values({ slug, kind: 'custom', draft: JSON.stringify(content) })
    .onConflict((oc) => oc.column('slug').doNothing())
    .returning(COLUMNS)
    .executeTakeFirst();
  if (row) await db.deleteFrom('pageRedirects').where('fromSlug', '=', slug).execute();
  return row && toRow(row);
}

/** Saves a draft if `version` is still the draft's version; undefined when it isn't (or no page). */
export async function saveDraft(db: DB, slug: string, content: unknown, version: number): Promise<number | undefined> {
  const row = await db
    .updateTable('pages')
    .set({ draft: JSON.stringify(content), draftVersion: sql`draft_version + 1`, updatedAt: new Date() })
    .where('slug', '=', slug)
    .where('draftVersion', '=', version)
    .returning('draftVersion')
    .executeTakeFirst();
  return row?.draftVersion;
}

/** Dotted paths where two contents differ (lists by index), for the history's "what changed". */
export function changedPaths(before: unknown, after: unknown, prefix = ''): string[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  const bothObjects = before && after && typeof before === 'object' && typeof after === 'object' && Array.isArray(before) === Array.isArray(after);
  if (!bothObjects) return [prefix || '(all)'];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  const out: string[] = [];
  for (const key of keys) {
    out.push(...changedPaths((before as Record<string, unknown>)[key], (after as Record<string, unknown>)[key], prefix ? `${prefix}.${key}` : key));
  }
  return out;
}

/**
 * Publishes `content` (the draft, or a restored revision) as the next revision. With
 * `asDraftToo` the draft becomes that content as well (a restore), bumping its version so an
 * editor still open on the old draft can't overwrite the restore silently.
 */
export async function publishRevision(
  trx: Transaction<Database>,
  slug: string,
  options: { content?: unknown; restoredFrom?: number } = {},
): Promise<{ n: number; publishedAt: Date } | undefined> {
  const page = await lockPage(trx, slug);
  if (!page) return undefined;
  const content = options.content ?? page.draft;
  const last = await trx.selectFrom('pageRevisions').select(['n', 'content']).where('slug', '=', slug).orderBy('n', 'desc').limit(1).executeTakeFirst();
  const n = (last?.n ?? 0) + 1;
  const changed = last ? changedPaths(parse(last.content), content) : ['created'];
  const json = JSON.stringify(content);
  const publishedAt = new Date();
  await trx
    .insertInto('pageRevisions')
    .values({
      slug,
      n,
      content: json,
      changed: JSON.stringify(changed),
      restoredFrom: options.restoredFrom ?? null,
      textHash: contentHash(content),
      publishedAt,
    })
    .execute();
  await trx
    .updateTable('pages')
    .set({
      published: json,
      publishedRevision: n,
      publishedAt,
      updatedAt: publishedAt,
      ...(options.content !== undefined ? { draft: json, draftVersion: sql`draft_version + 1` } : {}),
    })
    .where('slug', '=', slug)
    .execute();
  return { n, publishedAt };
}

export async function findRevision(db: DB | Transaction<Database>, slug: string, n: number) {
  const row = await db.selectFrom('pageRevisions').select(['n', 'content', 'textHash']).where('slug', '=', slug).where('n', '=', n).executeTakeFirst();
  return row && { n: row.n, content: parse(row.content), textHash: row.textHash };
}

export async function listRevisions(db: DB, slug: string) {
  const rows = await db
    .selectFrom('pageRevisions')
    .select(['n', 'publishedAt', 'changed', 'restoredFrom'])
    .where('slug', '=', slug)
    .orderBy('n', 'desc')
    .execute();
  return rows.map((r) => ({ n: r.n, publishedAt: r.publishedAt, changed: parse(r.changed) as string[], restoredFrom: r.restoredFrom }));
}

export async function unpublishPage(db: DB, slug: string): Promise<boolean> {
  const r = await db
    .updateTable('pages')
    .set({ published: null, publishedRevision: null, publishedAt: null, updatedAt: new Date() })
    .where('slug', '=', slug)
    .where('kind', '=', 'custom')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function deletePage(db: DB, slug: string): Promise<boolean> {
  const r = await db.deleteFrom('pages').where('slug', '=', slug).where('kind', '=', 'custom').executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/**
 * Renames a page of hers: its revisions follow (ON UPDATE CASCADE), the old slug answers 301
 * to the new one, and earlier redirects to the old slug now point at the new one.
 */
export async function renamePage(trx: Transaction<Database>, from: string, to: string): Promise<'renamed' | 'missing' | 'taken'> {
  const page = await lockPage(trx, from);
  if (!page || page.kind !== 'custom') return 'missing';
  const taken = await trx.selectFrom('pages').select('slug').where('slug', '=', to).executeTakeFirst();
  if (taken) return 'taken';
  await trx.deleteFrom('pageRedirects').where('fromSlug', '=', to).execute();
  await trx.updateTable('pages').set({ slug: to, updatedAt: new Date() }).where('slug', '=', from).execute();
  await trx.insertInto('pageRedirects').values({ fromSlug: from, toSlug: to }).execute();
  return 'renamed';
}

export async function findRedirect(db: DB, fromSlug: string): Promise<string | undefined> {
  const row = await db.selectFrom('pageRedirects').select('toSlug').where('fromSlug', '=', fromSlug).executeTakeFirst();
  return row?.toSlug;
}

export async function listRedirects(db: DB) {
  return db.selectFrom('pageRedirects').select(['fromSlug', 'toSlug']).execute();
}

/** Every page's published content, for rendering; the site's own pages and hers that are public. */
export async function publishedPages(db: DB) {
  const rows = await db
    .selectFrom('pages')
    .select(['slug', 'kind', 'published', 'publishedAt'])
    .where('published', 'is not', null)
    .where('kind', '!=', 'post')
    .execute();
  return rows.map((r) => ({ slug: r.slug, kind: r.kind as 'builtin' | 'custom', content: parse(r.published), publishedAt: r.publishedAt! }));
}

/** The waiver a student accepts now: its revision and the hash of its text. */
export async function currentWaiver(db: DB | Transaction<Database>): Promise<{ revision: number; hash: string } | undefined> {
  const row = await db
    .selectFrom('pages')
    .innerJoin('pageRevisions', (j) => j.onRef('pageRevisions.slug', '=', 'pages.slug').onRef('pageRevisions.n', '=', 'pages.publishedRevision'))
    .select(['pageRevisions.n', 'pageRevisions.textHash'])
    .where('pages.slug', '=', 'waiver')
    .executeTakeFirst();
  return row && { revision: row.n, hash: row.textHash };
}
