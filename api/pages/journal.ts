/**
 * Her journal's posts as named use-cases (issue 22, decision 0021): create, save a draft (with
 * the version check), publish, schedule, the scheduled publish (once, whichever replica claims
 * it), restore, unpublish, delete, and send as a newsletter. They are the pages' publishing
 * (pages.repo.ts: the same drafts, revisions and regeneration) with what a post adds. Each commits
 * its database change first, then regenerates what the change shows; refusals are named errors
 * the routes map to status codes.
 */
import { randomUUID } from 'node:crypto';
import { check, type FieldIssue } from '../../contract/check.ts';
import { NEWSLETTER_BODY_MAX } from '../../contract/backoffice.ts';
import { POST_MESSAGES, postContent, type PostContent } from '../../contract/content.ts';
import type { Services } from '../services/index.ts';
import { excerptOf } from '../lib/markdown.ts';
import { insertNewsletter, startSend } from '../backoffice/newsletters.repo.ts';
import { findRevision } from './pages.repo.ts';
import * as repo from './posts.repo.ts';
import { InvalidContent } from './publishing.ts';
import { postPath } from './journal-render.ts';
import type { Change, PostPlace, PublishedPost } from '../site/publisher.ts';

export class PostNotFound extends Error {
  constructor(message: string = POST_MESSAGES.notFound) {
    super(message);
  }
}
export class PostStale extends Error {
  readonly currentVersion: number;
  constructor(currentVersion: number) {
    super(POST_MESSAGES.stale);
    this.currentVersion = currentVersion;
  }
}
export class PostSlugTaken extends Error {
  constructor() {
    super(POST_MESSAGES.slugTaken);
  }
}
/** The newsletter can't be made: not published, sent already, or nobody to send it to. */
export class NewsletterRefused extends Error {}

type Deps = Pick<Services, 'db' | 'publisher'>;

const invalid = (issues: FieldIssue[]) => new InvalidContent(`${issues[0]!.path}: ${issues[0]!.message}`, issues);

