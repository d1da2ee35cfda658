/**
 * The server's fast path (issue 36, decision 0045) over real HTTP: published pages and the built
 * site's files answered from memory before Hono, with the same bytes, encodings, cache rules and
 * request ids as before; 304 on a matching ETag; the page's security headers on HTML only; a page
 * published after start served fresh; and nothing outside the built files reachable however the
 * path is spelt. The second part drives createFastPath on its own server with a small folder:
 * the size cap, the app's own addresses, the trusted balancer's request id and the log line.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rawRequest, useTestServer, type RawAnswer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { distDirOf } from '../../../api/lib/build-info.ts';
import { NON_DOCUMENT_CSP, UNTRUSTED_FILE_CSP } from '../../../api/middleware/security-headers.ts';
import { createFastPath } from '../../../api/middleware/fast-path.ts';
import { createPageServer, IMMUTABLE_CACHE, PAGE_CACHE } from '../../../api/middleware/page-server.ts';
import type { CachedPage } from '../../../api/site/publisher.ts';

const raw = rawRequest;

const decoded = (r: RawAnswer) =>
  r.headers['content-encoding'] === 'br' ? brotliDecompressSync(r.body) : r.headers['content-encoding'] === 'gzip' ? gunzipSync(r.body) : r.body;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const client = join(distDirOf(), 'client');
/** A hashed script and stylesheet of the build. */
const astro = readdirSync(join(client, '_astro'));
const script = `/_astro/${astro.find((f) => f.endsWith('.js') && astro.includes(`${f}.br`))!}`;
const stylesheet = `/_astro/${astro.find((f) => f.endsWith('.css'))!}`;

