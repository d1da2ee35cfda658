import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';

/**
 * The client's address, for rate limits. The socket's peer address, unless TRUST_PROXY says a
 * load balancer in front sets X-Forwarded-For; then its last entry (the one the balancer
 * appended: earlier entries are whatever the client sent). Without a Node socket (astro dev,
 * Hono's app.request in unit tests) everything is one client, "local".
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for');
    const last = forwarded?.split(',').at(-1)?.trim();
    if (last) return last;
  }
  return incoming?.socket?.remoteAddress ?? 'local';
}
