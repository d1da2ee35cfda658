import type { MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Context } from 'hono';
import type { AppEnv } from '../types.ts';
import { sessionStore, type SessionKind } from './sessions.ts';
import { readSessionCookie, setSessionCookie } from './session-cookies.ts';

/**
 * Server-side guards. `requireAdmin` refuses every call without a valid admin session (a
 * client session is not enough: separate table, separate cookie); `requireUser` sets the
 * session's user id, and handlers of /api/user/{id} routes call `assertSelf`.
 */
function requireSession(kind: SessionKind): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { db, env } = c.var.services;
    // Whatever follows (the refusal included) depends on the session: never cached.
    c.header('cache-control', 'no-store');
    const token = readSessionCookie(c, kind);
    const session = token ? await sessionStore(db, kind).validate(token) : null;
    if (!session || !token) {
      return c.json({ message: kind === 'admin' ? 'Admin login required' : 'Please log in' }, 401);
    }
    if (session.renewed) setSessionCookie(c, kind, token, session.expiresAt, env.NODE_ENV === 'production');
    c.set(kind === 'admin' ? 'adminId' : 'userId', session.subjectId);
    await next();
  };
}

/**
 * The signed-in client of a public route that may also be used signed out (a gift card bought,
 * a class place paid with a credit): their id, the session renewed as requireUser does; null
 * without a valid session.
 */
export async function signedInUser(c: Context<AppEnv>): Promise<string | null> {
  const token = readSessionCookie(c, 'user');
  const session = token ? await sessionStore(c.var.services.db, 'user').validate(token) : null;
  if (!token || !session) return null;
  if (session.renewed) setSessionCookie(c, 'user', token, session.expiresAt, c.var.services.env.NODE_ENV === 'production');
  return session.subjectId;
}

export const requireAdmin = (): MiddlewareHandler<AppEnv> => requireSession('admin');
export const requireUser = (): MiddlewareHandler<AppEnv> => requireSession('user');

/** Refuses (403) unless `id` is the logged-in user's own id. */
export function assertSelf(c: Context<AppEnv>, id: string | undefined): void {
  if (!id || c.var.userId !== id) {
    throw new HTTPException(403, { message: 'You can only access your own account' });
  }
}

/**
 * /api/user/{id}/… routes the teacher reads too (issue 32: a client's balance): a valid admin
 * session passes for any id; otherwise the client's own session, for their own id only (401
 * without one, 403 for another's).
 */
export function requireSelfOrAdmin(param = 'id'): MiddlewareHandler<AppEnv> {
  const asUser = requireSession('user');
  return async (c, next) => {
    const adminToken = readSessionCookie(c, 'admin');
    const admin = adminToken ? await sessionStore(c.var.services.db, 'admin').validate(adminToken) : null;
    if (admin) {
      c.header('cache-control', 'no-store');
      c.set('adminId', admin.subjectId);
      return next();
    }
    return asUser(c, async () => {
      assertSelf(c, c.req.param(param));
      await next();
    });
  };
}
