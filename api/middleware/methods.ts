/**
 * Methods the server never serves (issue 47). TRACE and CONNECT are answered 501 before anything
 * else reads the request: no path here implements them (RFC 9110 §15.6.2), and handing TRACE to
 * Astro's handler made a fetch Request it refuses ("'TRACE' HTTP method is unsupported"): a 500
 * with a stack in the log. Node's parser refuses TRACK and unknown tokens with 400 by itself.
 * The site's pages and files are read-only: any other method on them is 405 with `Allow: GET,
 * HEAD` (api/server.ts); the API keeps its own 404 for a route it does not have.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

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
