/**
 * The server's fast path (issue 36, decision 0045): a GET or HEAD of a published page (rendered
 * ahead, held by the publisher in memory with its brotli and gzip bodies and ETag) or of a file
 * of the built site (dist/client, read into memory at start with its precompressed copies and an
 * ETag computed once) is answered at the Node level with res.writeHead/res.end from headers made
 * once per page or file, before any Hono context, Request or Response exists.
 *
 * It answers only what it is sure of; everything else returns false and takes the old path
 * through Hono unchanged (api/server.ts): other methods, paths with anything but unreserved
 * characters (any `%`, `..` or `.` segment, `//`, a backslash), the Hono app's own addresses
 * (/api, /dev, /calendar.ics, the feed aliases), a page the publisher redirects (301), range
 * requests for a file, an odd Host, files over MAX_FILE_BYTES, and every path it does not hold.
 * Queries are ignored, as on the old path.
 *
 * What the old path gave every answer, it gives too: X-Request-Id (a trusted balancer's, else a
 * new UUID), the request's log line, the security headers (the page's on HTML, nosniff and HSTS
 * on the rest: api/middleware/security-headers.ts), and the same cache rules.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { getMimeType } from 'hono/utils/mime';
import { trustedHopsFrom, type ProxyTrust } from './client.ts';
import { chooseEncoding } from './compress.ts';
import { logRequest, requestIdOf, type RequestLogOptions } from './request-log.ts';
import { isHtml } from './security-headers.ts';
import type { CachedPage, Publisher } from '../site/publisher.ts';

/** Files larger than this stay on disk and are streamed by the old path (a large file is rarely hot). */
export const MAX_FILE_BYTES = 512 * 1024;

/** A published page is revalidated on every visit (its ETag answers 304); hashed build files never change under one name. */
export const PAGE_CACHE = 'public, max-age=0, must-revalidate';
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/** Unreserved characters and slashes only: no `%`, no backslash, no `//`, no `.` or `..` segment. */
const SAFE_PATH = /^(?!.*\/\.\.?(?:\/|$))\/(?:[A-Za-z0-9\-._~]+\/)*[A-Za-z0-9\-._~]*$/;
/** A plain Host, as @hono/node-server takes it without parsing it (its reValidHost): anything else takes the old path and its checks. */
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;

/** One encoding of a page or file: its bytes, and its headers as a flat list whose last value is the request's id. */
interface Variant {
  body: Buffer;
  etag: string;
  head: string[];
  notModified: string[];
}

interface Entry {
  status: number;
  identity: Variant;
  br?: Variant;
  gzip?: Variant;
}

export interface FastPathOptions {
  clientDir: string;
  publisher: Pick<Publisher, 'lookup'>;
  /** The path of the 404 page among the publisher's (it is served with its status by the old path). */
  notFoundPath: string;
  /** First segments of the Hono app's own routes (`api`, `dev`, `calendar.ics` …): never answered here. */
  appSegments: ReadonlySet<string>;
  /** The security headers of an HTML answer, and of any other. */
  documentHeaders: Readonly<Record<string, string>>;
  resourceHeaders: Readonly<Record<string, string>>;
  log: Pick<RequestLogOptions, 'quiet' | 'format'> & { trust: ProxyTrust };
  maxFileBytes?: number;
}

export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

const flat = (headers: Readonly<Record<string, string>>) => Object.entries(headers).flat();

/** Every file under `dir`, as `/relative/path`, without the precompressed copies. */
function* filesOf(dir: string, prefix = ''): Generator<string> {
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const path = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) yield* filesOf(dir, path);
    else if (entry.isFile() && !/\.(?:br|gz)$/.test(entry.name)) yield path;
  }
}

