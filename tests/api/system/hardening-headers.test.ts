/**
 * Security headers and cookie flags over real HTTP (docs/decisions/0005-security-headers.md,
 * amended by 0045): every HTML answer carries the page's headers (stand-in pages, pages and the
 * 404 page when the site is built); every other answer (API JSON, 404, 413, scripts, images)
 * nosniff, and from the API a short policy under which nothing loads; HSTS on all in production
 * only; the CSP names the PayPal and reCAPTCHA hosts exactly when those services are configured;
 * session and OAuth cookies are HttpOnly, SameSite and, in production, Secure.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadEnv, type Env } from '../../../api/env.ts';
import { startServer, type RunningServer } from '../../../api/server.ts';
import type { Mailer, OutgoingMail } from '../../../api/services/mail/index.ts';
import type { HumanCheck } from '../../../api/services/captcha.ts';
import {
  HSTS,
  NON_DOCUMENT_CSP,
  PAYPAL_SOURCES,
  RECAPTCHA_CONNECT_SOURCES,
  RECAPTCHA_FRAME_SOURCES,
  RECAPTCHA_SCRIPT_SOURCES,
  VIDEO_FRAME_SOURCES,
  contentSecurityPolicy,
  inlineScriptHashesOf,
  securityHeaders,
} from '../../../api/middleware/security-headers.ts';
import { resetRateLimits } from '../../../api/middleware/rate-limit.ts';
import { startTestServer, useTestServer } from '../../helpers/server.ts';
import { freshDatabase, testDbKind, type FreshDatabase } from '../../helpers/database.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { productionEnv } from '../../helpers/production-env.ts';
import { must } from '../../helpers/guards.ts';

beforeEach(() => resetRateLimits());

const production = productionEnv;

/** The policy as directive -> sources. */
function parseCsp(header: string | null): Map<string, string[]> {
  expect(header).toBeTruthy();
  const map = new Map<string, string[]>();
  for (const part of must(header, 'header').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name, sources);
  }
  return map;
}

/** The headers every HTML answer must carry, and whether HSTS is there. */
function expectHardened(res: Response, where: string, { hsts }: { hsts: boolean }) {
  expect(res.headers.get('content-type'), where).toMatch(/^text\/html/);
  const csp = parseCsp(res.headers.get('content-security-policy'));
  expect(csp.get('default-src'), where).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors'), where).toEqual(["'none'"]);
  expect(csp.get('object-src'), where).toEqual(["'none'"]);
  expect(csp.get('base-uri'), where).toEqual(["'self'"]);
  expect(csp.get('form-action'), where).toEqual(["'self'"]);
  expect(csp.get('script-src'), where).not.toContain("'unsafe-inline'");
  expect(csp.get('script-src'), where).not.toContain("'unsafe-eval'");
  expect(res.headers.get('x-content-type-options'), where).toBe('nosniff');
  expect(res.headers.get('referrer-policy'), where).toBe('strict-origin-when-cross-origin');
  expect(res.headers.get('x-frame-options'), where).toBe('DENY');
  expect(res.headers.get('permissions-policy'), where).toBe('camera=(), microphone=(), geolocation=()');
  expect(res.headers.get('strict-transport-security'), where).toBe(hsts ? HSTS : null);
}

/**
 * The headers of an answer that is not a page: no sniffing, HSTS in production, and none of the
 * page's (Permissions-Policy, X-Frame-Options) but a policy under which nothing loads or frames it,
 * from the API and the built files alike (issue 47).
 */
function expectResource(res: Response, where: string, { hsts }: { hsts: boolean }) {
  expect(res.headers.get('content-type') ?? '', where).not.toMatch(/^text\/html/);
  expect(res.headers.get('content-security-policy'), where).toBe(NON_DOCUMENT_CSP);
  expect(res.headers.get('x-content-type-options'), where).toBe('nosniff');
  expect(res.headers.get('permissions-policy'), where).toBeNull();
  expect(res.headers.get('x-frame-options'), where).toBeNull();
  expect(res.headers.get('referrer-policy'), where).toBeNull();
  expect(res.headers.get('strict-transport-security'), where).toBe(hsts ? HSTS : null);
}

/** All sources the policy gives, over every directive, as "directive source" pairs. */
const pairs = (policy: string) => [...parseCsp(policy)].flatMap(([d, sources]) => sources.map((s) => `${d} ${s}`));

