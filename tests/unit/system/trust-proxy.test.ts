/**
 * The proxy-hop rule and what the request log may print (issue 13): with N trusted proxies the
 * client's address is the N-th X-Forwarded-For entry from the end, never an earlier one; the
 * logged path keeps ids but never a token or an e-mail address; production's request log is one
 * JSON object per line with the id it answers as X-Request-Id.
 */
import { describe, expect, it, vi } from 'vitest';
import { Hono } from 'hono';
import { trustedEntry } from '../../../api/middleware/client.ts';
import { loggablePath, requestLog } from '../../../api/middleware/request-log.ts';

describe('trustedEntry', () => {
  it('takes the entry the first trusted proxy appended', () => {
    expect(trustedEntry('1.1.1.1, 2.2.2.2, 3.3.3.3', 1)).toBe('3.3.3.3');
    expect(trustedEntry('1.1.1.1, 2.2.2.2, 3.3.3.3', 2)).toBe('2.2.2.2');
    expect(trustedEntry('spoof, spoof2, client, cdn', 2)).toBe('client');
  });
  it('never reaches past a shorter list, and trusts nothing with no hops', () => {
    expect(trustedEntry('client', 2)).toBe('client');
    expect(trustedEntry('a, b', 0)).toBeUndefined();
    expect(trustedEntry(undefined, 1)).toBeUndefined();
    expect(trustedEntry(' , ', 1)).toBeUndefined();
  });
});

describe('loggablePath', () => {
  it('keeps the route and record ids, drops tokens and e-mail addresses', () => {
    expect(loggablePath('/api/user/3f2b8c1e-9a4d-4e2f-8b7a-1c2d3e4f5a6b/update')).toBe('/api/user/3f2b8c1e-9a4d-4e2f-8b7a-1c2d3e4f5a6b/update');
    expect(loggablePath('/calendar/u/Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0.ics')).toBe('/calendar/u/:secret');
    expect(loggablePath('/api/subscribers/ana@example.com')).toBe('/api/subscribers/:email');
    expect(loggablePath('/api/subscribers/ana%40example.com')).toBe('/api/subscribers/:email');
    expect(loggablePath('/chocolates')).toBe('/chocolates');
  });
});

describe('requestLog', () => {
  it('writes one JSON line per request with the id it answers, and nothing from the query, body or cookies', async () => {
    const app = new Hono();
    app.use('*', requestLog({ quiet: false, format: 'json', trustProxy: 0 }));
    app.post('/api/subscribers/one-click', (c) => c.json({ ok: true }, 400));
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    try {
      const res = await app.request('/api/subscribers/one-click?token=SECRET-TOKEN', {
        method: 'POST',
        headers: { cookie: 'yc_user=session-secret', 'x-request-id': 'from-the-client-0001' },
        body: 'email=ana@example.com',
      });
      const id = res.headers.get('x-request-id');
      // Not behind a trusted proxy: the client's own X-Request-Id is not taken.
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(lines).toHaveLength(1);
      const entry = JSON.parse(lines[0]!);
      expect(entry).toMatchObject({ level: 'warn', msg: 'request', requestId: id, method: 'POST', path: '/api/subscribers/one-click', status: 400 });
      expect(typeof entry.ms).toBe('number');
      expect(lines[0]).not.toMatch(/SECRET|session-secret|ana@example/);
    } finally {
      log.mockRestore();
    }
  });
});
