/**
 * The site's own pages as the YAML under site/content/ says them: the seed of a fresh database
 * (api/pages/seed-pages.ts) and the words that stand in where the database has none (the brand
 * names, the page renderer); a page that exists in the database is never overwritten by its file.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { BUILTIN_SLUGS, builtinPageSchemas, type BuiltinSlug, type SiteContent } from '../../contract/content.ts';

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
