import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from '../../../api/env.ts';
import { productionEnv } from '../../helpers/production-env.ts';

const PRODUCTION_KEYS = [
  'SITE_URL',
  'DATABASE_URL',
  'ADMIN_EMAIL',
  'ADMIN_PASSWORD',
  'APP_SECRET',
  'TEACHER_EMAIL',
  'MAIL_FROM',
  'RESEND_API_KEY',
  'RECAPTCHA_SITE_KEY',
  'RECAPTCHA_SECRET_KEY',
  'PAYPAL_CLIENT_ID',
  'PAYPAL_CLIENT_SECRET',
  'PARTYKIT_HOST',
  'PARTYKIT_SECRET',
  'BOOKING_COUPON',
  'PRIVATE_RECORDS_KEY',
];

const fullProduction = productionEnv;

function envErrorOf(source: Record<string, string | undefined>): EnvError {
  let caught: unknown;
  try {
    loadEnv(source);
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(EnvError);
  return caught as EnvError;
}

describe('loadEnv in development (nothing set)', () => {
  const env = loadEnv({});

  it('turns every stand-in on', () => {
    expect(env.standIns).toEqual({ mail: true, captcha: true, payments: true, realtime: true, google: true, calendar: true, taxRates: true });
  });

  it('applies the development defaults and lists them in defaulted', () => {
    expect(env.NODE_ENV).toBe('development');
    expect(env.PORT).toBe(4321);
    expect(env.HOST).toBe('127.0.0.1');
    expect(env.SITE_URL).toBe('http://localhost:4321');
    expect(env.SITE_TIMEZONE).toBe('America/Los_Angeles');
    expect(env.PGLITE_DIR).toBe('.data/pglite');
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.RESEND_BASE_URL).toBe('https://api.resend.com');
    expect(env.PAYPAL_API_BASE).toBe('https://api-m.sandbox.paypal.com');
    expect(env.RECAPTCHA_MIN_SCORE).toBe(0.5);
    expect(env.TRUST_PROXY).toBe(0);
    expect(env.QUIET).toBe(false);

    expect(env.ADMIN_EMAIL).toBe('admin@example.com');
    expect(env.ADMIN_PASSWORD.length).toBeGreaterThanOrEqual(12);
    expect(env.APP_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(env.TEACHER_EMAIL).toBe('teacher@example.com');
    expect(env.MAIL_FROM).toContain('hello@example.com');
    expect(env.PARTYKIT_SECRET).toBeTruthy();
    expect(env.BOOKING_COUPON).toBe('JOURNEY');

    expect([...env.defaulted].sort()).toEqual(
      ['ADMIN_EMAIL', 'ADMIN_PASSWORD', 'APP_SECRET', 'BOOKING_COUPON', 'MAIL_FROM', 'PARTYKIT_SECRET', 'TEACHER_EMAIL'].sort(),
    );
  });

  it('does not list a variable that was set, and treats blank as unset', () => {
    const partly = loadEnv({ ADMIN_EMAIL: 'me@example.com', BOOKING_COUPON: '   ', RESEND_API_KEY: '' });
    expect(partly.ADMIN_EMAIL).toBe('me@example.com');
    expect(partly.defaulted).not.toContain('ADMIN_EMAIL');
    expect(partly.BOOKING_COUPON).toBe('JOURNEY');
    expect(partly.defaulted).toContain('BOOKING_COUPON');
    expect(partly.standIns.mail).toBe(true);
  });

  it('turns a stand-in off only when its keys are set (both halves of a pair)', () => {
    expect(loadEnv({ RESEND_API_KEY: 're_x' }).standIns.mail).toBe(false);
    expect(loadEnv({ PAYPAL_CLIENT_ID: 'id' }).standIns.payments).toBe(true);
    expect(loadEnv({ PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 's' }).standIns.payments).toBe(false);
    expect(loadEnv({ RECAPTCHA_SECRET_KEY: 's' }).standIns.captcha).toBe(true);
    expect(loadEnv({ RECAPTCHA_SITE_KEY: 'k', RECAPTCHA_SECRET_KEY: 's' }).standIns.captcha).toBe(false);
    expect(loadEnv({ PARTYKIT_HOST: 'x.partykit.dev' }).standIns.realtime).toBe(false);
    expect(loadEnv({ GOOGLE_CLIENT_ID: 'g' }).standIns.google).toBe(true);
    expect(loadEnv({ GOOGLE_CLIENT_ID: 'g', GOOGLE_CLIENT_SECRET: 's' }).standIns.google).toBe(false);
  });

  it('coerces numbers and flags', () => {
    const env2 = loadEnv({ PORT: '8080', TRUST_PROXY: 'true', QUIET: '1', RECAPTCHA_MIN_SCORE: '0.7' });
    expect(env2.PORT).toBe(8080);
    expect(env2.SITE_URL).toBe('http://localhost:8080');
    expect(env2.TRUST_PROXY).toBe(1);
    expect(env2.QUIET).toBe(true);
    expect(env2.RECAPTCHA_MIN_SCORE).toBe(0.7);
  });
});

describe('loadEnv in production', () => {
  it('throws an EnvError naming every missing key when nothing is set', () => {
    const error = envErrorOf({ NODE_ENV: 'production' });
    expect(error.name).toBe('EnvError');
    expect([...error.missing].sort()).toEqual([...PRODUCTION_KEYS].sort());
    for (const key of ['DATABASE_URL', 'RESEND_API_KEY', 'PAYPAL_CLIENT_ID', 'APP_SECRET', 'SITE_URL']) {
      expect(error.missing).toContain(key);
      expect(error.message).toContain(key);
    }
  });

  it('names only the keys still missing', () => {
    const source = fullProduction();
    delete source.RESEND_API_KEY;
    source.PAYPAL_CLIENT_SECRET = '  ';
    const error = envErrorOf(source);
    expect([...error.missing].sort()).toEqual(['PAYPAL_CLIENT_SECRET', 'RESEND_API_KEY']);
    expect(error.message).toContain('RESEND_API_KEY');
    expect(error.message).toContain('PAYPAL_CLIENT_SECRET');
    expect(error.message).not.toContain('DATABASE_URL');
  });

  it('returns an env with every stand-in off and no defaults when every key is set', () => {
    const env = loadEnv(fullProduction());
    expect(env.NODE_ENV).toBe('production');
    expect(env.standIns).toEqual({ mail: false, captcha: false, payments: false, realtime: false, google: false, calendar: false, taxRates: false });
    expect(env.defaulted).toEqual([]);
    expect(env.SITE_URL).toBe('https://yoga.example.com');
    expect(env.ADMIN_PASSWORD).toBe('a-long-admin-password');
    expect(env.BOOKING_COUPON).toBe('SPRING');
    expect(env.DATABASE_URL).toBe('postgres://app:pw@db.example.com:5432/yoga');
  });

  it('starts without PAYPAL_WEBHOOK_ID (webhooks off) and reads it when set', () => {
    expect(loadEnv(fullProduction()).PAYPAL_WEBHOOK_ID).toBeUndefined();
    expect(loadEnv({ ...fullProduction(), PAYPAL_WEBHOOK_ID: ' 1JE4291016473214C ' }).PAYPAL_WEBHOOK_ID).toBe('1JE4291016473214C');
  });

  it('refuses a short APP_SECRET or ADMIN_PASSWORD', () => {
    expect(envErrorOf({ ...fullProduction(), APP_SECRET: 'x'.repeat(31) }).message).toMatch(/APP_SECRET/);
    expect(envErrorOf({ ...fullProduction(), ADMIN_PASSWORD: 'short-pw' }).message).toMatch(/ADMIN_PASSWORD/);
    expect(() => loadEnv({ ...fullProduction(), APP_SECRET: 'x'.repeat(32), ADMIN_PASSWORD: 'y'.repeat(12) })).not.toThrow();
  });

  it('does not apply the short development defaults (they are only for development)', () => {
    // The development defaults exist, but production never falls back to them.
    const error = envErrorOf({ NODE_ENV: 'production' });
    expect(error.missing).toContain('ADMIN_PASSWORD');
    expect(error.missing).toContain('BOOKING_COUPON');
  });
});

describe('loadEnv refuses invalid values', () => {
  it('throws an EnvError for an invalid PORT', () => {
    for (const port of ['abc', '70000', '-1', '80.5']) {
      const error = envErrorOf({ PORT: port });
      expect(error.message, port).toContain('PORT');
    }
  });

  it('throws for an unknown NODE_ENV, a non-URL API base, an out-of-range score and a bad flag', () => {
    expect(envErrorOf({ NODE_ENV: 'staging' }).message).toContain('NODE_ENV');
    expect(envErrorOf({ PAYPAL_API_BASE: 'not a url' }).message).toContain('PAYPAL_API_BASE');
    expect(envErrorOf({ RECAPTCHA_MIN_SCORE: '1.5' }).message).toContain('RECAPTCHA_MIN_SCORE');
    expect(envErrorOf({ TRUST_PROXY: 'yes' }).message).toContain('TRUST_PROXY');
  });
});
