/**
 * The one way the browser calls the API: JSON or FormData bodies, same-origin cookies, a
 * timeout, and the server's {message} on failure. A call made for a session kind ('user' or
 * 'admin', SPEC.md section 7's two API clients) that meets a 401 makes the browser forget that
 * profile and go to its login page. The session itself is an HttpOnly cookie: nothing here ever
 * holds a token.
 *
 * No refresh-and-retry on a 401 (issue 15, decision 0016): the refresh endpoints renew the very
 * cookie session that just failed, so after a 401 their answer is always 401 too; the retry
 * could never succeed and only delayed the way to the login page. A live session is renewed on
 * use by the server (api/middleware/auth.ts), which is what the refresh was for.
 */
import { forgetAdmin, forgetUser } from './profile';

export interface JsonResult<T> {
  ok: boolean;
  status: number;
  data: T & { message?: string };
  /** The answer's headers (a paged list's next cursor, issue 36). */
  headers?: Headers;
}

export type SessionKind = 'user' | 'admin';

export interface RequestOptions {
  /** Sent as JSON, or as multipart/form-data when a FormData. */
  body?: unknown;
  /** The session the call needs: a 401 then leaves for that session's login page. */
  session?: SessionKind;
  /** How long to wait for the answer before the call rejects, as it does when offline. */
  timeoutMs?: number;
}

/** Long enough for a payment capture the server waits on; a hung connection still ends. */
export const DEFAULT_TIMEOUT_MS = 30_000;

interface SessionRules {
  loginPage: string;
  forget: () => void;
  /** SPEC.md section 7: the user API client logs each call and its status to the console. */
  log: boolean;
}

const sessions: Record<SessionKind, SessionRules> = {
  user: { loginPage: '/login', forget: forgetUser, log: true },
  admin: { loginPage: '/admin', forget: forgetAdmin, log: false },
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
  return { ok: res.ok, status: res.status, data: (data ?? {}) as T & { message?: string }, headers: res.headers };
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
  const res = await send<T>(method, url, body, timeoutMs);
  if (log) console.info(`[api] ${method} ${url} -> ${res.status}`);
  if (session !== undefined && res.status === 401) leaveSession(session);
  return res;
}
