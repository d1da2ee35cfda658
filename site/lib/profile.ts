/**
 * The logged-in client's profile as the browser keeps it (localStorage `user`): not secret,
 * only for an instant first paint of the navbar; the session itself is an HttpOnly cookie.
 */
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
