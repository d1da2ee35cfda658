/**
 * The logged-in client (SPEC.md section 4, user session): restored from localStorage `user` at
 * once for a fast first paint, then checked with the server after 300 ms. Only the
 * non-secret profile is stored; the session is the HttpOnly cookie.
 */
import { atom } from 'nanostores';
import type { SessionUser, TokenCheckView } from '../../contract/user.ts';
import { forgetUser, readUser } from '../lib/profile';
import { request } from '../lib/http';

/** The signed-in client, as the API describes them. */
export type User = SessionUser;

export const VALIDATE_DELAY_MS = 300;

export type SessionState = 'restoring' | 'validating' | 'authenticated' | 'unauthenticated';
export const $user = atom<User | null>(null);
export const $session = atom<SessionState>('restoring');

const PROFILE_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'preferredName', 'pronoun', 'city', 'zipcode'] as const;

/**
 * Stores the signed-in client. SPEC.md section 3: after a token check, missing fields become
 * 'Unknown'; after a login (a link, Google), missing fields become empty strings and the name
 * 'Unknown User'.
 */
export function setUser(user: User, source: 'token' | 'login' = 'token'): void {
  const filled: User = { ...user };
  for (const key of PROFILE_FIELDS) {
    if (filled[key] === undefined || filled[key] === null) filled[key] = source === 'token' ? 'Unknown' : '';
  }
  filled.firstName ||= 'Unknown';
  filled.lastName ||= source === 'token' ? 'Unknown' : 'User';
  localStorage.setItem('user', JSON.stringify(filled));
  $user.set(filled);
  $session.set('authenticated');
}

export function clearUser(): void {
  forgetUser();
  $user.set(null);
  $session.set('unauthenticated');
}

/** Restore at once, validate after 300 ms; an error logs out, a 404 ends the check. */
export function startSession(): void {
  const stored = readUser() as User | null;
  if (stored) $user.set(stored);
  $session.set('validating');
  setTimeout(async () => {
    try {
      const res = await request<TokenCheckView>('POST', '/api/user/validate-token', { body: { token: null } });
      if (res.status === 404) {
        $session.set(stored ? 'authenticated' : 'unauthenticated');
        return;
      }
      if (!res.ok || !res.data.isValid) throw new Error('invalid session');
      setUser(res.data.user);
    } catch {
      clearUser();
    }
  }, VALIDATE_DELAY_MS);
}
