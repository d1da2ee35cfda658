import { revisionViews } from './revision-views.ts';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { answer, type Answers } from '../middleware/answers.ts';
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
import { createPage, deletePage, publishPage, renamePage, restoreRevision, saveDraft, unpublishPage, type PageRefusal } from './publishing.ts';

/**
 * /api/admin/pages: the teacher's pages (issue 19). Every route is hers alone; drafts and
 * previews never leave it. Handlers validate, call a use-case (api/pages/publishing.ts) and
 * map its refusal kinds to status codes (pageAnswers: one answer per kind, checked by the compiler).
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

const pageAnswers: Answers<PageRefusal> = {
  'not-found': (c) => c.json({ message: PAGE_MESSAGES.notFound }, 404),
  stale: (c, r) => c.json({ message: PAGE_MESSAGES.stale, version: r.currentVersion }, 409),
  'slug-taken': (c) => c.json({ message: PAGE_MESSAGES.slugTaken, issues: [{ path: 'slug', message: PAGE_MESSAGES.slugTaken }] }, 409),
  invalid: (c, r) => c.json({ message: r.message, issues: r.issues }, 400),
  'builtin-only': (c) => c.json({ message: PAGE_MESSAGES.builtinOnly }, 400),
};

/** A restore names the revision: a page or revision not there is "No such revision". */
const restoreAnswers: Answers<PageRefusal> = { ...pageAnswers, 'not-found': (c) => c.json({ message: PAGE_MESSAGES.noRevision }, 404) };

/** A use-case's refusal → its answer. */
const refusal = (c: Context<AppEnv>, r: PageRefusal, answers = pageAnswers) => answer(c, answers, r);

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
    const created = await createPage(c.var.services, checked.data, content);
    if (!created.ok) return refusal(c, created);
    return c.json({ slug: created.value.slug, version: created.value.draftVersion, path: null }, 201);
  })
  .get('/:slug', validateParams(slugParams), async (c) => {
    const row = await findPage(c.var.services.db, c.req.valid('param').slug);
    if (!row) return c.json({ message: PAGE_MESSAGES.notFound }, 404);
    return c.json(detail(row));
  })
  .put('/:slug', validateParams(slugParams), validateJson(savePageBody), async (c) => {
    const { slug } = c.req.valid('param');
    const { content, version } = c.req.valid('json');
    const saved = await saveDraft(c.var.services, slug, content, version);
    if (!saved.ok) return refusal(c, saved);
    const row = (await findPage(c.var.services.db, slug))!;
    return c.json({ version: saved.value, hasUnpublishedChanges: !same(row.draft, row.published) });
  })
  .delete('/:slug', validateParams(slugParams), async (c) => {
    const deleted = await deletePage(c.var.services, c.req.valid('param').slug);
    if (!deleted.ok) return refusal(c, deleted);
    return c.json({ deleted: true });
  })
  .post('/:slug/publish', validateParams(slugParams), validateOptionalJson(publishBody), async (c) => {
    // An optional { version }: publish only the draft the editor last saw.
    const { version } = c.req.valid('json');
    const published = await publishPage(c.var.services, c.req.valid('param').slug, version);
    if (!published.ok) return refusal(c, published);
    const { revision, publishedAt } = published.value;
    return c.json({ revision, publishedAt: publishedAt.toISOString() });
  })
  .post('/:slug/unpublish', validateParams(slugParams), async (c) => {
    const unpublished = await unpublishPage(c.var.services, c.req.valid('param').slug);
    if (!unpublished.ok) return refusal(c, unpublished);
    return c.json({ unpublished: true });
  })
  .post('/:slug/rename', validateParams(slugParams), validateJson(renamePageBody), async (c) => {
    const { slug: to } = c.req.valid('json');
    const served = servedSlugRefusal(to);
    if (served) return c.json(served, 400);
    const renamed = await renamePage(c.var.services, c.req.valid('param').slug, to);
    if (!renamed.ok) return refusal(c, renamed);
    return c.json({ slug: to });
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
    const restored = await restoreRevision(c.var.services, slug, n);
    if (!restored.ok) return refusal(c, restored, restoreAnswers);
    const { revision, publishedAt, restoredFrom } = restored.value;
    return c.json({ revision, publishedAt: publishedAt.toISOString(), restoredFrom });
  })
  .get('/:slug/preview', validateParams(slugParams), async (c) => {
    const { db, publisher } = c.var.services;
    const row = await findPage(db, c.req.valid('param').slug);
    if (!row) return c.json({ message: PAGE_MESSAGES.notFound }, 404);
    const html = await publisher.preview(row.slug, row.draft);
    if (html === undefined) return c.json({ message: PAGE_MESSAGES.previewUnavailable }, 503);
    return c.html(html, 200, { 'cache-control': 'no-store', 'x-robots-tag': 'noindex' });
  });
