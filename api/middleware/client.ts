import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/** What the proxy headers may be believed through: api/env.ts's TRUST_PROXY and TRUSTED_PROXIES. */
export interface ProxyTrust {
  /** How many proxies in front append to X-Forwarded-For. */
  TRUST_PROXY: number;
  /** The addresses (IPs, CIDR ranges) those proxies connect from. */
  TRUSTED_PROXIES: readonly string[];
}

/** TRUSTED_PROXIES' default: a proxy on the same machine. */
export const LOOPBACK_PROXIES: readonly string[] = ['127.0.0.1', '::1'];

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

const lists = new Map<string, BlockList>();

/** Whether `address` (a socket's peer) is one of `proxies` (IPs and CIDR ranges, as validated by api/env.ts). */
export function isTrustedProxy(address: string | undefined, proxies: readonly string[]): boolean {
  if (!address) return false;
  const key = proxies.join(',');
  let list = lists.get(key);
  if (!list) {
    list = new BlockList();
    for (const entry of proxies) {
      const [ip = '', prefix] = entry.split('/');
      const type = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) list.addAddress(ip, type);
      else list.addSubnet(ip, Number(prefix), type);
    }
    lists.set(key, list);
  }
  // A dual-stack socket shows an IPv4 peer as ::ffff:a.b.c.d.
  const peer = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  const family = isIP(peer);
  return family !== 0 && list.check(peer, family === 6 ? 'ipv6' : 'ipv4');
}

const peerOf = (c: Context) => (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket?.remoteAddress;

/**
 * How many proxy hops this request's forwarding headers are read through: TRUST_PROXY when the
 * socket's peer is one of TRUSTED_PROXIES, else none (issue 21): a client that reaches the app
 * directly can't name itself someone else by sending the header a proxy would have set. Without
 * a Node socket (astro dev, Hono's app.request in unit tests) there is no proxy to trust.
 */
export function trustedHops(c: Context, trust: ProxyTrust): number {
  return trustedHopsFrom(peerOf(c), trust);
}

/** The same from the socket's peer address (the server's fast path answers before Hono: api/middleware/fast-path.ts). */
export function trustedHopsFrom(peer: string | undefined, trust: ProxyTrust): number {
  if (trust.TRUST_PROXY <= 0) return 0;
  return isTrustedProxy(peer, trust.TRUSTED_PROXIES) ? trust.TRUST_PROXY : 0;
}

/**
 * The client's address, for limits and the human check. The socket's peer address, unless
 * TRUST_PROXY=N says N proxies in front append to X-Forwarded-For and the peer is one of them
 * (TRUSTED_PROXIES); then the entry the first of them appended. Without a Node socket
 * everything is one client, "local".
 */
export function clientAddress(c: Context, trust: ProxyTrust): string {
  return trustedEntry(c.req.header('x-forwarded-for'), trustedHops(c, trust)) ?? peerOf(c) ?? 'local';
}

/** The host the client asked for: X-Forwarded-Host by the same rule, else Host. */
export function clientHost(c: Context, trust: ProxyTrust): string | undefined {
  return trustedEntry(c.req.header('x-forwarded-host'), trustedHops(c, trust)) ?? c.req.header('host');
}
