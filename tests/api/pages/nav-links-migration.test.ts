/**
 * The migrations that link a new public page from an existing database's site content (db/
 * migrations/nav-links.ts): the journal (0014: "Journal" in both navigation bars) and gift cards
 * (0029: "Gift cards" in the footer and the shop's bar). On a database made before each, the
 * link is appended to its bars, draft and published, as a new revision; her own links stay; the
 * other bar is left alone; run again, nothing changes.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { addJournalLinks } from '../../../db/migrations/0014_journal.ts';
import { addGiftCardLinks } from '../../../db/migrations/0029_gift_card_links.ts';
import { contentHash } from '../../../api/pages/pages.repo.ts';
import { readSite, rewindSite, type SiteBars } from '../../helpers/site-content.ts';

type Bar = keyof SiteBars;
const RETREATS = { label: 'Retreats', href: '/retreats' };

const MIGRATIONS: { name: string; add: typeof addJournalLinks; link: { label: string; href: string }; bars: [Bar, Bar]; other: Bar }[] = [
  { name: '0014_journal', add: addJournalLinks, link: { label: 'Journal', href: '/blog' }, bars: ['mainNav', 'shopNav'], other: 'footerNav' },
  { name: '0029_gift_card_links', add: addGiftCardLinks, link: { label: 'Gift cards', href: '/gift-cards' }, bars: ['footerNav', 'shopNav'], other: 'mainNav' },
];

describe(`a new page's link in an existing database on ${testDbKind()}`, () => {
  const server = useTestServer();

  for (const m of MIGRATIONS) {
    it(`${m.name}: appends ${m.link.label} to its bars, draft and published, as a new revision, once`, async () => {
      const [first, second] = m.bars;
      // As a database made before it: no such link, and one link of her own in the first bar.
      const without = (nav: SiteBars[Bar]) => nav.filter((l) => l.href !== m.link.href);
      const before = await rewindSite(server, (c) => ({ ...c, [first]: [...without(c[first]), RETREATS], [second]: without(c[second]) }));

      await m.add(server.services.db.withoutPlugins());
      const after = await readSite(server);
      for (const c of [after.draft, after.published]) {
        expect(c[first].slice(-2)).toEqual([RETREATS, m.link]);
        expect(c[second].at(-1)).toEqual(m.link);
        expect(c[second].filter((l) => l.href === m.link.href)).toHaveLength(1);
        expect(c[m.other]).toEqual(before.published[m.other]);
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
      expect(JSON.parse(revision.changed)).toEqual([`${first}.${after.published[first].length - 1}`, `${second}.${after.published[second].length - 1}`]);
      expect(revision.textHash).toBe(contentHash(after.published));

      // Run again: the link is there, nothing changes.
      await m.add(server.services.db.withoutPlugins());
      expect(await readSite(server)).toEqual(after);
    });
  }
});
