/**
 * Security headers on every response the one server sends: API JSON, stand-in pages, static
 * files, Astro's on-demand pages and the 404 page (docs/decisions/0005-security-headers.md).
 * The page policy (CSP, Permissions-Policy, X-Frame-Options, Referrer-Policy) goes with HTML
 * only; every other answer carries what it needs: nosniff, HSTS in production, and from the API
 * a short policy under which nothing loads or frames it (decision 0045).
 *
 * The Content-Security-Policy allows what the pages actually use and nothing else. It is
 * computed once at start from the environment (which outside services are configured) and
 * from the build (the hashes of the inline scripts Astro wrote into dist/client), never per
 * request.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import type { Env } from '../env.ts';

/** Hosts of each outside service the browser talks to, allowed only while that service is configured. */
export const PAYPAL_SOURCES = ['https://www.paypal.com', 'https://*.paypal.com', 'https://*.paypalobjects.com'] as const;
export const RECAPTCHA_SCRIPT_SOURCES = ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'] as const;
/** Google's reCAPTCHA FAQ lists both frame origins. */
export const RECAPTCHA_FRAME_SOURCES = ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'] as const;
export const RECAPTCHA_CONNECT_SOURCES = ['https://www.google.com/recaptcha/'] as const;
/** The video facades create this player on click (site/components/VideoFacade.astro). */
export const VIDEO_FRAME_SOURCES = ['https://www.youtube-nocookie.com'] as const;

export const HSTS = 'max-age=63072000; includeSubDomains';

/**
 * The policy of a file someone else sent us (a product image, a class sign-up's signature):
 * nothing loads, and `sandbox` gives the document an opaque origin with no scripts, so a file
 * that is not what it claims (an SVG or HTML behind a .png) opened on its own URL can't act on
 * our origin with the admin's session.
 */
export const UNTRUSTED_FILE_CSP = "default-src 'none'; sandbox";

/**
 * The WebSocket origin of the realtime room, as partysocket will dial it from the host that
 * GET /api/config/public hands out: plain ws:// to a local `partykit dev`, wss:// otherwise.
 */
export function realtimeOrigin(env: Env): string {
  const host = (env.PARTYKIT_HOST ?? `127.0.0.1:${env.PARTYKIT_PORT}`).replace(/^(https?|wss?):\/\//, '').replace(/\/.*$/, '');
  const local = /^(localhost|127\.0\.0\.1|\[::1\])(:|$)/.test(host);
  return `${local ? 'ws' : 'wss'}://${host}`;
}

/** One CSP source expression per inline script, e.g. `'sha256-…'`. */
export function scriptHash(content: string): string {
  return `'sha256-${createHash('sha256').update(content, 'utf8').digest('base64')}'`;
}

/** Script types the browser runs (anything else, like application/ld+json, is inert data). */
const EXECUTABLE_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript', 'text/ecmascript', 'application/ecmascript']);
const SCRIPT_TAG = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

/** Hashes of the inline (no src) executable scripts in one HTML document. */
export function inlineScriptHashesOf(html: string): string[] {
  const found: string[] = [];
  for (const [, attributes = '', content = ''] of html.matchAll(SCRIPT_TAG)) {
    if (/\ssrc\s*=/i.test(` ${attributes}`)) continue;
    const type = /\stype\s*=\s*["']?([^"'\s>]+)/i.exec(` ${attributes}`)?.[1]?.toLowerCase() ?? '';
    if (!EXECUTABLE_TYPES.has(type)) continue;
    found.push(scriptHash(content));
  }
  return found;
}

/**
 * Every distinct inline script of the built site (dist/client/**\/*.html), hashed. Astro
 * writes a few small scripts inline: the `<astro-island>` element, the hydration directives
 * (load, idle, visible, interaction, …), short bundled `<script>` modules, and our own
 * `is:inline` scripts (the navbar's before-first-paint badge). The build is the authority on
 * their exact bytes, so the hashes are read from it rather than kept by hand. The one
 * on-demand page (/user/…) uses the same layout and directives as the prerendered pages, so
 * its inline scripts are among these.
 */
export function inlineScriptHashes(clientDir: string): string[] {
  const hashes = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.html')) for (const h of inlineScriptHashesOf(readFileSync(path, 'utf8'))) hashes.add(h);
    }
  };
  if (existsSync(clientDir)) walk(clientDir);
  return [...hashes].sort();
}

