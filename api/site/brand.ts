/**
 * Her brand names, set once in the site's words (the 'site' page: teacherTitle for yoga,
 * chocolateBrand for the shop), for the mails (issue 20): a yoga mail is signed with the yoga
 * brand, a shop mail with the chocolate brand. What the public sees is what the mails say: the
 * published content, else the YAML's defaults. One query; a use-case reads it once per batch.
 */
import type { DB } from '../../db/client.ts';
import { publishedSiteWords } from './brand.repo.ts';
import { defaultContent } from './defaults.ts';

export interface BrandNames {
  /** The yoga brand: teacherTitle, e.g. "Maya Linden Yoga". */
  yoga: string;
  /** The chocolate brand: chocolateBrand, e.g. "Linden Cacao Co.". */
  chocolates: string;
}

const named = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

export async function brandNames(db: DB): Promise<BrandNames> {
  const fallback = defaultContent().site;
  let published: Record<string, unknown> = {};
  try {
    const words = await publishedSiteWords(db);
    if (words) published = JSON.parse(words) as Record<string, unknown>;
  } catch (err) {
    // A mail is never lost for its signature: the defaults stand in.
    console.error('[mail] could not read the brand names:', err instanceof Error ? err.message : err);
  }
  return { yoga: named(published.teacherTitle) ?? fallback.teacherTitle, chocolates: named(published.chocolateBrand) ?? fallback.chocolateBrand };
}
