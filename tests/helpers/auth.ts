/**
 * Sessions for API tests, made directly in the database (the login flows have their own
 * tests). Each returns the Cookie header a browser would send.
 */
import { sessionStore } from '../../api/middleware/sessions.ts';
import { SESSION_COOKIES } from '../../api/middleware/session-cookies.ts';
import { expect } from 'vitest';
import type { TestServer } from './server.ts';

export async function adminCookie(server: TestServer): Promise<string> {
  const admin = await server.services.db.selectFrom('admins').select('id').executeTakeFirstOrThrow();
  const { token } = await sessionStore(server.services.db, 'admin').create(admin.id);
  return `${SESSION_COOKIES.admin}=${token}`;
}

export async function createUser(
  server: TestServer,
  fields: { email?: string; firstName?: string; lastName?: string } = {},
): Promise<{ id: string; email: string; cookie: string; token: string }> {
  const email = fields.email ?? `client-${Math.random().toString(36).slice(2)}@example.com`;
  const user = await server.services.db
    .insertInto('users')
    .values({ email, firstName: fields.firstName ?? 'Ana', lastName: fields.lastName ?? 'Lima', emailVerifiedAt: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { token } = await sessionStore(server.services.db, 'user').create(user.id);
  return { id: user.id, email, token, cookie: `${SESSION_COOKIES.user}=${token}` };
}

/** An admin route to try without the admin's session. */
export interface AdminRoute {
  method: string;
  path: string;
  json?: unknown;
}

/**
 * Sends each route without a session, then with `clientCookie` (a client's session): every answer
 * is 401, and `check` reads each answer's body (`where` names the request, for the failure message).
 */
export async function expectAdminOnly(server: TestServer, routes: AdminRoute[], clientCookie: string, check: (body: string, where: string) => void) {
  for (const who of [undefined, clientCookie]) {
    for (const route of routes) {
      const res = await server.api(route.path, {
        method: route.method,
        ...(route.json !== undefined ? { json: route.json } : {}),
        headers: who ? { cookie: who } : {},
      });
      const where = `${route.method} ${route.path} ${who ? 'as a client' : 'without a session'}`;
      expect(res.status, where).toBe(401);
      check(await res.text(), where);
    }
  }
}