/** The policy's directives, in a fixed order, for the given environment and build. */
export function cspDirectives(env: Env, options: { scriptHashes?: readonly string[] } = {}): [string, string[]][] {
  const paypal = !env.standIns.payments;
  const recaptcha = !env.standIns.captcha;
  const production = env.NODE_ENV === 'production';
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...(options.scriptHashes ?? []), ...(recaptcha ? RECAPTCHA_SCRIPT_SOURCES : []), ...(paypal ? PAYPAL_SOURCES : [])]],
    // Astro inlines small stylesheets (build.inlineStylesheets: 'auto') and the
    // <astro-island> display rule, and React renders style attributes: see the decision record.
    ['style-src', ["'self'", "'unsafe-inline'"]],
    // data: for the drawn signatures (PNG data URLs); https: because the admin may give a
    // product image by URL from anywhere.
    ['img-src', ["'self'", 'data:', 'https:']],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'", realtimeOrigin(env), ...(recaptcha ? RECAPTCHA_CONNECT_SOURCES : []), ...(paypal ? PAYPAL_SOURCES : [])]],
    ['frame-src', [...VIDEO_FRAME_SOURCES, ...(recaptcha ? RECAPTCHA_FRAME_SOURCES : []), ...(paypal ? PAYPAL_SOURCES : [])]],
    ['frame-ancestors', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['object-src', ["'none'"]],
  ];
  // Behind TLS, an http: URL that slipped into content (an image the admin typed) is
  // fetched over https instead of being blocked as mixed content.
  if (production) directives.push(['upgrade-insecure-requests', []]);
  return directives;
}

export function contentSecurityPolicy(env: Env, options: { scriptHashes?: readonly string[] } = {}): string {
  return cspDirectives(env, options)
    .map(([name, sources]) => [name, ...new Set(sources)].join(' '))
    .join('; ');
}

/**
 * The policy of an answer that is not a page (API JSON, a feed, a redirect): opened on its own in
 * a tab, nothing loads from it and no site frames it. Without `sandbox`, which would cost CSV
 * exports and calendar feeds nothing but gains nothing either once nothing can load or run.
 */
export const NON_DOCUMENT_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * What every answer that is not HTML carries, by lower-case name: the short policy (nothing loads
 * from it, no site frames it), no sniffing, and HSTS in production. The built site's files get
 * the same on both paths (the fast path and Hono's serveStatic), an SVG or a feed opened on its
 * own included (issue 47: the fast path sent no policy on them, the old path this one).
 */
export function resourceHeaders(env: Env): Record<string, string> {
  return {
    'content-security-policy': NON_DOCUMENT_CSP,
    ...(env.NODE_ENV === 'production' ? { 'strict-transport-security': HSTS } : {}),
    'x-content-type-options': 'nosniff',
  };
}

/** An HTML answer: it gets the page's headers; anything else the resource's. */
export const isHtml = (contentType: string | null | undefined): boolean => !!contentType && /^\s*text\/html\b/i.test(contentType);

/** Every security header of a page (an HTML answer), by lower-case name. */
export function securityHeaders(env: Env, options: { scriptHashes?: readonly string[] } = {}): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(env, options),
    // Only production is served over TLS; a browser ignores HSTS on http anyway, but a
    // developer's localhost must never be pinned to https by accident.
    ...(env.NODE_ENV === 'production' ? { 'strict-transport-security': HSTS } : {}),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    // frame-ancestors 'none' says the same to browsers that read CSP; this is for the rest.
    'x-frame-options': 'DENY',
    'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  };
}

/**
 * Sets the headers on every response the Hono app answers: a page's (`document`, see
 * securityHeaders) on HTML, else `resource` (see resourceHeaders) with NON_DOCUMENT_CSP. A route
 * that set a stricter policy of its own (images: `default-src 'none'; sandbox`) keeps it.
 */
export function securityHeadersMiddleware(document: Record<string, string>, resource: Record<string, string>): MiddlewareHandler {
  const page = Object.entries(document);
  const other = Object.entries(resource);
  return async (c, next) => {
    await next();
    // Astro wrote this one to the socket itself (see setSecurityHeaders); this Response is a
    // shared placeholder that is never sent.
    if (c.res.headers.has('x-hono-already-sent')) return;
    // A 304's headers update the answer a cache holds (RFC 9111 §4.3.4): with no content type to
    // tell a page from a file, adding a policy here could swap a stored page's for the short one.
    // The page server's 304 carries what it should already (api/middleware/page-server.ts).
    if (c.res.status === 304) return;
    const entries = isHtml(c.res.headers.get('content-type')) ? page : other;
    const missing = entries.filter(([name]) => !c.res.headers.has(name));
    if (missing.length === 0) return;
    try {
      for (const [name, value] of missing) c.res.headers.set(name, value);
    } catch {
      // A Response whose headers are immutable (one passed through from fetch): copy it.
      const res = new Response(c.res.body, c.res);
      for (const [name, value] of missing) res.headers.set(name, value);
      c.res = res;
    }
  };
}

/** The same headers on a Node response written by someone else (Astro's handler). */
export function setSecurityHeaders(res: ServerResponse, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    if (!res.hasHeader(name)) res.setHeader(name, value);
  }
}
