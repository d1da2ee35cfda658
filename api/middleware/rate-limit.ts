import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../types.ts';
import { clientAddress } from './client.ts';

/**
 * A fixed-window limit per client address and bucket, in memory. One process holds its own
 * counts: with several replicas each allows `max` (docs/DEPLOY.md says how to share them).
 * Refusals are 429 with a message and Retry-After.
 */
export interface RateLimitOptions {
  /** Name of the bucket, e.g. "contact". */
  bucket: string;
  /** Requests allowed per window. */
  max: number;
  windowMs: number;
  message?: string;
}

type Windows = Map<string, { count: number; resetAt: number }>;
const windows: Windows = ((globalThis as { __rateLimits?: Windows }).__rateLimits ??= new Map());
let sweptAt = 0;

export function rateLimit(options: RateLimitOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { env } = c.var.services;
    const now = Date.now();
    if (now - sweptAt > 60_000) {
      sweptAt = now;
      for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
    }
    const key = `${options.bucket}:${clientAddress(c, env.TRUST_PROXY)}`;
    let w = windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + options.windowMs };
      windows.set(key, w);
    }
    w.count++;
    if (w.count > options.max) {
      c.header('retry-after', String(Math.ceil((w.resetAt - now) / 1000)));
      return c.json({ message: options.message ?? 'Too many requests. Please wait a moment and try again.' }, 429);
    }
    await next();
  };
}

/** Forget every count (tests). */
export function resetRateLimits(): void {
  windows.clear();
}
