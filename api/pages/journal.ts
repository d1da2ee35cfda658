/**
 * Her journal's posts as named use-cases (issue 22, decision 0021): create, save a draft (with
 * the version check), publish, schedule, the scheduled publish (once, whichever replica claims
 * it), restore, unpublish, delete, and send as a newsletter. They are the pages' publishing
 * (pages.repo.ts: the same drafts, revisions and regeneration) with what a post adds. Each commits
 * its database change first, then regenerates what the change shows; refusals are returned,
 * `{ ok: false, kind }`, and the routes map every kind to its status (issue 31).
 */
import { randomUUID } from 'node:crypto';
import { check, type FieldIssue } from '../../contract/check.ts';
import { NEWSLETTER_BODY_MAX } from '../../contract/backoffice.ts';
import { POST_MESSAGES, postContent, type PostContent } from '../../contract/content.ts';
import type { Services } from '../services/index.ts';
import { excerptOf } from '../lib/markdown.ts';
import { insertNewsletter, startSend } from '../backoffice/newsletters.repo.ts';
import { postalAddressOf } from '../settings/settings.repo.ts';
import { findRevision } from './pages.repo.ts';
import * as repo from './posts.repo.ts';
import { done, invalidContent, type InvalidContent, type Outcome } from './publishing.ts';
import { postPath } from './journal-render.ts';
import type { Change, PostPlace, PublishedPost } from '../site/publisher.ts';

/**
 * Why a post use-case changed nothing, `{ ok: false, kind }` (issue 31: a name, never an HTTP
 * status; posts.routes.ts maps every kind to its status and words, and the compiler checks it):
 * - 'not-found': no such post; 'no-revision': no such revision of it;
 * - 'stale': the draft was saved since the editor loaded `currentVersion`;
 * - 'invalid': the content breaks its schema (`message`, `issues` by field);
 * - 'slug-taken': another post has the address;
 * - 'already-sent', 'not-published', 'no-subscribers', 'no-postal-address' (none to carry, CAN-SPAM,
 *   decision 0059): the newsletter can't be made.
 */
export type PostRefusal =
  | { ok: false; kind: 'not-found' | 'no-revision' | 'slug-taken' | 'already-sent' | 'not-published' | 'no-subscribers' | 'no-postal-address' }
  | { ok: false; kind: 'stale'; currentVersion: number }
  | InvalidContent;

type Deps = Pick<Services, 'db' | 'publisher'>;

const refused = (kind: Exclude<PostRefusal['kind'], 'stale' | 'invalid'>) => ({ ok: false, kind }) as const;
const invalid = (issues: FieldIssue[]) => invalidContent(`${issues[0]!.path}: ${issues[0]!.message}`, issues);

/** A refusal met inside a transaction: thrown to roll it back, answered after (never leaves this module). */
class RolledBack extends Error {
  readonly refusal: PostRefusal;
  constructor(refusal: PostRefusal) {
    super(refusal.kind);
    this.refusal = refusal;
  }
}

