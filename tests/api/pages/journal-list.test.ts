/**
 * The admin's journal list a page at a time (issue 36): with 2,000 posts and more (the old list
 * stopped silently at 2,000), every post is reached once, page after page, newest first, posts of
 * one date in a fixed order across pages; a search by title reaches what it names; a page size
 * beyond the bound or a cursor that is not one is refused with a 400.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { insertPosts, type InsertedPost } from '../../helpers/posts.ts';
import type { PostListItem } from '../../../contract/content.ts';
import { MAX_PAGE_SIZE, NEXT_CURSOR_HEADER, PAGE_SIZE } from '../../../contract/paging.ts';
import { mustFind } from '../../helpers/guards.ts';

type PostListPage = { items: PostListItem[]; next: string | null; message?: string };

describe(`the journal's admin list on ${testDbKind()}`, () => {
  const server = useTestServer();
  let cookie: string;
  let posts: InsertedPost[];
  beforeAll(async () => {
    cookie = await adminCookie(server);
    // 2,050 published posts an hour apart, and 60 drafts made at the very instants of the first 60:
    // ties on the list's date, to be ordered the same on every page.
    const published = await insertPosts(server.services.db, 2_050, { prefix: 'kept' });
    const drafts = await insertPosts(server.services.db, 60, { prefix: 'draft', published: false });
    posts = [...published, ...drafts];
  }, 60_000);

  const list = async (query: string) => {
    const res = await server.api(`/api/admin/posts${query}`, { headers: { cookie } });
    const body = (await res.json()) as PostListItem[] | { message: string };
    // The list is the body; the next page's cursor is in a header, as on every admin list.
    const page: PostListPage = Array.isArray(body)
      ? { items: body, next: res.headers.get(NEXT_CURSOR_HEADER) }
      : { items: [], next: null, message: body.message };
    return { status: res.status, body: page };
  };

  it('reaches every post once, page by page, newest first', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const { status, body }: { status: number; body: PostListPage } = await list(`?limit=${MAX_PAGE_SIZE}${after ? `&cursor=${after}` : ''}`);
      expect(status).toBe(200);
      expect(body.items.length).toBeLessThanOrEqual(MAX_PAGE_SIZE);
      seen.push(...body.items.map((p) => p.id));
      after = body.next;
      pages++;
    } while (after);
    expect(pages).toBe(Math.ceil(posts.length / MAX_PAGE_SIZE));
    expect(seen).toHaveLength(posts.length);
    expect(new Set(seen).size).toBe(posts.length);
    // Newest first: the newest published post leads, the oldest ones (with their drafts of one instant) close.
    const title = (id: string) => mustFind(posts, (p) => p.id === id).title;
    expect(title(seen[0]!)).toBe('kept post number 2049');
    expect(seen.slice(-2).map(title).sort()).toEqual(['draft post number 0', 'kept post number 0']);
  });

  it('answers a bounded first page without a limit, and finds a post by words of its title on any page', async () => {
    const first = await list('');
    expect(first.body.items).toHaveLength(PAGE_SIZE);
    expect(first.body.next).toEqual(expect.any(String));
    // The oldest published post: beyond 2,000 posts, where the old list never reached.
    const found = await list(`?q=${encodeURIComponent('KEPT post number 0')}`);
    expect(found.body.items.map((p) => p.title)).toEqual(['kept post number 0']);
    expect(found.body.next).toBeNull();
    // A search a page at a time: "number 1" is in 1, 10–19, 100–199, 1000–1999 of each kind.
    const many = await list(`?q=${encodeURIComponent('post number 1')}&limit=100`);
    expect(many.body.items).toHaveLength(100);
    const rest = await list(`?q=${encodeURIComponent('post number 1')}&limit=100&cursor=${many.body.next}`);
    expect(rest.body.items.every((p) => p.title.includes('post number 1'))).toBe(true);
    // % and _ are letters to the search, not patterns.
    expect((await list('?q=%25')).body.items).toEqual([]);
  });

  it('refuses a page size beyond the bound and a cursor that is not one, with a 400 that says which', async () => {
    const big = await list(`?limit=${MAX_PAGE_SIZE + 1}`);
    expect(big.status).toBe(400);
    expect(big.body.message).toMatch(/^limit/);
    for (const after of ['nonsense', Buffer.from('["2026-01-01", "post/x"]').toString('base64url'), Buffer.from('{}').toString('base64url')]) {
      const bad = await list(`?cursor=${after}`);
      expect(bad.status, after).toBe(400);
      expect(bad.body.message).toMatch(/^cursor: /);
    }
  });
});
