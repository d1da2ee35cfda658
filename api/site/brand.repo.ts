/** The one read of the brand names (api/site/brand.ts): the published words of the 'site' page. */
import type { DB } from '../../db/client.ts';

/** The 'site' page's published content as stored (JSON text), or undefined when never published. */
export async function publishedSiteWords(db: DB): Promise<string | null | undefined> {
  const row = await db.selectFrom('pages').select('published').where('slug', '=', 'site').executeTakeFirst();
  return row?.published;
}
