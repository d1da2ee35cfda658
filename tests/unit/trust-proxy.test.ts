/**
 * The proxy-hop rule and what the request log may print (issue 13): with N trusted proxies the
 * client's address is the N-th X-Forwarded-For entry from the end, never an earlier one; the
 * logged path keeps ids but never a token or an e-mail address.
 */
import { describe, expect, it } from 'vitest';
import { trustedEntry } from '../../api/middleware/client.ts';
import { loggablePath } from '../../api/middleware/request-log.ts';

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
