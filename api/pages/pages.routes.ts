import { revisionViews } from './revision-views.ts';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { validateJson, validateOptionalJson, validateParams } from '../validation.ts';
import {
  BUILTIN_PATHS,
  BUILTIN_TITLES,
  createPageBody,
  customPageContent,
  isBuiltinSlug,
  PAGE_MESSAGES,
  publishBody,
  renamePageBody,
  savePageBody,
  slugify,
  pageSlug,
  type PageDetail,
  type PageListItem,
} from '../../contract/content.ts';
import { findPage, listPages, listRevisions, type PageRow } from './pages.repo.ts';
import { servedSlugRefusal } from './served-paths.ts';
import {
  BuiltinOnly,
  createPage,
  deletePage,
  InvalidContent,
  PageNotFound,
  publishPage,
  renamePage,
  restoreRevision,
  saveDraft,
  SlugTaken,
  StaleVersion,
  unpublishPage,
} from './publishing.ts';

/**
 * /api/admin/pages: the teacher's pages (issue 19). Every route is hers alone; drafts and
 * previews never leave it. Handlers validate, call a use-case (api/pages/publishing.ts) and
 * map its refusals to status codes.
 */

const slugParams = z.object({
  slug: z
    .string()
    .min(1)
    .max(80)
    .regex(/^[a-z0-9-]+$/, 'No such page'),
});
const revisionParams = slugParams.extend({ n: z.coerce.number().int().min(1, 'No such revision') });

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function titleOf(row: PageRow): string {
  if (isBuiltinSlug(row.slug)) return BUILTIN_TITLES[row.slug];
  const parsed = customPageContent.safeParse(row.draft);
  return parsed.success ? parsed.data.title : row.slug;
}
function pathOf(row: PageRow): string | null {
  if (isBuiltinSlug(row.slug)) return BUILTIN_PATHS[row.slug];
  return row.published ? `/${row.slug}` : null;
}

const listItem = (row: PageRow): PageListItem => ({
  slug: row.slug,
  kind: row.kind,
  title: titleOf(row),
  path: pathOf(row),
  updatedAt: new Date(row.updatedAt).toISOString(),
  publishedVersion: row.publishedRevision,
  publishedAt: iso(row.publishedAt),
  hasUnpublishedChanges: !same(row.draft, row.published),
  ...(row.kind === 'custom' ? { brand: (row.draft as { brand?: 'yoga' | 'chocolates' }).brand } : {}),
});

const detail = (row: PageRow): PageDetail => ({
  slug: row.slug,
  kind: row.kind,
  path: pathOf(row),
  content: row.draft,
  version: row.draftVersion,
  publishedVersion: row.publishedRevision,
  publishedAt: iso(row.publishedAt),
  hasUnpublishedChanges: !same(row.draft, row.published),
});

/** A use-case's named refusal → its status; anything else is a real failure. */
function refusal(c: Context<AppEnv>, err: unknown) {
  if (err instanceof PageNotFound) return c.json({ message: err.message }, 404);
  if (err instanceof StaleVersion) return c.json({ message: err.message, version: err.currentVersion }, 409);
  if (err instanceof SlugTaken) return c.json({ message: err.message, issues: [{ path: 'slug', message: err.message }] }, 409);
  if (err instanceof InvalidContent) return c.json({ message: err.message, issues: err.issues }, 400);
  if (err instanceof BuiltinOnly) return c.json({ message: err.message }, 400);
  throw err;
}

