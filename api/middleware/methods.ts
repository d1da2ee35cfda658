/**
 * Methods the server never serves (issue 47). TRACE and CONNECT are answered 501 before anything
 * else reads the request: no path here implements them (RFC 9110 §15.6.2), and handing TRACE to
 * Astro's handler made a fetch Request it refuses ("'TRACE' HTTP method is unsupported"): a 500
 * with a stack in the log. Node's parser refuses TRACK and unknown tokens with 400 by itself.
 * The site's pages and files are read-only: any other method on them is 405 with `Allow: GET,
 * HEAD` (api/server.ts). An API address asked with a method it does not take is 405 with the
 * methods it does (`allowedMethodsAnswer`); an address the API does not have stays 404.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Context } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';

/** Methods no path of this server implements. */
const NEVER_SERVED = new Set(['TRACE', 'TRACK', 'CONNECT']);

export const NOT_IMPLEMENTED_MESSAGE = 'This method is not supported.';
export const READ_ONLY_MESSAGE = 'This page can only be read (GET or HEAD).';

const body = (message: string) => JSON.stringify({ message });

/** Answers 501 to TRACE and its kin, with the headers every non-HTML answer carries; false for any other method. */
export function answeredNeverServed(req: IncomingMessage, res: ServerResponse, headers: Readonly<Record<string, string>>): boolean {
  if (!NEVER_SERVED.has(req.method ?? '')) return false;
  const text = body(NOT_IMPLEMENTED_MESSAGE);
  res.writeHead(501, { ...headers, 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
  return true;
}

/**
 * CONNECT never reaches a request listener: Node emits 'connect' with the raw socket, and without
 * a listener it drops the connection. Answer it as any method we don't implement, then close.
 */
export function refuseConnect(_req: IncomingMessage, socket: Duplex): void {
  const text = body(NOT_IMPLEMENTED_MESSAGE);
  socket.end(
    `HTTP/1.1 501 Not Implemented\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

const ASKABLE = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The API's catch-all, made once from its routes (`{method, path}` as Hono lists them, under
 * `prefix`): for an address some route serves with other methods, 405 with `Allow` naming them;
 * undefined for an address no route serves (the caller answers 404). Middleware (`ALL`) and
 * wildcard routes say nothing about an address.
 */
export function allowedMethodsAnswer(routes: readonly { method: string; path: string }[], prefix: string) {
  const router = new TrieRouter<string>();
  for (const r of routes) if (r.method !== 'ALL' && !r.path.includes('*')) router.add(r.method, r.path, r.method);
  return (c: Context): Response | undefined => {
    const path = c.req.path.startsWith(prefix) ? c.req.path.slice(prefix.length) || '/' : c.req.path;
    const allowed: string[] = ASKABLE.filter((m) => router.match(m, path)[0].length > 0);
    if (allowed.length === 0 || allowed.includes(c.req.method) || (c.req.method === 'HEAD' && allowed.includes('GET'))) return undefined;
    if (allowed.includes('GET')) allowed.splice(1, 0, 'HEAD');
    return c.json({ message: `This address does not take ${c.req.method}: it takes ${allowed.join(', ')}.` }, 405, { allow: allowed.join(', ') });
  };
}