describe(`published pages and built files on the fast path, ${testDbKind()}`, () => {
  const server = useTestServer({ site: true });
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => raw(server.url, path, headers, method);
  let cookie: string;
  beforeAll(async () => {
    cookie = await adminCookie(server);
  });

  it('sends a published page as brotli, gzip or as it is, the same page each way, with one ETag per encoding', async () => {
    const plain = await get('/yoga', { 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^text\/html/);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe(PAGE_CACHE);
    expect(plain.headers.vary).toBe('accept-encoding');
    expect(plain.body.toString()).toContain('</html>');
    const tags = new Set([plain.headers.etag]);
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['gzip, br;q=0', 'gzip'],
    ] as const) {
      const res = await get('/yoga', { 'accept-encoding': accept });
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(Number(res.headers['content-length'])).toBe(res.body.byteLength);
      expect(decoded(res).equals(plain.body), accept).toBe(true);
      tags.add(res.headers.etag);
    }
    expect(tags.size).toBe(3);
  });

  it('answers 304 to a page or a file whose ETag the browser holds, for that encoding only', async () => {
    for (const path of ['/yoga', '/yoga/', '/favicon.svg', script]) {
      const first = await get(path, { 'accept-encoding': 'br' });
      expect(first.status, path).toBe(200);
      const etag = String(first.headers.etag);
      // The favicon is under 1 KB: the build keeps no compressed copy of it.
      const compressed = path !== '/favicon.svg';
      expect(etag, path).toMatch(compressed ? /^"[^"]+-br"$/ : /^"[^"]+"$/);
      const again = await get(path, { 'accept-encoding': 'br', 'if-none-match': etag });
      expect(again.status, path).toBe(304);
      expect(again.body.byteLength, path).toBe(0);
      expect(again.headers.etag, path).toBe(etag);
      expect(again.headers['x-request-id'], path).toMatch(UUID);
      // A list of tags, and a weak one, as browsers and caches send them.
      expect((await get(path, { 'accept-encoding': 'br', 'if-none-match': `"other", W/${etag}` })).status, path).toBe(304);
      // The brotli tag does not stand for the gzip bytes.
      if (!compressed) continue;
      const gzip = await get(path, { 'accept-encoding': 'gzip', 'if-none-match': etag });
      expect(gzip.status, path).toBe(200);
      expect(gzip.headers['content-encoding'], path).toBe('gzip');
    }
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    for (const path of ['/yoga', '/favicon.svg']) {
      const got = await get(path, { 'accept-encoding': 'br' });
      const head = await get(path, { 'accept-encoding': 'br' }, 'HEAD');
      expect(head.status, path).toBe(200);
      expect(head.body.byteLength, path).toBe(0);
      for (const name of ['content-type', 'content-length', 'content-encoding', 'etag', 'cache-control', 'content-security-policy'])
        expect(head.headers[name], `${path} ${name}`).toEqual(got.headers[name]);
    }
  });

  it('serves the built files as they are on disk, hashed ones cached for a year', async () => {
    for (const [path, type] of [
      ['/favicon.svg', /^image\/svg\+xml/],
      [script, /^text\/javascript/],
      [stylesheet, /^text\/css/],
      ['/robots.txt', /^text\/plain/],
    ] as const) {
      const res = await get(`${path}?v=2`, { 'accept-encoding': 'br, gzip' });
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type'], path).toMatch(type);
      expect(decoded(res).equals(readFileSync(join(client, path))), path).toBe(true);
      expect(res.headers['cache-control'], path).toBe(path.startsWith('/_astro/') ? IMMUTABLE_CACHE : PAGE_CACHE);
    }
  });

  it("puts the page's security headers on HTML only: files and the API get nosniff and the short policy, on either path", async () => {
    for (const path of ['/yoga', '/', '/admin', '/admin/']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type'], path).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy'], path).toMatch(/^default-src 'self'; script-src 'self' 'sha256-/);
      expect(res.headers['permissions-policy'], path).toBe('camera=(), microphone=(), geolocation=()');
      expect(res.headers['x-frame-options'], path).toBe('DENY');
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
    }
    // `/favicon%2Esvg` is the same file spelt so that the fast path leaves it to Hono's serveStatic:
    // both paths give a file the same headers (issue 47: the fast path sent no policy at all).
    for (const path of ['/favicon.svg', '/favicon%2Esvg', script, stylesheet, '/og-image.png', '/sitemap.xml']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-security-policy'], path).toBe(NON_DOCUMENT_CSP);
      expect(res.headers['permissions-policy'], path).toBeUndefined();
      expect(res.headers['x-frame-options'], path).toBeUndefined();
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
    }
    for (const path of ['/api/health', '/api/no-such-thing']) {
      const res = await get(path);
      expect(res.headers['content-type'], path).toMatch(/^application\/json/);
      expect(res.headers['content-security-policy'], path).toBe(NON_DOCUMENT_CSP);
      expect(res.headers['permissions-policy'], path).toBeUndefined();
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
    }
    // An upload keeps its own sandbox.
    const form = new FormData();
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'dot.png');
    const uploaded = await server.api('/api/admin/images', { method: 'POST', body: form, headers: { cookie } });
    expect(uploaded.status).toBe(201);
    const image = await get(((await uploaded.json()) as { url: string }).url);
    expect(image.headers['content-security-policy']).toBe(UNTRUSTED_FILE_CSP);
    expect(image.headers['x-content-type-options']).toBe('nosniff');
  });

  it('gives every answer its own request id', async () => {
    const ids = new Set<unknown>();
    for (const path of ['/yoga', '/yoga', '/favicon.svg', '/favicon.svg']) ids.add((await get(path)).headers['x-request-id']);
    expect(ids.size).toBe(4);
    for (const id of ids) expect(id).toMatch(UUID);
    // A client can't name its own request: only a trusted balancer's id is kept.
    expect((await get('/yoga', { 'x-request-id': 'chosen-by-the-client' })).headers['x-request-id']).toMatch(UUID);
  });

  it('serves a page she publishes after start, and its next version as soon as it is published', async () => {
    const created = await server.api('/api/admin/pages', {
      method: 'POST',
      headers: { cookie },
      json: { slug: 'fast-lane', title: 'Fast Lane', brand: 'yoga', description: 'A page of hers.', sections: [{ markdown: 'First words.' }] },
    });
    expect(created.status).toBe(201);
    expect((await get('/fast-lane')).status).toBe(404);
    expect((await server.api('/api/admin/pages/fast-lane/publish', { method: 'POST', headers: { cookie } })).status).toBe(200);
    // Publishing renders the page and serves it here at once.
    const first = await get('/fast-lane', { 'accept-encoding': 'br' });
    expect(first.status).toBe(200);
    expect(decoded(first).toString()).toContain('First words.');

    const { content, version } = (await (await server.api('/api/admin/pages/fast-lane', { headers: { cookie } })).json()) as {
      content: Record<string, unknown>;
      version: number;
    };
    const saved = await server.api('/api/admin/pages/fast-lane', {
      method: 'PUT',
      headers: { cookie },
      json: { content: { ...content, sections: [{ markdown: 'Second words.' }] }, version },
    });
    expect(saved.status).toBe(200);
    expect((await server.api('/api/admin/pages/fast-lane/publish', { method: 'POST', headers: { cookie } })).status).toBe(200);
    // The browser's copy of the first version is no longer current: the new one comes whole.
    const second = await get('/fast-lane', { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) });
    expect(second.status).toBe(200);
    expect(second.headers.etag).not.toBe(first.headers.etag);
    expect(decoded(second).toString()).toContain('Second words.');
    expect(decoded(second).toString()).not.toContain('First words.');

    expect((await server.api('/api/admin/pages/fast-lane/unpublish', { method: 'POST', headers: { cookie } })).status).toBe(200);
    expect((await get('/fast-lane')).status).toBe(404);
  });

  it('reaches nothing outside the built files, however the path is spelt', async () => {
    const secret = readFileSync('package.json');
    for (const path of [
      '/../package.json',
      '/../../package.json',
      '/%2e%2e/package.json',
      '/%2E%2E/%2E%2E/package.json',
      '/_astro/../../package.json',
      '/_astro/%2e%2e/%2e%2e/package.json',
      '/_astro/..%2f..%2fpackage.json',
      '/_astro/..%5c..%5cpackage.json',
      '/_astro\\..\\..\\package.json',
      '//package.json',
      '/.%2e/package.json',
      '/favicon.svg/..%2f..%2f..%2fpackage.json',
    ]) {
      const res = await get(path);
      expect(res.status, path).not.toBe(200);
      expect(res.body.includes(secret), path).toBe(false);
    }
  });

  it('keeps the old rules for odd spellings of a page or file', async () => {
    const yoga = decoded(await get('/yoga', { 'accept-encoding': 'br' }));
    // A query is ignored; a trailing slash names the same page; an encoded letter is the letter.
    for (const path of ['/yoga?utm_source=mail', '/yoga/', '/yog%61', '/yoga/?x=1']) {
      const res = await get(path, { 'accept-encoding': 'br' });
      expect(res.status, path).toBe(200);
      expect(decoded(res).equals(yoga), path).toBe(true);
    }
    // A dot segment that stays inside is resolved, as before.
    const favicon = (await get('/favicon.svg')).body;
    for (const path of ['/./favicon.svg', '/_astro/../favicon.svg', '/%2e/favicon.svg']) expect((await get(path)).body.equals(favicon), path).toBe(true);
    // A file is not a folder; a double slash names no file here.
    for (const path of ['/favicon.svg/', '//favicon.svg', '/no-such-file.svg']) expect((await get(path)).status, path).toBe(404);
    // The 404 page's own address is not a page.
    expect((await get('/404')).status).toBe(404);
    // The API's addresses stay the API's, and other methods take the old path, which refuses them (issue 47).
    expect((await get('/api/health')).headers['content-type']).toMatch(/^application\/json/);
    expect((await get('/favicon.svg', {}, 'POST')).status).toBe(405);
  });
});