/** The session cookie `name` an answer sets, held HttpOnly, Secure, with its SameSite and the whole site's path. */
function sessionCookie(res: Response, name: string, sameSite: 'Strict' | 'Lax'): string {
  const cookie = res.headers.getSetCookie().find((h) => h.startsWith(`${name}=`));
  expect(cookie).toBeDefined();
  expect(cookie).toMatch(/; HttpOnly/i);
  expect(cookie).toMatch(/; Secure/i);
  expect(cookie).toMatch(new RegExp(`; SameSite=${sameSite}`, 'i'));
  expect(cookie).toMatch(/; Path=\/(;|$)/);
  return cookie!;
}

describe(`security headers in development and tests on ${testDbKind()}`, () => {
  const server = useTestServer();

  it("are the page's on stand-in pages, the short policy on API JSON, unknown API paths and the emulator SDK; no HSTS", async () => {
    for (const path of ['/api/health', '/api/config/public', '/api/no-such-thing', '/dev/mailbox', '/dev/paypal/sdk/js']) {
      const res = await server.api(path);
      expect(res.status, path).toBe(path === '/api/no-such-thing' ? 404 : 200);
      if (path === '/dev/mailbox') expectHardened(res, path, { hsts: false });
      else expectResource(res, path, { hsts: false });
    }
  });

  it('are on refusals: 413 for an oversized body, 403 for a cross-site write, 400 for bad JSON', async () => {
    const big = await server.api('/api/contact', { method: 'POST', json: { message: 'x'.repeat(server.env.BODY_LIMIT_BYTES + 10) } });
    expect(big.status).toBe(413);
    expectResource(big, '413', { hsts: false });

    const crossSite = await server.api('/api/contact', { method: 'POST', json: {}, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    expectResource(crossSite, '403', { hsts: false });

    const bad = await server.api('/api/contact', { method: 'POST', body: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expectResource(bad, '400', { hsts: false });
  });

  it('allow only our origin, the video player, images by URL and the local realtime room', async () => {
    const csp = parseCsp((await server.api('/dev/mailbox')).headers.get('content-security-policy'));
    expect(csp.get('script-src')).toEqual(["'self'"]); // no site here, so no inline scripts to hash
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'https:']);
    expect(csp.get('connect-src')).toEqual(["'self'", `ws://127.0.0.1:${server.env.PARTYKIT_PORT}`]);
    expect(csp.get('frame-src')).toEqual([...VIDEO_FRAME_SOURCES]);
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
  });

  it("keep a route's own stricter policy: uploaded images are sandboxed", async () => {
    const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'dot.png');
    const uploaded = await server.api('/api/admin/images', { method: 'POST', body: form, headers: { cookie: await adminCookie(server) } });
    expect(uploaded.status).toBe(201);
    const image = await server.api((await uploaded.json()).url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('permissions-policy')).toBeNull();
  });

  it('set session cookies HttpOnly, SameSite, Path=/ and not Secure on http', async () => {
    const admin = await server.api('/api/admin/login', {
      method: 'POST',
      json: { email: server.env.ADMIN_EMAIL, password: server.env.ADMIN_PASSWORD, recaptchaToken: 'dev:admin_login' },
    });
    expect(admin.status).toBe(200);
    const cookie = admin.headers.getSetCookie().find((h) => h.startsWith('yc_admin='))!;
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Strict/i);
    expect(cookie).toMatch(/; Path=\/(;|$)/);
    expect(cookie).not.toMatch(/; Secure/i);
    expectResource(admin, 'admin login', { hsts: false });
  });
});

