import { revisionViews } from './revision-views.ts';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { validateJson, validateOptionalJson, validateParams, validateQuery } from '../validation.ts';
import { answerPage } from '../lib/pages.ts';
import { pageQuery } from '../../contract/paging.ts';
import { NEWSLETTER_SENDING } from '../../contract/backoffice.ts';
import { NEWSLETTER_NO_POSTAL_ADDRESS } from '../../contract/settings.ts';
import {
  createPostBody,
  POST_MESSAGES,
  postNewsletterBody,
  postSlug,
  publishBody,
  savePostBody,
  schedulePostBody,
  slugify,
  type PostDetail,
  type PostListItem,
  type PostState,
} from '../../contract/content.ts';
import { listRevisions } from './pages.repo.ts';
import { findPost, listPosts, postKey, type PostRow } from './posts.repo.ts';
import {
  createPost,
  deletePost,
  previewOf,
  publishPost,
  restorePostRevision,
  savePost,
  schedulePost,
  sendPostAsNewsletter,
  unpublishPost,
  type PostRefusal,
} from './journal.ts';
import { postPath } from './journal-render.ts';

/**
 * /api/admin/posts: her journal (issue 22). Every route is hers alone; drafts and previews never
 * leave it. Handlers validate, call a use-case (api/pages/journal.ts) and map its refusal kinds
 * to status codes (postAnswers: one answer per kind, checked by the compiler).
 */

const idParams = z.object({ id: z.uuid({ error: POST_MESSAGES.notFound }) });
const revisionParams = idParams.extend({ n: z.coerce.number().int().min(1, POST_MESSAGES.noRevision) });

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function stateOf(row: PostRow): PostState {
  if (row.published) return 'published';
  if (row.publishAt) return 'scheduled';
  return row.firstPublishedAt ? 'unpublished' : 'draft';
}

function listItem(row: PostRow): PostListItem {
  const draft = (row.draft ?? {}) as Partial<Record<string, unknown>>;
  const published = row.published as { slug?: string } | null;
  return {
    id: row.id,
    slug: typeof draft.slug === 'string' ? draft.slug : '',
    title: typeof draft.title === 'string' ? draft.title : '',
    state: stateOf(row),
    brand: draft.brand === 'chocolates' ? 'chocolates' : 'yoga',
    tags: Array.isArray(draft.tags) ? (draft.tags as string[]) : [],
    path: published?.slug ? postPath(published.slug) : null,
    publishAt: iso(row.publishAt),
    date: iso(row.firstPublishedAt),
    publishedAt: iso(row.publishedAt),
    updatedAt: new Date(row.updatedAt).toISOString(),
    publishedVersion: row.publishedRevision,
    hasUnpublishedChanges: !same(row.draft, row.published),
    coverImageId: typeof draft.coverImageId === 'string' ? draft.coverImageId : null,
    newsletterSentAt: iso(row.newsletterSentAt),
  };
}

const detail = (row: PostRow): PostDetail => ({ ...listItem(row), content: row.draft as PostDetail['content'], version: row.draftVersion });

/** Each refusal's answer, for every kind a post use-case names (the compiler checks none is missing). */
const postAnswers: { [K in PostRefusal['kind']]: (c: Context<AppEnv>, r: Extract<PostRefusal, { kind: K }>) => Response } = {
  'not-found': (c) => c.json({ message: POST_MESSAGES.notFound }, 404),
  'no-revision': (c) => c.json({ message: POST_MESSAGES.noRevision }, 404),
  stale: (c, r) => c.json({ message: POST_MESSAGES.stale, version: r.currentVersion }, 409),
  'slug-taken': (c) => c.json({ message: POST_MESSAGES.slugTaken, issues: [{ path: 'slug', message: POST_MESSAGES.slugTaken }] }, 409),
  invalid: (c, r) => c.json({ message: r.message, issues: r.issues }, 400),
  'already-sent': (c) => c.json({ message: POST_MESSAGES.alreadySent }, 409),
  'not-published': (c) => c.json({ message: POST_MESSAGES.notPublished }, 409),
  'no-subscribers': (c) => c.json({ message: POST_MESSAGES.noSubscribers }, 409),
  'no-postal-address': (c) => c.json({ message: NEWSLETTER_NO_POSTAL_ADDRESS }, 409),
};

/** A use-case's refusal → its answer. */
const refusal = (c: Context<AppEnv>, r: PostRefusal) => (postAnswers[r.kind] as (c: Context<AppEnv>, r: PostRefusal) => Response)(c, r);

/** The content of a PUT: `{ content, version }`, or the post's fields themselves (with `version` beside them). */
function putContent(body: Record<string, unknown>): { content: unknown; version: unknown } {
  if (Object.hasOwn(body, 'content')) return { content: body.content, version: body.version };
  const { version, ...content } = body;
  return { content, version };
}

/** The journal's list pages as every admin list does (contract/paging.ts): by its date, then its key. */
const postListQuery = pageQuery(['instant', 'id']);

