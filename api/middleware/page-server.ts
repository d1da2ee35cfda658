/**
 * The one page server (issue 49, decision 0062): how a cached page or a built file is answered,
 * whichever path the request took. The fast path (api/middleware/fast-path.ts) answers before
 * Hono; the Hono fallback (api/server.ts: a path spelt so the fast path leaves it, a journal page
 * rendered on demand) answers the same entry chosen by the same `choose`. Both used to write this
 * twice and had drifted: the fallback answered `If-None-Match: *` and a weak tag with 200, sent
 * the page's 304 with its content type, and served files through serveStatic without an ETag.
 *
 * What an answer is, made once per page or file (never per request): its encodings (the
 * publisher's brotli and gzip bodies, the build's `.br`/`.gz` copies), one ETag per encoding,
 * and for each a flat header list ready for `res.writeHead`: content type and length, the
 * encoding, ETag, cache rule, `vary`, and the security headers of its kind (the page's on HTML,
 * the resource's on the rest: api/middleware/security-headers.ts). The list's last value is the
 * request's id, written just before writeHead reads it (synchronously, so one list serves every
 * request). `choose` picks what one request gets; the fast path writes it with writePrepared,
 * the fallback hands Hono the same as a Response (responseOf).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { getMimeType } from 'hono/utils/mime';
import { chooseEncoding } from './compress.ts';
import { isHtml } from './security-headers.ts';
import type { CachedPage } from '../site/publisher.ts';

/** Files larger than this stay on disk and are streamed by serveStatic (a large file is rarely hot). */
export const MAX_FILE_BYTES = 512 * 1024;

/** A published page is revalidated on every visit (its ETag answers 304); hashed build files never change under one name. */
export const PAGE_CACHE = 'public, max-age=0, must-revalidate';
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/** Unreserved characters and slashes only: no `%`, no backslash, no `//`, no `.` or `..` segment. */
export const SAFE_PATH = /^(?!.*\/\.\.?(?:\/|$))\/(?:[A-Za-z0-9\-._~]+\/)*[A-Za-z0-9\-._~]*$/;

/** One answer as it goes on the wire: its status, its headers as a flat list whose last value is the request's id, its bytes. */
export interface Prepared {
  status: number;
  head: string[];
  body: Buffer | undefined;
}

/** One encoding of a page or file: its ETag, its full answer and its 304. */
interface Variant {
  etag: string;
  full: Prepared;
  notModified: Prepared;
}

/** A page or file as it is answered: its status and its encodings. */
export interface CachedAnswer {
  status: number;
  identity: Variant;
  br?: Variant;
  gzip?: Variant;
}

export interface PageServerOptions {
  clientDir: string;
  /** First segments of the Hono app's own routes (`api`, `dev` …): files under them are the app's, never served here. */
  appSegments: ReadonlySet<string>;
  /** The security headers of an HTML answer, and of any other. */
  documentHeaders: Readonly<Record<string, string>>;
  resourceHeaders: Readonly<Record<string, string>>;
  maxFileBytes?: number;
}

export interface PageServer {
  /** A file of the built site by its request path (a folder by its index.html), if held in memory. */
  file(path: string): CachedAnswer | undefined;
  /** A page the publisher holds, its answer made on its first visit (a page rendered again is a new object). */
  page(page: CachedPage): CachedAnswer;
  /**
   * What to send for one request: the encoding the client accepts (br over gzip, `q=0` refusing
   * one), and 304 when If-None-Match holds that encoding's ETag. Made ahead, nothing per request.
   */
  choose(answer: CachedAnswer, acceptEncoding: string | undefined, ifNoneMatch: string | undefined): Prepared;
}

/** The fast path's way to send it: the list straight to writeHead, no body on HEAD or 304. Returns the status. */
export function writePrepared(res: ServerResponse, prepared: Prepared, method: string, id: string): number {
  // The list is shared by every request for this answer: the id is written into its last slot and read by writeHead at once.
  prepared.head[prepared.head.length - 1] = id;
  res.writeHead(prepared.status, prepared.head);
  res.end(method === 'HEAD' ? undefined : prepared.body);
  return prepared.status;
}

/**
 * The Hono fallback's way to send the same: a Response with the same status, headers and bytes.
 * The request log adds the id; the security-header middleware finds every header it would add
 * already there (and leaves a 304 as it is). Writing to the socket from Hono instead, as Astro's
 * handler does, is not an option: Hono answers HEAD by copying the handler's Response, and
 * @hono/node-server then writes that copy of RESPONSE_ALREADY_SENT a second time.
 */
export function responseOf(prepared: Prepared, method: string): Response {
  const headers = new Headers();
  for (let i = 0; i < prepared.head.length - 2; i += 2) headers.set(prepared.head[i]!, prepared.head[i + 1]!);
  return new Response(method === 'HEAD' || !prepared.body ? null : new Uint8Array(prepared.body), { status: prepared.status, headers });
}

const flat = (headers: Readonly<Record<string, string>>) => Object.entries(headers).flat();

/** Every file under `dir`, as `/relative/path`, without the precompressed copies. */
function* filesOf(dir: string, prefix = ''): Generator<string> {
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const path = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) yield* filesOf(dir, path);
    else if (entry.isFile() && !/\.(?:br|gz)$/.test(entry.name)) yield path;
  }
}

