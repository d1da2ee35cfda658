/** The built-in pages a fresh database lacks, from their YAML (api/site/defaults.ts). */
import { BUILTIN_SLUGS, type BuiltinSlug } from '../../contract/content.ts';
import type { DB } from '../../db/client.ts';
import { defaultContent } from '../site/defaults.ts';
import { builtinSlugsPresent, insertBuiltinIfMissing } from './pages.repo.ts';

/** Inserts the built-in pages the database lacks; returns the slugs it inserted. */
export async function seedPages(db: DB): Promise<BuiltinSlug[]> {
  const have = new Set(await builtinSlugsPresent(db));
  const missing = BUILTIN_SLUGS.filter((s) => !have.has(s));
  if (missing.length === 0) return [];
  const content = defaultContent();
  const inserted: BuiltinSlug[] = [];
  for (const slug of missing) if (await insertBuiltinIfMissing(db, slug, content[slug])) inserted.push(slug);
  return inserted;
}
