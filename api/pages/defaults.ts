/**
 * The site's own pages as the YAML under site/content/ says them: the seed of a fresh database
 * and nothing more (a page that exists in the database is never overwritten by its file).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { BUILTIN_SLUGS, builtinPageSchemas, type BuiltinSlug, type SiteContent } from '../../contract/content.ts';
import type { DB } from '../../db/client.ts';
import { insertBuiltinIfMissing } from './pages.repo.ts';

const CONTENT_DIR = new URL('../../site/content/', import.meta.url);

let cached: SiteContent | undefined;

/** Every built-in page's YAML, validated by its schema (a broken file stops the start, naming it). */
export function defaultContent(): SiteContent {
  if (cached) return cached;
  const out: Partial<Record<BuiltinSlug, unknown>> = {};
  for (const slug of BUILTIN_SLUGS) {
    const raw = parse(readFileSync(new URL(`${slug}.yaml`, CONTENT_DIR), 'utf8')) as unknown;
    const parsed = builtinPageSchemas[slug].safeParse(raw);
    if (!parsed.success) throw new Error(`site/content/${slug}.yaml: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
    out[slug] = parsed.data;
  }
  cached = out as SiteContent;
  return cached;
}

/** Inserts the built-in pages the database lacks; returns the slugs it inserted. */
export async function seedPages(db: DB): Promise<BuiltinSlug[]> {
  const have = new Set((await db.selectFrom('pages').select('slug').where('kind', '=', 'builtin').execute()).map((r) => r.slug));
  const missing = BUILTIN_SLUGS.filter((s) => !have.has(s));
  if (missing.length === 0) return [];
  const content = defaultContent();
  const inserted: BuiltinSlug[] = [];
  for (const slug of missing) if (await insertBuiltinIfMissing(db, slug, content[slug])) inserted.push(slug);
  return inserted;
}
