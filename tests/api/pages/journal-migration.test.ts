/**
 * The journal's migration (db/migrations/0014_journal.ts) on a database made before it: the
 * "Journal" link is appended to both navigation bars of her site content, draft and published,
 * as a new revision; her own links stay; a database that has a /blog link already is left alone.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { addJournalLinks } from '../../../db/migrations/0014_journal.ts';
import { contentHash } from '../../../api/pages/pages.repo.ts';

type Nav = { label: string; href: string }[];
type Site = { mainNav: Nav; shopNav: Nav };

describe(`the journal's link in an existing database on ${testDbKind()}`, () => {
  const server = useTestServer();

  const site = async () => {
    const row = await server.services.db
      .selectFrom('pages')
      .select(['draft', 'published', 'publishedRevision', 'draftVersion'])
      .where('slug', '=', 'site')
      .executeTakeFirstOrThrow();
    return { ...row, draft: JSON.parse(row.draft) as Site, published: JSON.parse(row.published!) as Site };
  };

  it('appends Journal to both bars, draft and published, as a new revision, once', async () => {
    // As a database made before the journal: no /blog link, and one link of her own.
    const before = await site();
    const old = (c: Site): Site => ({
      ...c,
      mainNav: [...c.mainNav.filter((l) => l.href !== '/blog'), { label: 'Retreats', href: '/retreats' }],
      shopNav: c.shopNav.filter((l) => l.href !== '/blog'),
    });
    await server.services.db
      .updateTable('pages')
      .set({ draft: JSON.stringify(old(before.draft)), published: JSON.stringify(old(before.published)) })
      .where('slug', '=', 'site')
      .execute();

    await addJournalLinks(server.services.db.withoutPlugins());
    const after = await site();
    for (const c of [after.draft, after.published]) {
      expect(c.mainNav.slice(-2)).toEqual([
        { label: 'Retreats', href: '/retreats' },
        { label: 'Journal', href: '/blog' },
      ]);
      expect(c.shopNav.at(-1)).toEqual({ label: 'Journal', href: '/blog' });
      expect(c.shopNav.filter((l) => l.href === '/blog')).toHaveLength(1);
    }
    expect(after.publishedRevision).toBe(before.publishedRevision! + 1);
    expect(after.draftVersion).toBe(before.draftVersion + 1);
    const revision = await server.services.db
      .selectFrom('pageRevisions')
      .select(['content', 'changed', 'textHash'])
      .where('slug', '=', 'site')
      .where('n', '=', after.publishedRevision!)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(revision.content)).toEqual(after.published);
    expect(JSON.parse(revision.changed)).toEqual([`mainNav.${after.published.mainNav.length - 1}`, `shopNav.${after.published.shopNav.length - 1}`]);
    expect(revision.textHash).toBe(contentHash(after.published));

    // Run again: a /blog link is there, nothing changes.
    await addJournalLinks(server.services.db.withoutPlugins());
    expect(await site()).toEqual(after);
  });
});
