/**
 * Memory bounded under hostile load (issue 21), over real HTTP:
 *  - a refused request reads at most 64 KB of its body and closes the connection after its
 *    answer (`connection: close`) instead of draining the rest into memory, and an HTTP client
 *    streaming a 20 MB body still hears the 401 or 413 rather than a reset: Node's http client
 *    and its fetch (undici), with Content-Length or chunked, ten at a time; a chunked body is
 *    counted as it is read, never buffered ahead;
 *  - a client that goes on uploading after the answer cannot push its 20 MB in: the server has
 *    stopped reading, and the connection ends;
 *  - photo uploads wait their turn in the photo queue once received: with IMAGE_CONCURRENCY=1
 *    three uploads sent together are all received (the browser's progress complete) before the
 *    first is answered, and all are stored; a received upload keeps its connection.
 * `npm run check:memory` measures what this saves.
 */
import { writeBigBody } from '../../helpers/big-body.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request as httpRequest } from 'node:http';
import { startTestServer, type TestServer, useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { phoneJpeg } from '../../helpers/photos.ts';

const kind = testDbKind();
const MB = 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x61);

interface Outcome {
  status?: number;
  body?: string;
  connection?: string;
  error?: string;
  /** Body bytes the client managed to write in all. */
  written: number;
}

/**
 * POSTs `bytes` of body streamed in 64 KB writes as fast as the server takes them (announced in
 * Content-Length, or chunked). `keepSending`: after the answer, go on writing the rest as a
 * browser does, and resolve when the connection ends; otherwise resolve with the answer.
 */
function streamPost(
  server: TestServer,
  path: string,
  options: { bytes?: number; chunked?: boolean; contentType?: string; cookie?: string; keepSending?: boolean } = {},
): Promise<Outcome> {
  const bytes = options.bytes ?? 20 * MB;
  return new Promise((resolve) => {
    let written = 0;
    let answer: Omit<Outcome, 'written'> | undefined;
    let done = false;
    // A client that would keep its connection: the server's `connection: close` is its own choice.
    const agent = new Agent({ keepAlive: true });
    const finish = (extra: Omit<Outcome, 'written'> = {}) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.destroy();
      agent.destroy();
      resolve({ ...answer, ...extra, written });
    };
    const timer = setTimeout(() => finish({ error: 'timeout' }), 60_000);
    const headers: Record<string, string> = { 'content-type': options.contentType ?? 'application/json' };
    if (!options.chunked) headers['content-length'] = String(bytes);
    if (options.cookie) headers.cookie = options.cookie;
    const req = httpRequest({ host: '127.0.0.1', port: server.port, method: 'POST', path, agent, headers });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        answer = { status: res.statusCode, body, connection: res.headers.connection };
        if (!options.keepSending) finish();
      });
    });
    // Once the answer is in, an error or the end of the connection is how it ends, not a failure.
    req.on('error', (err: NodeJS.ErrnoException) => finish(answer ? {} : { error: err.code ?? err.message }));
    req.on('close', () => finish(answer ? {} : { error: 'closed without an answer' }));
    writeBigBody(
      req,
      bytes,
      () => done,
      (n) => (written += n),
    );
  });
}

const server = useTestServer({ resetRateLimits: true });
let cookie: string;
beforeAll(async () => {
  cookie = await adminCookie(server);
});

