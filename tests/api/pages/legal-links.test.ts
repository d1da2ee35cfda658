/**
 * Issue 48 (decision 0058): the footer of every public page links her privacy policy (Washington's
 * My Health My Data Act asks it linked from the home page) and the accessibility statement, and
 * both pages are served. The real server with the built site, on PGlite and PostgreSQL: pages
 * rendered ahead, the static ones, a page of hers and the 404 page; her own footer links, edited
 * and published, neither remove them nor make them twice.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { itemAt, must } from '../../helpers/guards.ts';

const server = useTestServer({ site: true, env: { RENDER_POLL_MS: '60000' } });
let cookie: string;
beforeAll(async () => {
  cookie = await adminCookie(server);
});

const LEGAL = ['/privacy', '/accessibility'];

/** The page's HTML, answered with `status`. */
async function html(path: string, status = 200): Promise<string> {
  const res = await fetch(`${server.url}${path}`);
  expect(res.status, path).toBe(status);
  return res.text();
}

/** The links of the page's footer navigation, in order. */
function footerLinks(page: string, path: string): string[] {
  const nav = /<nav aria-label="Footer"[^>]*>([\s\S]*?)<\/nav>/.exec(page);
  expect(nav, `${path}: a footer navigation`).not.toBeNull();
  return [...itemAt(must(nav, 'nav'), 1).matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
}

const admin = (path: string, init: RequestInit & { json?: unknown } = {}) =>
  server.api(path, { ...init, headers: { cookie, ...(init.headers as Record<string, string> | undefined) } });

describe(`the privacy and accessibility links on every public page, ${testDbKind()}`, () => {
  it('are in the footer of the home page, the content pages, the shop, the forms, her pages and the 404 page', async () => {
    const created = await admin('/api/admin/pages', {
      method: 'POST',
      json: { slug: 'chronic-pain', title: 'Chronic Pain Support', brand: 'yoga', description: 'Gentle yoga therapy.', sections: [{ markdown: 'Slow.' }] },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    expect((await admin('/api/admin/pages/chronic-pain/publish', { method: 'POST' })).status).toBe(200);

    const pages: [string, number][] = [
      ['/', 200],
      ['/yoga', 200],
      ['/about', 200],
      ['/calendar', 200],
      ['/chocolates', 200],
      ['/contact', 200],
      ['/gift-cards', 200],
      ['/cart', 200],
      ['/login', 200],
      ['/register', 200],
      ['/privacy', 200],
      ['/accessibility', 200],
      ['/account-deletion', 200],
      ['/blog', 200],
      ['/chronic-pain', 200],
      ['/no-such-page', 404],
    ];
    for (const [path, status] of pages) {
      const links = footerLinks(await html(path, status), path);
      for (const href of LEGAL)
        expect(
          links.filter((l) => l === href),
          `${path} links ${href} once`,
        ).toHaveLength(1);
    }
  });

  it('serve the privacy policy with its consumer health data section and the accessibility statement', async () => {
    const privacy = await html('/privacy');
    expect(privacy).toContain('id="consumer-health-data"');
    expect(privacy).toContain('My Health My Data Act');
    // Who receives what, and how to withdraw and delete: the words the law asks for.
    for (const words of ['Who receives it', 'PayPal', 'Google Calendar', 'mail service', 'consent to share', 'Delete my account'])
      expect(privacy, words).toContain(words);

    const statement = await html('/accessibility');
    expect(statement).toContain('<h1>Accessibility statement</h1>');
    expect(statement).toContain('WCAG) 2.1 at level AA');
    expect(statement).toMatch(/<a href="\/contact">contact page<\/a>/);
  });

  it('stay when she publishes her own footer links, and are not doubled when she links one herself', async () => {
    const opened = await (await admin('/api/admin/pages/site')).json();
    const footerNav = [
      { label: 'Home', href: '/' },
      { label: 'My privacy', href: '/privacy' },
    ];
    const saved = await admin('/api/admin/pages/site', { method: 'PUT', json: { content: { ...opened.content, footerNav }, version: opened.version } });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect((await admin('/api/admin/pages/site/publish', { method: 'POST' })).status).toBe(200);

    for (const path of ['/', '/chocolates', '/chronic-pain']) {
      const page = await html(path);
      expect(footerLinks(page, path), path).toEqual(['/', '/privacy', '/accessibility']);
      expect(page, path).toContain('>My privacy</a>');
    }
  });
});
