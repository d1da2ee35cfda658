/**
 * The teacher's page work as named use-cases (issue 19): save a draft (with the version
 * check), publish, restore, create, rename, unpublish, delete. Each commits its database change
 * first, then regenerates what the change shows (rendering never runs inside a transaction).
 * Refusals are named errors the routes map to status codes.
 */
import { check, type FieldIssue } from '../../contract/check.ts';
import { customPageContent, isBuiltinSlug, PAGE_MESSAGES, schemaOfPage, type CustomPageContent } from '../../contract/content.ts';
import type { Services } from '../services/index.ts';
import * as repo from './pages.repo.ts';
import type { Change } from '../site/publisher.ts';

export class PageNotFound extends Error {
  constructor() {
    super(PAGE_MESSAGES.notFound);
  }
}
export class StaleVersion extends Error {
  readonly currentVersion: number;
  constructor(currentVersion: number) {
    super(PAGE_MESSAGES.stale);
    this.currentVersion = currentVersion;
  }
}
export class InvalidContent extends Error {
  readonly issues: FieldIssue[];
  constructor(message: string, issues: FieldIssue[]) {
    super(message);
    this.issues = issues;
  }
}
export class SlugTaken extends Error {
  constructor() {
    super(PAGE_MESSAGES.slugTaken);
  }
}
export class BuiltinOnly extends Error {
  constructor() {
    super(PAGE_MESSAGES.builtinOnly);
  }
}

type Deps = Pick<Services, 'db' | 'publisher'>;

/** Validates content with its page's schema; photos in her sections need alt text. */
export function validateContent(slug: string, content: unknown): unknown {
  const checked = check(schemaOfPage(slug), content);
  if (!checked.ok) throw new InvalidContent(checked.message, checked.issues);
  if (!isBuiltinSlug(slug)) {
    const page = checked.data as CustomPageContent;
    const issues = page.sections.flatMap((s, i) => (s.imageId && !s.imageAlt ? [{ path: `sections.${i}.imageAlt`, message: PAGE_MESSAGES.altRequired }] : []));
    if (issues.length) throw new InvalidContent(`${issues[0]!.path}: ${issues[0]!.message}`, issues);
  }
  return checked.data;
}

export async function saveDraft({ db }: Deps, slug: string, content: unknown, version: number): Promise<number> {
  const valid = validateContent(slug, content);
  const saved = await repo.saveDraft(db, slug, valid, version);
  if (saved !== undefined) return saved;
  const page = await repo.findPage(db, slug);
  if (!page) throw new PageNotFound();
  throw new StaleVersion(page.draftVersion);
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

export async function publishPage({ db, publisher }: Deps, slug: string, version?: number) {
  const before = await repo.findPage(db, slug);
  if (!before) throw new PageNotFound();
  if (version !== undefined && version !== before.draftVersion) throw new StaleVersion(before.draftVersion);
  // The draft was valid when saved; checked again in case a schema grew since.
  validateContent(slug, before.draft);
  const published = await db.transaction().execute((trx) => repo.publishRevision(trx, slug));
  if (!published) throw new PageNotFound();
  await publisher.regenerate(changeOf(slug, before.published, before.draft));
  return { revision: published.n, publishedAt: published.publishedAt };
}

export async function restoreRevision({ db, publisher }: Deps, slug: string, n: number) {
  const before = await repo.findPage(db, slug);
  if (!before) throw new PageNotFound();
  const revision = await repo.findRevision(db, slug, n);
  if (!revision) throw new PageNotFound();
  // An old revision may predate a field the schema now requires: say so rather than publish it.
  const content = validateContent(slug, revision.content);
  const published = await db.transaction().execute((trx) => repo.publishRevision(trx, slug, { content, restoredFrom: n }));
  if (!published) throw new PageNotFound();
  await publisher.regenerate(changeOf(slug, before.published, content));
  return { revision: published.n, publishedAt: published.publishedAt, restoredFrom: n };
}

export async function createPage({ db }: Deps, slug: string, content: unknown) {
  const valid = validateContent(slug, content);
  const row = await repo.insertCustomPage(db, slug, valid);
  if (!row) throw new SlugTaken();
  return row;
}

export async function renamePage({ db, publisher }: Deps, from: string, to: string) {
  if (isBuiltinSlug(from)) throw new BuiltinOnly();
  const outcome = await db.transaction().execute((trx) => repo.renamePage(trx, from, to));
  if (outcome === 'missing') throw new PageNotFound();
  if (outcome === 'taken') throw new SlugTaken();
  const page = await repo.findPage(db, to);
  // The old address answers 301 at once, published or not (as it will after any restart).
  if (page) await publisher.regenerate(changeOf(to, page.published, page.published, { renamedFrom: from }));
}

export async function unpublishPage({ db, publisher }: Deps, slug: string) {
  if (isBuiltinSlug(slug)) throw new BuiltinOnly();
  const before = await repo.findPage(db, slug);
  if (!before) throw new PageNotFound();
  await repo.unpublishPage(db, slug);
  if (before.published) await publisher.regenerate(changeOf(slug, before.published, null, { gone: true }));
}

export async function deletePage({ db, publisher }: Deps, slug: string) {
  if (isBuiltinSlug(slug)) throw new BuiltinOnly();
  const before = await repo.findPage(db, slug);
  if (!before) throw new PageNotFound();
  await repo.deletePage(db, slug);
  if (before.published) await publisher.regenerate(changeOf(slug, before.published, null, { gone: true }));
}