describe('createFastPath on its own', () => {
  let dir: string;
  let server: Server;
  let base: string;
  const logged: string[] = [];
  const page: CachedPage = {
    status: 200,
    contentType: 'text/html; charset=utf-8',
    body: '<p>hers</p>',
    etag: '"p1"',
    br: Buffer.from('b'),
    gzip: Buffer.from('g'),
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fast-path-'));
    mkdirSync(join(dir, 'api'));
    mkdirSync(join(dir, 'folder'));
    writeFileSync(join(dir, 'small.txt'), 'small');
    writeFileSync(join(dir, 'big.bin'), Buffer.alloc(2048));
    writeFileSync(join(dir, 'api', 'x.json'), '{}');
    writeFileSync(join(dir, 'folder', 'index.html'), '<p>folder</p>');
    const appSegments = new Set(['api']);
    const fast = createFastPath({
      pages: createPageServer({
        clientDir: dir,
        appSegments,
        documentHeaders: { 'content-security-policy': "default-src 'self'", 'x-content-type-options': 'nosniff' },
        resourceHeaders: { 'x-content-type-options': 'nosniff' },
        maxFileBytes: 1024,
      }),
      publisher: { lookup: (path) => (path === '/hers' ? page : undefined) },
      notFoundPath: '/404',
      appSegments,
      log: { quiet: false, format: 'text', trust: { TRUST_PROXY: 1, TRUSTED_PROXIES: ['127.0.0.1', '::1'] } },
    });
    // What the fast path leaves is answered 418 here, as Hono would answer it in the server.
    server = createServer((req, res) => void (fast(req, res) || res.writeHead(418).end('old path')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    vi.spyOn(console, 'log').mockImplementation((line: string) => void logged.push(line));
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds small files and folder indexes, and leaves large files, the app and a missing page to the old path', async () => {
    expect((await raw(base, '/small.txt')).body.toString()).toBe('small');
    for (const path of ['/folder', '/folder/', '/folder/index.html']) expect((await raw(base, path)).body.toString(), path).toBe('<p>folder</p>');
    for (const path of ['/big.bin', '/api/x.json', '/nothing', '/small.txt/', '/404']) expect((await raw(base, path)).status, path).toBe(418);
    expect((await raw(base, '/small.txt', { range: 'bytes=0-1' })).status).toBe(418);
  });

  it("keeps a trusted balancer's request id and logs one line per request, as the middleware does", async () => {
    logged.length = 0;
    const res = await raw(base, '/hers?token=abc', { 'x-request-id': 'balancer-id-123' });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('<p>hers</p>');
    expect(res.headers['x-request-id']).toBe('balancer-id-123');
    expect(res.headers['content-security-policy']).toBe("default-src 'self'");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^GET \/hers 200 \d+(\.\d)?ms balancer-id-123$/);
  });
});
