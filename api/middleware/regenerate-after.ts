import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../types.ts';

/**
 * After an admin's successful change of the chocolates, the classes or the packages, the pages
 * that carry them (/chocolates: schema.org Product, /calendar: Event, /yoga: her packages) are made again.
 * After the response is decided and outside any transaction; a failed render is logged and
 * leaves the previous page in place (the change itself stands).
 */
export const regenerateAfter = (facts: 'products' | 'classes' | 'packages') =>
  createMiddleware<AppEnv>(async (c, next) => {
    await next();
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.res.status >= 300) return;
    await c.var.services.publisher.regenerate({ kind: 'facts', facts }).catch((err: unknown) => {
      console.error(`[render-ahead] ${facts} pages not regenerated:`, err instanceof Error ? err.message : err);
    });
  });
