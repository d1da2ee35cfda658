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
 * Queries are ignored, as on the old path. How a page or file is answered (its encodings, ETags,
 * 304, headers) is not here but in the page server it shares with the Hono fallback
 * (api/middleware/page-server.ts, decision 0062), so the two paths can't answer differently.
 *
 * What the old path gave every answer, it gives too: X-Request-Id (a trusted balancer's, else a
 * new UUID), the request's log line, the security headers (the page's on HTML, nosniff and HSTS
 * on the rest: api/middleware/security-headers.ts), and the same cache rules.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { trustedHopsFrom, type ProxyTrust } from './client.ts';
import { firstSegmentOf, SAFE_PATH, writePrepared, type CachedAnswer, type PageServer } from './page-server.ts';
import { logRequest, requestIdOf, type RequestLogOptions } from './request-log.ts';
import type { Publisher } from '../site/publisher.ts';

/** A plain Host, as @hono/node-server takes it without parsing it (its reValidHost): anything else takes the old path and its checks. */
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;

export interface FastPathOptions {
  /** What answers a page or file, shared with the Hono fallback (api/middleware/page-server.ts). */
  pages: PageServer;
  publisher: Pick<Publisher, 'lookup'>;
  /** The path of the 404 page among the publisher's (it is served with its status by the old path). */
  notFoundPath: string;
  /** First segments of the Hono app's own routes (`api`, `dev`, `calendar.ics` …): never answered here. */
  appSegments: ReadonlySet<string>;
  log: Pick<RequestLogOptions, 'quiet' | 'format'> & { trust: ProxyTrust };
}

export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

export function createFastPath(options: FastPathOptions): FastPath {
  const { pages, publisher, notFoundPath, appSegments, log } = options;

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
    let answer: CachedAnswer | undefined;
    if (page) {
      if (page.status === 301) return false;
      answer = pages.page(page);
    } else {
      if (req.headers.range !== undefined) return false;
      answer = pages.file(path);
      if (!answer) return false;
    }

    const start = log.quiet ? 0 : performance.now();
    const id = requestIdOf(req.headers['x-request-id'] as string | undefined, trustedHopsFrom(req.socket.remoteAddress, log.trust));
    const status = writePrepared(res, pages.choose(answer, req.headers['accept-encoding'], req.headers['if-none-match']), method, id);
    if (!log.quiet) logRequest(log.format, method, path, status, Math.round((performance.now() - start) * 10) / 10, id);
    return true;
  };
}
