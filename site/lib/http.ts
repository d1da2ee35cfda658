/**
 * The one way the browser calls the API: JSON or FormData bodies, same-origin cookies, a
 * timeout, and the server's {message} on failure. A call made for a session kind ('user' or
 * 'admin', SPEC.md section 7's two API clients) answers a 401 with one refresh of that session
 * (shared by every call that meets the 401 meanwhile) and one retry; when the refresh fails the
 * browser forgets that profile and goes to its login page. The session itself is an HttpOnly
 * cookie: nothing here ever holds a token.
 */
import type { AdminSessionView } from '../../contract/admin.ts';
import { forgetAdmin, forgetUser, rememberAdmin } from './profile';

export interface JsonResult<T> {
  ok: boolean;
  status: number;
  data: T & { message?: string };
}

export type SessionKind = 'user' | 'admin';

export interface RequestOptions {
  /** Sent as JSON, or as multipart/form-data when a FormData. */
  body?: unknown;
  /** The session the call needs: a 401 then gets one refresh and one retry. */
  session?: SessionKind;
  /** How long to wait for the answer before the call rejects, as it does when offline. */
  timeoutMs?: number;
}

/** Long enough for a payment capture the server waits on; a hung connection still ends. */
export const DEFAULT_TIMEOUT_MS = 30_000;

interface SessionRules {
  refreshUrl: string;
  loginPage: string;
  forget: () => void;
  /** What the refresh answered, for the profile it carries. */
  refreshed?: (data: unknown) => void;
  /** SPEC.md section 7: the user API client logs each call and its status to the console. */
  log: boolean;
}

const sessions: Record<SessionKind, SessionRules> = {
  user: { refreshUrl: '/api/user/refresh-token', loginPage: '/login', forget: forgetUser, log: true },
  admin: {
    refreshUrl: '/api/admin/refresh-token',
    loginPage: '/admin',
    forget: forgetAdmin,
    refreshed: (data) => {
      const { admin } = data as Partial<AdminSessionView>;
      if (admin) rememberAdmin(admin);
    },
    log: false,
  },
};

async function send<T>(method: string, url: string, body: unknown, timeoutMs: number): Promise<JsonResult<T>> {
  const form = body instanceof FormData;
  const res = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: body === undefined || form ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  let data: unknown = {};
  try {
    data = await res.json();
  } catch {
    data = {};
  }
  return { ok: res.ok, status: res.status, data: (data ?? {}) as T & { message?: string } };
}

// One refresh at a time per kind: calls that meet a 401 together wait for the same one.
const refreshing: Partial<Record<SessionKind, Promise<boolean>>> = {};
function refreshOnce(kind: SessionKind): Promise<boolean> {
  const rules = sessions[kind];
  refreshing[kind] ??= send('POST', rules.refreshUrl, undefined, DEFAULT_TIMEOUT_MS)
    .then((r) => {
      if (r.ok) rules.refreshed?.(r.data);
      return r.ok;
    })
    .catch(() => false)
    .finally(() => setTimeout(() => delete refreshing[kind], 0));
  return refreshing[kind];
}

/** Forgets the stored profile of `kind` and goes to its login page (/login or /admin). */
export function leaveSession(kind: SessionKind): void {
  sessions[kind].forget();
  window.location.assign(sessions[kind].loginPage);
}

export async function request<T = unknown>(method: string, url: string, options: RequestOptions = {}): Promise<JsonResult<T>> {
  const { body, session, timeoutMs = DEFAULT_TIMEOUT_MS } = options;
  const log = session !== undefined && sessions[session].log;
  if (log) console.info(`[api] ${method} ${url}`);
  let res = await send<T>(method, url, body, timeoutMs);
  if (session !== undefined && res.status === 401 && (await refreshOnce(session))) res = await send<T>(method, url, body, timeoutMs);
  if (log) console.info(`[api] ${method} ${url} -> ${res.status}`);
  if (session !== undefined && res.status === 401) leaveSession(session);
  return res;
}