describe('the policy follows the configured services', () => {
  const base = { NODE_ENV: 'test', PGLITE_DIR: 'memory://' };
  const withPayPal = { PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 'secret' };
  const withRecaptcha = { RECAPTCHA_SITE_KEY: 'site', RECAPTCHA_SECRET_KEY: 'secret' };
  const none = pairs(contentSecurityPolicy(loadEnv(base)));

  it('names no PayPal or Google host without their keys', () => {
    expect(none.filter((p) => /paypal|google|gstatic/.test(p))).toEqual([]);
  });

  it('gains exactly the PayPal hosts with the PayPal keys', () => {
    const gained = pairs(contentSecurityPolicy(loadEnv({ ...base, ...withPayPal }))).filter((p) => !none.includes(p));
    expect(gained.sort()).toEqual(['script-src', 'connect-src', 'frame-src'].flatMap((d) => PAYPAL_SOURCES.map((s) => `${d} ${s}`)).sort());
  });

  it('gains exactly the reCAPTCHA hosts with the reCAPTCHA keys', () => {
    const gained = pairs(contentSecurityPolicy(loadEnv({ ...base, ...withRecaptcha }))).filter((p) => !none.includes(p));
    const expected = [
      ...RECAPTCHA_SCRIPT_SOURCES.map((s) => `script-src ${s}`),
      ...RECAPTCHA_FRAME_SOURCES.map((s) => `frame-src ${s}`),
      ...RECAPTCHA_CONNECT_SOURCES.map((s) => `connect-src ${s}`),
    ];
    expect(gained.sort()).toEqual(expected.sort());
  });

  it('needs both keys of a pair: a site key alone changes nothing', () => {
    expect(pairs(contentSecurityPolicy(loadEnv({ ...base, RECAPTCHA_SITE_KEY: 'site', PAYPAL_CLIENT_ID: 'id' })))).toEqual(none);
  });

  it('reaches a deployed room over wss and a local one over ws', () => {
    const connect = (env: Record<string, string>) => parseCsp(contentSecurityPolicy(loadEnv({ ...base, ...env }))).get('connect-src');
    expect(connect({ PARTYKIT_PORT: '2999' })).toEqual(["'self'", 'ws://127.0.0.1:2999']);
    expect(connect({ PARTYKIT_HOST: 'yoga.me.partykit.dev' })).toEqual(["'self'", 'wss://yoga.me.partykit.dev']);
    expect(connect({ PARTYKIT_HOST: 'localhost:1999' })).toEqual(["'self'", 'ws://localhost:1999']);
  });

  it('hashes exactly the inline scripts that run, not external or data scripts', () => {
    const html = `<script>a()</script><script type="module">b()</script><script src="/x.js"></script>
      <script type="application/ld+json">{"@type":"Thing"}</script><script is:inline data-x>c()</script>`;
    expect(inlineScriptHashesOf(html)).toEqual([
      "'sha256-qVpDBgj7bpq5hMAcGp3AOc79J3Y1Z4HvySTwKrWDoy4='", // a()
      "'sha256-cf242PFc/kb7xD0Qzhsmd9vvRkc+cWFmbi+k+YvtdKc='", // b()
      "'sha256-uv6BXxguRKhBqgeOtcyTvppA2Vttceh37dUo7xwS8Ug='", // c()
    ]);
  });

  it('is served on requests from a server with both keys', async () => {
    const server = await startTestServer({ env: { ...withPayPal, ...withRecaptcha } });
    try {
      const csp = (await server.api('/dev/mailbox')).headers.get('content-security-policy')!;
      for (const host of [...PAYPAL_SOURCES, ...RECAPTCHA_SCRIPT_SOURCES, ...RECAPTCHA_FRAME_SOURCES]) expect(csp).toContain(host);
    } finally {
      await server.close();
    }
  });
});