describe(`a refused 20 MB upload on ${kind}`, () => {
  it('is answered 413 or 401, never reset, ten at a time, and the connection closes after the answer', async () => {
    const outcomes = await Promise.all([
      ...Array.from({ length: 10 }, () => streamPost(server, '/api/contact').then((o) => ['contact', o] as const)),
      ...Array.from({ length: 10 }, () =>
        streamPost(server, '/api/admin/images', { contentType: 'multipart/form-data; boundary=x' }).then((o) => ['images', o] as const),
      ),
      ...Array.from({ length: 4 }, () => streamPost(server, '/api/contact', { chunked: true }).then((o) => ['chunked', o] as const)),
      // The admin herself, over the 20 MB a photo may have.
      ...Array.from({ length: 2 }, () =>
        streamPost(server, '/api/admin/images', { bytes: 21 * MB, contentType: 'multipart/form-data; boundary=x', cookie }).then(
          (o) => ['too large', o] as const,
        ),
      ),
    ]);
    const expected = { contact: 413, images: 401, chunked: 413, 'too large': 413 } as const;
    for (const [what, o] of outcomes) {
      expect(o.error, what).toBeUndefined();
      expect(o.status, what).toBe(expected[what]);
      expect(JSON.parse(o.body!).message, what).toMatch(what === 'images' ? /login required/i : /too large|at most 20 MB/i);
      expect(o.connection, what).toBe('close');
    }
  });

  it('reaches Node’s fetch streaming its body too', async () => {
    const statuses = await Promise.all(
      ['/api/contact', '/api/admin/images', '/api/contact'].map(async (path) => {
        let sent = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent >= 20 * MB) return controller.close();
            sent += CHUNK.length;
            controller.enqueue(new Uint8Array(CHUNK));
          },
        });
        const res = await fetch(`${server.url}${path}`, {
          method: 'POST',
          body,
          duplex: 'half',
          headers: { 'content-type': 'application/json' },
        } as RequestInit);
        await res.text();
        return res.status;
      }),
    );
    expect(statuses).toEqual([413, 401, 413]);
  });

  it('takes in no more of the body when the client goes on sending after the answer', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 3 }, () => streamPost(server, '/api/admin/images', { contentType: 'multipart/form-data; boundary=x', keepSending: true })),
    );
    for (const o of outcomes) {
      expect(o.status).toBe(401);
      // What the client could write is what the sockets' buffers hold, not the 20 MB it meant to.
      expect(o.written).toBeLessThan(20 * MB);
    }
    // The server is none the worse.
    expect((await server.api('/api/health')).status).toBe(200);
  });

  it('reads a chunked body within the limit as any other', async () => {
    const json = JSON.stringify({
      name: 'Ana Lima',
      email: 'chunked@example.com',
      message: 'Sent without a length',
      recaptchaToken: 'dev:contact_form_submit',
    });
    const bytes = new TextEncoder().encode(json);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        // In pieces, with no Content-Length: Node's fetch sends it chunked.
        for (let at = 0; at < bytes.length; at += 7) controller.enqueue(bytes.subarray(at, at + 7));
        controller.close();
      },
    });
    const res = await fetch(`${server.url}/api/contact`, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { 'content-type': 'application/json' },
    } as RequestInit);
    expect(res.status).toBe(200);
  });

  it('keeps the connection of a small refused body (Node reads its rest)', async () => {
    const o = await streamPost(server, '/api/admin/images', { bytes: 1000, contentType: 'multipart/form-data; boundary=x' });
    expect(o.status).toBe(401);
    expect(o.connection).not.toBe('close');
  });
});

describe(`photo uploads waiting their turn on ${kind}`, () => {
  let one: TestServer;
  let oneCookie: string;
  beforeAll(async () => {
    one = await startTestServer({ env: { IMAGE_CONCURRENCY: '1' } });
    oneCookie = await adminCookie(one);
  });
  afterAll(async () => {
    await one?.close();
  });

  it('receives every upload at once, then processes them one at a time, and stores them all', async () => {
    const photos = await Promise.all([0, 1, 2].map((i) => phoneJpeg(2400 - i * 8, 1800)));
    const started = performance.now();
    const agent = new Agent({ keepAlive: true });
    const results = await Promise.all(
      photos.map(
        (photo, i) =>
          new Promise<{ sentAt: number; answeredAt: number; status: number; connection?: string }>((resolve, reject) => {
            const boundary = `----photo${i}`;
            const body = Buffer.concat([
              Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p${i}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
              photo,
              Buffer.from(`\r\n--${boundary}--\r\n`),
            ]);
            let sentAt = 0;
            const req = httpRequest(
              {
                host: '127.0.0.1',
                port: one.port,
                method: 'POST',
                path: '/api/admin/images',
                agent,
                headers: { cookie: oneCookie, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) },
              },
              (res) => {
                res.resume();
                res.on('end', () =>
                  resolve({ sentAt, answeredAt: performance.now() - started, status: res.statusCode ?? 0, connection: res.headers.connection }),
                );
              },
            );
            req.on('error', reject);
            // 'finish': every byte handed to the socket, the upload's progress complete.
            req.on('finish', () => (sentAt = performance.now() - started));
            req.end(body);
          }),
      ),
    );
    agent.destroy();
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    const lastSent = Math.max(...results.map((r) => r.sentAt));
    const answers = results.map((r) => r.answeredAt).sort((a, b) => a - b);
    // Each upload was fully received before the first photo was done: none waited to be read.
    expect(lastSent).toBeLessThan(answers[0]!);
    // A received upload keeps its connection.
    for (const r of results) expect(r.connection).not.toBe('close');
  }, 60_000);
});
