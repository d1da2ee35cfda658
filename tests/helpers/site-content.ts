/**
 * Her site content (the navigation bars, the footer) as a migration test reads and sets it: the
 * draft and the published copy, parsed, with their revision and version.
 */
import type { TestServer } from './server.ts';

export type Nav = { label: string; href: string }[];
export type SiteBars = { mainNav: Nav; shopNav: Nav; footerNav: Nav };

export async function readSite(server: TestServer) {
  const row = await server.services.db
    .selectFrom('pages')
    .select(['draft', 'published', 'publishedRevision', 'draftVersion'])
    .where('slug', '=', 'site')
    .executeTakeFirstOrThrow();
  return { ...row, draft: JSON.parse(row.draft) as SiteBars, published: JSON.parse(row.published!) as SiteBars };
}

/** Both copies changed by `old`, as a database made before a migration held them. */
export async function rewindSite(server: TestServer, old: (c: SiteBars) => SiteBars) {
  const before = await readSite(server);
  await server.services.db
    .updateTable('pages')
    .set({ draft: JSON.stringify(old(before.draft)), published: JSON.stringify(old(before.published)) })
    .where('slug', '=', 'site')
    .execute();
  return before;
}