/** `/admin/users` → `admin`; the segment as the app's routes are recorded (api/pages/served-paths.ts: lower case). */
export function firstSegmentOf(path: string): string {
  const end = path.indexOf('/', 1);
  return (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/** Optional whitespace or the end: a list member's edge. */
const isSpace = (code: number) => code === 32 || code === 9;

/**
 * Whether an If-None-Match header holds for a representation whose ETag is `etag` (RFC 9110
 * §13.1.2): `*` holds for any current representation; otherwise one of the listed tags must
 * match by weak comparison (`W/"x"` matches `"x"`: only the opaque tags are compared). A scan, not
 * a parse: it runs on every revalidation of the fast path and allocates nothing.
 */
export function ifNoneMatchHolds(header: string, etag: string): boolean {
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  if (header === opaque) return true;
  let at = header.indexOf(opaque);
  if (at === -1) return header.trim() === '*';
  // Found: it counts when it is a whole member of the list (`"x"` or `W/"x"` between commas).
  while (at !== -1) {
    let before = at >= 2 && header.charCodeAt(at - 1) === 47 && header.charCodeAt(at - 2) === 87 ? at - 3 : at - 1;
    while (before >= 0 && isSpace(header.charCodeAt(before))) before--;
    let after = at + opaque.length;
    while (after < header.length && isSpace(header.charCodeAt(after))) after++;
    if ((before < 0 || header.charCodeAt(before) === 44) && (after === header.length || header.charCodeAt(after) === 44)) return true;
    at = header.indexOf(opaque, at + 1);
  }
  return false;
}

export function createPageServer(options: PageServerOptions): PageServer {
  const { documentHeaders, resourceHeaders, appSegments } = options;
  const maxFileBytes = options.maxFileBytes ?? MAX_FILE_BYTES;
  const varied = ['vary', 'accept-encoding'];
  const hsts = resourceHeaders['strict-transport-security'];
  // A 304 carries the validators and the cache rule only: a cache merges its headers into the
  // stored answer, so a page's policy must not be swapped for another there.
  const notModifiedBase = hsts ? ['strict-transport-security', hsts] : [];

  /** The variants of one body, each with its headers, made once. */
  function answerOf(status: number, contentType: string, cache: string, etag: string, bodies: { identity: Buffer; br?: Buffer; gzip?: Buffer }): CachedAnswer {
    const security = flat(isHtml(contentType) ? documentHeaders : resourceHeaders);
    const vary = bodies.br || bodies.gzip ? varied : [];
    const variant = (body: Buffer, encoding?: 'br' | 'gzip'): Variant => {
      // One ETag per encoding: a cache must not answer a gzip client's revalidation with brotli.
      const tag = encoding ? `${etag.slice(0, -1)}-${encoding}"` : etag;
      const common = ['etag', tag, 'cache-control', cache, ...vary];
      return {
        etag: tag,
        full: {
          status,
          head: [
            'content-type',
            contentType,
            'content-length',
            String(body.byteLength),
            ...(encoding ? ['content-encoding', encoding] : []),
            ...common,
            ...security,
            'x-request-id',
            '',
          ],
          body,
        },
        notModified: { status: 304, head: [...common, ...notModifiedBase, 'x-request-id', ''], body: undefined },
      };
    };
    return {
      status,
      identity: variant(bodies.identity),
      ...(bodies.br ? { br: variant(bodies.br, 'br') } : {}),
      ...(bodies.gzip ? { gzip: variant(bodies.gzip, 'gzip') } : {}),
    };
  }

  // The built site's files, with their precompressed copies, read once at start. Where
  // serveStatic would answer a folder with its index.html (`/admin`, `/admin/`), so does this.
  const files = new Map<string, CachedAnswer>();
  if (existsSync(options.clientDir)) {
    for (const file of filesOf(options.clientDir)) {
      const path = join(options.clientDir, file);
      if (statSync(path).size > maxFileBytes || !SAFE_PATH.test(file)) continue;
      const identity = readFileSync(path);
      const copy = (suffix: string) => (existsSync(path + suffix) ? readFileSync(path + suffix) : undefined);
      const etag = `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;
      const cache = file.includes('/_astro/') ? IMMUTABLE_CACHE : PAGE_CACHE;
      const answer = answerOf(200, getMimeType(file) ?? 'application/octet-stream', cache, etag, { identity, br: copy('.br'), gzip: copy('.gz') });
      files.set(file, answer);
      if (file.endsWith('/index.html')) {
        const folder = file.slice(0, -'index.html'.length);
        files.set(folder, answer);
        if (folder !== '/') files.set(folder.slice(0, -1), answer);
      }
    }
  }
  for (const path of files.keys()) if (appSegments.has(firstSegmentOf(path))) files.delete(path);

  const pages = new WeakMap<CachedPage, CachedAnswer>();

  // Browsers send a handful of distinct Accept-Encoding values: each is parsed once.
  const encodings = new Map<string, 'br' | 'gzip' | null>();
  const encodingOf = (accept: string | undefined): 'br' | 'gzip' | null => {
    if (!accept) return null;
    let chosen = encodings.get(accept);
    if (chosen === undefined) {
      chosen = chooseEncoding(accept);
      if (encodings.size < 100) encodings.set(accept, chosen);
    }
    return chosen;
  };

  return {
    file: (path) => files.get(path),
    page: (page) => {
      let answer = pages.get(page);
      if (!answer) {
        answer = answerOf(page.status, page.contentType, PAGE_CACHE, page.etag, { identity: Buffer.from(page.body), br: page.br, gzip: page.gzip });
        pages.set(page, answer);
      }
      return answer;
    },
    choose: (answer, acceptEncoding, ifNoneMatch) => {
      const encoding = encodingOf(acceptEncoding);
      const variant = (encoding && answer[encoding]) || answer.identity;
      return answer.status === 200 && ifNoneMatch !== undefined && ifNoneMatchHolds(ifNoneMatch, variant.etag) ? variant.notModified : variant.full;
    },
  };
}
