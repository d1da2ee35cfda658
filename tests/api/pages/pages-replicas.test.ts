/**
 * Published pages on every replica (issue 19): two real server processes with the built site
 * on one PostgreSQL database. A publish on A is served by B within 5 seconds (B asks the
 * database for newer renders every RENDER_POLL_MS, a second by default), with no rebuild and
 * no restart; a restore on B is served by A the same way; a draft reaches neither.
 *
 * PostgreSQL only (vitest.config.ts): an embedded PGlite lives inside one process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../db/client.ts';
import { insertCustomPage, publishRevision } from '../../../api/pages/pages.repo.ts';
import type { Child } from '../../helpers/child.ts';
import { servedWithin, startReplicas, type Replicas } from '../../helpers/replicas.ts';

describe('published pages on two replicas', () => {
  let replicas: Replicas;
  let handle: DatabaseHandle;
  let a: Child;
  let b: Child;

  beforeAll(async () => {
    replicas = await startReplicas();
    ({ a, b, handle } = replicas);
  }, 90_000);
  afterAll(async () => {
    await replicas?.stop();
  });

  const admin = (server: Child, path: string, init?: { method?: string; json?: unknown }) => replicas.admin(server, `/api/admin/pages${path}`, init);

  it('a publish on one is served by the other within 5 s; a restore likewise; drafts by neither', async () => {
    const page = await (await admin(a, '/yoga')).json();
    const original = page.content.faq.items[0].a as string;
    const marker = `Answered on replica A ${Date.now()}`;
    const content = structuredClone(page.content);
    content.faq.items[0].a = marker;
    expect((await admin(a, '/yoga', { method: 'PUT', json: { content, version: page.version } })).status).toBe(200);
    // Saved, not published: neither replica shows it.
    await new Promise((r) => setTimeout(r, 1_500));
    for (const server of [a, b]) expect(await (await fetch(`${server.url}/yoga`)).text()).not.toContain(marker);

    const published = await admin(a, '/yoga/publish', { method: 'POST' });
    expect(published.status).toBe(200);
    const { revision } = await published.json();
    expect(await servedWithin(a, '/yoga', marker)).toBeLessThan(5_000);
    expect(await servedWithin(b, '/yoga', marker)).toBeLessThan(5_000);

    // Restored on B: A goes back to the original answer.
    expect((await admin(b, `/yoga/revisions/${revision - 1}/restore`, { method: 'POST' })).status).toBe(200);
    expect(await servedWithin(a, '/yoga', original)).toBeLessThan(5_000);
    expect(await (await fetch(`${a.url}/yoga`)).text()).not.toContain(marker);
  }, 60_000);

  it('a page of hers deleted on one is gone (404) from the other within 5 s, and her navigation with it (issue 29)', async () => {
    const marker = `Her own page ${Date.now()}`;
    const created = await admin(a, '', {
      method: 'POST',
      json: { slug: 'pain-care', title: 'Pain care', brand: 'yoga', description: marker, sections: [{ markdown: marker }], inNavigation: true },
    });
    expect(created.status).toBe(201);
    expect((await admin(a, '/pain-care/publish', { method: 'POST' })).status).toBe(200);
    expect(await servedWithin(b, '/pain-care', marker)).toBeLessThan(5_000);
    expect(await servedWithin(b, '/yoga', 'href="/pain-care"')).toBeLessThan(5_000);

    expect((await admin(a, '/pain-care', { method: 'DELETE' })).status).toBe(200);
    const started = Date.now();
    let status = 0;
    while (Date.now() - started < 5_000) {
      status = (await fetch(`${b.url}/pain-care`)).status;
      if (status === 404) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(404);
    expect(await (await fetch(`${b.url}/pain-care`)).text()).not.toContain(marker);
    await expect.poll(async () => (await (await fetch(`${b.url}/yoga`)).text()).includes('href="/pain-care"'), { timeout: 5_000 }).toBe(false);
    // The site's own pages are still served on both.
    for (const server of [a, b]) expect((await fetch(`${server.url}/privacy`)).status).toBe(200);

    // A page of hers at /privacy saved before such slugs were refused: never served over the
    // site's page, and deleting it leaves the site's page on both, not a 404.
    const content = { title: 'My privacy', brand: 'yoga', description: 'Hers.', sections: [{ markdown: `Legacy ${marker}` }], inNavigation: true };
    await insertCustomPage(handle.db, 'privacy', content);
    await handle.db.transaction().execute((trx) => publishRevision(trx, 'privacy'));
    expect((await admin(b, '/privacy', { method: 'DELETE' })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_500));
    for (const server of [a, b]) {
      const page = await fetch(`${server.url}/privacy`);
      expect(page.status).toBe(200);
      expect(await page.text()).not.toContain(`Legacy ${marker}`);
    }
  }, 60_000);
});
