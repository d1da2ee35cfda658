import type { MiddlewareHandler } from 'hono';
import type { IncomingMessage } from 'node:http';

/**
 * A rest of an unread body up to this size (by its Content-Length) is left to Node, which reads
 * and discards it and keeps the connection for the next request. Anything larger, or chunked,
 * closes the connection and nothing more of it is read: of a body no handler read, the server
 * has then taken in what its first socket read brought (64 KB); of a chunked one a route read,
 * what the body limit let through (api/middleware/body-limit.ts).
 */
export const UNREAD_BODY_ALLOWANCE = 64 * 1024;

/**
 * How long a closing connection stays open after the answer and its FIN went out, reading
 * nothing: time for the client to read the answer before the close resets the connection. An
 * HTTP client still uploading (Node's fetch) fails on the reset when the answer is not in hand
 * by then; with 120 of them at once on two cores 1 s was enough and 100 ms was not.
 */
export const LINGER_MS = 2_000;

/** A client that never reads its answer (so it is never flushed) loses the connection after this long. */
const UNFLUSHED_CLOSE_MS = 10_000;

/**
 * An answer sent before its request's body was read (a refusal: 401 before an upload, 413 over
 * the body limit, 403, 415 …) ends the connection instead of taking in the rest (issue 21).
 * Draining the rest used to hold whole 20 MB bodies in memory; now a refused request reads at
 * most 64 KB of its body, so 40 hostile 20 MB uploads cost what 40 small requests cost
 * (`npm run check:memory`).
 *
 * The answer says `connection: close`. Once it is flushed, Node's HTTP server ends such a
 * connection with `socket.destroySoon()`, which this replaces for that one socket: reading
 * stops (for good: Hono's Node adapter would resume the socket to drain the body, so `resume`
 * is made a no-op too), the FIN goes out after the answer, and LINGER_MS later the socket is
 * destroyed. Meanwhile the client's sending waits on a full window, which costs the server
 * nothing, and a browser or an HTTP client still uploading has the whole answer in hand: it
 * shows the 401 or 413 rather than a reset (tests/api/system/refused-bodies.test.ts streams 20 MB
 * bodies from Node's fetch and http clients; Chromium's fetch and XHR uploads were checked by
 * hand the same way).
 */
export const closeUnreadBody =
  (allowance = UNREAD_BODY_ALLOWANCE, lingerMs = LINGER_MS): MiddlewareHandler =>
  async (c, next) => {
    await next();
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    if (!incoming || incoming.readableEnded || incoming.destroyed) return;
    const chunked = c.req.header('transfer-encoding') !== undefined;
    const length = Number(c.req.header('content-length') ?? '0');
    if (!chunked && !(length > allowance)) return;

    try {
      c.res.headers.set('connection', 'close');
    } catch {
      // An answer with immutable headers (Response.redirect): the same answer, rebuilt.
      c.res = new Response(c.res.body, c.res);
      c.res.headers.set('connection', 'close');
    }
    const socket = incoming.socket;
    let timer = setTimeout(() => socket.destroy(), UNFLUSHED_CLOSE_MS).unref();
    socket.once('close', () => clearTimeout(timer));
    let closing = false;
    socket.destroySoon = () => {
      if (closing) return;
      closing = true;
      socket.pause();
      socket.resume = () => socket;
      if (socket.writable) socket.end();
      clearTimeout(timer);
      timer = setTimeout(() => socket.destroy(), lingerMs).unref();
    };
  };
