/**
 * One page server (issue 49, decision 0062): the fast path and the Hono fallback answer a page or
 * a built file through the same function (api/middleware/page-server.ts), so the same request
 * gets the same answer on either. Two servers on the same build: one as production runs it, one
 * with the fast path off (`fastPath: false`, a switch only tests set), so every request there
 * goes through Hono. A table of requests (her published pages, a built HTML page, non-HTML files,
 * a hashed script and stylesheet, an image; brotli, gzip or nothing accepted; If-None-Match
 * absent, matching, not matching, weak, in a list, `*`; GET and HEAD) is sent to both, and the
 * status, every header and the bytes must be equal.
 *
 * Two headers differ by nature and are left out of the comparison: Date (the clock may pass a
 * second between the two requests) and X-Request-Id (a new UUID per request; both must carry
 * one). There is no CSP nonce: the policy names the inline scripts by their hashes, read once
 * from the build at start, so the page's policy is compared like any other header.
 *
 * Photos are not in the table: uploaded photos are answered by the API's image routes, not by
 * the page server.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rawRequest, useTestServer, type RawAnswer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { distDirOf } from '../../../api/lib/build-info.ts';
import { ifNoneMatchHolds } from '../../../api/middleware/page-server.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const astro = readdirSync(join(distDirOf(), 'client', '_astro'));
const script = `/_astro/${astro.find((f) => f.endsWith('.js') && astro.includes(`${f}.br`))!}`;
const stylesheet = `/_astro/${astro.find((f) => f.endsWith('.css'))!}`;

/** Her published pages (`/yoga`, `/`), a built HTML page (`/admin`), and built files of each kind. */
const PATHS = ['/yoga', '/', '/admin', '/favicon.svg', script, stylesheet, '/og-image.png', '/robots.txt'];
const ENCODINGS: (string | undefined)[] = ['br', 'gzip', undefined];
/** If-None-Match as browsers and caches send it, made from the tag the fast path gave for that encoding. */
const VALIDATORS: [string, (etag: string) => string | undefined][] = [
  ['none', () => undefined],
  ['matching', (etag) => etag],
  ['not matching', () => '"not-this-one"'],
  ['weak', (etag) => `W/${etag}`],
  ['a list', (etag) => `"other", ${etag}, "another"`],
  ['a list without it', () => '"other", W/"another"'],
  ['*', () => '*'],
];
const METHODS = ['GET', 'HEAD'];

/** Every header of an answer but Date and X-Request-Id (see above), by name. */
const comparable = (answer: RawAnswer) => {
  const { date: _date, 'x-request-id': _id, ...rest } = answer.headers;
  return rest;
};

describe(`the fast path and the Hono fallback answer alike, ${testDbKind()}`, () => {
  const fast = useTestServer({ site: true });
  const fallback = useTestServer({ site: true, fastPath: false });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('gives the same status, headers and bytes to every request of the table', async () => {
    // The fallback is Hono's: it asks the publisher for a journal page before a file; the fast path never does.
    const onDemand = { fast: vi.spyOn(fast.services.publisher, 'renderOnDemand'), fallback: vi.spyOn(fallback.services.publisher, 'renderOnDemand') };
    const statuses = new Set<number>();
    let compared = 0;
    for (const path of PATHS) {
      for (const encoding of ENCODINGS) {
        const accept: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
        const etag = String((await rawRequest(fast.url, path, accept)).headers.etag);
        expect(etag, path).toMatch(/^"[^"]+"$/);
        for (const [validator, header] of VALIDATORS) {
          const ifNoneMatch = header(etag);
          const headers = { ...accept, ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}) };
          for (const method of METHODS) {
            const what = `${method} ${path}, accept-encoding ${encoding ?? 'absent'}, if-none-match ${validator}`;
            const one = await rawRequest(fast.url, path, headers, method);
            const other = await rawRequest(fallback.url, path, headers, method);
            expect(other.status, what).toBe(one.status);
            expect(comparable(other), what).toEqual(comparable(one));
            expect(other.body.equals(one.body), what).toBe(true);
            expect(one.headers['x-request-id'], what).toMatch(UUID);
            expect(other.headers['x-request-id'], what).toMatch(UUID);
            statuses.add(one.status);
            compared++;
          }
        }
      }
    }
    expect(compared).toBe(PATHS.length * ENCODINGS.length * VALIDATORS.length * METHODS.length);
    // The table reached both kinds of answer, and really went two ways.
    expect([...statuses].sort()).toEqual([200, 304]);
    expect(onDemand.fast).not.toHaveBeenCalled();
    expect(onDemand.fallback).toHaveBeenCalledWith('/favicon.svg');
  });

  it('answers If-None-Match: * with 304 on both paths, as RFC 9110 says for a page that exists', async () => {
    for (const server of [fast, fallback]) {
      for (const path of ['/yoga', '/favicon.svg', script]) {
        for (const method of METHODS) {
          const res = await rawRequest(server.url, path, { 'accept-encoding': 'br', 'if-none-match': '*' }, method);
          expect(res.status, `${method} ${path}`).toBe(304);
          expect(res.body.byteLength, path).toBe(0);
          expect(res.headers.etag, path).toMatch(/^"[^"]+"$/);
          // A 304 carries the validators, not the page's policy: a cache merges its headers into the stored answer.
          expect(res.headers['content-security-policy'], path).toBeUndefined();
          expect(res.headers['content-type'], path).toBeUndefined();
        }
      }
    }
  });

  it('gives the non-HTML files the short policy on both paths, and the page its own', async () => {
    for (const server of [fast, fallback]) {
      const page = await rawRequest(server.url, '/yoga');
      expect(page.headers['content-security-policy']).toMatch(/^default-src 'self'; script-src 'self' 'sha256-/);
      expect(page.headers['x-frame-options']).toBe('DENY');
      for (const path of ['/favicon.svg', script, '/og-image.png']) {
        const file = await rawRequest(server.url, path);
        expect(file.headers['content-security-policy'], path).toBe("default-src 'none'; frame-ancestors 'none'");
        expect(file.headers['x-frame-options'], path).toBeUndefined();
        expect(file.headers['x-content-type-options'], path).toBe('nosniff');
        expect(file.headers.etag, path).toMatch(/^"[^"]+"$/);
      }
    }
  });
});

describe('If-None-Match, as RFC 9110 §13.1.2 reads it', () => {
  it('holds for *, for the tag, for its weak form and for a list holding either; not for another tag or a longer one', () => {
    const etag = '"abc-br"';
    for (const header of ['*', ' * ', '"abc-br"', 'W/"abc-br"', '"x", "abc-br"', '"x",W/"abc-br" , "y"'])
      expect(ifNoneMatchHolds(header, etag), header).toBe(true);
    for (const header of ['"abc"', '"abc-br-x"', '"x", "y"', '', '"xabc-br"', 'W/"abc"', '"x" "abc-br"', '*, "y"', 'XW/"abc-br"'])
      expect(ifNoneMatchHolds(header, etag), header).toBe(false);
    // A weak ETag of ours compares by its opaque tag too.
    expect(ifNoneMatchHolds('"abc"', 'W/"abc"')).toBe(true);
  });
});
