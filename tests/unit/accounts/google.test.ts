/**
 * Google sign-in's client (api/accounts/google.ts): the authorization URL with state and PKCE, the
 * code exchange against a local fake of Google's token endpoint, and the ID token's claims.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exchangeGoogleCode,
  googleAuthorization,
  googleConfig,
  GoogleSignInError,
  profileFromIdToken,
  type GoogleConfig,
} from '../../../api/accounts/google.ts';
import { loadEnv } from '../../../api/env.ts';
import { startFakeServer, type FakeServer } from '../../helpers/fake-server.ts';
import { must } from '../../helpers/guards.ts';

const CLIENT_ID = 'client-123.apps.googleusercontent.com';
const CLIENT_SECRET = 'google-secret';

/** An unsigned JWT, as the fake token endpoint hands it out. */
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const idToken = (claims: Record<string, unknown>) => `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64(claims)}.c2lnbmF0dXJl`;

const goodClaims = (over: Record<string, unknown> = {}) => ({
  iss: 'https://accounts.google.com',
  aud: CLIENT_ID,
  sub: '110169484474386276334',
  email: 'Ana.Lima@Example.com',
  email_verified: true,
  given_name: 'Ana',
  family_name: 'Lima',
  picture: 'https://lh3.googleusercontent.com/a/photo',
  iat: Math.floor(Date.now() / 1000),
  exp: Math.floor(Date.now() / 1000) + 3600,
  ...over,
});

let fake: FakeServer;
let config: GoogleConfig;
beforeAll(async () => {
  fake = await startFakeServer();
  config = {
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: `${fake.url}/token`,
    redirectUri: 'https://yoga.example/api/user/auth/google/callback',
  };
});
afterAll(async () => {
  await fake?.close();
});

describe('googleConfig', () => {
  it('is off without the client id and secret, and on with them at the configured endpoints', () => {
    expect(googleConfig(loadEnv({ NODE_ENV: 'test' }))).toBeUndefined();
    expect(googleConfig(loadEnv({ NODE_ENV: 'test', GOOGLE_CLIENT_ID: CLIENT_ID }))).toBeUndefined();
    const env = loadEnv({ NODE_ENV: 'test', GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_CLIENT_SECRET: CLIENT_SECRET, SITE_URL: 'https://yoga.example/' });
    expect(googleConfig(env)).toEqual({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      redirectUri: 'https://yoga.example/api/user/auth/google/callback',
    });
    const custom = loadEnv({ NODE_ENV: 'test', GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_CLIENT_SECRET: CLIENT_SECRET, GOOGLE_TOKEN_URL: `${fake.url}/token` });
    expect(must(googleConfig(custom), 'googleConfig(custom)').tokenUrl).toBe(`${fake.url}/token`);
  });
});

describe('googleAuthorization', () => {
  it('asks for openid email profile with a fresh state and an S256 challenge of the verifier', () => {
    const a = googleAuthorization(config);
    const b = googleAuthorization(config);
    const p = a.url.searchParams;
    expect(`${a.url.origin}${a.url.pathname}`).toBe(config.authUrl);
    expect(p.get('response_type')).toBe('code');
    expect(p.get('client_id')).toBe(CLIENT_ID);
    expect(p.get('redirect_uri')).toBe(config.redirectUri);
    expect(p.get('scope')).toBe('openid email profile');
    expect(p.get('state')).toBe(a.state);
    expect(p.get('code_challenge_method')).toBe('S256');
    expect(p.get('code_challenge')).toBe(createHash('sha256').update(a.codeVerifier).digest('base64url'));
    expect(a.url.toString()).not.toContain(a.codeVerifier);
    expect(a.url.toString()).not.toContain(CLIENT_SECRET);
    expect(a.state).not.toBe(b.state);
    expect(a.codeVerifier).not.toBe(b.codeVerifier);
    expect(a.state.length).toBeGreaterThanOrEqual(32);
  });
});

