/**
 * Rate limits keyed on an address the client can't choose, and answers that don't tell which
 * e-mails exist (issue 8, "Headers and cookies"):
 *
 *  - without TRUST_PROXY the key is the socket's peer address: X-Forwarded-For and its cousins
 *    are ignored, so a new random header on every request still meets 429 after the limit,
 *    while another address (127.0.0.2 on the loopback) keeps its own budget;
 *  - with TRUST_PROXY=1 the key is the last X-Forwarded-For entry, the one the trusted load
 *    balancer appends: spoofed earlier entries never open a new bucket;
 *  - client login and register answer a known and an unknown e-mail identically (status,
 *    headers and body, byte for byte) and in about the same time; so does the admin login for
 *    an unknown e-mail and a wrong password.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { randomBytes } from 'node:crypto';
import { resetRateLimits } from '../../../api/middleware/rate-limit.ts';
import { type TestServer, useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { createUser } from '../../helpers/auth.ts';
import { itemAt } from '../../helpers/guards.ts';

const kind = testDbKind();
const TOO_MANY = 'Too many coupon attempts. Please wait a few minutes and try again.';
/** POST /api/chocolates/validate-coupon allows 10 per 10 minutes per client. */
const COUPON_LIMIT = 10;

const randomIp = () => [...randomBytes(4)].map((b) => String(b)).join('.');
const randomIpv6 = () => `2001:db8::${randomBytes(2).toString('hex')}`;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A request over node:http, so the test chooses the socket's own address too. */
function send(
  server: TestServer,
  path: string,
  json: unknown,
  options: { headers?: Record<string, string | string[]>; localAddress?: string } = {},
): Promise<Answer> {
  const body = JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path,
        localAddress: options.localAddress,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...options.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const tryCoupon = (server: TestServer, options: Parameters<typeof send>[3] = {}) => send(server, '/api/chocolates/validate-coupon', { code: 'NOPE' }, options);

function expectLimited(answer: Answer) {
  expect(answer.status).toBe(429);
  expect(JSON.parse(answer.body)).toEqual({ message: TOO_MANY });
  expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
}

describe(`rate limits without a trusted proxy on ${kind}`, () => {
  const server = useTestServer({ resetRateLimits: true });
  beforeAll(async () => {
    expect(server.env.TRUST_PROXY).toBe(0);
  });

  it('ignores X-Forwarded-For and its cousins: a new random one on every request still meets 429', async () => {
    const spoof = () => ({
      'x-forwarded-for': `${randomIp()}, ${randomIp()}`,
      'x-real-ip': randomIp(),
      forwarded: `for=${randomIp()};proto=https`,
      'true-client-ip': randomIp(),
      'cf-connecting-ip': randomIp(),
      'x-client-ip': randomIpv6(),
    });
    for (let i = 0; i < COUPON_LIMIT; i++) expect((await tryCoupon(server, { headers: spoof() })).status).toBe(404);
    for (let i = 0; i < 5; i++) expectLimited(await tryCoupon(server, { headers: spoof() }));
    // Without any header it is the same client, limited the same.
    expectLimited(await tryCoupon(server));
  });

  it('keys on the socket address: another address keeps its own budget', async () => {
    for (let i = 0; i <= COUPON_LIMIT; i++) await tryCoupon(server, { localAddress: '127.0.0.1' });
    expectLimited(await tryCoupon(server, { localAddress: '127.0.0.1', headers: { 'x-forwarded-for': '127.0.0.2' } }));
    expect((await tryCoupon(server, { localAddress: '127.0.0.2' })).status).toBe(404);
  });

  it('keeps each bucket separate: being limited on coupons does not block logging in', async () => {
    for (let i = 0; i <= COUPON_LIMIT; i++) await tryCoupon(server);
    expectLimited(await tryCoupon(server));
    expect((await send(server, '/api/user/login', { email: 'someone@example.com' })).status).toBe(200);
  });
});

describe(`rate limits behind a trusted proxy on ${kind}`, () => {
  const server = useTestServer({ env: { TRUST_PROXY: '1' }, resetRateLimits: true });
  beforeAll(async () => {
    expect(server.env.TRUST_PROXY).toBe(1);
  });

  const client = '203.0.113.9';

  it('keys on the last X-Forwarded-For entry: a spoofed first entry opens no new bucket', async () => {
    // The balancer appends the address it saw; whatever the client sent comes before it.
    for (let i = 0; i < COUPON_LIMIT; i++) {
      expect((await tryCoupon(server, { headers: { 'x-forwarded-for': `${randomIp()}, ${client}` } })).status).toBe(404);
    }
    for (let i = 0; i < 3; i++) expectLimited(await tryCoupon(server, { headers: { 'x-forwarded-for': `${randomIp()}, ${randomIp()}, ${client}` } }));
    // A client header the balancer kept as its own line: Node joins the lines, the balancer's is last.
    expectLimited(await tryCoupon(server, { headers: { 'x-forwarded-for': [randomIp(), client] } }));
    // X-Real-IP and Forwarded are not what the balancer sets: ignored.
    expectLimited(await tryCoupon(server, { headers: { 'x-forwarded-for': client, 'x-real-ip': randomIp(), forwarded: `for=${randomIp()}` } }));

    // Another client behind the same balancer has its own budget.
    expect((await tryCoupon(server, { headers: { 'x-forwarded-for': `${client}, 198.51.100.77` } })).status).toBe(404);
  });

  it('falls back to the socket address when no X-Forwarded-For arrives', async () => {
    for (let i = 0; i < COUPON_LIMIT; i++) expect((await tryCoupon(server)).status).toBe(404);
    expectLimited(await tryCoupon(server));
    expectLimited(await tryCoupon(server, { headers: { 'x-forwarded-for': ' ' } }));
    expect((await tryCoupon(server, { headers: { 'x-forwarded-for': client } })).status).toBe(404);
  });
});

describe(`answers that don't tell which e-mails exist on ${kind}`, () => {
  const server = useTestServer({ resetRateLimits: true });

  let n = 0;
  const unknownEmail = () => `nobody-${++n}-${randomBytes(3).toString('hex')}@example.com`;

  /** Everything an observer sees except the date and the timing. */
  const visible = (a: Answer) => {
    // Date and the request id differ on every answer, whatever was asked.
    const { date: _date, 'x-request-id': _id, ...headers } = a.headers;
    return { status: a.status, headers, body: a.body };
  };

  async function timed(path: string, json: unknown): Promise<{ answer: Answer; ms: number }> {
    await resetRateLimits();
    const start = performance.now();
    const answer = await send(server, path, json);
    return { answer, ms: performance.now() - start };
  }

  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return (s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2;
  };

  /** Ten of each, interleaved so drift hits both alike, after a warm-up of each. */
  async function compare(path: string, known: () => Promise<unknown>, unknown: () => unknown) {
    await timed(path, await known());
    await timed(path, unknown());
    const a: { answer: Answer; ms: number }[] = [];
    const b: { answer: Answer; ms: number }[] = [];
    for (let i = 0; i < 10; i++) {
      a.push(await timed(path, await known()));
      b.push(await timed(path, unknown()));
    }
    const first = visible(itemAt(a, 0).answer);
    expect(first.status).toBeLessThan(500);
    for (const x of [...a, ...b]) expect(visible(x.answer)).toEqual(first);
    return { known: median(a.map((x) => x.ms)), unknown: median(b.map((x) => x.ms)) };
  }

  it('login: the same answer, byte for byte, and about the same time for a known and an unknown e-mail', async () => {
    const times = await compare(
      '/api/user/login',
      async () => ({ email: (await createUser(server)).email }),
      () => ({ email: unknownEmail() }),
    );
    expect(Math.abs(times.known - times.unknown), JSON.stringify(times)).toBeLessThan(50);
  });

  it('login: still the same answer once a known address holds its maximum of live links', async () => {
    const known = await createUser(server);
    const answers = [];
    // Limits forgotten before each: the per-recipient mail allowance (5 an hour) is not what this test is about.
    for (let i = 0; i < 7; i++) {
      await resetRateLimits();
      answers.push(visible((await timed('/api/user/login', { email: known.email })).answer));
    }
    const stranger = visible((await timed('/api/user/login', { email: unknownEmail() })).answer);
    for (const a of answers) expect(a).toEqual(stranger);
  });

  it('register: the same answer, byte for byte, and about the same time for a known and an unknown e-mail', async () => {
    const times = await compare(
      '/api/user/register',
      async () => ({ firstName: 'Mallory', lastName: 'Probe', email: (await createUser(server)).email, recaptchaToken: 'dev:register' }),
      () => ({ firstName: 'Mallory', lastName: 'Probe', email: unknownEmail(), recaptchaToken: 'dev:register' }),
    );
    expect(Math.abs(times.known - times.unknown), JSON.stringify(times)).toBeLessThan(50);
  });

  it('admin login: the same refusal and about the same time for an unknown e-mail and a wrong password', async () => {
    const times = await compare(
      '/api/admin/login',
      // The growing delay after wrong passwords is forgotten before each try: timing is the point here.
      async () => {
        await resetRateLimits();
        return { email: server.env.ADMIN_EMAIL, password: 'wrong password, right admin', recaptchaToken: 'dev:admin_login' };
      },
      () => ({ email: unknownEmail(), password: 'wrong password, right admin', recaptchaToken: 'dev:admin_login' }),
    );
    // Both sides spend one scrypt (~100+ ms, and noisy on a busy machine): the bound is 50 ms or
    // a third of the slower median. Without the dummy hash the unknown e-mail would answer in a
    // few milliseconds and miss it by far.
    const bound = Math.max(50, Math.max(times.known, times.unknown) / 3);
    expect(Math.abs(times.known - times.unknown), JSON.stringify(times)).toBeLessThan(bound);
  });
});