export const adminPages = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/', async (c) => c.json((await listPages(c.var.services.db)).map(listItem)))
  .post('/', validateJson(createPageBody), async (c) => {
    const { slug: given, ...content } = c.req.valid('json');
    const slug = given ?? slugify(content.title);
    // A slug made from the title meets the same rules as a typed one.
    const checked = pageSlug.safeParse(slug);
    if (!checked.success)
      return c.json({ message: `slug: ${checked.error.issues[0]!.message}`, issues: [{ path: 'slug', message: checked.error.issues[0]!.message }] }, 400);
    const served = servedSlugRefusal(checked.data);
    if (served) return c.json(served, 400);
    try {
      const row = await createPage(c.var.services, checked.data, content);
      return c.json({ slug: row.slug, version: row.draftVersion, path: null }, 201);
    } catch (err) {
      return refusal(c, err);
    }
  })
  .get('/:slug', validateParams(slugParams), async (c) => {
    const row = await findPage(c.var.services.db, c.req.valid('param').slug);
    if (!row) return c.json({ message: PAGE_MESSAGES.notFound }, 404);
    return c.json(detail(row));
  })
  .put('/:slug', validateParams(slugParams), validateJson(savePageBody), async (c) => {
    const { slug } = c.req.valid('param');
    const { content, version } = c.req.valid('json');
    try {
      const saved = await saveDraft(c.var.services, slug, content, version);
      const row = (await findPage(c.var.services.db, slug))!;
      return c.json({ version: saved, hasUnpublishedChanges: !same(row.draft, row.published) });
    } catch (err) {
      return refusal(c, err);
    }
  })
  .delete('/:slug', validateParams(slugParams), async (c) => {
    try {
      await deletePage(c.var.services, c.req.valid('param').slug);
      return c.json({ deleted: true });
    } catch (err) {
      return refusal(c, err);
    }
  })
  .post('/:slug/publish', validateParams(slugParams), validateOptionalJson(publishBody), async (c) => {
    // An optional { version }: publish only the draft the editor last saw.
    const { version } = c.req.valid('json');
    try {
      const { revision, publishedAt } = await publishPage(c.var.services, c.req.valid('param').slug, version);
      return c.json({ revision, publishedAt: publishedAt.toISOString() });
    } catch (err) {
      return refusal(c, err);
    }
  })
  .post('/:slug/unpublish', validateParams(slugParams), async (c) => {
    try {
      await unpublishPage(c.var.services, c.req.valid('param').slug);
      return c.json({ unpublished: true });
    } catch (err) {
      return refusal(c, err);
    }
  })
  .post('/:slug/rename', validateParams(slugParams), validateJson(renamePageBody), async (c) => {
    const { slug: to } = c.req.valid('json');
    const served = servedSlugRefusal(to);
    if (served) return c.json(served, 400);
    try {
      await renamePage(c.var.services, c.req.valid('param').slug, to);
      return c.json({ slug: to });
    } catch (err) {
      return refusal(c, err);
    }
  })
  .get('/:slug/revisions', validateParams(slugParams), async (c) => {
    const { db } = c.var.services;
    const { slug } = c.req.valid('param');
    const page = await findPage(db, slug);
    if (!page) return c.json({ message: PAGE_MESSAGES.notFound }, 404);
    const revisions = await listRevisions(db, slug);
    return c.json(revisionViews(revisions, page.publishedRevision));
  })
  .post('/:slug/revisions/:n/restore', validateParams(revisionParams), async (c) => {
    const { slug, n } = c.req.valid('param');
    try {
      const { revision, publishedAt, restoredFrom } = await restoreRevision(c.var.services, slug, n);
      return c.json({ revision, publishedAt: publishedAt.toISOString(), restoredFrom });
    } catch (err) {
      if (err instanceof PageNotFound) return c.json({ message: PAGE_MESSAGES.noRevision }, 404);
      return refusal(c, err);
    }
  })
  .get('/:slug/preview', validateParams(slugParams), async (c) => {
    const { db, publisher } = c.var.services;
    const row = await findPage(db, c.req.valid('param').slug);
    if (!row) return c.json({ message: PAGE_MESSAGES.notFound }, 404);
    const html = await publisher.preview(row.slug, row.draft);
    if (html === undefined) return c.json({ message: PAGE_MESSAGES.previewUnavailable }, 503);
    return c.html(html, 200, { 'cache-control': 'no-store', 'x-robots-tag': 'noindex' });
  });
