/**
 * Her journal over real HTTP (issue 22), with the built site on one server: every route hers
 * alone; a post is validated by its schema (400 naming the field, nothing saved); slugs come
 * from the title, follow the slug rule and are unique among posts; a draft and a scheduled post
 * are off every public page until published; a publish puts the post on /blog, its page, its
 * tag's page, the Atom feed (parsed by a real feed parser: absolute addresses) and sitemap.xml;
 * its page carries BlogPosting JSON-LD, Open Graph (an article) and Twitter tags with the cover's
 * 1200×630 cut, and the cover at its intrinsic size; the schedule publishes once with two
 * publishers racing; unpublish answers 404; Markdown can't carry script; a renamed post's old
 * address answers 301; revisions restore; send-as-newsletter fills the outbox once per
 * subscriber and refuses a second send.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseFeed } from 'feedsmith';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie, createUser, expectAdminOnly, type AdminRoute } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { smallJpeg } from '../../helpers/photos.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { resetRateLimits } from '../../../api/middleware/rate-limit.ts';
import { publishDuePosts } from '../../../api/pages/journal.ts';
import { scriptHash } from '../../../api/middleware/security-headers.ts';
import { sendNewsletterBatch } from '../../../api/backoffice/newsletter-sender.ts';
import { writeSettings } from '../../../api/settings/settings.repo.ts';
import { POST_MESSAGES, type PageRevision, type PostDetail, type PostListItem } from '../../../contract/content.ts';
import type { ImageUploadedView } from '../../../contract/images.ts';
import type { Thing } from '../../../site/lib/structured-data.ts';
import { itemAt, must } from '../../helpers/guards.ts';

beforeEach(() => resetRateLimits());

const LD_SCRIPT = /<script\b[^>]*\btype="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/gi;
const meta = (html: string, key: string): string[] =>
  [...html.matchAll(new RegExp(`<meta (?:property|name)="${key.replace(/[:.]/g, '\\$&')}" content="([^"]*)"`, 'g'))].map((m) => m[1]!);

let n = 0;
/** A post as POST /api/admin/posts takes it; each with its own title. */
const postBody = (overrides: Record<string, unknown> = {}) => ({
  title: `Slow mornings ${++n}`,
  brand: 'yoga',
  body: `## Why slow\n\nA *gentle* start, then **breath**: the first words of post ${n}.\n\n- one\n- two\n\n> Breathe.`,
  tags: ['breathwork'],
  ...overrides,
});

