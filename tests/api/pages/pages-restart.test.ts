/**
 * Her edits outlive a restart and a rebuild (issue 19): the YAML seeds only a database that
 * lacks a page, never one that has her edits; a server starting on a build with no rendered
 * pages yet (a rebuild) renders them from the database, not from the YAML.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../../api/env.ts';
import { startServer, type RunningServer } from '../../../api/server.ts';
import { restartableDatabase, type FreshDatabase } from '../../helpers/database.ts';
import { adminCookie } from '../../helpers/auth.ts';
import type { TestServer } from '../../helpers/server.ts';

describe('her edits across restarts and rebuilds', () => {
  let database: FreshDatabase | undefined;
  const running: RunningServer[] = [];
  afterAll(async () => {
    for (const r of running) await r.close().catch(() => {});
    await database?.drop();
  });

  it('keeps a published edit and a saved draft; the YAML never overwrites them', async () => {
    database = await restartableDatabase('pages-restart-');
    const dbEnv = database.env as Record<string, string>;
    const env = loadEnv({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', QUIET: '1', ...dbEnv });
    const start = async () => {
      const r = await startServer(env, { site: true, seedContent: false });
      running.push(r);
      return r;
    };
    const first = await start();
    const cookie = await adminCookie(first as unknown as TestServer);
    const call = (r: RunningServer, path: string, init: { method?: string; json?: unknown } = {}) =>
      fetch(`http://127.0.0.1:${r.port}${path}`, {
        method: init.method ?? 'GET',
        headers: { cookie, 'content-type': 'application/json' },
        ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
      });

    const yoga = await (await call(first, '/api/admin/pages/yoga')).json();
    const published = structuredClone(yoga.content);
    published.hero.heading = 'Yoga for the body you have today, edited by me';
    expect((await call(first, '/api/admin/pages/yoga', { method: 'PUT', json: { content: published, version: yoga.version } })).status).toBe(200);
    expect((await call(first, '/api/admin/pages/yoga/publish', { method: 'POST' })).status).toBe(200);
    const about = await (await call(first, '/api/admin/pages/about')).json();
    const draft = { ...about.content, heading: 'A draft heading not yet published' };
    expect((await call(first, '/api/admin/pages/about', { method: 'PUT', json: { content: draft, version: about.version } })).status).toBe(200);
    await first.close();
    running.pop();

    // A rebuild: the new build has no rendered pages yet (they are kept per build).
    const handle = await startServer(env, { site: false, seedContent: false });
    await handle.services.db.deleteFrom('renderedPages').execute();
    await handle.close();

    const second = await start();
    expect((await (await call(second, '/yoga')).text()).includes('Yoga for the body you have today, edited by me')).toBe(true);
    expect((await (await call(second, '/api/admin/pages/yoga')).json()).content.hero.heading).toBe('Yoga for the body you have today, edited by me');
    const aboutAfter = await (await call(second, '/api/admin/pages/about')).json();
    expect(aboutAfter.content.heading).toBe('A draft heading not yet published');
    expect(await (await call(second, '/about')).text()).not.toContain('A draft heading not yet published');
    const revisions = await (await call(second, '/api/admin/pages/yoga/revisions')).json();
    expect(revisions.map((r: { n: number }) => r.n)).toEqual([2, 1]);
  }, 60_000);
});
