import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';

/**
 * The entry `hops` places from the end of a proxy-appended list (X-Forwarded-For, -Host):
 * each of the `hops` trusted proxies appended one entry, so the client's own is the hops-th
 * from the end. Anything earlier is what the client sent itself and is never used. A list
 * shorter than `hops` (a request that did not pass every proxy) gives its first entry.
 */
export function trustedEntry(header: string | undefined, hops: number): string | undefined {
  if (!header || hops <= 0) return undefined;
  const entries = header
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) return undefined;
  return entries[Math.max(0, entries.length - hops)];
}

/**
 * The client's address, for limits and the human check. The socket's peer address, unless
 * TRUST_PROXY=N says N proxies in front append to X-Forwarded-For; then the entry the first
 * of them appended. Without a Node socket (astro dev, Hono's app.request in unit tests)
 * everything is one client, "local".
 */
export function clientAddress(c: Context, trustProxy: number): string {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return trustedEntry(c.req.header('x-forwarded-for'), trustProxy) ?? incoming?.socket?.remoteAddress ?? 'local';
}

/** The host the client asked for: X-Forwarded-Host by the same hop rule, else Host. */
export function clientHost(c: Context, trustProxy: number): string | undefined {
  return trustedEntry(c.req.header('x-forwarded-host'), trustProxy) ?? c.req.header('host');
}
