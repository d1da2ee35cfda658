import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../types.ts';

/**
 * `Cache-Control: no-store` on every answer that depends on a session, so no browser cache,
 * proxy or shared computer keeps a client's profile, bookings or the admin's lists (or a
 * login's Set-Cookie) after they leave. An answer depends on a session when its route reads
 * one (the guards in auth.ts set the header themselves, and mark the request with
 * userId/adminId), when it lives under /api/admin or /api/user (logins, validate/refresh
 * tokens, profiles: every route there reads or sets a session cookie), or when it sets a cookie.
 * Public answers (/api/chocolates, /api/events) keep whatever caching their route chose.
 */
export function privateAnswers(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const path = c.req.path;
    const private_ = /^\/api\/(admin|user)(\/|$)/.test(path) || c.var.userId !== undefined || c.var.adminId !== undefined || c.res.headers.has('set-cookie');
    if (!private_) return;
    const current = c.res.headers.get('cache-control') ?? '';
    if (/\bno-store\b/i.test(current)) return;
    c.res.headers.set('cache-control', 'no-store');
  };
}