/** An image in the text with nothing between its brackets: ![](…). */
const BARE_IMAGE = /!\[\s*\]\(/;

/** Validates a post's content with its schema; a cover and every photo in the text need alt text. */
export function validatePost(content: unknown): Outcome<PostContent, InvalidContent> {
  const checked = check(postContent, content);
  if (!checked.ok) return invalidContent(checked.message, checked.issues);
  const post = checked.data;
  const issues: FieldIssue[] = [];
  if (post.coverImageId && !post.coverAlt) issues.push({ path: 'coverAlt', message: POST_MESSAGES.altRequired });
  if (BARE_IMAGE.test(post.body))
    issues.push({ path: 'body', message: 'has a photo without alt text: say what it shows between the brackets, ![like this](/api/images/…)' });
  if (issues.length) return invalid(issues);
  return done(post);
}

/** Where a published copy of a post sits on the journal (null: not published). */
export function placeOf(published: unknown, date: Date | null): PostPlace | null {
  const parsed = postContent.safeParse(published);
  if (!parsed.success) return null;
  return { slug: parsed.data.slug, tags: parsed.data.tags, date: date ?? new Date() };
}

const journalChange = (id: string, before: PostPlace | null, after: PostPlace | null): Change => ({ kind: 'journal', id, before, after });

type PostCopy = { published: unknown; firstPublishedAt: Date | null };
/** A publish's change to the journal: where the post was before it and where it is now. */
const publishedChange = (id: string, { before, after }: { before: PostCopy; after: PostCopy }): Change =>
  journalChange(id, placeOf(before.published, before.firstPublishedAt), placeOf(after.published, after.firstPublishedAt));

/** A schedule must lie ahead (a minute of grace for a phone's slow clock: due at once then). */
function scheduleTime(at: string, path: string): Outcome<Date, InvalidContent> {
  const when = new Date(at);
  if (Number.isNaN(when.getTime()) || when.getTime() < Date.now() - 60_000) return invalid([{ path, message: POST_MESSAGES.past }]);
  return done(when);
}

export async function createPost({ db }: Deps, content: unknown, publishAt?: string): Promise<Outcome<repo.PostRow, PostRefusal>> {
  const valid = validatePost(content);
  if (!valid.ok) return valid;
  const at = publishAt ? scheduleTime(publishAt, 'publishAt') : done(null);
  if (!at.ok) return at;
  const id = randomUUID();
  if (await repo.slugTaken(db, id, valid.value.slug)) return refused('slug-taken');
  const row = await repo.insertPost(db, id, valid.value, at.value);
  if (!row) return refused('slug-taken');
  return done(row);
}

export async function savePost({ db }: Deps, id: string, content: unknown, version?: number): Promise<Outcome<number, PostRefusal>> {
  const valid = validatePost(content);
  if (!valid.ok) return valid;
  if (await repo.slugTaken(db, id, valid.value.slug)) return refused('slug-taken');
  let saved: number | undefined;
  try {
    saved = await repo.savePostDraft(db, id, valid.value, version);
  } catch (err) {
    if (repo.isUniqueViolation(err)) return refused('slug-taken');
    throw err;
  }
  if (saved !== undefined) return done(saved);
  const post = await repo.findPost(db, id);
  if (!post) return refused('not-found');
  return { ok: false, kind: 'stale', currentVersion: post.draftVersion };
}

export async function publishPost(
  { db, publisher }: Deps,
  id: string,
  version?: number,
): Promise<Outcome<{ revision: number; publishedAt: Date; path: string }, PostRefusal>> {
  const current = await repo.findPost(db, id);
  if (!current) return refused('not-found');
  if (version !== undefined && version !== current.draftVersion) return { ok: false, kind: 'stale', currentVersion: current.draftVersion };
  // Valid when saved; checked again in case the schema grew since.
  const valid = validatePost(current.draft);
  if (!valid.ok) return valid;
  if (await repo.slugTaken(db, id, valid.value.slug)) return refused('slug-taken');
  const published = await db.transaction().execute((trx) => repo.publishPostRevision(trx, id));
  if (!published) return refused('not-found');
  await publisher.regenerate(publishedChange(id, published));
  return done({ revision: published.n, publishedAt: published.publishedAt, path: postPath(valid.value.slug) });
}

export async function restorePostRevision(
  { db, publisher }: Deps,
  id: string,
  n: number,
): Promise<Outcome<{ revision: number; publishedAt: Date; restoredFrom: number }, PostRefusal>> {
  const current = await repo.findPost(db, id);
  if (!current) return refused('not-found');
  const revision = await findRevision(db, repo.postKey(id), n);
  if (!revision) return refused('no-revision');
  // An old revision may predate a field the schema now requires: say so rather than publish it.
  const valid = validatePost(revision.content);
  if (!valid.ok) return valid;
  const content = valid.value;
  if (await repo.slugTaken(db, id, content.slug)) return refused('slug-taken');
  let published;
  try {
    published = await db.transaction().execute((trx) => repo.publishPostRevision(trx, id, { content, restoredFrom: n }));
  } catch (err) {
    if (repo.isUniqueViolation(err)) return refused('slug-taken');
    throw err;
  }
  if (!published) return refused('not-found');
  await publisher.regenerate(publishedChange(id, published));
  return done({ revision: published.n, publishedAt: published.publishedAt, restoredFrom: n });
}

/** Schedules the saved draft to publish itself at `at`, or (null) cancels its schedule. */
export async function schedulePost({ db }: Deps, id: string, at: string | null): Promise<Outcome<Date | null, PostRefusal>> {
  const current = await repo.findPost(db, id);
  if (!current) return refused('not-found');
  const when = at === null ? done(null) : scheduleTime(at, 'at');
  if (!when.ok) return when;
  if (when.value) {
    const valid = validatePost(current.draft);
    if (!valid.ok) return valid;
  }
  if (!(await repo.schedulePost(db, id, when.value))) return refused('not-found');
  return when;
}

/** Takes a post off the journal (`remove`: unpublished or deleted); where it was public, its pages are made again without it. */
async function takeOffJournal(
  { db, publisher }: Deps,
  id: string,
  remove: (db: Deps['db'], id: string) => Promise<unknown>,
): Promise<Outcome<void, PostRefusal>> {
  const before = await repo.findPost(db, id);
  if (!before) return refused('not-found');
  await remove(db, id);
  const place = placeOf(before.published, before.firstPublishedAt);
  if (place) await publisher.regenerate(journalChange(id, place, null));
  return done(undefined);
}

export const unpublishPost = (deps: Deps, id: string) => takeOffJournal(deps, id, repo.unpublishPost);

export const deletePost = (deps: Deps, id: string) => takeOffJournal(deps, id, repo.deletePost);

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
      const checked = validatePost(row.draft);
      if (!checked.ok) {
        console.error(`[journal] scheduled post ${id} not published: ${checked.message}`);
        continue;
      }
      const valid = checked.value;
      if (await repo.slugTaken(trx, id, valid.slug)) {
        console.error(`[journal] scheduled post ${id} not published: /blog/${valid.slug} is another post's`);
        continue;
      }
      const published = await repo.publishPostRevision(trx, id);
      if (published)
        out.push(
          journalChange(
            id,
            placeOf(published.before.published, published.before.firstPublishedAt),
            placeOf(published.after.published, published.after.firstPublishedAt),
          ),
        );
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
export function previewOf(row: repo.PostRow): Outcome<PublishedPost, InvalidContent> {
  const content = validatePost(row.draft);
  if (!content.ok) return content;
  return done({ id: row.id, content: content.value, date: row.firstPublishedAt ?? new Date(), updated: new Date() });
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
export async function sendPostAsNewsletter(
  { db, env }: Pick<Services, 'db' | 'env'>,
  id: string,
  full: boolean,
): Promise<Outcome<{ newsletterId: string; total: number; sentAt: Date }, PostRefusal>> {
  // Every copy carries her postal address (decision 0059), read before the transaction.
  const { address } = await postalAddressOf(db);
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await repo.lockPostForNewsletter(trx, id);
      if (!row) return refused('not-found');
      if (row.newsletterId || row.newsletterSentAt) return refused('already-sent');
      const parsed = postContent.safeParse(row.published);
      if (!parsed.success) return refused('not-published');
      const letter = newsletterOf(parsed.data, env.SITE_URL, full);
      const newsletter = await insertNewsletter(trx, letter);
      const now = new Date();
      const started = await startSend(trx, newsletter.id, now, address);
      // No address, or nobody to send to: the transaction is undone, newsletter and all; she can send it later.
      if (!started.ok) throw new RolledBack(refused(started.kind === 'no_postal_address' ? 'no-postal-address' : 'no-subscribers'));
      await repo.markSentAsNewsletter(trx, id, newsletter.id, now);
      return done({ newsletterId: newsletter.id, total: started.total, sentAt: now });
    });
  } catch (err) {
    if (err instanceof RolledBack) return err.refusal;
    throw err;
  }
}
