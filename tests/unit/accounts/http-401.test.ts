/**
 * The browser's API client after a 401 (issue 15, decision 0016): it goes straight to the login
 * page, with no refresh-and-retry. The refresh endpoints renew the very cookie session that
 * failed, so a retry could never succeed (tests/api/booking/booking-changes.test.ts shows the server's
 * side: after a 401 the refresh is a 401 too).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { request } from '../../../site/lib/http.ts';

const calls: string[] = [];
const assigned: string[] = [];
const store = new Map<string, string>();

beforeEach(() => {
  calls.length = 0;
  assigned.length = 0;
  store.clear();
  store.set('user', JSON.stringify({ id: 'u1', firstName: 'Ana' }));
  store.set('admin', JSON.stringify({ id: 'a1', email: 'admin@example.com' }));
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  });
  vi.stubGlobal('window', { location: { assign: (to: string) => void assigned.push(to) } });
  // The server as it is: a session that ended answers 401 everywhere, its refresh included.
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    calls.push(`${init.method ?? 'GET'} ${url}`);
    return new Response(JSON.stringify({ message: 'Please log in' }), { status: 401, headers: { 'content-type': 'application/json' } });
  });
  vi.spyOn(console, 'info').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('a 401 on a session call', () => {
  it('sends the client to /login at once: one request, no refresh, no retry', async () => {
    const res = await request('GET', '/api/user/u1', { session: 'user' });
    expect(res.status).toBe(401);
    expect(calls).toEqual(['GET /api/user/u1']);
    expect(assigned).toEqual(['/login']);
    expect(store.has('user')).toBe(false);
  });

  it('sends the admin to /admin at once', async () => {
    await request('POST', '/api/bookings', { session: 'admin', body: { slots: [] } });
    expect(calls).toEqual(['POST /api/bookings']);
    expect(assigned).toEqual(['/admin']);
  });

  it('leaves a call made without a session alone', async () => {
    const res = await request('POST', '/api/user/login', { body: { email: 'a@example.com' } });
    expect(res.status).toBe(401);
    expect(assigned).toEqual([]);
    expect(store.has('user')).toBe(true);
  });
});
