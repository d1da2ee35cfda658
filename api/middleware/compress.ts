import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../types.ts';

/**
 * Brotli or gzip for every API answer over 1 KB whose client asks for it (issue 25: the client's
 * slot list was 133 KB on the wire). `hono/compress` offers only gzip and deflate, and compresses
 * answers of unknown length however small, so this one is ours:
 * - only text kinds (JSON, text/*, XML, CSV, iCalendar); photos and backups are compressed already;
 * - never a stream that stays open (`text/event-stream`): buffering it would hold it back;
 * - never twice: an answer that already says `content-encoding` (a page rendered ahead, served
 *   pre-compressed) passes as it is;
 * - brotli at quality 5 (a JSON answer of 100 KB in about 2 ms here, within a few per cent of
 *   quality 11's size), else gzip at level 6, else as it is.
 */
export const COMPRESS_THRESHOLD_BYTES = 1024;

const COMPRESSIBLE = /^(?:application\/(?:json|[\w.+-]*\+json|xml|[\w.+-]*\+xml|javascript)|text\/(?!event-stream)[\w.+-]+|image\/svg\+xml)\b/i;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** The encoding the client accepts that we prefer: `br` over `gzip`; `q=0` refuses one. */
export function chooseEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q.set(name, qParam ? Number(qParam.slice(2)) || 0 : 1);
  }
  const accepts = (enc: string) => (q.get(enc) ?? q.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return null;
}

export const compressAnswers = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    await next();
    const res = c.res;
    if (c.req.method === 'HEAD' || !res.body || res.status === 204 || res.status === 206 || res.headers.has('content-encoding')) return;
    const type = res.headers.get('content-type') ?? '';
    if (!COMPRESSIBLE.test(type)) return;
    if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(res.headers.get('cache-control') ?? '')) return;
    const length = res.headers.get('content-length');
    if (length !== null && Number(length) <= COMPRESS_THRESHOLD_BYTES) return;
    // Whatever its size, the answer differs by what the client accepts: caches must know.
    const vary = res.headers.get('vary');
    const varied = vary && /(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(vary) ? vary : vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding';
    const encoding = chooseEncoding(c.req.header('accept-encoding'));
    // The API's text answers are strings the handler made whole: reading them back costs no wait.
    const plain = Buffer.from(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    headers.set('vary', varied);
    if (!encoding || plain.byteLength <= COMPRESS_THRESHOLD_BYTES)
      return replace(c, new Response(plain, { status: res.status, statusText: res.statusText, headers }));
    const packed =
      encoding === 'br'
        ? await brotli(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: plain.byteLength } })
        : await gz(plain, { level: 6 });
    headers.set('content-encoding', encoding);
    headers.set('content-length', String(packed.byteLength));
    const etag = headers.get('etag');
    if (etag && !etag.startsWith('W/')) headers.set('etag', `W/${etag}`);
    replace(c, new Response(new Uint8Array(packed), { status: res.status, statusText: res.statusText, headers }));
  });

/** `c.res = …` would merge the old answer's headers (its length, its strong ETag) back in: cleared first. */
function replace(c: Context<AppEnv>, res: Response): void {
  c.res = undefined as unknown as Response;
  c.res = res;
}
