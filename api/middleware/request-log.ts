import type { MiddlewareHandler } from 'hono';

/** One line per request: method, path (no query: it may carry tokens), status, duration. */
export const requestLog =
  (quiet: boolean): MiddlewareHandler =>
  async (c, next) => {
    const start = performance.now();
    await next();
    if (quiet) return;
    const ms = (performance.now() - start).toFixed(1);
    console.log(`${c.req.method} ${c.req.path} ${c.res.status} ${ms}ms`);
  };
