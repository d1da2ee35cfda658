/**
 * "Sign in with Google": OAuth 2.0 authorization code flow with PKCE (S256) and state, through
 * arctic's generic OAuth2Client, so the endpoints come from the environment (GOOGLE_AUTH_URL,
 * GOOGLE_TOKEN_URL) and tests can point the token request at a local fake.
 *
 * The ID token's signature is not checked, on purpose: it comes straight from Google's token
 * endpoint in the server's own TLS request (authenticated with our client secret and the PKCE
 * verifier), never through the browser. OpenID Connect Core 1.0, section 3.1.3.7, allows
 * exactly this: with direct communication with the token endpoint, TLS server validation may
 * stand in for the signature check. The claims are still checked: issuer, audience, expiry,
 * a subject, and a verified e-mail.
 */
import { CodeChallengeMethod, OAuth2Client, decodeIdToken, generateCodeVerifier, generateState } from 'arctic';
import type { Env } from '../env.ts';

export const GOOGLE_SCOPES = ['openid', 'email', 'profile'];
const ISSUERS = new Set(['https://accounts.google.com', 'accounts.google.com']);

export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  redirectUri: string;
}

/** The configuration, or undefined when Google sign-in is off (no client id and secret). */
export function googleConfig(env: Env): GoogleConfig | undefined {
  if (env.standIns.google || !env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) return undefined;
  return {
    clientId: env.GOOGLE_CLIENT_ID,
    clientSecret: env.GOOGLE_CLIENT_SECRET,
    authUrl: env.GOOGLE_AUTH_URL,
    tokenUrl: env.GOOGLE_TOKEN_URL,
    redirectUri: `${env.SITE_URL}/api/user/auth/google/callback`,
  };
}

const client = (config: GoogleConfig) => new OAuth2Client(config.clientId, config.clientSecret, config.redirectUri);

/** Where to send the browser, and the two values the callback must get back (kept in cookies). */
export function googleAuthorization(config: GoogleConfig): { url: URL; state: string; codeVerifier: string } {
  const state = generateState();
  const codeVerifier = generateCodeVerifier();
  const url = client(config).createAuthorizationURLWithPKCE(config.authUrl, state, CodeChallengeMethod.S256, codeVerifier, GOOGLE_SCOPES);
  // Let the person pick an account rather than be signed in silently with the last one used.
  url.searchParams.set('prompt', 'select_account');
  return { url, state, codeVerifier };
}

export interface GoogleProfile {
  /** Google's stable account id (`sub`). */
  googleId: string;
  /** Lower-cased; Google says it is verified. */
  email: string;
  firstName: string;
  lastName: string;
  picture: string | null;
}

export class GoogleSignInError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GoogleSignInError';
  }
}

const text = (v: unknown, max: number) => (typeof v === 'string' ? v.trim().slice(0, max) : '');

/** Reads and checks the ID token's claims. */
export function profileFromIdToken(config: GoogleConfig, idToken: string, now = Date.now()): GoogleProfile {
  let claims: Record<string, unknown>;
  try {
    claims = decodeIdToken(idToken) as Record<string, unknown>;
  } catch (err) {
    throw new GoogleSignInError('The ID token could not be read', { cause: err });
  }
  if (!ISSUERS.has(String(claims.iss))) throw new GoogleSignInError('The ID token has another issuer');
  const aud = claims.aud;
  if (!(aud === config.clientId || (Array.isArray(aud) && aud.includes(config.clientId)))) {
    throw new GoogleSignInError('The ID token is for another client');
  }
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now) throw new GoogleSignInError('The ID token has expired');
  const sub = claims.sub;
  if (typeof sub !== 'string' || !/^[A-Za-z0-9_-]{1,255}$/.test(sub)) throw new GoogleSignInError('The ID token has no subject');
  // Google sends a boolean; very old tokens carried the string "true".
  if (claims.email_verified !== true && claims.email_verified !== 'true') throw new GoogleSignInError('The e-mail is not verified');
  const email = text(claims.email, 254).toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new GoogleSignInError('The ID token has no e-mail');
  const picture = text(claims.picture, 2000);
  return {
    googleId: sub,
    email,
    firstName: text(claims.given_name, 100).replace(/[\r\n]+/g, ' '),
    lastName: text(claims.family_name, 100).replace(/[\r\n]+/g, ' '),
    picture: /^https:\/\//.test(picture) ? picture : null,
  };
}

/** Exchanges the authorization code (with the PKCE verifier) and returns the checked profile. */
export async function exchangeGoogleCode(config: GoogleConfig, code: string, codeVerifier: string): Promise<GoogleProfile> {
  let idToken: string;
  try {
    const tokens = await client(config).validateAuthorizationCode(config.tokenUrl, code, codeVerifier);
    idToken = tokens.idToken();
  } catch (err) {
    throw new GoogleSignInError('The code could not be exchanged', { cause: err });
  }
  return profileFromIdToken(config, idToken);
}
