import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDevHumanCheck, createRecaptcha } from '../../../api/services/captcha.ts';
import { closedPortUrl, startFakeServer, type FakeServer } from '../../helpers/fake-server.ts';
import { itemAt } from '../../helpers/guards.ts';

describe('createDevHumanCheck', () => {
  const check = createDevHumanCheck();

  it('is the dev kind', () => {
    expect(check.kind).toBe('dev');
  });

  it('accepts exactly dev:<action> for the matching action', async () => {
    expect(await check.verify('dev:booking', 'booking')).toBe(true);
    expect(await check.verify('dev:contact', 'contact')).toBe(true);
  });

  it("refuses another action's token", async () => {
    expect(await check.verify('dev:contact', 'booking')).toBe(false);
    expect(await check.verify('dev:booking', 'contact')).toBe(false);
  });

  it('refuses empty, non-string, bare dev: and near-miss tokens', async () => {
    for (const token of ['', 'dev:', 'dev:booking ', ' dev:booking', 'DEV:booking', 'booking', 'dev:bookingx']) {
      expect(await check.verify(token, 'booking'), JSON.stringify(token)).toBe(false);
    }
    for (const token of [undefined, null, 42, true, { toString: () => 'dev:booking' }, ['dev:booking']]) {
      expect(await check.verify(token, 'booking'), String(token)).toBe(false);
    }
  });
});

describe('createRecaptcha against a fake siteverify server', () => {
  let google: FakeServer;
  let verifyUrl: string;

  beforeAll(async () => {
    google = await startFakeServer();
    verifyUrl = `${google.url}/recaptcha/api/siteverify`;
  });
  afterAll(async () => {
    await google.close();
  });
  beforeEach(() => {
    google.requests.length = 0;
  });

  const answer = (body: unknown, status = 200) => google.handle(() => ({ status, body }));

  it('POSTs a form-urlencoded body with secret, response and remoteip', async () => {
    answer({ success: true, action: 'booking', score: 0.9, hostname: 'example.com' });
    const check = createRecaptcha({ secret: 's3cret', verifyUrl, minScore: 0.5 });
    expect(check.kind).toBe('recaptcha');

    expect(await check.verify('token-abc', 'booking', '203.0.113.7')).toBe(true);

    expect(google.requests).toHaveLength(1);
    const req = google.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/recaptcha/api/siteverify');
    expect(req.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    const form = new URLSearchParams(req.body);
    expect(form.get('secret')).toBe('s3cret');
    expect(form.get('response')).toBe('token-abc');
    expect(form.get('remoteip')).toBe('203.0.113.7');
  });

  it('leaves remoteip out when no address is given', async () => {
    answer({ success: true, action: 'booking', score: 0.9 });
    const check = createRecaptcha({ secret: 's', verifyUrl, minScore: 0.5 });
    expect(await check.verify('t', 'booking')).toBe(true);
    expect(new URLSearchParams(itemAt(google.requests, 0).body).has('remoteip')).toBe(false);
  });

  it('accepts a score exactly at the minimum', async () => {
    answer({ success: true, action: 'booking', score: 0.5 });
    const check = createRecaptcha({ secret: 's', verifyUrl, minScore: 0.5 });
    expect(await check.verify('t', 'booking')).toBe(true);
  });

  it('refuses a score below the minimum', async () => {
    answer({ success: true, action: 'booking', score: 0.3 });
    const check = createRecaptcha({ secret: 's', verifyUrl, minScore: 0.5 });
    expect(await check.verify('t', 'booking')).toBe(false);
    expect(google.requests).toHaveLength(1);
  });

  it('refuses when the answer has no score', async () => {
    answer({ success: true, action: 'booking' });
    const check = createRecaptcha({ secret: 's', verifyUrl, minScore: 0.5 });
    expect(await check.verify('t', 'booking')).toBe(false);
  });

  it('refuses a token issued for another action', async () => {
    answer({ success: true, action: 'contact', score: 0.9 });
    const check = createRecaptcha({ secret: 's', verifyUrl, minScore: 0.5 });
    expect(await check.verify('t', 'booking')).toBe(false);
  });

  it('refuses when success is false', async () => {
    answer({ success: false, action: 'booking', score: 0.9, 'error-codes': ['timeout-or-duplicate'] });
    const check = createRecaptcha({ secret: 's', verifyUrl, minScore: 0.5 });
    expect(await check.verify('t', 'booking')).toBe(false);
  });

  it('refuses when the server answers 500, even with a positive body', async () => {
    answer({ success: true, action: 'booking', score: 0.9 }, 500);
    const check = createRecaptcha({ secret: 's', verifyUrl, minScore: 0.5 });
    expect(await check.verify('t', 'booking')).toBe(false);
    expect(google.requests).toHaveLength(1);
  });

  it('refuses when the server answers something that is not JSON', async () => {
    google.handle(() => ({ status: 200, body: '<html>oops</html>', headers: { 'content-type': 'text/html' } }));
    const check = createRecaptcha({ secret: 's', verifyUrl, minScore: 0.5 });
    expect(await check.verify('t', 'booking')).toBe(false);
  });

  it('refuses when the server is unreachable', async () => {
    const check = createRecaptcha({ secret: 's', verifyUrl: await closedPortUrl('/siteverify'), minScore: 0.5 });
    expect(await check.verify('t', 'booking')).toBe(false);
  });

  it('refuses empty, non-string and oversized tokens without asking the server', async () => {
    answer({ success: true, action: 'booking', score: 0.9 });
    const check = createRecaptcha({ secret: 's', verifyUrl, minScore: 0.5 });
    expect(await check.verify('', 'booking')).toBe(false);
    expect(await check.verify(undefined, 'booking')).toBe(false);
    expect(await check.verify(123, 'booking')).toBe(false);
    expect(await check.verify('x'.repeat(4097), 'booking')).toBe(false);
    expect(google.requests).toHaveLength(0);
  });
});
