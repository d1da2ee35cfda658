import type { MiddlewareHandler } from 'hono';
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { LOOPBACK_PROXIES, trustedHops } from './client.ts';

/** One request's id: the trusted balancer's X-Request-Id when it sent a sane one, else a new UUID. */
export function requestIdOf(incoming: string | undefined, hops: number): string {
  return hops > 0 && incoming && /^[A-Za-z0-9._:-]{8,64}$/.test(incoming) ? incoming : randomUUID();
}

/**
 * A value as a text log line may hold it: escaped as JSON escapes it (`\n`, `\r`, `\u0000`, `\\`,
 * `\"` …), and DEL, the C1 controls, the line and paragraph separators and the bidi controls as
 * `\uXXXX` too, so no request can start a line of its own, drive a terminal or turn the line
 * around (issue 21). Hono decodes a path's %0D%0A into CR LF: the path needs it.
 */
export function escapeForLog(value: string): string {
  return JSON.stringify(value)
    .slice(1, -1)
    .replace(/[\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The path as it may be logged: no query (it may carry tokens), and any segment that could be a
 * secret or personal (a long opaque token, say a feed's secret, or an e-mail address) replaced.
 * Record ids (UUIDs) stay: they name rows, not people.
 */
export function loggablePath(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      if (UUID.test(segment)) return segment;
      if (segment.includes('@') || segment.includes('%40')) return ':email';
      if (/^[A-Za-z0-9_~.=-]{24,}$/.test(segment.replace(/\.(ics|json)$/, ''))) return ':secret';
      return segment;
    })
    .join('/');
}

export interface RequestLogOptions {
  /** No lines at all (tests, QUIET=1); the X-Request-Id header is still set. */
  quiet: boolean;
  /** 'json': one JSON object per line, for a log collector (production); 'text': for people. */
  format: 'json' | 'text';
  trustProxy: number;
  /** TRUSTED_PROXIES: the peers whose X-Request-Id is kept (loopback when absent). */
  trustedProxies?: readonly string[];
}

/**
 * Gives every request an id, answers it in X-Request-Id, and logs one line when it is done:
 * method, path (see loggablePath), status, duration, id. Nothing from the body, cookies or
 * headers: no token or personal data reaches the log.
 */
export const requestLog =
  (options: RequestLogOptions): MiddlewareHandler =>
  async (c, next) => {
    const start = performance.now();
    const id = requestIdOf(
      c.req.header('x-request-id'),
      trustedHops(c, { TRUST_PROXY: options.trustProxy, TRUSTED_PROXIES: options.trustedProxies ?? LOOPBACK_PROXIES }),
    );
    c.header('x-request-id', id);
    // Astro writes its pages to the socket itself, past Hono's headers.
    const socketAnswer = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    if (socketAnswer && !socketAnswer.headersSent) socketAnswer.setHeader('x-request-id', id);
    await next();
    if (c.res.headers.get('x-request-id') !== id) c.res.headers.set('x-request-id', id);
    if (options.quiet) return;
    const ms = Math.round((performance.now() - start) * 10) / 10;
    // A page Astro wrote itself has its status on the socket's response, not on c.res.
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    const status = outgoing?.headersSent ? outgoing.statusCode : c.res.status;
    logRequest(options.format, c.req.method, c.req.path, status, ms, id);
  };

/** The one line a request leaves in the log (the middleware's, and the server's fast path's: api/middleware/fast-path.ts). */
export function logRequest(format: RequestLogOptions['format'], method: string, rawPath: string, status: number, ms: number, id: string): void {
  const path = loggablePath(rawPath);
  if (format === 'json') {
    const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    console.log(JSON.stringify({ time: new Date().toISOString(), level, msg: 'request', requestId: id, method, path, status, ms }));
  } else {
    console.log(`${escapeForLog(method)} ${escapeForLog(path)} ${status} ${ms}ms ${escapeForLog(id)}`);
  }
}
