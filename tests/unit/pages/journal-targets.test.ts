/** What a change of one post remakes (api/pages/journal-render.ts targetsOf, issue 22): only what shows it. */
import { describe, expect, it } from 'vitest';
import { allTargets, journalPaths, targetsOf } from '../../../api/pages/journal-render.ts';
import type { PublishedPost } from '../../../api/site/publisher.ts';
import { itemAt } from '../../helpers/guards.ts';

/** 25 posts, newest first: post 0 is the newest; every third has the tag "cacao". */
const posts: PublishedPost[] = Array.from({ length: 25 }, (_, i) => ({
  id: `id-${String(i).padStart(2, '0')}`,
  content: { title: `Post ${i}`, slug: `post-${i}`, body: 'Words.', brand: 'yoga', tags: i % 3 === 0 ? ['cacao'] : [] },
  date: new Date(Date.UTC(2026, 10, 30) - i * 86_400_000),
  updated: new Date(Date.UTC(2026, 10, 30)),
}));
const place = (p: PublishedPost) => ({ slug: p.content.slug, tags: p.content.tags, date: p.date });
const ids = (list: PublishedPost[]) => list.map((p) => p.id).sort();

describe('targetsOf', () => {
  it('an edit of a published post: the post, its two neighbours, the one page of /blog and of each tag that shows it', () => {
    const post = posts[12]!;
    const t = targetsOf(posts, { id: post.id, before: place(post), after: place(post) });
    expect(ids(t.posts)).toEqual(['id-11', 'id-12', 'id-13']);
    expect(t.index).toEqual([2]);
    expect(t.tags).toEqual([{ tag: 'cacao', pages: [1] }]);
  });

  it('a new post at the top: its one neighbour, the first page of /blog and of its tags now; every later page of /blog when first asked for', () => {
    const fresh: PublishedPost = {
      ...posts[0]!,
      id: 'new',
      content: { ...itemAt(posts, 0).content, slug: 'new', tags: ['cacao'] },
      date: new Date(Date.UTC(2026, 11, 1)),
    };
    const t = targetsOf([fresh, ...posts], { id: 'new', before: null, after: place(fresh) });
    expect(ids(t.posts)).toEqual(['id-00', 'new']);
    expect(t.index).toEqual([1]);
    expect(t.tags).toEqual([{ tag: 'cacao', pages: [1] }]);
    expect(t.stale).toEqual(['/blog/page/2', '/blog/page/3']);
  });

  it('an unpublished post: its former neighbours, the pages from where it sat to the end, its tags’ pages', () => {
    const gone = posts[21]!;
    const left = posts.filter((p) => p !== gone);
    const t = targetsOf(left, { id: gone.id, before: place(gone), after: null });
    expect(ids(t.posts)).toEqual(['id-20', 'id-22']);
    expect(t.index).toEqual([3]);
    expect(t.tags).toEqual([{ tag: 'cacao', pages: [1] }]);
  });

  it('a tag taken off: that tag’s pages from where it sat; the tag it kept only its own page', () => {
    const post = posts[3]!;
    const after = { ...place(post), tags: [] };
    const t = targetsOf(posts, { id: post.id, before: place(post), after });
    expect(t.index).toEqual([1]);
    expect(t.tags).toEqual([{ tag: 'cacao', pages: [1] }]);
  });

  it('everything: the first pages and the posts they list now, every other address when first asked for; the addresses that serve pages now', () => {
    const t = allTargets(posts);
    expect(ids(t.posts)).toEqual(ids(posts.slice(0, 10)));
    expect(t.index).toEqual([1]);
    expect(t.tags).toEqual([{ tag: 'cacao', pages: [1] }]);
    expect(t.stale.sort()).toEqual(['/blog/page/2', '/blog/page/3', ...posts.slice(10).map((p) => `/blog/${p.content.slug}`)].sort());
    const paths = journalPaths(posts);
    expect([...paths].filter((p) => !p.startsWith('/blog/post-')).sort()).toEqual([
      '/blog',
      '/blog/feed.xml',
      '/blog/page/2',
      '/blog/page/3',
      '/blog/tag/cacao',
    ]);
  });
});
