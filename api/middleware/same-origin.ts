import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../types.ts';
import { clientHost } from './client.ts';

/**
 * Writes must come from our own pages. Browsers send Sec-Fetch-Site and Origin with every
 * POST/PUT/DELETE; a cross-site value is refused, so a foreign page can't ride on a visitor's
 * cookies (CSRF). Requests from non-browser clients carry neither header and carry no
 * visitor's cookies either, so they pass. Bodies must be JSON (or multipart where a route
 * accepts uploads): a form-encoded cross-site post never reaches a handler.
 */
export const sameOriginWrites = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const method = c.req.method;
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
  // RFC 8058 one-click unsubscribe: the mail provider POSTs a form-encoded body with no
  // cookies; the signed token in the URL is the whole authority, so no CSRF risk.
  if (method === 'POST' && c.req.path === '/api/subscribers/one-click') return next();
  // PayPal's webhook deliveries: server to server, no cookies, and no say over their headers;
  // PayPal's verified signature is the whole authority, and the route checks the body is JSON.
  if (method === 'POST' && c.req.path === '/api/paypal/webhook') return next();

  const site = c.req.header('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') {
    return c.json({ message: 'Cross-site requests are not allowed' }, 403);
  }
  const origin = c.req.header('origin');
  if (origin && origin !== 'null') {
    const host = clientHost(c, c.var.services.env);
    let originHost: string | undefined;
    try {
      originHost = new URL(origin).host;
    } catch {
      originHost = undefined;
    }
    const allowed = new Set([host, new URL(c.var.services.env.SITE_URL).host]);
    if (!originHost || !allowed.has(originHost)) return c.json({ message: 'Cross-site requests are not allowed' }, 403);
  } else if (origin === 'null') {
    return c.json({ message: 'Cross-site requests are not allowed' }, 403);
  }

  const length = Number(c.req.header('content-length') ?? '0');
  const hasBody = length > 0 || c.req.header('transfer-encoding') !== undefined;
  if (hasBody) {
    const type = (c.req.header('content-type') ?? '').toLowerCase();
    if (!type.startsWith('application/json') && !type.startsWith('multipart/form-data')) {
      return c.json({ message: 'Send the request body as JSON (Content-Type: application/json)' }, 415);
    }
  }
  await next();
};
