/**
 * The teacher's pages over real HTTP (issue 19): every route hers alone; a fresh database
 * holds today's YAML; a save is validated by the page's schema and checked against the draft's
 * version; a draft never reaches a public page (nor a client's) until published; publish,
 * revisions and restore; her own pages with slugs (reserved, duplicate, invalid refused), a
 * 301 after a rename, the 404 page after unpublish or delete; Markdown that can't carry script;
 * oversized bodies refused. The public side runs on one server with the built site.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type TestServer, useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser, expectAdminOnly, type AdminRoute } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { smallJpeg } from '../../helpers/photos.ts';
import { resetRateLimits } from '../../../api/middleware/rate-limit.ts';
import { PAGE_MESSAGES, type PageDetail, type PageListItem, type PageRevision } from '../../../contract/content.ts';
import { itemAt, must } from '../../helpers/guards.ts';

beforeEach(() => resetRateLimits());

const BUILTIN = ['site', 'home', 'yoga', 'about', 'aboutwebsite', 'chocolates', 'contact', 'waiver'];
const yamlOf = (slug: string): unknown => parse(readFileSync(new URL(`../../../site/content/${slug}.yaml`, import.meta.url), 'utf8'));
const clone = <T>(value: T): T => structuredClone(value);

type Yoga = { hero: { heading: string }; faq?: { items: { q: string; a: string }[] } };

/** A page of hers as POST /api/admin/pages takes it. */
const customBody = (overrides: Record<string, unknown> = {}) => ({
  title: 'Chronic Pain Support',
  brand: 'yoga',
  description: 'Gentle, individual yoga therapy for people living with chronic pain.',
  sections: [{ markdown: 'Sessions are **slow** and adapted to the day you are having.' }],
  inNavigation: true,
  ...overrides,
});

/** Admin calls with the session cookie. */
function adminApi(server: TestServer, cookie: () => string) {
  const call = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    server.api(path, { ...init, headers: { cookie: cookie(), ...(init.headers as Record<string, string> | undefined) } });
  return {
    call,
    async page(slug: string): Promise<PageDetail> {
      const res = await call(`/api/admin/pages/${slug}`);
      expect(res.status, `GET ${slug}`).toBe(200);
      return res.json();
    },
    async list(): Promise<PageListItem[]> {
      const res = await call('/api/admin/pages');
      expect(res.status).toBe(200);
      return res.json();
    },
    save: (slug: string, content: unknown, version: number) => call(`/api/admin/pages/${slug}`, { method: 'PUT', json: { content, version } }),
    async publish(slug: string): Promise<{ revision: number }> {
      const res = await call(`/api/admin/pages/${slug}/publish`, { method: 'POST' });
      expect(res.status, `publish ${slug}`).toBe(200);
      return res.json();
    },
    async revisions(slug: string): Promise<PageRevision[]> {
      const res = await call(`/api/admin/pages/${slug}/revisions`);
      expect(res.status).toBe(200);
      return res.json();
    },
    create: (body: unknown) => call('/api/admin/pages', { method: 'POST', json: body }),
  };
}

/** Everything the pages routes could change. */
async function snapshot(server: TestServer): Promise<string> {
  const { db } = server.services;
  return JSON.stringify({
    pages: await db.selectFrom('pages').selectAll().orderBy('slug').execute(),
    revisions: await db.selectFrom('pageRevisions').selectAll().orderBy('slug').orderBy('n').execute(),
    redirects: await db.selectFrom('pageRedirects').selectAll().orderBy('fromSlug').execute(),
  });
}

