/**
 * An OAuth round trip's two values (the state and the PKCE verifier), kept in short-lived
 * cookies of the flow's own path between the redirect to the provider and its redirect back:
 * the Google sign-in's and her Google Calendar's (issue 35) share it.
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { timingSafeEqual } from 'node:crypto';
import type { AppEnv } from '../types.ts';

export interface RoundTrip {
  /** The cookies' names. */
  state: string;
  verifier: string;
  /** The path they are sent to: the flow's own routes only. */
  path: string;
}

const optionsOf = (c: Context<AppEnv>, trip: RoundTrip) =>
  // Lax: the provider's redirect back is a top-level GET navigation, which carries Lax cookies.
  ({ httpOnly: true, secure: c.var.services.env.NODE_ENV === 'production', sameSite: 'Lax', path: trip.path }) as const;

/** Before the redirect to the provider: ten minutes to come back. */
export function keepRoundTrip(c: Context<AppEnv>, trip: RoundTrip, values: { state: string; codeVerifier: string }): void {
  const options = { ...optionsOf(c, trip), maxAge: 10 * 60 };
  setCookie(c, trip.state, values.state, options);
  setCookie(c, trip.verifier, values.codeVerifier, options);
  c.header('cache-control', 'no-store');
}

/**
 * At the redirect back: the verifier when the returned state is the one kept, else undefined.
 * One round trip per pair of cookies, whatever happens next: they are deleted either way.
 */
export function takeRoundTrip(c: Context<AppEnv>, trip: RoundTrip, returnedState: string | undefined): string | undefined {
  c.header('cache-control', 'no-store');
  const expected = getCookie(c, trip.state);
  const verifier = getCookie(c, trip.verifier);
  deleteCookie(c, trip.state, optionsOf(c, trip));
  deleteCookie(c, trip.verifier, optionsOf(c, trip));
  if (!expected || !verifier || !returnedState) return undefined;
  const a = Buffer.from(returnedState);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b) ? verifier : undefined;
}
