/**
 * The client's calls (SPEC.md section 7, user API client): JSON with same-origin cookies,
 * logged to the console as the spec asks. A 401 leads to one refresh at a time
 * (POST /api/user/refresh-token) and one retry; when the refresh fails the stored user is
 * cleared and the browser goes to /login.
 */
import { sendJson, type JsonResult } from './http';
import { forgetUser } from './profile';

let refreshing: Promise<boolean> | null = null;
function refreshOnce(): Promise<boolean> {
  refreshing ??= sendJson('POST', '/api/user/refresh-token')
    .then((r) => r.ok)
    .catch(() => false)
    .finally(() => setTimeout(() => (refreshing = null), 0));
  return refreshing;
}

export function forceLogin(): void {
  forgetUser();
  window.location.assign('/login');
}

export async function userCall<T = unknown>(method: string, url: string, body?: unknown): Promise<JsonResult<T>> {
  console.info(`[api] ${method} ${url}`);
  let res = await sendJson<T>(method, url, body);
  if (res.status === 401 && (await refreshOnce())) res = await sendJson<T>(method, url, body);
  console.info(`[api] ${method} ${url} -> ${res.status}`);
  if (res.status === 401) forceLogin();
  return res;
}
