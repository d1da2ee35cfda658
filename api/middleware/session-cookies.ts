import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { SessionKind } from './sessions.ts';

/** Separate cookies for clients and the administrator (docs/decisions/0013, which superseded 0003). */
export const SESSION_COOKIES: Record<SessionKind, string> = { user: 'yc_user', admin: 'yc_admin' };

/**
 * SameSite per session (docs/decisions/0005). A client arrives from other sites while logged
 * in (Google's redirect back to /api/user/auth/google/callback, a link in a mail) and must be
 * recognised there: Lax, which still withholds the cookie from cross-site POSTs, frames and
 * fetches. The admin area needs no cross-site entry: its pages are static shells whose
 * islands call the API from our own origin, so Strict costs nothing and withholds the cookie
 * from every request another site starts, top-level navigations included.
 */
const SAME_SITE: Record<SessionKind, 'Lax' | 'Strict'> = { user: 'Lax', admin: 'Strict' };

/** HttpOnly (no script reads it), whole site, Secure whenever served over TLS (production). */
const options = (kind: SessionKind, secure: boolean) => ({ httpOnly: true, secure, sameSite: SAME_SITE[kind], path: '/' }) as const;

export function readSessionCookie(c: Context, kind: SessionKind): string | undefined {
  return getCookie(c, SESSION_COOKIES[kind]);
}

export function setSessionCookie(c: Context, kind: SessionKind, token: string, expiresAt: Date, secure: boolean): void {
  setCookie(c, SESSION_COOKIES[kind], token, { ...options(kind, secure), expires: expiresAt });
}

export function clearSessionCookie(c: Context, kind: SessionKind, secure: boolean): void {
  deleteCookie(c, SESSION_COOKIES[kind], options(kind, secure));
}
