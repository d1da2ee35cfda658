/**
 * The profiles the browser keeps: the logged-in client's (localStorage `user`) and the
 * administrator's (`admin`). Not secret, only for an instant first paint; the sessions
 * themselves are HttpOnly cookies.
 */
import type { AdminView } from '../../contract/admin.ts';

export interface StoredUser {
  id?: string;
  _id?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
}

export function readUser(): StoredUser | null {
  try {
    const raw = localStorage.getItem('user');
    if (!raw) return null;
    const user = JSON.parse(raw);
    return user && typeof user === 'object' ? user : null;
  } catch {
    return null;
  }
}

/** First letters of first and last name; '?' stands in for a missing one ('??' never shows: '?' alone). */
export function initials(user: StoredUser | null): string {
  const first = user?.firstName?.trim()?.[0];
  const last = user?.lastName?.trim()?.[0];
  if (!first && !last) return '?';
  return `${first ?? '?'}${last ?? '?'}`.toUpperCase();
}

/** The user's id, or undefined when missing (the menu then links to /login). */
export function userId(user: StoredUser | null): string | undefined {
  const id = user?.id ?? user?._id;
  return id && id !== 'N/A' ? String(id) : undefined;
}

export function forgetUser(): void {
  localStorage.removeItem('user');
  localStorage.removeItem('userToken');
}

export function storedAdmin(): AdminView | null {
  try {
    return JSON.parse(localStorage.getItem('admin') ?? 'null');
  } catch {
    return null;
  }
}

export function rememberAdmin(admin: AdminView): void {
  localStorage.setItem('admin', JSON.stringify(admin));
}

export function forgetAdmin(): void {
  localStorage.removeItem('admin');
  localStorage.removeItem('adminToken');
}
