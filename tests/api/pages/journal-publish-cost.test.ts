/**
 * A publish costs what it touches (issue 36): with hundreds of posts, publishing one renders its
 * page, its neighbour's, the page of /blog and of its tag that show it, the feed and the sitemap,
 * and nothing of the posts it leaves alone; a start renders the journal's first pages only. The
 * pages behind it, whose cards all moved by one, are made on their first request and are right.
 * Observed in what the server stored (rendered_pages: each render takes the next generation),
 * over real HTTP with the built site, the server restarted on the same database.
 */
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../../api/env.ts';
import { startServer, type RunningServer } from '../../../api/server.ts';
import { restartableDatabase, testDbKind, type FreshDatabase } from '../../helpers/database.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { insertPosts } from '../../helpers/posts.ts';
import type { TestServer } from '../../helpers/server.ts';
import type { DB } from '../../../db/client.ts';
import { itemAt } from '../../helpers/guards.ts';

const POSTS = 300;

/** The addresses rendered (a page stored, not a stale mark) after generation `since`. */
async function renderedSince(db: DB, since: string): Promise<string[]> {
  const rows = await db
    .selectFrom('renderedPages')
    .select('path')
    .where(sql<boolean>`generation > ${since}::bigint`)
    .where('status', '!=', 0)
    .execute();
  return rows.map((r) => r.path).sort();
}
const generation = async (db: DB) =>
  itemAt((await sql<{ g: string }>`select coalesce(max(generation), 0)::text as g from rendered_pages`.execute(db)).rows, 0).g;

describe(`a publish among ${POSTS} posts on ${testDbKind()}`, () => {
  const running: RunningServer[] = [];
  let database: FreshDatabase | undefined;
  afterAll(async () => {
    await Promise.all(running.map((r) => r.close().catch(() => {})));
    await database?.drop();
  });

  it('renders only what the post touches; the pages behind it are made on request, with every card moved by one', async () => {
    database = await restartableDatabase('journal-cost-');
    const env = loadEnv({
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      QUIET: '1',
      RENDER_POLL_MS: '60000',
      JOURNAL_SCHEDULE_MS: '3600000',
      ...(database.env as Record<string, string>),
    });
    const first = await startServer(env, { site: true });
    running.push(first);
    // Years of posts, oldest first: post 0 is the oldest, post 299 the newest.
    const posts = await insertPosts(first.services.db, POSTS);
    await first.close();
    running.pop();

    // A start at 300 posts: the journal's first pages, not its 300 posts and 36 index pages.
    const before = await startServer(env, { site: false });
    const beforeStart = await generation(before.services.db);
    await before.close();
    const server = await startServer(env, { site: true });
    running.push(server);
    const db = server.services.db;
    const atStart = (await renderedSince(db, beforeStart)).filter((p) => p.startsWith('/blog'));
    expect(atStart.length).toBeLessThanOrEqual(1 + 6 + 10 + 1);
    expect(atStart).toContain('/blog');
    expect(atStart).not.toContain(`/blog/${itemAt(posts, 0).slug}`);

    const base = `http://127.0.0.1:${server.port}`;
    const cookie = await adminCookie(server as unknown as TestServer);
    const call = (path: string, json?: unknown) =>
      fetch(`${base}${path}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(json ?? {}) });
    const created = await call('/api/admin/posts', { title: 'The newest of all', brand: 'yoga', body: 'Fresh words.', tags: ['cacao'] });
    expect(created.status).toBe(201);
    const { id, slug } = (await created.json()) as { id: string; slug: string };

    const mark = await generation(db);
    expect((await call(`/api/admin/posts/${id}/publish`)).status).toBe(200);
    // Its page, its one neighbour (the newest before it), the first page of /blog and of its
    // tag, the feed, the sitemap: nothing else, whatever the number of posts.
    expect(await renderedSince(db, mark)).toEqual(
      [`/blog/${slug}`, `/blog/${itemAt(posts, -1).slug}`, '/blog', '/blog/tag/cacao', '/blog/feed.xml', '/sitemap.xml'].sort(),
    );

    // The pages behind it, made on their first request: every card one further on.
    const page = async (path: string) => {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(200);
      return res.text();
    };
    // /blog/page/2 now starts with what was the tenth newest (post 290) and ends with post 281.
    const second = await page('/blog/page/2');
    expect(second).toContain(itemAt(posts, 290).title);
    expect(second).toContain(itemAt(posts, 281).title);
    expect(second).not.toContain(itemAt(posts, 291).title);
    expect(second).not.toContain(itemAt(posts, 280).title);
    // 301 posts: a 31st page with the oldest alone.
    const last = await page('/blog/page/31');
    expect(last).toContain(itemAt(posts, 0).title);
    expect(last).toContain('Page 31 of 31');
    expect((await fetch(`${base}/blog/page/32`)).status).toBe(404);
    // An old post's page, never rendered for this build until now.
    expect(await page(`/blog/${itemAt(posts, 5).slug}`)).toContain(itemAt(posts, 5).title);
    expect((await fetch(`${base}/blog/no-such-post`)).status).toBe(404);
    // Made once, then stored for every replica and served from memory.
    const stored = await db.selectFrom('renderedPages').select(['status']).where('path', '=', '/blog/page/31').executeTakeFirstOrThrow();
    expect(stored.status).toBe(200);
    const afterRequests = await generation(db);
    await page('/blog/page/31');
    expect(await generation(db)).toBe(afterRequests);
  }, 120_000);
});
