/**
 * Her journal on two replicas (issue 22): two real server processes with the built site on one
 * PostgreSQL database, each running the scheduler every 100 ms. Posts scheduled for one instant
 * are published once each (one revision, whichever process claimed them) and both replicas serve
 * them, the journal and the feed within seconds; a publish on one is served by the other.
 *
 * PostgreSQL only (vitest.config.ts): an embedded PGlite lives inside one process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../db/client.ts';
import type { Child } from '../../helpers/child.ts';
import { servedWithin, startReplicas, type Replicas } from '../../helpers/replicas.ts';
import { itemAt } from '../../helpers/guards.ts';

describe('scheduled posts on two replicas', () => {
  let replicas: Replicas;
  let handle: DatabaseHandle;
  let a: Child;
  let b: Child;

  beforeAll(async () => {
    replicas = await startReplicas({ JOURNAL_SCHEDULE_MS: '100' });
    ({ a, b, handle } = replicas);
  }, 90_000);
  afterAll(async () => {
    await replicas?.stop();
  });

  const admin = (server: Child, path: string, init?: { method?: string; json?: unknown }) => replicas.admin(server, `/api/admin/posts${path}`, init);

  it('posts due at one instant are published once each, by whichever replica claims them, and both serve them', async () => {
    const at = new Date(Date.now() + 2_000);
    const posts: { id: string; slug: string; title: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const title = `Due together ${i} ${Date.now().toString(36)}`;
      const res = await admin(i % 2 ? b : a, '', {
        method: 'POST',
        json: { title, brand: 'yoga', body: `Post ${i}.`, tags: ['together'], publishAt: at.toISOString() },
      });
      expect(res.status).toBe(201);
      posts.push({ ...((await res.json()) as { id: string; slug: string }), title });
    }
    // Not yet: neither replica shows them.
    for (const server of [a, b]) expect(await (await fetch(`${server.url}/blog/${itemAt(posts, 0).slug}`)).status).toBe(404);

    for (const p of posts) {
      for (const server of [a, b]) await servedWithin(server, `/blog/${p.slug}`, p.title, 8_000);
    }
    for (const server of [a, b]) {
      // Each replica serves /blog within its poll (issue 36: a post's page may be rendered on its
      // first request there before the index the publish stored reaches that replica).
      for (const p of posts) await servedWithin(server, '/blog', p.title);
      await servedWithin(server, '/blog/tag/together', itemAt(posts, 4).title);
      await servedWithin(server, '/blog/feed.xml', itemAt(posts, 0).title);
    }
    // Once each: one revision per post, nothing left scheduled.
    const revisions = await handle.db
      .selectFrom('pageRevisions')
      .select(['slug', (eb) => eb.fn.countAll<string>().as('n')])
      .where(
        'slug',
        'in',
        posts.map((p) => `post/${p.id}`),
      )
      .groupBy('slug')
      .execute();
    expect(revisions).toHaveLength(5);
    expect(revisions.every((r) => Number(r.n) === 1)).toBe(true);
    const left = await handle.db.selectFrom('pages').select('slug').where('kind', '=', 'post').where('publishAt', 'is not', null).execute();
    expect(left).toEqual([]);
  }, 60_000);

  it('a publish on one replica is served by the other within 5 s', async () => {
    const title = `Published on A ${Date.now().toString(36)}`;
    const created = await admin(a, '', { method: 'POST', json: { title, brand: 'chocolates', body: 'Cacao.' } });
    const { id, slug } = (await created.json()) as { id: string; slug: string };
    expect((await admin(a, `/${id}/publish`, { method: 'POST' })).status).toBe(200);
    expect(await servedWithin(a, `/blog/${slug}`, title)).toBeLessThan(5_000);
    expect(await servedWithin(b, `/blog/${slug}`, title)).toBeLessThan(5_000);
    expect(await servedWithin(b, '/blog', title)).toBeLessThan(5_000);
  }, 30_000);
});
