import type { MiddlewareHandler } from 'hono';
import type { IncomingMessage } from 'node:http';

/**
 * Reads what is left of a refused request's body before the answer goes out (at most `maxBytes`,
 * for at most `timeoutMs`): a client still uploading then receives the refusal instead of a
 * connection reset (the Node adapter drains for only half a second, then destroys the socket).
 */
export const drainRefusedBody =
  (maxBytes: number, timeoutMs = 30_000): MiddlewareHandler =>
  async (c, next) => {
    await next();
    if (c.res.status < 400) return;
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    if (!incoming || incoming.readableEnded || incoming.destroyed) return;
    if (!c.req.header('content-length') && !c.req.header('transfer-encoding')) return;
    // Through the request's web stream: the Node adapter feeds it from the socket, and a stream
    // nobody reads holds the socket paused.
    const body = c.req.raw.body;
    if (!body || body.locked) return;
    const reader = body.getReader();
    const deadline = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), timeoutMs).unref());
    let bytes = 0;
    try {
      for (;;) {
        const read = await Promise.race([reader.read(), deadline]);
        if (read === 'late' || read.done) break;
        bytes += read.value.byteLength;
        if (bytes > maxBytes) break;
      }
    } catch {
      // The client went away: nothing left to answer.
    } finally {
      reader.releaseLock();
    }
  };
