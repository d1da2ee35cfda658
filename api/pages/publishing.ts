/**
 * The teacher's page work as named use-cases (issue 19): save a draft (with the version
 * check), publish, restore, create, rename, unpublish, delete. Each commits its database change
 * first, then regenerates what the change shows (rendering never runs inside a transaction).
 * Refusals are returned, `{ ok: false, kind }`: the routes map every kind to its status (issue 31).
 */
import { check, type FieldIssue } from '../../contract/check.ts';
import { customPageContent, isBuiltinSlug, PAGE_MESSAGES, schemaOfPage, type CustomPageContent } from '../../contract/content.ts';
import type { Services } from '../services/index.ts';
import * as repo from './pages.repo.ts';
import type { Change } from '../site/publisher.ts';

/**
 * Why a page use-case changed nothing, `{ ok: false, kind }` (issue 31: a name, never an HTTP
 * status; pages.routes.ts maps every kind to its status and words, and the compiler checks it):
 * - 'not-found': no such page (or revision);
 * - 'stale': the draft was saved since the editor loaded `currentVersion`;
 * - 'invalid': the content breaks its schema (`message`, `issues` by field);
 * - 'slug-taken': another page has the address;
 * - 'builtin-only': a built-in page can't be renamed, unpublished or deleted.
 */
export type PageRefusal =
  | { ok: false; kind: 'not-found' }
  | { ok: false; kind: 'stale'; currentVersion: number }
  | InvalidContent
  | { ok: false; kind: 'slug-taken' }
  | { ok: false; kind: 'builtin-only' };

/** Content refused by its schema: shared by pages and the journal. */
export type InvalidContent = { ok: false; kind: 'invalid'; message: string; issues: FieldIssue[] };

/** A use-case's answer: done (with its value) or refused. */
export type Outcome<T, R> = { ok: true; value: T } | R;

export const done = <T>(value: T) => ({ ok: true, value }) as const;
const refused = <K extends PageRefusal['kind']>(kind: K) => ({ ok: false, kind }) as const;
export const invalidContent = (message: string, issues: FieldIssue[]): InvalidContent => ({ ok: false, kind: 'invalid', message, issues });

type Deps = Pick<Services, 'db' | 'publisher'>;

/** Validates content with its page's schema; photos in her sections need alt text. */
export function validateContent(slug: string, content: unknown): Outcome<unknown, InvalidContent> {
  const checked = check(schemaOfPage(slug), content);
  if (!checked.ok) return invalidContent(checked.message, checked.issues);
  if (!isBuiltinSlug(slug)) {
    const page = checked.data as CustomPageContent;
    const issues = page.sections.flatMap((s, i) => (s.imageId && !s.imageAlt ? [{ path: `sections.${i}.imageAlt`, message: PAGE_MESSAGES.altRequired }] : []));
    if (issues.length) return invalidContent(`${issues[0]!.path}: ${issues[0]!.message}`, issues);
  }
  return done(checked.data);
}

export async function saveDraft({ db }: Deps, slug: string, content: unknown, version: number): Promise<Outcome<number, PageRefusal>> {
  const valid = validateContent(slug, content);
  if (!valid.ok) return valid;
  const saved = await repo.saveDraft(db, slug, valid.value, version);
  if (saved !== undefined) return done(saved);
  const page = await repo.findPage(db, slug);
  if (!page) return refused('not-found');
  return { ok: false, kind: 'stale', currentVersion: page.draftVersion };
}

/** What a change of this page shows: a page of hers with a link in a bar or footer touches every page. */
function changeOf(slug: string, before: unknown, after: unknown, extra: Partial<Extract<Change, { kind: 'custom' }>> = {}): Change {
  if (isBuiltinSlug(slug)) return { kind: 'builtin', slug };
  const linkOf = (c: unknown) => {
    const parsed = customPageContent.safeParse(c);
    return parsed.success && (parsed.data.inNavigation || parsed.data.inFooter)
      ? `${parsed.data.brand}|${parsed.data.title}|${parsed.data.inNavigation}|${parsed.data.inFooter}`
      : '';
  };
  const navigation = linkOf(before) !== linkOf(after) || (!!extra.renamedFrom && linkOf(after) !== '') || (!!extra.gone && linkOf(before) !== '');
  return { kind: 'custom', slug, navigation, ...extra };
}

