/**
 * Methods the server does not serve (issue 47): TRACE and CONNECT on any path are refused with
 * 501 and a JSON message, never a 500 with a stack in the log; any other write to a page or a
 * built file is 405 with `Allow: GET, HEAD`; an API address asked with a method it does not take
 * is 405 naming those it does, and one the API does not have stays a JSON 404.
 */
import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { rawRequest, useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { NON_DOCUMENT_CSP } from '../../../api/middleware/security-headers.ts';

/** One request written by hand on its own connection (Node's client treats CONNECT specially): the status line and the body. */
function rawExchange(base: string, requestLine: string): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${requestLine}\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text });
    });
  });
}

describe(`methods a path does not serve, ${testDbKind()}`, () => {
  const server = useTestServer({ site: true });
  let errors: MockInstance;
  beforeEach(() => {
    errors = vi.spyOn(console, 'error');
  });
  afterEach(() => {
    // Nothing of this reaches the error log: no stack, no "Could not render".
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  const paths = ['/yoga', '/', '/favicon.svg', '/no-such-page', '/user/someone/book', '/api/health', '/api/no-such-thing'];

  it('answers TRACE with 501 and a message on every kind of path', async () => {
    for (const path of paths) {
      const res = await rawRequest(server.url, path, {}, 'TRACE');
      expect(res.status, path).toBe(501);
      expect(res.headers['content-type'], path).toMatch(/^application\/json/);
      expect(JSON.parse(res.body.toString()), path).toEqual({ message: 'This method is not supported.' });
      expect(res.headers['content-security-policy'], path).toBe(NON_DOCUMENT_CSP);
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
    }
  });

  it('answers CONNECT with 501 instead of dropping the connection', async () => {
    for (const target of ['127.0.0.1:22', '/yoga']) {
      const res = await rawExchange(server.url, `CONNECT ${target} HTTP/1.1`);
      expect(res.status, target).toBe(501);
      expect(res.text, target).toContain('{"message":"This method is not supported."}');
    }
  });

  it('refuses a write to a page or a file with 405 and says which methods it takes', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND']) {
      for (const path of ['/yoga', '/favicon.svg', '/no-such-page', '/user/someone/book']) {
        const res = await rawRequest(server.url, path, {}, method);
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.allow, `${method} ${path}`).toBe('GET, HEAD');
        expect(JSON.parse(res.body.toString()).message, `${method} ${path}`).toBe('This page can only be read (GET or HEAD).');
      }
    }
    // Reading them still works.
    expect((await rawRequest(server.url, '/yoga')).status).toBe(200);
  });

  it('answers an API address asked with a method it does not take with 405 and the methods it does; an unknown address stays 404', async () => {
    for (const [method, path, allow] of [
      ['PUT', '/api/health', 'GET, HEAD'],
      ['DELETE', '/api/events/3f0c1a52-6a9e-4c57-9a3e-2f0e8b6c1d11/paypal-order', 'POST'],
      ['PATCH', '/api/signup', 'POST'],
      ['OPTIONS', '/api/health', 'GET, HEAD'],
    ] as const) {
      const res = await rawRequest(server.url, path, { 'content-type': 'application/json' }, method);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow, `${method} ${path}`).toBe(allow);
      expect(JSON.parse(res.body.toString()).message, `${method} ${path}`).toBe(`This address does not take ${method}: it takes ${allow}.`);
    }
    expect((await rawRequest(server.url, '/api/health', {}, 'HEAD')).status).toBe(200);
    expect((await rawRequest(server.url, '/api/no-such-thing', {}, 'POST')).status).toBe(404);
    expect((await rawRequest(server.url, '/api/no-such-thing')).status).toBe(404);
  });
});