describe(`pages in the admin on ${testDbKind()}`, () => {
  const server = useTestServer();
  let cookie: string;
  let admin: ReturnType<typeof adminApi>;
  beforeAll(async () => {
    cookie = await adminCookie(server);
    admin = adminApi(server, () => cookie);
  });

  it('a fresh database has today’s YAML: the 8 built-in pages, each published as version 1', async () => {
    const list = await admin.list();
    expect(list.map((p) => p.slug).sort()).toEqual([...BUILTIN].sort());
    for (const page of list) {
      expect(page, page.slug).toMatchObject({ kind: 'builtin', publishedVersion: 1, hasUnpublishedChanges: false });
      expect(page.title, page.slug).toBeTruthy();
    }
    for (const slug of BUILTIN) {
      const page = await admin.page(slug);
      expect(page.content, slug).toEqual(yamlOf(slug));
      expect(page.version, slug).toBe(1);
    }
  });

  it('refuses every route with 401 without a session and with a client’s session, and changes nothing', async () => {
    // One page of hers, published, so every slug route would otherwise do its work.
    expect((await admin.create(customBody({ slug: 'guarded-page', inNavigation: false }))).status).toBe(201);
    await admin.publish('guarded-page');
    const client = await createUser(server);
    const yoga = await admin.page('yoga');
    const routes: AdminRoute[] = [
      { method: 'GET', path: '/api/admin/pages' },
      { method: 'POST', path: '/api/admin/pages', json: customBody({ slug: 'intruder-page' }) },
      { method: 'GET', path: '/api/admin/pages/yoga' },
      {
        method: 'PUT',
        path: '/api/admin/pages/yoga',
        json: { content: { ...(yoga.content as Yoga), hero: { heading: 'Hacked', lead: 'x' } }, version: yoga.version },
      },
      { method: 'DELETE', path: '/api/admin/pages/guarded-page' },
      { method: 'POST', path: '/api/admin/pages/yoga/publish' },
      { method: 'POST', path: '/api/admin/pages/guarded-page/unpublish' },
      { method: 'POST', path: '/api/admin/pages/guarded-page/rename', json: { slug: 'stolen-page' } },
      { method: 'GET', path: '/api/admin/pages/yoga/revisions' },
      { method: 'POST', path: '/api/admin/pages/yoga/revisions/1/restore' },
      { method: 'GET', path: '/api/admin/pages/yoga/preview' },
    ];
    const before = await snapshot(server);
    await expectAdminOnly(server, routes, client.cookie, (body, where) => {
      expect(body, where).not.toContain('Maya');
      expect(body, where).not.toContain('guarded-page');
    });
    expect(await snapshot(server)).toBe(before);
  });

  it('refuses a save with a missing or empty required field with 400 naming it, and keeps the draft', async () => {
    const before = await admin.page('yoga');
    const emptyHeading = clone(before.content) as Yoga;
    emptyHeading.hero.heading = '';
    let res = await admin.save('yoga', emptyHeading, before.version);
    expect(res.status).toBe(400);
    let body = (await res.json()) as { message: string; issues: { path: string }[] };
    expect(body.message).toContain('hero.heading');
    expect(body.issues.map((i) => i.path)).toContain('hero.heading');

    const noFaq = clone(before.content) as Yoga;
    delete noFaq.faq;
    res = await admin.save('yoga', noFaq, before.version);
    expect(res.status).toBe(400);
    body = await res.json();
    expect(body.message).toMatch(/^faq\b/);
    expect(body.issues.map((i) => i.path)).toContain('faq');

    const after = await admin.page('yoga');
    expect(after.content).toEqual(before.content);
    expect(after.version).toBe(before.version);
    expect((await admin.revisions('yoga')).map((r) => r.n)).toEqual([1]);
  });

  it('refuses the second of two saves made from the same version with 409, keeping the first', async () => {
    const opened = await admin.page('contact');
    const first = clone(opened.content) as { heading: string };
    first.heading = 'Write to me (tab one)';
    const second = clone(opened.content) as { heading: string };
    second.heading = 'Write to me (tab two)';

    const one = await admin.save('contact', first, opened.version);
    expect(one.status).toBe(200);
    expect((await one.json()).version).toBe(opened.version + 1);

    const two = await admin.save('contact', second, opened.version);
    expect(two.status).toBe(409);
    expect((await two.json()).message).toBe(PAGE_MESSAGES.stale);

    const stored = await admin.page('contact');
    expect(stored.content).toEqual(first);
    expect(stored.version).toBe(opened.version + 1);
    expect(stored.hasUnpublishedChanges).toBe(true);

    // Publishing what an older tab saw is refused the same way; nothing is published.
    const stalePublish = await admin.call('/api/admin/pages/contact/publish', { method: 'POST', json: { version: opened.version } });
    expect(stalePublish.status).toBe(409);
    expect((await stalePublish.json()).message).toBe(PAGE_MESSAGES.stale);
    expect((await admin.revisions('contact')).map((r) => r.n)).toEqual([1]);
  });

  it('creates her page as a draft from its title; refuses a duplicate (409), reserved addresses and invalid slugs (400)', async () => {
    const res = await admin.create(customBody());
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ slug: 'chronic-pain-support' });
    const created = await admin.page('chronic-pain-support');
    expect(created).toMatchObject({ kind: 'custom', publishedVersion: null, path: null });
    expect(created.content).toMatchObject({ title: 'Chronic Pain Support', brand: 'yoga', inNavigation: true });

    const before = await snapshot(server);
    const duplicate = await admin.create(customBody({ description: 'Another one.' }));
    expect(duplicate.status).toBe(409);
    expect((await duplicate.json()).message).toBe(PAGE_MESSAGES.slugTaken);
    const duplicateBySlug = await admin.create(customBody({ title: 'Other title', slug: 'chronic-pain-support' }));
    expect(duplicateBySlug.status).toBe(409);

    for (const slug of ['admin', 'api', 'cart', 'calendar', 'yoga', 'signup', 'user', 'sitemap.xml', 'render-ahead']) {
      const refused = await admin.create(customBody({ slug }));
      expect(refused.status, slug).toBe(400);
      const body = (await refused.json()) as { message: string; issues: { path: string }[] };
      expect(
        body.issues.map((i) => i.path),
        slug,
      ).toContain('slug');
    }
    // A title that makes a reserved slug is refused the same way.
    expect((await admin.create(customBody({ title: 'Calendar' }))).status).toBe(400);
    for (const slug of ['Bad Slug!', 'double--dash', '-edge', 'ünïcode', '']) {
      const refused = await admin.create(customBody({ slug }));
      expect(refused.status, JSON.stringify(slug)).toBe(400);
      expect(((await refused.json()) as { issues: { path: string }[] }).issues.map((i) => i.path)).toContain('slug');
    }
    expect(await snapshot(server)).toBe(before);
  });

  it('at once: two saves of one version, two publishes, two pages with one slug — one wins, nothing breaks', async () => {
    const opened = await admin.page('about');
    const edit = (heading: string) => ({ ...(opened.content as object), heading });
    const saves = await Promise.all([admin.save('about', edit('About me (A)'), opened.version), admin.save('about', edit('About me (B)'), opened.version)]);
    expect(saves.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = itemAt(saves, 0).status === 200 ? 'About me (A)' : 'About me (B)';
    expect((await admin.page('about')).content).toMatchObject({ heading: winner });

    const publishes = await Promise.all([
      admin.call('/api/admin/pages/about/publish', { method: 'POST' }),
      admin.call('/api/admin/pages/about/publish', { method: 'POST' }),
    ]);
    expect(publishes.map((r) => r.status)).toEqual([200, 200]);
    const revisions = await Promise.all(publishes.map(async (r) => ((await r.json()) as { revision: number }).revision));
    expect(revisions.sort()).toEqual([2, 3]);
    expect((await admin.revisions('about')).map((r) => r.n)).toEqual([3, 2, 1]);

    const creates = await Promise.all([admin.create(customBody({ slug: 'same-slug' })), admin.create(customBody({ slug: 'same-slug' }))]);
    expect(creates.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it('refuses a section photo without alt text with 400 naming sections.N.imageAlt, on create and on save', async () => {
    const before = await snapshot(server);
    const photo = { markdown: 'With a photo.', imageId: randomUUID() };
    const res = await admin.create(customBody({ slug: 'photo-page', sections: [photo] }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string; issues: { path: string }[] };
    expect(body.message).toContain('sections.0.imageAlt');
    expect(body.issues.map((i) => i.path)).toContain('sections.0.imageAlt');

    const page = await admin.page('chronic-pain-support');
    const withPhoto = { ...(page.content as object), sections: [{ markdown: 'First.' }, photo] };
    const saved = await admin.save('chronic-pain-support', withPhoto, page.version);
    expect(saved.status).toBe(400);
    expect((await saved.json()).message).toContain('sections.1.imageAlt');
    expect(await snapshot(server)).toBe(before);
  });

  it('refuses a 2 MB body with 413 and saves nothing', async () => {
    const before = await admin.page('yoga');
    const huge = clone(before.content) as Yoga;
    huge.hero.heading = 'x'.repeat(2 * 1024 * 1024);
    const res = await admin.save('yoga', huge, before.version);
    expect(res.status).toBe(413);
    expect((await res.json()).message).toMatch(/too large/);
    const after = await admin.page('yoga');
    expect(after.content).toEqual(before.content);
    expect(after.version).toBe(before.version);
  });

  it('refuses links that could run script: a call to action or a footer link to a javascript: or data: address (400)', async () => {
    const before = await snapshot(server);
    for (const href of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>']) {
      const res = await admin.create(customBody({ slug: 'cta-page', cta: { label: 'Book a session', href } }));
      expect(res.status, href).toBe(400);
      expect((await res.json()).message, href).toMatch(/^cta\b/);
    }
    const site = await admin.page('site');
    for (const href of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>']) {
      const content = clone(site.content) as { external: { label: string; href: string }[] };
      itemAt(content.external, 0).href = href;
      const res = await admin.save('site', content, site.version);
      expect(res.status, `site.external ${href}`).toBe(400);
      const body = (await res.json()) as { issues?: { path: string }[] };
      expect(
        body.issues?.map((i) => i.path),
        href,
      ).toContain('external.0.href');
    }
    expect(await snapshot(server)).toBe(before);
  });

  it('refuses to delete, unpublish or rename the site’s own pages (400)', async () => {
    const before = await snapshot(server);
    for (const slug of ['yoga', 'home', 'waiver']) {
      for (const [method, path, json] of [
        ['DELETE', `/api/admin/pages/${slug}`, undefined],
        ['POST', `/api/admin/pages/${slug}/unpublish`, undefined],
        ['POST', `/api/admin/pages/${slug}/rename`, { slug: `${slug}-moved` }],
      ] as const) {
        const res = await admin.call(path, { method, ...(json ? { json } : {}) });
        expect(res.status, `${method} ${path}`).toBe(400);
        expect((await res.json()).message, `${method} ${path}`).toBe(PAGE_MESSAGES.builtinOnly);
      }
    }
    expect(await snapshot(server)).toBe(before);
  });
});

/** The page's heading (Astro adds its scoping attribute). */
const heading = (title: string) => new RegExp(`<h1[^>]*>${title}</h1>`);

/** Escaped as Astro escapes text in HTML. */
const html = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Polls until `check` passes (a publish is served at once here; 5 s is the issue's bound). */
async function eventually(check: () => Promise<void>, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe(`published pages with the built site on ${testDbKind()}`, () => {
  // One process: a publish serves its pages here at once, without the poll that picks up
  // other replicas' renders (left slow so it can't paper over what a publish itself does).
  const server = useTestServer({ site: true, env: { RENDER_POLL_MS: '60000' } });
  let cookie: string;
  let client: { cookie: string };
  let admin: ReturnType<typeof adminApi>;
  beforeAll(async () => {
    cookie = await adminCookie(server);
    client = await createUser(server);
    admin = adminApi(server, () => cookie);
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { redirect: 'manual', headers });
  /** A renamed page's old address answers 301 to its new one once the rename reaches the site. */
  const movedTo = (from: string, to: string) =>
    eventually(async () => {
      const res = await get(from);
      expect(res.status).toBe(301);
      expect(res.headers.get('location')).toBe(to);
    });
  const text = async (path: string, headers: Record<string, string> = {}) => {
    const res = await get(path, headers);
    expect(res.status, path).toBe(200);
    return res.text();
  };
  const sitemap = () => text('/sitemap.xml');
  const notFoundHeading = 'We couldn’t find that page';

  const MARKER = `Marker-${randomUUID()}`;
  const ORIGINAL_ANSWER = 'Mats, blocks, straps and bolsters are provided.';

  it('her photo as a video poster comes in the sizes the box shows (a dense screen choosing for 1.6×), not as the 2560-px original (issue 36)', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await smallJpeg(1600, 1200))], { type: 'image/jpeg' }), 'poster.jpg');
    const uploaded = await admin.call('/api/admin/images', { method: 'POST', body: form });
    expect(uploaded.status).toBe(201);
    const { url } = (await uploaded.json()) as { url: string };
    const opened = await admin.page('home');
    const original = opened.content as { sampleClass: { poster: string } };
    const withPhoto = { ...original, sampleClass: { ...original.sampleClass, poster: url } };
    expect((await admin.save('home', withPhoto, opened.version)).status).toBe(200);
    await admin.publish('home');
    try {
      const facade = /<div class="video-facade"[\s\S]*?<\/button>/.exec(await text('/'))?.[0] ?? '';
      expect(facade).toContain(`<source type="image/avif" srcset="${url}/`);
      expect(facade).toMatch(/sizes="\(min-resolution: 2\.5dppx\) and [^"]*calc\(\(100vw - 2rem\) \* 1\.6 \/ 3\)/);
    } finally {
      const now = await admin.page('home');
      expect((await admin.save('home', original, now.version)).status).toBe(200);
      await admin.publish('home');
    }
  });

  it('/register says what a session is, what it costs (her ranges) and what comes next (issue 30)', async () => {
    const page = await text('/register');
    expect(page).toContain('Private sessions are 60 minutes');
    expect(page).toContain('individual yoga $80–$110, yoga therapy $10–$80');
    expect(page).toContain('What happens next');
    expect(page).not.toContain('{yoga therapy amounts}');
  });

  it('her FAQ says her notice period from Settings, and says the new one as soon as she changes it (issue 30)', async () => {
    const yoga = await text('/yoga');
    expect(yoga).toContain('Please let me know at least 24 hours ahead');
    expect(yoga).not.toContain('{notice period}');
    const set = (hours: number) => admin.call('/api/admin/settings', { method: 'PUT', json: { cancelNoticeHours: hours } });
    expect((await set(48)).status).toBe(200);
    try {
      const now = await text('/yoga');
      expect(now).toContain('Please let me know at least 48 hours ahead');
      expect(now).not.toContain('at least 24 hours ahead');
      // The editor keeps her placeholder: the value is written in only when the page is drawn.
      expect(JSON.stringify((await admin.page('yoga')).content)).toContain('{notice period}');
    } finally {
      expect((await set(24)).status).toBe(200);
    }
  });

  it('keeps a draft off the public page and off a client’s, shows it in the admin’s preview, and serves it once published', async () => {
    const opened = await admin.page('yoga');
    const original = opened.content as Yoga;
    const index = must(original.faq, 'original.faq').items.findIndex((f) => f.a.includes(ORIGINAL_ANSWER));
    expect(index).toBeGreaterThanOrEqual(0);
    expect(await text('/yoga')).toContain(html(itemAt(must(original.faq, 'original.faq').items, index).a));

    const drafted = clone(original);
    itemAt(must(drafted.faq, 'drafted.faq').items, index).a = `Bring comfortable clothes. ${MARKER}`;
    const saved = await admin.save('yoga', drafted, opened.version);
    expect(saved.status).toBe(200);

    for (const path of ['/yoga', '/yoga/', '/calendar']) {
      expect(await text(path), path).not.toContain(MARKER);
      expect(await text(path, { cookie: client.cookie }), `${path} as a client`).not.toContain(MARKER);
    }
    // A publish of another page makes every page again: still from what is published.
    await admin.publish('site');
    expect(await text('/yoga')).not.toContain(MARKER);
    expect(await text('/yoga')).toContain(ORIGINAL_ANSWER);

    // No way around the admin to the draft: the render routes answer only the server itself.
    for (const path of ['/render-ahead/yoga', '/render-ahead/page']) {
      const res = await get(path, { 'x-render-ticket': randomUUID() });
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toContain(MARKER);
    }
    const asClient = await server.api('/api/admin/pages/yoga/preview', { headers: { cookie: client.cookie } });
    expect(asClient.status).toBe(401);

    const preview = await admin.call('/api/admin/pages/yoga/preview');
    expect(preview.status).toBe(200);
    expect(preview.headers.get('cache-control')).toBe('no-store');
    expect(preview.headers.get('content-type')).toMatch(/text\/html/);
    const previewHtml = await preview.text();
    expect(previewHtml).toContain(MARKER);
    expect(previewHtml).not.toContain(ORIGINAL_ANSWER);

    const published = await admin.publish('yoga');
    expect(published.revision).toBe(2);
    await eventually(async () => {
      expect(await text('/yoga')).toContain(MARKER);
    });
    expect(await text('/yoga', { cookie: client.cookie })).toContain(MARKER);

    const revisions = await admin.revisions('yoga');
    expect(revisions.map((r) => r.n)).toEqual([2, 1]);
    expect(revisions[0]).toMatchObject({ n: 2, restoredFrom: null, current: true });
    expect(itemAt(revisions, 0).changed).toContain(`faq.items.${index}.a`);
    expect(revisions[1]).toMatchObject({ n: 1, current: false });
    expect((await admin.page('yoga')).publishedVersion).toBe(2);
  });

  it('restores revision 1 as revision 3: the public page and the draft say the original again', async () => {
    const res = await admin.call('/api/admin/pages/yoga/revisions/1/restore', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ revision: 3, restoredFrom: 1 });

    await eventually(async () => {
      const page = await text('/yoga');
      expect(page).not.toContain(MARKER);
      expect(page).toContain(ORIGINAL_ANSWER);
    });
    const revisions = await admin.revisions('yoga');
    expect(revisions.map((r) => r.n)).toEqual([3, 2, 1]);
    expect(revisions[0]).toMatchObject({ n: 3, restoredFrom: 1, current: true });

    const draft = await admin.page('yoga');
    expect(draft.content).toEqual(yamlOf('yoga'));
    expect(draft).toMatchObject({ publishedVersion: 3, hasUnpublishedChanges: false });
    expect((await admin.call('/api/admin/pages/yoga/revisions/99/restore', { method: 'POST' })).status).toBe(404);
    // An editor still open on the draft from before the restore can't overwrite it silently.
    const stale = await admin.save('yoga', draft.content, draft.version - 1);
    expect(stale.status).toBe(409);
  });

  it('keeps her new page private until published; then it is served, in the yoga navigation and in the sitemap', async () => {
    const res = await admin.create(customBody({ sections: [{ heading: 'How it works', markdown: 'We start where you are. **Gently.**' }] }));
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ slug: 'chronic-pain-support' });

    const hidden = await get('/chronic-pain-support');
    expect(hidden.status).toBe(404);
    expect(await hidden.text()).toContain(notFoundHeading);
    expect(await sitemap()).not.toContain('/chronic-pain-support<');
    expect(await text('/yoga')).not.toContain('href="/chronic-pain-support"');
    // Her preview shows the real page before it is public.
    const preview = await admin.call('/api/admin/pages/chronic-pain-support/preview');
    expect(preview.status).toBe(200);
    expect(await preview.text()).toContain('How it works');

    await admin.publish('chronic-pain-support');
    await eventually(async () => {
      const page = await text('/chronic-pain-support');
      expect(page).toMatch(heading('Chronic Pain Support'));
      expect(page).toContain('<strong>Gently.</strong>');
    });
    expect(await text('/yoga')).toMatch(/<a href="\/chronic-pain-support"[^>]*>Chronic Pain Support<\/a>/);
    expect(await text('/about')).toMatch(/<a href="\/chronic-pain-support"[^>]*>Chronic Pain Support<\/a>/);
    expect(await text('/chocolates')).not.toContain('href="/chronic-pain-support"');
    const map = await sitemap();
    expect(map).toMatch(/<url><loc>[^<]*\/chronic-pain-support<\/loc><lastmod>\d{4}-\d\d-\d\dT[^<]+<\/lastmod><\/url>/);
    const listed = (await admin.list()).find((p) => p.slug === 'chronic-pain-support');
    expect(listed).toMatchObject({ kind: 'custom', path: '/chronic-pain-support', publishedVersion: 1, title: 'Chronic Pain Support' });
  });

  it('answers the old address of a renamed page with a 301 to the new one', async () => {
    const res = await admin.call('/api/admin/pages/chronic-pain-support/rename', { method: 'POST', json: { slug: 'pain-support' } });
    expect(res.status).toBe(200);
    await movedTo('/chronic-pain-support', '/pain-support');
    expect(await text('/pain-support')).toMatch(heading('Chronic Pain Support'));
    expect(await text('/yoga')).toContain('href="/pain-support"');
    expect(await text('/yoga')).not.toContain('href="/chronic-pain-support"');
    const map = await sitemap();
    expect(map).toContain('/pain-support</loc>');
    expect(map).not.toContain('/chronic-pain-support</loc>');
    expect((await admin.call('/api/admin/pages/chronic-pain-support')).status).toBe(404);
    expect((await admin.revisions('pain-support')).map((r) => r.n)).toEqual([1]);
    // Renamed onto a page that exists, or a reserved address: refused.
    expect((await admin.create(customBody({ title: 'Other page', slug: 'other-page' }))).status).toBe(201);
    expect((await admin.call('/api/admin/pages/pain-support/rename', { method: 'POST', json: { slug: 'other-page' } })).status).toBe(409);
    expect((await admin.call('/api/admin/pages/pain-support/rename', { method: 'POST', json: { slug: 'admin' } })).status).toBe(400);
  });

  it('a second rename sends the first old address straight to the newest one', async () => {
    const res = await admin.call('/api/admin/pages/pain-support/rename', { method: 'POST', json: { slug: 'pain-care' } });
    expect(res.status).toBe(200);
    await movedTo('/pain-support', '/pain-care');
    // The repo's redirect table points /chronic-pain-support at /pain-care (ON UPDATE CASCADE);
    // the page served for it should say the same, not a chain of two 301s.
    const first = await get('/chronic-pain-support');
    expect(first.status).toBe(301);
    expect(first.headers.get('location')).toBe('/pain-care');
  });

  it('after unpublish the address answers the site’s 404 page; after delete too, and the admin’s page is gone', async () => {
    const unpublished = await admin.call('/api/admin/pages/pain-care/unpublish', { method: 'POST' });
    expect(unpublished.status).toBe(200);
    await eventually(async () => {
      const res = await get('/pain-care');
      expect(res.status).toBe(404);
      const body = await res.text();
      expect(body).toContain(notFoundHeading);
      expect(body).not.toMatch(heading('Chronic Pain Support'));
    });
    expect(await text('/yoga')).not.toContain('href="/pain-care"');
    expect(await sitemap()).not.toContain('/pain-care</loc>');
    // Still hers to edit and publish again.
    expect(await admin.page('pain-care')).toMatchObject({ publishedVersion: null });

    const deleted = await admin.call('/api/admin/pages/pain-care', { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    const res = await get('/pain-care');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain(notFoundHeading);
    expect((await admin.call('/api/admin/pages/pain-care')).status).toBe(404);
    expect((await admin.call('/api/admin/pages/pain-care/revisions')).status).toBe(404);
  });

  it('deleting a published page takes it off the site at once: the 404 page, no navigation link, not in the sitemap', async () => {
    expect((await admin.create(customBody({ title: 'Short Lived', slug: 'short-lived' }))).status).toBe(201);
    await admin.publish('short-lived');
    await eventually(async () => {
      expect(await text('/short-lived')).toMatch(heading('Short Lived'));
    });
    expect(await text('/yoga')).toContain('href="/short-lived"');

    expect((await admin.call('/api/admin/pages/short-lived', { method: 'DELETE' })).status).toBe(200);
    await eventually(async () => {
      const res = await get('/short-lived');
      expect(res.status).toBe(404);
      expect(await res.text()).toContain(notFoundHeading);
    });
    expect(await text('/yoga')).not.toContain('href="/short-lived"');
    expect(await sitemap()).not.toContain('/short-lived</loc>');
    // The 404 page it answers with is today's: its navigation no longer links to the page that went.
    const elsewhere = await get('/no-such-page-at-all');
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.text()).not.toContain('href="/short-lived"');
    const gone = await get('/short-lived');
    expect(await gone.text()).not.toContain('href="/short-lived"');
  });

  it('renders her Markdown without script, javascript: links or event handlers; https links stay links', async () => {
    const markdown = [
      '<script>alert(1)</script>',
      '[x](javascript:alert(1))',
      '<img src=x onerror=alert(1)>',
      '[click](JaVaScRiPt:alert(2)) and <a href="javascript:alert(3)">there</a>',
      '[the studio](https://example.com/studio) and [mail](mailto:maya@example.com)',
    ].join('\n\n');
    const res = await admin.create(customBody({ title: 'Markdown Safety', slug: 'markdown-safety', inNavigation: false, sections: [{ markdown }] }));
    expect(res.status).toBe(201);
    await admin.publish('markdown-safety');
    let page = '';
    await eventually(async () => {
      page = await text('/markdown-safety');
      expect(page).toMatch(heading('Markdown Safety'));
    });
    const article = page.slice(page.indexOf('<article'), page.indexOf('</article>'));
    expect(article.length).toBeGreaterThan(0);
    expect(page).not.toMatch(/<script>\s*alert/i);
    const tags = [...page.matchAll(/<[a-z][^>]*>/gi)].map((m) => m[0]);
    expect(tags.filter((t) => /\son[a-z]+\s*=/i.test(t))).toEqual([]);
    const hrefs = [...page.matchAll(/\s(?:href|src)\s*=\s*["']?([^"'\s>]*)/gi)].map((m) => m[1]!);
    expect(hrefs.filter((h) => /^\s*javascript:/i.test(h))).toEqual([]);
    expect(article).not.toMatch(/<img\b/i);
    expect(article).toContain('<a href="https://example.com/studio">the studio</a>');
    expect(article).toContain('<a href="mailto:maya@example.com">mail</a>');
    // What she typed is still there, as text.
    expect(article).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