describe('exchangeGoogleCode', () => {
  it('posts the code and the verifier with the client credentials and reads the profile', async () => {
    fake.handle(() => ({ body: { access_token: 'at', token_type: 'Bearer', expires_in: 3599, id_token: idToken(goodClaims()) } }));
    const profile = await exchangeGoogleCode(config, 'the-code', 'the-verifier');
    expect(profile).toEqual({
      googleId: '110169484474386276334',
      email: 'ana.lima@example.com',
      firstName: 'Ana',
      lastName: 'Lima',
      picture: 'https://lh3.googleusercontent.com/a/photo',
    });
    const req = fake.requests.at(-1)!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/token');
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`);
    const form = new URLSearchParams(req.body);
    expect(form.get('grant_type')).toBe('authorization_code');
    expect(form.get('code')).toBe('the-code');
    expect(form.get('code_verifier')).toBe('the-verifier');
    expect(form.get('redirect_uri')).toBe(config.redirectUri);
  });

  it('fails with GoogleSignInError on a refused code, a missing id_token or an unreachable endpoint', async () => {
    fake.handle(() => ({ status: 400, body: { error: 'invalid_grant', error_description: 'Bad Request' } }));
    await expect(exchangeGoogleCode(config, 'used-code', 'v')).rejects.toBeInstanceOf(GoogleSignInError);
    fake.handle(() => ({ body: { access_token: 'at', token_type: 'Bearer', expires_in: 3599 } }));
    await expect(exchangeGoogleCode(config, 'code', 'v')).rejects.toBeInstanceOf(GoogleSignInError);
    fake.handle(() => ({ status: 500, body: 'oops' }));
    await expect(exchangeGoogleCode(config, 'code', 'v')).rejects.toBeInstanceOf(GoogleSignInError);
    await expect(exchangeGoogleCode({ ...config, tokenUrl: 'http://127.0.0.1:1/token' }, 'code', 'v')).rejects.toBeInstanceOf(GoogleSignInError);
  });
});

describe('profileFromIdToken', () => {
  it('accepts the other issuer spelling, an audience list and the old string "true"', () => {
    expect(profileFromIdToken(config, idToken(goodClaims({ iss: 'accounts.google.com' }))).googleId).toBe('110169484474386276334');
    expect(profileFromIdToken(config, idToken(goodClaims({ aud: ['other', CLIENT_ID] }))).email).toBe('ana.lima@example.com');
    expect(profileFromIdToken(config, idToken(goodClaims({ email_verified: 'true' }))).email).toBe('ana.lima@example.com');
  });

  it('leaves missing names empty and drops a picture that is not https', () => {
    const p = profileFromIdToken(config, idToken(goodClaims({ given_name: undefined, family_name: undefined, picture: 'javascript:alert(1)' })));
    expect(p).toMatchObject({ firstName: '', lastName: '', picture: null });
  });

  it('refuses tokens that are not for us, expired, without subject or without a verified e-mail', () => {
    const now = Math.floor(Date.now() / 1000);
    const bad: [string, Record<string, unknown>][] = [
      ['issuer', { iss: 'https://evil.example' }],
      ['audience', { aud: 'someone-else' }],
      ['expired', { exp: now - 1 }],
      ['no exp', { exp: undefined }],
      ['no sub', { sub: undefined }],
      ['odd sub', { sub: 'a b' }],
      ['unverified', { email_verified: false }],
      ['verified missing', { email_verified: undefined }],
      ['no email', { email: undefined }],
      ['bad email', { email: 'not-an-email' }],
    ];
    for (const [label, over] of bad) {
      expect(() => profileFromIdToken(config, idToken(goodClaims(over))), label).toThrow(GoogleSignInError);
    }
    for (const garbage of ['', 'a.b', 'not.a.jwt', `${b64({})}.${Buffer.from('nope').toString('base64url')}.`]) {
      expect(() => profileFromIdToken(config, garbage), garbage).toThrow(GoogleSignInError);
    }
  });
});