export const adminPosts = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/', validateQuery(postListQuery), async (c) => {
    const { limit, cursor, q } = c.req.valid('query');
    const rows = await listPosts(c.var.services.db, { limit, after: cursor, q });
    return answerPage(c, rows, limit, (r) => [r.cursorAt, r.key], listItem);
  })
  .post('/', validateJson(createPostBody), async (c) => {
    const { slug: given, publishAt, ...rest } = c.req.valid('json');
    // A slug made from the title meets the same rules as a typed one.
    const slug = postSlug.safeParse(given ?? slugify(rest.title));
    if (!slug.success)
      return c.json({ message: `slug: ${slug.error.issues[0]!.message}`, issues: [{ path: 'slug', message: slug.error.issues[0]!.message }] }, 400);
    const created = await createPost(c.var.services, { ...rest, slug: slug.data }, publishAt);
    if (!created.ok) return refusal(c, created);
    const row = created.value;
    return c.json({ id: row.id, slug: slug.data, version: row.draftVersion, state: stateOf(row), publishAt: iso(row.publishAt) }, 201);
  })
  .get('/:id', validateParams(idParams), async (c) => {
    const row = await findPost(c.var.services.db, c.req.valid('param').id);
    if (!row) return c.json({ message: POST_MESSAGES.notFound }, 404);
    return c.json(detail(row));
  })
  .put('/:id', validateParams(idParams), async (c) => {
    if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) {
      return c.json({ message: 'Send the request body as JSON (Content-Type: application/json)' }, 415);
    }
    const raw = (await c.req.json().catch(() => null)) as unknown;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return c.json({ message: 'Send the post as a JSON object: { content, version }' }, 400);
    // The version is optional (without it the save is not checked); when sent, it must be one.
    const checked = savePostBody.safeParse(putContent(raw as Record<string, unknown>));
    if (!checked.success) return c.json({ message: 'version: must be a whole number', issues: [{ path: 'version', message: 'must be a whole number' }] }, 400);
    const { content, version } = checked.data;
    const { id } = c.req.valid('param');
    const saved = await savePost(c.var.services, id, content, version);
    if (!saved.ok) return refusal(c, saved);
    const row = (await findPost(c.var.services.db, id))!;
    return c.json({ version: saved.value, hasUnpublishedChanges: !same(row.draft, row.published), state: stateOf(row) });
  })
  .delete('/:id', validateParams(idParams), async (c) => {
    const deleted = await deletePost(c.var.services, c.req.valid('param').id);
    if (!deleted.ok) return refusal(c, deleted);
    return c.json({ deleted: true });
  })
  .post('/:id/publish', validateParams(idParams), validateOptionalJson(publishBody), async (c) => {
    // An optional { version }: publish only the draft the editor last saw.
    const { version } = c.req.valid('json');
    const published = await publishPost(c.var.services, c.req.valid('param').id, version);
    if (!published.ok) return refusal(c, published);
    const { revision, publishedAt, path } = published.value;
    return c.json({ revision, publishedAt: publishedAt.toISOString(), path });
  })
  .post('/:id/schedule', validateParams(idParams), validateJson(schedulePostBody), async (c) => {
    const at = await schedulePost(c.var.services, c.req.valid('param').id, c.req.valid('json').at);
    if (!at.ok) return refusal(c, at);
    const row = (await findPost(c.var.services.db, c.req.valid('param').id))!;
    return c.json({ publishAt: iso(at.value), state: stateOf(row) });
  })
  .post('/:id/unpublish', validateParams(idParams), async (c) => {
    const unpublished = await unpublishPost(c.var.services, c.req.valid('param').id);
    if (!unpublished.ok) return refusal(c, unpublished);
    return c.json({ unpublished: true });
  })
  .get('/:id/revisions', validateParams(idParams), async (c) => {
    const { db } = c.var.services;
    const { id } = c.req.valid('param');
    const post = await findPost(db, id);
    if (!post) return c.json({ message: POST_MESSAGES.notFound }, 404);
    const revisions = await listRevisions(db, postKey(id));
    return c.json(revisionViews(revisions, post.publishedRevision));
  })
  .post('/:id/revisions/:n/restore', validateParams(revisionParams), async (c) => {
    const { id, n } = c.req.valid('param');
    const restored = await restorePostRevision(c.var.services, id, n);
    if (!restored.ok) return refusal(c, restored);
    const { revision, publishedAt, restoredFrom } = restored.value;
    return c.json({ revision, publishedAt: publishedAt.toISOString(), restoredFrom });
  })
  .get('/:id/preview', validateParams(idParams), async (c) => {
    const { db, publisher } = c.var.services;
    const row = await findPost(db, c.req.valid('param').id);
    if (!row) return c.json({ message: POST_MESSAGES.notFound }, 404);
    const preview = previewOf(row);
    if (!preview.ok) return refusal(c, preview);
    const html = await publisher.previewPost(preview.value);
    if (html === undefined) return c.json({ message: POST_MESSAGES.previewUnavailable }, 503);
    return c.html(html, 200, { 'cache-control': 'no-store', 'x-robots-tag': 'noindex' });
  })
  .post('/:id/newsletter', validateParams(idParams), validateOptionalJson(postNewsletterBody), async (c) => {
    const sent = await sendPostAsNewsletter(c.var.services, c.req.valid('param').id, c.req.valid('json').full);
    if (!sent.ok) return refusal(c, sent);
    const { newsletterId, total, sentAt } = sent.value;
    return c.json({ message: NEWSLETTER_SENDING, newsletterId, total, newsletterSentAt: sentAt.toISOString() }, 202);
  });
