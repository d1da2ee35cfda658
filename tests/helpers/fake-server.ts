/**
 * A real HTTP server on 127.0.0.1 (port 0) that stands in for an outside service in unit
 * tests: it records every request and answers with whatever the test's handler returns.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. /emails */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeAnswer {
  status?: number;
  headers?: Record<string, string>;
  /** Objects are sent as JSON; strings as they are. */
  body?: unknown;
}

export type FakeHandler = (req: RecordedRequest) => FakeAnswer | Promise<FakeAnswer>;

export interface FakeServer {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Replaces the handler (e.g. per test). */
  handle(handler: FakeHandler): void;
  close(): Promise<void>;
}

export async function startFakeServer(initial: FakeHandler = () => ({ status: 404 })): Promise<FakeServer> {
  let handler = initial;
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      try {
        const answer = await handler(recorded);
        const isText = typeof answer.body === 'string';
        const payload = answer.body === undefined ? '' : isText ? (answer.body as string) : JSON.stringify(answer.body);
        res.writeHead(answer.status ?? 200, {
          ...(answer.body !== undefined && !isText ? { 'content-type': 'application/json' } : {}),
          ...answer.headers,
        });
        res.end(payload);
      } catch (err) {
        res.writeHead(599, { 'content-type': 'text/plain' });
        res.end(`fake server handler threw: ${String(err)}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** A URL on 127.0.0.1 where nothing listens: a server is bound to a free port, then closed. */
export async function closedPortUrl(path = '/'): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}${path}`;
}