export async function publishPage(
  { db, publisher }: Deps,
  slug: string,
  version?: number,
): Promise<Outcome<{ revision: number; publishedAt: Date }, PageRefusal>> {
  const before = await repo.findPage(db, slug);
  if (!before) return refused('not-found');
  if (version !== undefined && version !== before.draftVersion) return { ok: false, kind: 'stale', currentVersion: before.draftVersion };
  // The draft was valid when saved; checked again in case a schema grew since.
  const valid = validateContent(slug, before.draft);
  if (!valid.ok) return valid;
  const published = await db.transaction().execute((trx) => repo.publishRevision(trx, slug));
  if (!published) return refused('not-found');
  await publisher.regenerate(changeOf(slug, before.published, before.draft));
  return done({ revision: published.n, publishedAt: published.publishedAt });
}

/** Publishes revision `n` again; 'not-found' when the page or the revision is not there. */
export async function restoreRevision(
  { db, publisher }: Deps,
  slug: string,
  n: number,
): Promise<Outcome<{ revision: number; publishedAt: Date; restoredFrom: number }, PageRefusal>> {
  const before = await repo.findPage(db, slug);
  if (!before) return refused('not-found');
  const revision = await repo.findRevision(db, slug, n);
  if (!revision) return refused('not-found');
  // An old revision may predate a field the schema now requires: say so rather than publish it.
  const valid = validateContent(slug, revision.content);
  if (!valid.ok) return valid;
  const content = valid.value;
  const published = await db.transaction().execute((trx) => repo.publishRevision(trx, slug, { content, restoredFrom: n }));
  if (!published) return refused('not-found');
  await publisher.regenerate(changeOf(slug, before.published, content));
  return done({ revision: published.n, publishedAt: published.publishedAt, restoredFrom: n });
}

export async function createPage({ db }: Deps, slug: string, content: unknown): Promise<Outcome<repo.PageRow, PageRefusal>> {
  const valid = validateContent(slug, content);
  if (!valid.ok) return valid;
  const row = await repo.insertCustomPage(db, slug, valid.value);
  if (!row) return refused('slug-taken');
  return done(row);
}

export async function renamePage({ db, publisher }: Deps, from: string, to: string): Promise<Outcome<void, PageRefusal>> {
  if (isBuiltinSlug(from)) return refused('builtin-only');
  const outcome = await db.transaction().execute((trx) => repo.renamePage(trx, from, to));
  if (outcome === 'missing') return refused('not-found');
  if (outcome === 'taken') return refused('slug-taken');
  const page = await repo.findPage(db, to);
  // The old address answers 301 at once, published or not (as it will after any restart).
  if (page) await publisher.regenerate(changeOf(to, page.published, page.published, { renamedFrom: from }));
  return done(undefined);
}

/** Takes her own page off the site (`remove`: unpublished or deleted); where it was public, its address is made to answer gone. */
async function takeOffSite(
  { db, publisher }: Deps,
  slug: string,
  remove: (db: Deps['db'], slug: string) => Promise<unknown>,
): Promise<Outcome<void, PageRefusal>> {
  if (isBuiltinSlug(slug)) return refused('builtin-only');
  const before = await repo.findPage(db, slug);
  if (!before) return refused('not-found');
  await remove(db, slug);
  if (before.published) await publisher.regenerate(changeOf(slug, before.published, null, { gone: true }));
  return done(undefined);
}

export const unpublishPage = (deps: Deps, slug: string) => takeOffSite(deps, slug, repo.unpublishPage);

export const deletePage = (deps: Deps, slug: string) => takeOffSite(deps, slug, repo.deletePage);
