import type { Context, MiddlewareHandler } from 'hono';

/**
 * The largest body a route takes (issue 21). A Content-Length over the limit is refused before
 * anything is read. A chunked body (no length) is:
 *  - 'ahead': read before the handler runs, as its chunks come, and refused as soon as it passes
 *    the limit, so a route that ignores its body refuses an oversized one all the same; what it
 *    holds meanwhile is the chunks so far, at most the limit (Hono's own bodyLimit grew one
 *    buffer by doubling, twice the limit and more at times);
 *  - 'as read': counted while the handler streams it (a photo upload, whose handler reads the
 *    whole body to a temporary file before it does anything): past the limit the body breaks
 *    off and the answer becomes `tooLarge`; nothing is held.
 * Either way nothing past the limit is read: the refusal closes the connection
 * (api/middleware/drain-refused-body.ts).
 */
export function bodyLimit(maxSize: number, tooLarge: (c: Context) => Response, chunked: 'ahead' | 'as read' = 'ahead'): MiddlewareHandler {
  return async (c, next) => {
    const hasLength = c.req.header('transfer-encoding') === undefined;
    if (hasLength) {
      const length = c.req.header('content-length');
      if (length !== undefined && Number(length) > maxSize) return tooLarge(c);
      return next();
    }
    const raw = c.req.raw;
    if (!raw.body) return next();

    if (chunked === 'ahead') {
      const chunks: Uint8Array[] = [];
      let size = 0;
      const reader = raw.body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          size += value.byteLength;
          if (size > maxSize) return tooLarge(c);
          chunks.push(value);
        }
      } finally {
        reader.releaseLock();
      }
      c.req.raw = new Request(raw, { body: Buffer.concat(chunks, size) });
      return next();
    }

    let size = 0;
    let over = false;
    const counted = raw.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          size += chunk.byteLength;
          if (size > maxSize) {
            over = true;
            controller.error(new Error('The request body is over its limit'));
          } else controller.enqueue(chunk);
        },
      }),
    );
    c.req.raw = new Request(raw, { body: counted, duplex: 'half' } as RequestInit);
    await next();
    // Whatever the handler made of a body that broke off (a 400 for bad input, say), it was too large.
    if (over) c.res = tooLarge(c);
  };
}
