/**
 * Her pages never take an address the site serves itself (issue 29), on PGlite and PostgreSQL.
 * The test walks what is served on its own, apart from the server's derivation: every file and
 * folder of site/pages (each route), site/public and the built client folder, and every route
 * of the Hono app; for each first segment, creating a page there and renaming one there are
 * refused, and the site's own page still answers at it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createApp } from '../../../api/app.ts';
import { PURCHASE_KINDS } from '../../../api/boot.ts';
import { distDirOf } from '../../../api/lib/build-info.ts';
import { PAGE_MESSAGES } from '../../../contract/content.ts';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { adminCookie } from '../../helpers/auth.ts';

const server = useTestServer({ site: true });
let cookie: string;
beforeAll(async () => {
  cookie = await adminCookie(server);
});

/** Every file below `dir`, as the URL path it is served at (`about.astro` → /about, `a/index.html` → /a). */
function pathsBelow(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) =>
      `/${relative(dir, join(e.parentPath, e.name))}`
        .replace(/\.(astro|ts|br|gz)$/, '')
        .replace(/(\/index)?\.html$/, '')
        .replace(/\/index$/, ''),
    );
}

const firstSegment = (path: string) => path.split('/').filter(Boolean)[0];

function servedPaths(): string[] {
  const app = createApp(server.services, PURCHASE_KINDS);
  return [
    ...pathsBelow('site/pages'),
    ...pathsBelow('site/public'),
    ...pathsBelow(join(distDirOf(process.env.DIST_DIR), 'client')),
    ...app.routes.map((r) => r.path),
    '/blog',
  ];
}

const create = (slug: string) =>
  server.api('/api/admin/pages', {
    method: 'POST',
    headers: { cookie },
    json: { slug, title: `A page at ${slug}`, brand: 'yoga', description: 'Hers.', sections: [{ markdown: 'Words.' }] },
  });

describe(`the site's own addresses on ${testDbKind()}`, () => {
  it('every address the site serves is refused as a page of hers, /privacy and /account-deletion among them', async () => {
    const segments = [
      ...new Set(
        servedPaths()
          .map(firstSegment)
          .filter((s): s is string => !!s && !/[:*[\]]/.test(s)),
      ),
    ].sort();
    expect(segments).toEqual(expect.arrayContaining(['privacy', 'account-deletion', 'admin', 'user', 'api', 'dev', 'calendar.ics', 'blog', 'yoga']));
    for (const slug of segments) {
      const refused = await create(slug);
      expect(refused.status, slug).toBe(400);
      const body = (await refused.json()) as { issues: { path: string; message: string }[] };
      expect(
        body.issues.map((i) => i.path),
        slug,
      ).toContain('slug');
    }
    // The site's own pages are still its own.
    const privacy = await server.api('/privacy');
    expect(privacy.status).toBe(200);
    expect(await privacy.text()).toMatch(/privacy/i);
    expect((await server.api('/account-deletion')).status).toBe(200);
  });

  it('a title that makes a served address, and a rename onto one, are refused; next to them is fine', async () => {
    const byTitle = await server.api('/api/admin/pages', {
      method: 'POST',
      headers: { cookie },
      json: { title: 'Privacy', brand: 'yoga', description: 'Hers.', sections: [{ markdown: 'Words.' }] },
    });
    expect(byTitle.status).toBe(400);
    expect((await byTitle.json()).issues).toEqual([{ path: 'slug', message: PAGE_MESSAGES.slugReserved }]);

    expect((await create('privacy-at-the-studio')).status).toBe(201);
    expect((await create('admin-tips')).status).toBe(201);
    for (const to of ['privacy', 'account-deletion', 'api']) {
      const renamed = await server.api('/api/admin/pages/admin-tips/rename', { method: 'POST', headers: { cookie }, json: { slug: to } });
      expect(renamed.status, to).toBe(400);
    }
  });
});