describe(`her journal on ${testDbKind()}`, () => {
  // One process: a publish serves its pages here at once; the scheduler is left to the tests.
  const server = useTestServer({ site: true, env: { RENDER_POLL_MS: '60000', JOURNAL_SCHEDULE_MS: '3600000' } });
  let cookie: string;
  let photoId: string;
  beforeAll(async () => {
    cookie = await adminCookie(server);
    // Issue 48: a newsletter carries her postal address, and is not sent without one.
    await writeSettings(server.services.db, { postalAddress: 'PO Box 4120, Portland, OR 97208' });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await smallJpeg(1600, 1067))], { type: 'image/jpeg' }), 'cover.jpg');
    const res = await server.api('/api/admin/images', { method: 'POST', body: form, headers: { cookie } });
    expect(res.status).toBe(201);
    photoId = ((await res.json()) as ImageUploadedView).url.split('/').pop()!;
  });

  const call = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    server.api(path, { ...init, headers: { cookie, ...(init.headers as Record<string, string> | undefined) } });
  async function create(body: unknown): Promise<{ id: string; slug: string }> {
    const res = await call('/api/admin/posts', { method: 'POST', json: body });
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
    return res.json();
  }
  async function detail(id: string): Promise<PostDetail> {
    const res = await call(`/api/admin/posts/${id}`);
    expect(res.status).toBe(200);
    return res.json();
  }
  async function publish(id: string): Promise<{ revision: number; path: string }> {
    const res = await call(`/api/admin/posts/${id}/publish`, { method: 'POST' });
    expect(res.status, await res.clone().text()).toBe(200);
    return res.json();
  }
  const get = (path: string) => fetch(`${server.url}${path}`, { redirect: 'manual' });
  async function page(path: string): Promise<string> {
    const res = await get(path);
    expect(res.status, path).toBe(200);
    return res.text();
  }
  const status = async (path: string) => (await get(path)).status;
  const postCount = async () =>
    Number(
      must(
        await server.services.db
          .selectFrom('pages')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('kind', '=', 'post')
          .executeTakeFirst(),
        '….where(…).executeTakeFirst(…)',
      ).n,
    );

  it('refuses every route with 401 without a session and with a client’s, and changes nothing', async () => {
    const { id } = await create(postBody({ title: 'Guarded post' }));
    await publish(id);
    const client = await createUser(server);
    const routes: AdminRoute[] = [
      { method: 'GET', path: '/api/admin/posts' },
      { method: 'POST', path: '/api/admin/posts', json: postBody({ title: 'Intruder' }) },
      { method: 'GET', path: `/api/admin/posts/${id}` },
      { method: 'PUT', path: `/api/admin/posts/${id}`, json: { content: postBody({ title: 'Hacked', slug: 'guarded-post' }), version: 1 } },
      { method: 'DELETE', path: `/api/admin/posts/${id}` },
      { method: 'POST', path: `/api/admin/posts/${id}/publish` },
      { method: 'POST', path: `/api/admin/posts/${id}/schedule`, json: { at: new Date(Date.now() + 3_600_000).toISOString() } },
      { method: 'POST', path: `/api/admin/posts/${id}/unpublish` },
      { method: 'GET', path: `/api/admin/posts/${id}/revisions` },
      { method: 'POST', path: `/api/admin/posts/${id}/revisions/1/restore` },
      { method: 'GET', path: `/api/admin/posts/${id}/preview` },
      { method: 'POST', path: `/api/admin/posts/${id}/newsletter` },
    ];
    const snapshot = async () => JSON.stringify(await server.services.db.selectFrom('pages').selectAll().where('kind', '=', 'post').orderBy('slug').execute());
    const before = await snapshot();
    await expectAdminOnly(server, routes, client.cookie, (body, where) => expect(body, where).not.toContain('Guarded'));
    expect(await snapshot()).toBe(before);
  });

  it('takes a tag as she says it ("Back pain") and keeps its address form, as Ghost does (issue 30)', async () => {
    const { id } = await create(postBody({ tags: ['Back pain', 'Crème brûlée'] }));
    const res = await call(`/api/admin/posts/${id}`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toContain('"tags":["back-pain","creme-brulee"]');
  });

  it('refuses a post that breaks its schema with 400 naming the field, and saves nothing', async () => {
    const before = await postCount();
    const cases: [Record<string, unknown>, string][] = [
      [postBody({ title: '' }), 'title'],
      [postBody({ title: undefined }), 'title'],
      [postBody({ body: '   ' }), 'body'],
      [postBody({ brand: 'tea' }), 'brand'],
      [postBody({ tags: ['!!!'] }), 'tags.0'],
      [postBody({ tags: ['a'.repeat(31)] }), 'tags.0'],
      [postBody({ tags: ['calm', 'calm'] }), 'tags'],
      [postBody({ tags: ['Back pain', 'back-pain'] }), 'tags'],
      [postBody({ coverImageId: 'not-a-photo', coverAlt: 'x' }), 'coverImageId'],
      [postBody({ coverImageId: photoId }), 'coverAlt'],
      [postBody({ body: 'Look: ![](/api/images/00000000-0000-4000-8000-000000000000)' }), 'body'],
      [postBody({ slug: 'Bad Slug!' }), 'slug'],
      [postBody({ slug: 'double--dash' }), 'slug'],
      [postBody({ excerpt: 'x'.repeat(501) }), 'excerpt'],
      [postBody({ publishAt: 'tomorrow' }), 'publishAt'],
      [postBody({ publishAt: new Date(Date.now() - 3_600_000).toISOString() }), 'publishAt'],
    ];
    for (const [body, field] of cases) {
      const res = await call('/api/admin/posts', { method: 'POST', json: body });
      const answer = (await res.json()) as { message: string; issues?: { path: string }[] };
      expect(res.status, `${field}: ${answer.message}`).toBe(400);
      expect(
        answer.issues?.map((i) => i.path),
        field,
      ).toContain(field);
      expect(answer.message, field).toContain(field);
    }
    // A save is held to the same rules, and the draft stays as it was.
    const { id } = await create(postBody());
    const saved = await detail(id);
    const res = await call(`/api/admin/posts/${id}`, { method: 'PUT', json: { content: { ...saved.content, title: '' }, version: saved.version } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { issues: { path: string }[] }).issues.map((i) => i.path)).toContain('title');
    expect((await detail(id)).content).toEqual(saved.content);
    expect(await postCount()).toBe(before + 1);
  });

  it('makes the slug from the title, keeps slugs unique among posts (409) and lets a post share a page’s address word', async () => {
    const first = await create(postBody({ title: 'Cacao & Breath: a Ritual' }));
    expect(first.slug).toBe('cacao-breath-a-ritual');
    const again = await call('/api/admin/posts', { method: 'POST', json: postBody({ title: 'Cacao & Breath: a Ritual' }) });
    expect(again.status).toBe(409);
    const body = (await again.json()) as { message: string; issues: { path: string }[] };
    expect(body.message).toBe(POST_MESSAGES.slugTaken);
    expect(body.issues.map((i) => i.path)).toEqual(['slug']);
    // /blog/about is not /about: a word the site's pages use is free for a post.
    expect((await create(postBody({ slug: 'about' }))).slug).toBe('about');
    // Saving another post onto a taken slug is refused too; two creates at once: one wins.
    const other = await create(postBody());
    const opened = await detail(other.id);
    const clash = await call(`/api/admin/posts/${other.id}`, {
      method: 'PUT',
      json: { content: { ...opened.content, slug: 'cacao-breath-a-ritual' }, version: opened.version },
    });
    expect(clash.status).toBe(409);
    const racing = await Promise.all([
      call('/api/admin/posts', { method: 'POST', json: postBody({ slug: 'same-time' }) }),
      call('/api/admin/posts', { method: 'POST', json: postBody({ slug: 'same-time' }) }),
    ]);
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409]);
    // The version check: a second save of the same version is refused.
    const v = (await detail(other.id)).version;
    const saves = await Promise.all(
      ['A', 'B'].map((x) => call(`/api/admin/posts/${other.id}`, { method: 'PUT', json: { content: { ...opened.content, title: `Title ${x}` }, version: v } })),
    );
    expect(saves.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('keeps a draft off /blog, its page, the feed and the sitemap; shows it in the preview; publishes it everywhere', async () => {
    const title = `Sunday breath ${Date.now()}`;
    const { id, slug } = await create(
      postBody({ title, tags: ['breathwork', 'mornings'], coverImageId: photoId, coverAlt: 'A mat by the window at dawn', excerpt: 'Ten minutes on the mat.' }),
    );
    const path = `/blog/${slug}`;
    expect(await page('/blog')).not.toContain(title);
    expect(await status(path)).toBe(404);
    expect(await page('/blog/feed.xml')).not.toContain(title);
    expect(await page('/sitemap.xml')).not.toContain(path);
    const list = (await (await call('/api/admin/posts')).json()) as PostListItem[];
    expect(list.find((p) => p.id === id)).toMatchObject({ state: 'draft', path: null, slug });

    const client = await createUser(server);
    expect((await server.api(`/api/admin/posts/${id}/preview`, { headers: { cookie: client.cookie } })).status).toBe(401);
    const preview = await call(`/api/admin/posts/${id}/preview`);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('cache-control')).toBe('no-store');
    const previewHtml = await preview.text();
    expect(previewHtml).toContain(title);
    expect(previewHtml).toContain('<meta name="robots" content="noindex"');

    const published = await publish(id);
    expect(published).toMatchObject({ revision: 1, path });
    expect(await detail(id)).toMatchObject({ state: 'published', path, publishedVersion: 1 });

    const html = await page(path);
    expect(html).toContain(title);
    expect(html).toMatch(/\d+ min read/);
    // The date in the teacher's zone, as words.
    const day = new Intl.DateTimeFormat('en-US', { timeZone: server.env.SITE_TIMEZONE, year: 'numeric', month: 'long', day: 'numeric' }).format(new Date());
    expect(html).toContain(day);
    // The cover through the pipeline, at its intrinsic size.
    expect(html).toMatch(new RegExp(`<img src="/api/images/${photoId}" alt="A mat by the window at dawn" width="1600" height="1067"`));
    expect(html).toMatch(/<source type="image\/webp" srcset="[^"]*\/api\/images\/[^"]*\/640\.webp 640w/);
    // Canonical, Open Graph (an article) and Twitter, with the 1200×630 cut.
    const canonical = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
    expect(canonical).toMatch(new RegExp(`^https?://[^/]+${path}$`));
    expect(meta(html, 'og:type')).toEqual(['article']);
    expect(meta(html, 'og:url')).toEqual([canonical]);
    expect(meta(html, 'og:image')[0]).toMatch(new RegExp(`^https?://[^/]+/api/images/${photoId}/og\\.jpg$`));
    expect(meta(html, 'twitter:card')).toEqual(['summary_large_image']);
    expect(meta(html, 'twitter:image')[0]).toBe(meta(html, 'og:image')[0]);
    expect(meta(html, 'twitter:title')[0]).toBe(title);
    expect(meta(html, 'article:tag')).toEqual(['breathwork', 'mornings']);
    expect(html).toMatch(/<link rel="alternate" type="application\/atom\+xml" title="[^"]+" href="https?:\/\/[^"]+\/blog\/feed\.xml"/);

    // BlogPosting, parsed and checked against the page.
    const nodes = [...html.matchAll(LD_SCRIPT)].flatMap((m) => ((JSON.parse(m[1]!) as { '@graph': Thing[] })['@graph'] ?? []) as Thing[]);
    const posting = nodes.find((x) => x['@type'] === 'BlogPosting')!;
    expect(posting).toBeDefined();
    expect(posting).toMatchObject({
      headline: title,
      url: canonical,
      description: 'Ten minutes on the mat.',
      keywords: 'breathwork, mornings',
      inLanguage: 'en',
    });
    expect(posting.mainEntityOfPage).toMatchObject({ '@id': canonical });
    expect(new Date(posting.datePublished as string).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(posting.dateModified).toBe(posting.datePublished);
    expect(posting.author).toMatchObject({ '@type': 'Person', name: 'Maya Linden' });
    expect(posting.image).toEqual([meta(html, 'og:image')[0]]);
    expect(posting.wordCount).toBeGreaterThan(10);

    // The journal, the tag's pages, the feed and the sitemap.
    const index = await page('/blog');
    expect(index).toContain(title);
    expect(index).toContain(`href="${path}"`);
    expect(index).toMatch(new RegExp(`<img src="/api/images/${photoId}" alt(="")? width="1600" height="1067"`));
    for (const tag of ['breathwork', 'mornings']) expect(await page(`/blog/tag/${tag}`), tag).toContain(title);
    const sitemap = await page('/sitemap.xml');
    for (const p of ['/blog', path, '/blog/tag/breathwork', '/blog/tag/mornings'])
      expect(sitemap, p).toMatch(new RegExp(`<url><loc>https?://[^<]+${p.replace(/\//g, '\\/')}</loc><lastmod>\\d{4}-\\d\\d-\\d\\dT[^<]+</lastmod></url>`));
    // Every script the journal's pages run is one the Content-Security-Policy allows (the build's own).
    for (const p of ['/blog', path, '/blog/tag/breathwork']) {
      const res = await get(p);
      const csp = res.headers.get('content-security-policy') ?? '';
      const inline = [...(await res.text()).matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
      expect(inline.length, p).toBeGreaterThan(0);
      for (const script of inline) expect(csp, p).toContain(scriptHash(script));
    }
    // The navigation leads to the journal.
    const nav = /<nav class="nav container" aria-label="Main">([\s\S]*?)<\/nav>/.exec(await page('/yoga'))?.[1] ?? '';
    expect(nav).toContain('href="/blog"');
  });

  it('the usual feed addresses answer 301 to the feed, and /blog links it (issue 30)', async () => {
    for (const alias of ['/rss.xml', '/feed', '/atom.xml', '/feed.xml']) {
      const res = await get(alias);
      expect(res.status, alias).toBe(301);
      expect(new URL(res.headers.get('location')!, server.url).pathname, alias).toBe('/blog/feed.xml');
    }
    const blog = await (await get('/blog')).text();
    expect(blog).toMatch(/<a href="\/blog\/feed\.xml"[^>]*>Follow the journal in a feed reader<\/a>/);
  });

  it('serves an Atom feed a feed parser reads: full content, every address absolute', async () => {
    const { id, slug } = await create(
      postBody({
        title: 'Feed me',
        coverImageId: photoId,
        coverAlt: 'Cacao nibs',
        body: `Intro.\n\n![Nibs on a plate](/api/images/${photoId})\n\n[Shop](https://example.com/x)`,
      }),
    );
    await publish(id);
    const res = await get('/blog/feed.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/atom\+xml/);
    const xml = await res.text();
    const { format, feed } = parseFeed(xml);
    expect(format).toBe('atom');
    if (format !== 'atom') return;
    expect(feed.title?.value).toMatch(/Journal$/);
    expect(feed.links?.find((l) => l.rel === 'self')?.href).toMatch(/^https?:\/\/[^/]+\/blog\/feed\.xml$/);
    const entry = feed.entries?.find((e) => e.title?.value === 'Feed me');
    expect(entry).toBeDefined();
    expect(must(entry, 'entry').id).toBe(`urn:uuid:${id}`);
    expect(must(entry, 'entry').links?.[0]?.href).toMatch(new RegExp(`^https?://[^/]+/blog/${slug}$`));
    expect(must(entry, 'entry').categories?.map((c) => c.term)).toEqual(['breathwork']);
    const content = must(entry, 'entry').content?.value ?? '';
    expect(must(entry, 'entry').content?.type).toBe('html');
    expect(content).toContain('Intro.');
    expect(content).toContain('<a href="https://example.com/x">Shop</a>');
    expect(content).toMatch(new RegExp(`<img src="https?://[^/"]+/api/images/${photoId}" width="1600" height="1067" alt="Nibs on a plate"`));
    // Nothing relative: every src and href names its origin.
    for (const m of content.matchAll(/\b(?:src|href)="([^"]*)"/g)) expect(m[1]).toMatch(/^(https?:|mailto:)/);
    for (const e of feed.entries ?? []) for (const l of e.links ?? []) expect(l.href).toMatch(/^https?:\/\//);
  });

  it('keeps the feed well-formed: a noncharacter is refused in a post, and dropped from one stored before the rule (issue 29)', async () => {
    // XML 1.0's Char production: anything else makes the document ill-formed.
    const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
    for (const [field, value] of [
      ['title', 'Night \uFFFE'],
      ['body', 'Sleep well.\uFFFF'],
      ['excerpt', 'Rest \uFDD0'],
      ['seoDescription', 'Astral \u{10FFFF}'],
    ] as const) {
      const res = await call('/api/admin/posts', { method: 'POST', json: postBody({ [field]: value }) });
      expect(res.status, field).toBe(400);
      expect((await res.json()).message, field).toMatch(new RegExp(`^${field}: contains characters that are not allowed`));
    }
    const { id } = await create(postBody({ title: 'Old words' }));
    const saved = await call(`/api/admin/posts/${id}`, { method: 'PUT', json: { content: { ...postBody({ title: 'Old words \uFFFF' }), slug: 'old-words' } } });
    expect(saved.status).toBe(400);
    await publish(id);
    // As stored before the rule: its published title holds U+FFFE and U+FFFF; the next publish renders the feed again.
    const row = await server.services.db.selectFrom('pages').select('published').where('slug', '=', `post/${id}`).executeTakeFirstOrThrow();
    const published = JSON.parse(row.published!) as { title: string };
    await server.services.db
      .updateTable('pages')
      .set({ published: JSON.stringify({ ...published, title: 'Old\uFFFE words\uFFFF' }) })
      .where('slug', '=', `post/${id}`)
      .execute();
    await publish((await create(postBody({ title: 'New words' }))).id);
    const xml = await page('/blog/feed.xml');
    expect(xml).not.toMatch(NOT_XML);
    const { format, feed } = parseFeed(xml);
    expect(format).toBe('atom');
    if (format !== 'atom') return;
    expect(feed.entries?.map((e) => e.title?.value)).toEqual(expect.arrayContaining(['Old words', 'New words']));
  });

  it('answers 400 with a message to a publish or newsletter body that is null, an array or a scalar (issue 29: null was a 500)', async () => {
    const { id } = await create(postBody({ title: 'Shapes' }));
    const pageSlug = (await server.services.db.selectFrom('pages').select('slug').where('kind', '=', 'builtin').limit(1).executeTakeFirstOrThrow()).slug;
    for (const path of [`/api/admin/posts/${id}/publish`, `/api/admin/posts/${id}/newsletter`, `/api/admin/pages/${pageSlug}/publish`]) {
      for (const body of ['null', '[]', '[{"version":1}]', '1', '"text"', 'true']) {
        const res = await call(path, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
        expect(res.status, `${path} ${body}`).toBe(400);
        expect(typeof ((await res.json()) as { message?: unknown }).message, `${path} ${body}`).toBe('string');
      }
      const wrong = await call(path, { method: 'POST', json: { version: 'one', full: 'yes' } });
      expect(wrong.status, `${path} with a field of the wrong type`).toBe(400);
    }
    expect((await detail(id)).state).toBe('draft');
    // No body, or an empty object: the publish it always was.
    expect((await call(`/api/admin/posts/${id}/publish`, { method: 'POST' })).status).toBe(200);
    expect((await call(`/api/admin/pages/${pageSlug}/publish`, { method: 'POST', json: {} })).status).toBe(200);
  });

  it('renders her Markdown without script, raw HTML or javascript: links; her photos become the pipeline’s <picture>', async () => {
    const body = [
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '<div onclick="alert(1)">raw</div>',
      '[bad](javascript:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=) [fine](https://example.com/ok) [mail](mailto:hi@example.com)',
      `![A bowl of cacao](/api/images/${photoId})`,
      `[not a link](/api/images/${photoId}) and ![elsewhere](https://example.com/pic.jpg)`,
    ].join('\n\n');
    const { id, slug } = await create(postBody({ title: 'Safety first', body }));
    await publish(id);
    const html = await page(`/blog/${slug}`);
    const article = /<div class="post-body">([\s\S]*?)<\/div>\s*(?:<ul class="post-tags"|<nav|<\/div>)/.exec(html)?.[1] ?? '';
    expect(article).not.toMatch(/<script|<div|<[a-z][^>]*\son[a-z]+=|href="\s*(javascript|data):/i);
    expect(article).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(article).toContain('<a href="https://example.com/ok">fine</a>');
    expect(article).toContain('<a href="mailto:hi@example.com">mail</a>');
    expect(article).toMatch(
      new RegExp(
        `<picture class="photo"><source type="image/avif" srcset="[^"]+" sizes="[^"]+" /><source type="image/webp" srcset="[^"]*/api/images/${photoId}/320\\.webp 320w[^"]*" sizes="[^"]+" /><img src="/api/images/${photoId}" alt="A bowl of cacao" width="1600" height="1067" loading="lazy" decoding="async" /></picture>`,
      ),
    );
    // The photo path is for images only: as a link it is plain words; a picture from elsewhere is a link to it.
    expect(article).not.toMatch(new RegExp(`<a href="/api/images/`));
    expect(article).toContain('not a link');
    expect(article).toContain('<a href="https://example.com/pic.jpg">elsewhere</a>');
  });

  it('unpublish: the post answers 404 and leaves /blog, its tag, the feed and the sitemap; publish again brings it back', async () => {
    const tag = `solo-${Date.now().toString(36)}`;
    const { id, slug } = await create(postBody({ title: 'Here and gone', tags: [tag] }));
    await publish(id);
    expect(await page(`/blog/tag/${tag}`)).toContain('Here and gone');
    const res = await call(`/api/admin/posts/${id}/unpublish`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await detail(id)).toMatchObject({ state: 'unpublished', path: null });
    const gone = await get(`/blog/${slug}`);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain('We couldn’t find that page');
    expect(await status(`/blog/tag/${tag}`)).toBe(404);
    expect(await page('/blog')).not.toContain('Here and gone');
    expect(await page('/blog/feed.xml')).not.toContain('Here and gone');
    expect(await page('/sitemap.xml')).not.toContain(`/blog/${slug}<`);
    await publish(id);
    expect(await page(`/blog/${slug}`)).toContain('Here and gone');
    // Deleted: 404 again, and no longer hers to edit.
    expect((await call(`/api/admin/posts/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect(await status(`/blog/${slug}`)).toBe(404);
    expect((await call(`/api/admin/posts/${id}`)).status).toBe(404);
  });

  it('a renamed post’s old address answers 301 to the new one; history and restore as for pages', async () => {
    const { id, slug } = await create(postBody({ title: 'First name' }));
    await publish(id);
    const opened = await detail(id);
    const saved = await call(`/api/admin/posts/${id}`, {
      method: 'PUT',
      json: { content: { ...opened.content, title: 'Second name', slug: 'second-name' }, version: opened.version },
    });
    expect(saved.status).toBe(200);
    // Saved, not published: the public page is as it was.
    expect(await page(`/blog/${slug}`)).toContain('First name');
    expect((await publish(id)).revision).toBe(2);
    const moved = await get(`/blog/${slug}`);
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe('/blog/second-name');
    expect(await page('/blog/second-name')).toContain('Second name');

    const revisions = (await (await call(`/api/admin/posts/${id}/revisions`)).json()) as PageRevision[];
    expect(revisions.map((r) => r.n)).toEqual([2, 1]);
    expect(itemAt(revisions, 0).changed).toEqual(expect.arrayContaining(['title', 'slug']));
    const restored = await call(`/api/admin/posts/${id}/revisions/1/restore`, { method: 'POST' });
    expect(restored.status).toBe(200);
    expect(await restored.json()).toMatchObject({ revision: 3, restoredFrom: 1 });
    expect(await page(`/blog/${slug}`)).toContain('First name');
    expect((await get('/blog/second-name')).headers.get('location')).toBe(`/blog/${slug}`);
    expect((await detail(id)).content.title).toBe('First name');
  });

  it('a scheduled post stays off the site until its time, then publishes once though two publishers race for it', async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const { id, slug } = await create(postBody({ title: 'Written ahead', publishAt: at }));
    expect(await detail(id)).toMatchObject({ state: 'scheduled', publishAt: at });
    expect(await publishDuePosts(server.services)).not.toContain(id);
    expect(await status(`/blog/${slug}`)).toBe(404);
    expect(await page('/blog/feed.xml')).not.toContain('Written ahead');
    // Its time comes: two publishers (replicas) claim at once; one publishes it, once.
    await server.services.db
      .updateTable('pages')
      .set({ publishAt: new Date(Date.now() - 1_000) })
      .where('slug', '=', `post/${id}`)
      .execute();
    const [a, b] = await Promise.all([publishDuePosts(server.services), publishDuePosts(server.services)]);
    expect([...a, ...b].filter((x) => x === id)).toEqual([id]);
    const revisions = (await (await call(`/api/admin/posts/${id}/revisions`)).json()) as PageRevision[];
    expect(revisions.map((r) => r.n)).toEqual([1]);
    expect(await detail(id)).toMatchObject({ state: 'published', publishAt: null });
    expect(await page(`/blog/${slug}`)).toContain('Written ahead');
    expect(await page('/blog/feed.xml')).toContain('Written ahead');
    expect(await publishDuePosts(server.services)).toEqual([]);

    // Scheduling through its route: the past is refused; null cancels.
    const other = await create(postBody());
    const past = await call(`/api/admin/posts/${other.id}/schedule`, { method: 'POST', json: { at: new Date(Date.now() - 3_600_000).toISOString() } });
    expect(past.status).toBe(400);
    const later = await call(`/api/admin/posts/${other.id}/schedule`, { method: 'POST', json: { at } });
    expect(await later.json()).toMatchObject({ state: 'scheduled', publishAt: at });
    const cancelled = await call(`/api/admin/posts/${other.id}/schedule`, { method: 'POST', json: { at: null } });
    expect(await cancelled.json()).toMatchObject({ state: 'draft', publishAt: null });
  });

  it('pages the journal ten posts at a time: /blog/page/2 comes and goes with the posts', async () => {
    const listed = (await (await call('/api/admin/posts')).json()) as PostListItem[];
    const published = listed.filter((p) => p.state === 'published').length;
    const ids: string[] = [];
    for (let i = published; i < 11; i++) {
      const { id } = await create(postBody({ title: `Filler ${i}` }));
      await publish(id);
      ids.push(id);
    }
    const first = await page('/blog');
    expect(first).toContain('href="/blog/page/2"');
    expect((first.match(/class="post-card card"/g) ?? []).length).toBe(10);
    const second = await page('/blog/page/2');
    expect(second).toContain('Page 2 of 2');
    expect(second).toContain('href="/blog"');
    // Two fewer published: one page again, and page 2 is gone.
    for (const id of ((await (await call('/api/admin/posts')).json()) as PostListItem[])
      .filter((p) => p.state === 'published')
      .slice(0, 2)
      .map((p) => p.id))
      expect((await call(`/api/admin/posts/${id}/unpublish`, { method: 'POST' })).status).toBe(200);
    expect(await status('/blog/page/2')).toBe(404);
    expect(await page('/blog')).not.toContain('href="/blog/page/2"');
  });

  it('sends a published post as a newsletter: one outbox row per subscriber, the mail once each with RFC 8058 headers, a second send refused', async () => {
    const emails = ['ana@example.com', 'bo@example.com', 'cy@example.com'];
    await server.services.db
      .insertInto('subscribers')
      .values(emails.map((email) => ({ email })))
      .execute();
    const { id, slug } = await create(postBody({ title: 'Letter from the mat', coverImageId: photoId, coverAlt: 'The mat', excerpt: 'A short note.' }));
    // Not published yet: refused, nothing made.
    const early = await call(`/api/admin/posts/${id}/newsletter`, { method: 'POST', json: {} });
    expect(early.status).toBe(409);
    expect((await early.json()).message).toBe(POST_MESSAGES.notPublished);
    await publish(id);

    const sent = await call(`/api/admin/posts/${id}/newsletter`, { method: 'POST', json: {} });
    expect(sent.status).toBe(202);
    const { newsletterId, total } = (await sent.json()) as { newsletterId: string; total: number };
    expect(total).toBe(emails.length);
    const outbox = await server.services.db.selectFrom('newsletterOutbox').select('email').where('newsletterId', '=', newsletterId).execute();
    expect(outbox.map((r) => r.email).sort()).toEqual(emails);
    const letter = await server.services.db
      .selectFrom('newsletters')
      .select(['subject', 'bodyMarkdown'])
      .where('id', '=', newsletterId)
      .executeTakeFirstOrThrow();
    expect(letter.subject).toBe('Letter from the mat');
    expect(letter.bodyMarkdown).toContain('A short note.');
    expect(letter.bodyMarkdown).toMatch(new RegExp(`\\(https?://[^)]+/blog/${slug}\\)`));
    expect(letter.bodyMarkdown).toMatch(new RegExp(`\\(https?://[^)]+/api/images/${photoId}/og\\.jpg\\)`));
    expect(await detail(id)).toMatchObject({ newsletterSentAt: expect.any(String) });

    // Twice, even at once: refused with a clear 409, no second newsletter, no second row.
    const again = await Promise.all([1, 2].map(() => call(`/api/admin/posts/${id}/newsletter`, { method: 'POST', json: { full: true } })));
    expect(again.map((r) => r.status)).toEqual([409, 409]);
    expect((await itemAt(again, 0).json()).message).toBe(POST_MESSAGES.alreadySent);
    expect(await server.services.db.selectFrom('newsletterOutbox').select('email').where('newsletterId', '=', newsletterId).execute()).toHaveLength(3);

    // The outbox's sender mails each subscriber once, with the one-click unsubscribe headers.
    await sendNewsletterBatch(server.services, { limit: 100 });
    await sendNewsletterBatch(server.services, { limit: 100 });
    for (const email of emails) {
      const mails = (await readMailbox(server, email)).filter((m) => m.subject === 'Letter from the mat');
      expect(mails, email).toHaveLength(1);
      expect(itemAt(mails, 0).headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
      expect(itemAt(mails, 0).headers['List-Unsubscribe']).toMatch(/^<https?:\/\/[^>]+>, <mailto:[^>]+>$/);
      expect(itemAt(mails, 0).html).toMatch(new RegExp(`href="https?://[^"]+/blog/${slug}"`));
    }
  });
});