describe(`in production on ${testDbKind()}`, () => {
  let running: RunningServer;
  let database: FreshDatabase;
  let env: Env;
  const sent: OutgoingMail[] = [];
  const mailer: Mailer = { kind: 'resend', send: async (mail) => void sent.push(mail) };
  // The real reCAPTCHA would ask Google; the production code path around it is the same.
  const humanCheck: HumanCheck = { kind: 'recaptcha', verify: async (token) => token === 'human' };

  beforeAll(async () => {
    database = await freshDatabase();
    env = {
      ...loadEnv(production()),
      PORT: 0,
      HOST: '127.0.0.1',
      QUIET: true,
      ...{ DATABASE_URL: database.env.DATABASE_URL, PGLITE_DIR: database.env.PGLITE_DIR },
    };
    expect(env.NODE_ENV).toBe('production');
    running = await startServer(env, { site: false, seedContent: false, overrides: { mailer, humanCheck } });
  });
  afterAll(async () => {
    await running?.close();
    await database?.drop();
  });

  const call = (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const { json, ...rest } = init;
    return fetch(`http://127.0.0.1:${running.port}${path}`, {
      ...rest,
      redirect: 'manual',
      headers: { ...(json !== undefined ? { 'content-type': 'application/json' } : {}), ...(rest.headers as Record<string, string>) },
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
  };

  it('adds HSTS to every response, and the deployed services to the policy', async () => {
    for (const path of ['/api/health', '/api/no-such-thing', '/dev/mailbox']) {
      const res = await call(path);
      expectResource(res, path, { hsts: true });
    }
    // No page here (no site, no stand-in): the policy pages get, as the server computes it at start.
    const csp = parseCsp(securityHeaders(env)['content-security-policy']!);
    expect(csp.get('connect-src')).toEqual(["'self'", 'wss://yoga.me.partykit.dev', ...RECAPTCHA_CONNECT_SOURCES, ...PAYPAL_SOURCES]);
    expect(csp.get('frame-src')).toEqual([...VIDEO_FRAME_SOURCES, ...RECAPTCHA_FRAME_SOURCES, ...PAYPAL_SOURCES]);
    expect(csp.get('script-src')).toEqual(["'self'", ...RECAPTCHA_SCRIPT_SOURCES, ...PAYPAL_SOURCES]);
    expect(csp.has('upgrade-insecure-requests')).toBe(true);
    // No stand-in route exists in production: the 404 is the API's, hardened all the same.
    expect((await call('/dev/mailbox')).status).toBe(404);
  });

  it('sets the admin cookie HttpOnly, Secure, SameSite=Strict, Path=/', async () => {
    const res = await call('/api/admin/login', { method: 'POST', json: { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD, recaptchaToken: 'human' } });
    expect(res.status).toBe(200);
    const cookie = sessionCookie(res, 'yc_admin', 'Strict');
    expectResource(res, 'admin login', { hsts: true });

    const out = await call('/api/admin/logout', { method: 'POST', json: {}, headers: { cookie: cookie.split(';')[0]! } });
    const cleared = out.headers.getSetCookie().find((h) => h.startsWith('yc_admin='))!;
    expect(cleared).toMatch(/Max-Age=0/i);
    expect(cleared).toMatch(/; Secure/i);
    expect(cleared).toMatch(/; SameSite=Strict/i);
  });

  it('sets the client cookie HttpOnly, Secure, SameSite=Lax, Path=/ when a mailed link is used', async () => {
    const email = `prod-${Date.now()}@example.com`;
    expect((await call('/api/user/register', { method: 'POST', json: { firstName: 'Ana', lastName: 'Lima', email, recaptchaToken: 'human' } })).status).toBe(
      200,
    );
    const mail = sent.find((m) => m.to === email)!;
    const token = must(/verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail.text), 'a match in mail.text')[1]!;
    const res = await call('/api/user/verify-email', { method: 'POST', json: { token } });
    expect(res.status).toBe(200);
    sessionCookie(res, 'yc_user', 'Lax');
    expectResource(res, 'verify-email', { hsts: true });
  });

  it("sets Google's state and verifier cookies HttpOnly, Secure, SameSite=Lax, on the callback's path only", async () => {
    const res = await call('/api/user/auth/google');
    expect(res.status).toBe(302);
    expectResource(res, 'google redirect', { hsts: true });
    const cookies = res.headers.getSetCookie();
    for (const name of ['yc_google_state', 'yc_google_verifier']) {
      const cookie = cookies.find((h) => h.startsWith(`${name}=`))!;
      expect(cookie, name).toMatch(/; HttpOnly/i);
      expect(cookie, name).toMatch(/; Secure/i);
      expect(cookie, name).toMatch(/; SameSite=Lax/i);
      expect(cookie, name).toMatch(/; Path=\/api\/user\/auth\/google(;|$)/);
    }
  });
});

/** With the site (built by tests/global-setup.ts): static files, prerendered and on-demand pages and the 404 page too. */
describe(`with the built site on ${testDbKind()}`, () => {
  let running: RunningServer;
  let database: FreshDatabase;
  beforeAll(async () => {
    database = await freshDatabase();
    const env = loadEnv({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', QUIET: '1', ...database.env });
    running = await startServer(env, { seedContent: false });
  });
  afterAll(async () => {
    await running?.close();
    await database?.drop();
  });
  const get = (path: string) => fetch(`http://127.0.0.1:${running.port}${path}`, { redirect: 'manual' });

  it("are the page's on pages, the on-demand client area and the 404 page; static files get nosniff", async () => {
    for (const [path, status] of [
      ['/', 200],
      ['/chocolates/', 200],
      ['/user/someone/book', 200],
      ['/no-such-page', 404],
    ] as const) {
      const res = await get(path);
      expect(res.status, path).toBe(status);
      expectHardened(res, path, { hsts: false });
      await res.arrayBuffer();
    }
    for (const path of ['/favicon.svg', '/sitemap.xml']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expectResource(res, path, { hsts: false });
      await res.arrayBuffer();
    }
  });

  it('allows every inline script of a page by its hash, and nothing else inline', async () => {
    for (const path of ['/', '/contact/', '/user/someone/book', '/no-such-page']) {
      const res = await get(path);
      const html = await res.text();
      const scriptSrc = parseCsp(res.headers.get('content-security-policy')).get('script-src')!;
      const hashes = inlineScriptHashesOf(html);
      expect(hashes.length, path).toBeGreaterThan(0);
      for (const hash of hashes) expect(scriptSrc, `${path} ${hash}`).toContain(hash);
    }
  });
});
