/**
 * Issue 12, item 6: every answer that depends on a session carries `Cache-Control: no-store`
 * (a shared computer's browser cache or a proxy must not keep a profile or the admin's lists);
 * public answers keep their own caching.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { recordingRealtime } from '../../helpers/realtime.ts';
import { ENDPOINTS, Fixtures, cookieFor, nameOf, pathOf } from '../../helpers/endpoints.ts';

const server = useTestServer();
let fx: Fixtures;

beforeAll(async () => {
  server.services.realtime = recordingRealtime();
  fx = new Fixtures(server);
});

const noStore = (res: Response) => expect(res.headers.get('cache-control') ?? '', `${res.url} ${res.status}`).toMatch(/\bno-store\b/);

describe('Cache-Control on answers that depend on a session', () => {
  const guarded = ENDPOINTS.filter((e) => e.auth !== 'none');

  it('covers a sample of admin and client routes', () => {
    const names = guarded.map(nameOf);
    for (const name of ['GET /api/admin/users', 'GET /api/admin/orders', 'GET /api/user/:id', 'POST /api/user/refresh-token']) expect(names).toContain(name);
  });

  it('refusals without a session are no-store too', async () => {
    for (const endpoint of guarded) {
      const example = await endpoint.example(fx);
      const res = await server.api(pathOf(endpoint, example), { method: endpoint.method });
      expect(res.status, nameOf(endpoint)).toBe(401);
      noStore(res);
    }
  });

  it('every guarded GET, answered with its session, is no-store', async () => {
    for (const endpoint of guarded.filter((e) => e.method === 'GET')) {
      const example = await endpoint.example(fx);
      const cookie = await cookieFor(endpoint, example, fx);
      // A browser navigation's redirect (her calendar's consent) is judged itself, not where it leads.
      const res = await server.api(pathOf(endpoint, example), { headers: { cookie: cookie! }, redirect: 'manual' });
      // A route whose valid example answers otherwise here (a preview without the built site: 503) says so.
      if (!endpoint.okStatus?.includes(res.status)) expect(res.status, nameOf(endpoint)).toBeLessThan(300);
      noStore(res);
    }
  });

  it('the validate and refresh calls, logins and logouts are no-store', async () => {
    const client = await fx.user();
    const admin = await fx.adminCookie();
    const cases: [string, string, string | undefined][] = [
      ['GET', '/api/user/validate-token', client.cookie],
      ['GET', '/api/user/validate-token', undefined],
      ['POST', '/api/user/refresh-token', client.cookie],
      ['GET', `/api/user/${client.id}`, client.cookie],
      ['GET', '/api/admin/verify', admin],
      ['POST', '/api/admin/refresh-token', admin],
      ['GET', '/api/bookings', admin],
      ['GET', `/api/bookings?userId=${client.id}`, client.cookie],
      ['POST', '/api/admin/login', undefined],
      ['POST', '/api/user/logout', client.cookie],
    ];
    for (const [method, path, cookie] of cases) {
      const headers: Record<string, string> = { origin: server.url };
      if (cookie) headers.cookie = cookie;
      const res = await server.api(path, {
        method,
        headers,
        ...(path === '/api/admin/login' ? { json: { email: server.env.ADMIN_EMAIL, password: 'wrong password!' } } : {}),
      });
      noStore(res);
    }
  });

  it('public answers are not forced to no-store, even for a signed-in visitor', async () => {
    const client = await fx.user();
    for (const path of ['/api/chocolates', `/api/events?from=${fx.date(0)}&to=${fx.date(30)}`, '/api/health']) {
      for (const headers of [{}, { cookie: client.cookie }] as Record<string, string>[]) {
        const res = await server.api(path, { headers });
        expect(res.status, path).toBe(200);
        expect(res.headers.get('cache-control') ?? '', path).not.toMatch(/no-store/);
      }
    }
  });
});
