/**
 * The admin's calls (SPEC.md section 7, admin client). The session is the HttpOnly `yc_admin`
 * cookie; the browser keeps only the non-secret `admin` profile. A 401 triggers one refresh
 * at a time (POST /api/admin/refresh-token) and one retry; if the refresh fails, the admin
 * data is cleared and the browser goes to /admin.
 */
import { sendJson, type JsonResult } from './http';

export interface AdminProfile {
  _id: string;
  email: string;
  name: string;
}

export function storedAdmin(): AdminProfile | null {
  try {
    return JSON.parse(localStorage.getItem('admin') ?? 'null');
  } catch {
    return null;
  }
}

export function rememberAdmin(admin: AdminProfile): void {
  localStorage.setItem('admin', JSON.stringify(admin));
}

export function forgetAdmin(): void {
  localStorage.removeItem('admin');
  localStorage.removeItem('adminToken');
}

let refreshing: Promise<boolean> | null = null;
function refreshOnce(): Promise<boolean> {
  refreshing ??= sendJson<{ admin: AdminProfile }>('POST', '/api/admin/refresh-token')
    .then((r) => {
      if (r.ok && r.data.admin) rememberAdmin(r.data.admin);
      return r.ok;
    })
    .catch(() => false)
    .finally(() => setTimeout(() => (refreshing = null), 0));
  return refreshing;
}

export function goToLogin(): void {
  forgetAdmin();
  window.location.assign('/admin');
}

export async function adminCall<T = unknown>(method: string, url: string, body?: unknown): Promise<JsonResult<T>> {
  const first = await sendJson<T>(method, url, body);
  if (first.status !== 401) return first;
  if (await refreshOnce()) {
    const second = await sendJson<T>(method, url, body);
    if (second.status !== 401) return second;
  }
  goToLogin();
  return first;
}

export async function adminLogout(): Promise<void> {
  try {
    await sendJson('POST', '/api/admin/logout');
  } finally {
    goToLogin();
  }
}