export function createFastPath(options: FastPathOptions): FastPath {
  const { publisher, notFoundPath, appSegments, documentHeaders, resourceHeaders, log } = options;
  const maxFileBytes = options.maxFileBytes ?? MAX_FILE_BYTES;
  const varied = ['vary', 'accept-encoding'];
  const hsts = resourceHeaders['strict-transport-security'];
  const notModifiedBase = hsts ? ['strict-transport-security', hsts] : [];

  /** The variants of one body, each with its headers, made once. */
  function entryOf(status: number, contentType: string, cache: string, etag: string, bodies: { identity: Buffer; br?: Buffer; gzip?: Buffer }): Entry {
    const security = flat(isHtml(contentType) ? documentHeaders : resourceHeaders);
    const vary = bodies.br || bodies.gzip ? varied : [];
    const variant = (body: Buffer, encoding?: 'br' | 'gzip'): Variant => {
      // One ETag per encoding: a cache must not answer a gzip client's revalidation with brotli.
      const tag = encoding ? `${etag.slice(0, -1)}-${encoding}"` : etag;
      const common = ['etag', tag, 'cache-control', cache, ...vary];
      return {
        body,
        etag: tag,
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
        notModified: [...common, ...notModifiedBase, 'x-request-id', ''],
      };
    };
    return {
      status,
      identity: variant(bodies.identity),
      ...(bodies.br ? { br: variant(bodies.br, 'br') } : {}),
      ...(bodies.gzip ? { gzip: variant(bodies.gzip, 'gzip') } : {}),
    };
  }

  // The built site's files, with their precompressed copies. Where serveStatic would answer a
  // folder with its index.html (`/admin`, `/admin/`), so does this.
  const files = new Map<string, Entry>();
  if (existsSync(options.clientDir)) {
    for (const file of filesOf(options.clientDir)) {
      const path = join(options.clientDir, file);
      if (statSync(path).size > maxFileBytes || !SAFE_PATH.test(file)) continue;
      const identity = readFileSync(path);
      const copy = (suffix: string) => (existsSync(path + suffix) ? readFileSync(path + suffix) : undefined);
      const etag = `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;
      const cache = file.includes('/_astro/') ? IMMUTABLE_CACHE : PAGE_CACHE;
      const entry = entryOf(200, getMimeType(file) ?? 'application/octet-stream', cache, etag, { identity, br: copy('.br'), gzip: copy('.gz') });
      files.set(file, entry);
      if (file.endsWith('/index.html')) {
        const folder = file.slice(0, -'index.html'.length);
        files.set(folder, entry);
        if (folder !== '/') files.set(folder.slice(0, -1), entry);
      }
    }
  }
  for (const path of files.keys()) if (appSegments.has(firstSegmentOf(path))) files.delete(path);

  // A page's variants, made on its first visit; a page the publisher renders again is a new object.
  const pages = new WeakMap<CachedPage, Entry>();
  const entryOfPage = (page: CachedPage): Entry => {
    let entry = pages.get(page);
    if (!entry) {
      entry = entryOf(page.status, page.contentType, PAGE_CACHE, page.etag, { identity: Buffer.from(page.body), br: page.br, gzip: page.gzip });
      pages.set(page, entry);
    }
    return entry;
  };

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

  return (req, res) => {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (!SAFE_PATH.test(path)) return false;
    const host = req.headers.host;
    if (!host || !PLAIN_HOST.test(host) || appSegments.has(firstSegmentOf(path))) return false;

    // As the old path: her pages first (without a trailing slash), then the built files.
    const pagePath = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const page = pagePath === notFoundPath ? undefined : publisher.lookup(pagePath);
    let entry: Entry | undefined;
    if (page) {
      if (page.status === 301) return false;
      entry = entryOfPage(page);
    } else {
      if (req.headers.range !== undefined) return false;
      entry = files.get(path);
      if (!entry) return false;
    }

    const start = log.quiet ? 0 : performance.now();
    const id = requestIdOf(req.headers['x-request-id'] as string | undefined, trustedHopsFrom(req.socket.remoteAddress, log.trust));
    const encoding = encodingOf(req.headers['accept-encoding']);
    const variant = (encoding && entry[encoding]) || entry.identity;
    const ifNoneMatch = req.headers['if-none-match'];
    let status = entry.status;
    // The lists are shared: the id is written into the last slot and read by writeHead at once.
    if (status === 200 && ifNoneMatch !== undefined && (ifNoneMatch.includes(variant.etag) || ifNoneMatch.trim() === '*')) {
      status = 304;
      variant.notModified[variant.notModified.length - 1] = id;
      res.writeHead(304, variant.notModified);
      res.end();
    } else {
      variant.head[variant.head.length - 1] = id;
      res.writeHead(status, variant.head);
      res.end(method === 'HEAD' ? undefined : variant.body);
    }
    if (!log.quiet) logRequest(log.format, method, path, status, Math.round((performance.now() - start) * 10) / 10, id);
    return true;
  };
}

/** `/admin/users` → `admin`; the segment as the app's routes are recorded (api/pages/served-paths.ts: lower case). */
function firstSegmentOf(path: string): string {
  const end = path.indexOf('/', 1);
  return (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}