/** An image in the text with nothing between its brackets: ![](…). */
const BARE_IMAGE = /!\[\s*\]\(/;

/** Validates a post's content with its schema; a cover and every photo in the text need alt text. */
export function validatePost(content: unknown): PostContent {
  const checked = check(postContent, content);
  if (!checked.ok) throw new InvalidContent(checked.message, checked.issues);
  const post = checked.data;
  const issues: FieldIssue[] = [];
  if (post.coverImageId && !post.coverAlt) issues.push({ path: 'coverAlt', message: POST_MESSAGES.altRequired });
  if (BARE_IMAGE.test(post.body))
    issues.push({ path: 'body', message: 'has a photo without alt text: say what it shows between the brackets, ![like this](/api/images/…)' });
  if (issues.length) throw invalid(issues);
  return post;
}

/** Where a published copy of a post sits on the journal (null: not published). */
export function placeOf(published: unknown, date: Date | null): PostPlace | null {
  const parsed = postContent.safeParse(published);
  if (!parsed.success) return null;
  return { slug: parsed.data.slug, tags: parsed.data.tags, date: date ?? new Date() };
}

const journalChange = (id: string, before: PostPlace | null, after: PostPlace | null): Change => ({ kind: 'journal', id, before, after });

/** A schedule must lie ahead (a minute of grace for a phone's slow clock: due at once then). */
function scheduleTime(at: string, path: string): Date {
  const when = new Date(at);
  if (Number.isNaN(when.getTime()) || when.getTime() < Date.now() - 60_000) throw invalid([{ path, message: POST_MESSAGES.past }]);
  return when;
}

export async function createPost({ db }: Deps, content: unknown, publishAt?: string): Promise<repo.PostRow> {
  const valid = validatePost(content);
  const at = publishAt ? scheduleTime(publishAt, 'publishAt') : null;
  const id = randomUUID();
  if (await repo.slugTaken(db, id, valid.slug)) throw new PostSlugTaken();
  const row = await repo.insertPost(db, id, valid, at);
  if (!row) throw new PostSlugTaken();
  return row;
}

export async function savePost({ db }: Deps, id: string, content: unknown, version?: number): Promise<number> {
  const valid = validatePost(content);
  if (await repo.slugTaken(db, id, valid.slug)) throw new PostSlugTaken();
  let saved: number | undefined;
  try {
    saved = await repo.savePostDraft(db, id, valid, version);
  } catch (err) {
    if (repo.isUniqueViolation(err)) throw new PostSlugTaken();
    throw err;
  }
  if (saved !== undefined) return saved;
  const post = await repo.findPost(db, id);
  if (!post) throw new PostNotFound();
  throw new PostStale(post.draftVersion);
}

export async function publishPost({ db, publisher }: Deps, id: string, version?: number) {
  const current = await repo.findPost(db, id);
  if (!current) throw new PostNotFound();
  if (version !== undefined && version !== current.draftVersion) throw new PostStale(current.draftVersion);
  // Valid when saved; checked again in case the schema grew since.
  const valid = validatePost(current.draft);
  if (await repo.slugTaken(db, id, valid.slug)) throw new PostSlugTaken();
  const done = await db.transaction().execute((trx) => repo.publishPostRevision(trx, id));
  if (!done) throw new PostNotFound();
  await publisher.regenerate(
    journalChange(id, placeOf(done.before.published, done.before.firstPublishedAt), placeOf(done.after.published, done.after.firstPublishedAt)),
  );
  return { revision: done.n, publishedAt: done.publishedAt, path: postPath(valid.slug) };
}

export async function restorePostRevision({ db, publisher }: Deps, id: string, n: number) {
  const current = await repo.findPost(db, id);
  if (!current) throw new PostNotFound();
  const revision = await findRevision(db, repo.postKey(id), n);
  if (!revision) throw new PostNotFound(POST_MESSAGES.noRevision);
  // An old revision may predate a field the schema now requires: say so rather than publish it.
  const content = validatePost(revision.content);
  if (await repo.slugTaken(db, id, content.slug)) throw new PostSlugTaken();
  let done;
  try {
    done = await db.transaction().execute((trx) => repo.publishPostRevision(trx, id, { content, restoredFrom: n }));
  } catch (err) {
    if (repo.isUniqueViolation(err)) throw new PostSlugTaken();
    throw err;
  }
  if (!done) throw new PostNotFound();
  await publisher.regenerate(
    journalChange(id, placeOf(done.before.published, done.before.firstPublishedAt), placeOf(done.after.published, done.after.firstPublishedAt)),
  );
  return { revision: done.n, publishedAt: done.publishedAt, restoredFrom: n };
}

/** Schedules the saved draft to publish itself at `at`, or (null) cancels its schedule. */
export async function schedulePost({ db }: Deps, id: string, at: string | null): Promise<Date | null> {
  const current = await repo.findPost(db, id);
  if (!current) throw new PostNotFound();
  const when = at === null ? null : scheduleTime(at, 'at');
  if (when) validatePost(current.draft);
  if (!(await repo.schedulePost(db, id, when))) throw new PostNotFound();
  return when;
}

export async function unpublishPost({ db, publisher }: Deps, id: string): Promise<void> {
  const before = await repo.findPost(db, id);
  if (!before) throw new PostNotFound();
  await repo.unpublishPost(db, id);
  const place = placeOf(before.published, before.firstPublishedAt);
  if (place) await publisher.regenerate(journalChange(id, place, null));
}

export async function deletePost({ db, publisher }: Deps, id: string): Promise<void> {
  const before = await repo.findPost(db, id);
  if (!before) throw new PostNotFound();
  await repo.deletePost(db, id);
  const place = placeOf(before.published, before.firstPublishedAt);
  if (place) await publisher.regenerate(journalChange(id, place, null));
}

/**
 * The scheduler's tick (every JOURNAL_SCHEDULE_MS in each process): claims the posts whose time
 * has come and publishes them in the same transaction, so a crash between the two leaves the
 * schedule in place and two replicas never publish one post twice; then makes their pages. A
 * post whose draft can no longer be published (its slug taken since, a schema grown) stays a
 * draft, unscheduled, and the log says why.
 */
export async function publishDuePosts({ db, publisher }: Deps, now = new Date()): Promise<string[]> {
  const changes = await db.transaction().execute(async (trx) => {
    const ids = await repo.claimDuePosts(trx, now);
    const out: Change[] = [];
    for (const id of ids) {
      const row = await repo.findPost(trx, id);
      if (!row) continue;
      let valid: PostContent;
      try {
        valid = validatePost(row.draft);
      } catch (err) {
        console.error(`[journal] scheduled post ${id} not published: ${err instanceof Error ? err.message : err}`);
        continue;
      }
      if (await repo.slugTaken(trx, id, valid.slug)) {
        console.error(`[journal] scheduled post ${id} not published: /blog/${valid.slug} is another post's`);
        continue;
      }
      const done = await repo.publishPostRevision(trx, id);
      if (done)
        out.push(journalChange(id, placeOf(done.before.published, done.before.firstPublishedAt), placeOf(done.after.published, done.after.firstPublishedAt)));
    }
    return out;
  });
  for (const change of changes) {
    await publisher.regenerate(change).catch((err: unknown) => {
      console.error('[journal] a scheduled post was published but its pages not made:', err instanceof Error ? err.message : err);
    });
  }
  return changes.map((c) => (c.kind === 'journal' ? c.id : ''));
}

/** The draft as its page will look: for the preview, among the published posts. */
export function previewOf(row: repo.PostRow): PublishedPost {
  const content = validatePost(row.draft);
  return { id: row.id, content, date: row.firstPublishedAt ?? new Date(), updated: new Date() };
}

// ---------------------------------------------------------------------------------------------
// Send as a newsletter

const SUBJECT_MAX = 150;

/**
 * The newsletter's Markdown: the cover (its 1200×630 JPEG, which every mail program shows), the
 * excerpt or the whole post, and a link to the post; every address absolute. A whole post too
 * long for a newsletter goes as its excerpt.
 */
export function newsletterOf(post: PostContent, siteUrl: string, full: boolean): { subject: string; body: string } {
  const origin = siteUrl.replace(/\/+$/, '');
  const url = `${origin}${postPath(post.slug)}`;
  const cover = post.coverImageId ? `![${(post.coverAlt ?? '').replace(/[[\]]/g, '')}](${origin}/api/images/${post.coverImageId}/og.jpg)\n\n` : '';
  const link = `[Read “${post.title.replace(/[[\]]/g, '')}” on the journal](${url})`;
  const excerpt = post.excerpt || excerptOf(post.body, 400);
  // Her photos in the text are paths on this site: a mail needs the whole address.
  const whole = post.body.replace(/\]\(\s*\/api\/images\//g, `](${origin}/api/images/`);
  const build = (text: string) => `${cover}${text}\n\n${link}\n`;
  const body = full && build(whole).length <= NEWSLETTER_BODY_MAX ? build(whole) : build(excerpt);
  const subject = post.title.length > SUBJECT_MAX ? `${post.title.slice(0, SUBJECT_MAX - 1).trimEnd()}…` : post.title;
  return { subject, body };
}

/**
 * One step from a published post to a newsletter on its way: the newsletter is made, every
 * subscriber gets one outbox row (the existing sender mails them, with the RFC 8058 headers),
 * and the post records it, all in one transaction: a second send (a second tab, a double tap)
 * waits for the post's lock and is refused.
 */
export async function sendPostAsNewsletter({ db, env }: Pick<Services, 'db' | 'env'>, id: string, full: boolean) {
  return db.transaction().execute(async (trx) => {
    const row = await repo.lockPostForNewsletter(trx, id);
    if (!row) throw new PostNotFound();
    if (row.newsletterId || row.newsletterSentAt) throw new NewsletterRefused(POST_MESSAGES.alreadySent);
    const parsed = postContent.safeParse(row.published);
    if (!parsed.success) throw new NewsletterRefused(POST_MESSAGES.notPublished);
    const letter = newsletterOf(parsed.data, env.SITE_URL, full);
    const newsletter = await insertNewsletter(trx, letter);
    const now = new Date();
    const started = await startSend(trx, newsletter.id, now);
    // Nobody to send to: the transaction is undone, newsletter and all; she can send it later.
    if (!started.ok) throw new NewsletterRefused(POST_MESSAGES.noSubscribers);
    await repo.markSentAsNewsletter(trx, id, newsletter.id, now);
    return { newsletterId: newsletter.id, total: started.total, sentAt: now };
  });
}
