/**
 * Issue 33's migration (db/migrations/0029_gift_card_links.ts) on a database whose site content
 * she edited before gift cards: "Gift cards" is appended to the footer and the shop's bar, draft
 * and published, as a new revision; her own links stay; run again, nothing changes.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { addGiftCardLinks } from '../../../db/migrations/0029_gift_card_links.ts';

type Nav = { label: string; href: string }[];
type Site = { mainNav: Nav; shopNav: Nav; footerNav: Nav };

describe(`the gift cards' link in an existing database on ${testDbKind()}`, () => {
  const server = useTestServer();

  const site = async () => {
    const row = await server.services.db
      .selectFrom('pages')
      .select(['draft', 'published', 'publishedRevision'])
      .where('slug', '=', 'site')
      .executeTakeFirstOrThrow();
    return { ...row, draft: JSON.parse(row.draft) as Site, published: JSON.parse(row.published!) as Site };
  };

  it('appends Gift cards to the footer and the shop bar, draft and published, once; the main bar is left alone', async () => {
    const before = await site();
    const old = (c: Site): Site => ({
      ...c,
      footerNav: [...c.footerNav.filter((l) => l.href !== '/gift-cards'), { label: 'Retreats', href: '/retreats' }],
      shopNav: c.shopNav.filter((l) => l.href !== '/gift-cards'),
    });
    await server.services.db
      .updateTable('pages')
      .set({ draft: JSON.stringify(old(before.draft)), published: JSON.stringify(old(before.published)) })
      .where('slug', '=', 'site')
      .execute();

    await addGiftCardLinks(server.services.db.withoutPlugins());
    const after = await site();
    for (const c of [after.draft, after.published]) {
      expect(c.footerNav.slice(-2)).toEqual([
        { label: 'Retreats', href: '/retreats' },
        { label: 'Gift cards', href: '/gift-cards' },
      ]);
      expect(c.shopNav.filter((l) => l.href === '/gift-cards')).toEqual([{ label: 'Gift cards', href: '/gift-cards' }]);
      expect(c.mainNav).toEqual(before.published.mainNav);
    }
    expect(after.publishedRevision).toBe(before.publishedRevision! + 1);

    await addGiftCardLinks(server.services.db.withoutPlugins());
    expect(await site()).toEqual(after);
  });
});
