/**
 * Issue 12, item 5: a server that forgets NODE_ENV=production must not offer its stand-ins
 * (mailbox with login links, dev captcha, PayPal emulator) to the network.
 */
import { describe, expect, it } from 'vitest';
import { EnvError, isLoopbackHost, loadEnv } from '../../../api/env.ts';
import { banner, type RunningServer } from '../../../api/server.ts';
import { productionEnv } from '../../helpers/production-env.ts';
import { runStartScript } from '../../helpers/child.ts';

function envErrorOf(source: Record<string, string>): EnvError {
  try {
    loadEnv(source);
  } catch (e) {
    expect(e).toBeInstanceOf(EnvError);
    return e as EnvError;
  }
  throw new Error('loadEnv did not refuse');
}

describe('HOST defaults', () => {
  it('listens on loopback outside production and on every interface in production', () => {
    expect(loadEnv({}).HOST).toBe('127.0.0.1');
    expect(loadEnv({ NODE_ENV: 'test' }).HOST).toBe('127.0.0.1');
    expect(loadEnv({ HOST: '  ' }).HOST).toBe('127.0.0.1');
    expect(loadEnv(productionEnv()).HOST).toBe('0.0.0.0');
    expect(loadEnv({ ...productionEnv(), HOST: '10.0.0.5' }).HOST).toBe('10.0.0.5');
  });

  it('knows loopback addresses', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'example.com', '128.0.0.1', 'localhost.example.com'])
      expect(isLoopbackHost(h), h).toBe(false);
  });
});

describe('stand-ins on a non-loopback HOST', () => {
  it('refuses to start, naming each stand-in that is on and how to turn it off', () => {
    const error = envErrorOf({ HOST: '0.0.0.0' });
    expect(error.message).toContain('HOST=0.0.0.0');
    for (const word of [
      'mail',
      'captcha',
      'payments',
      'RESEND_API_KEY',
      'RECAPTCHA_SECRET_KEY',
      'PAYPAL_CLIENT_ID',
      'NODE_ENV=production',
      'ALLOW_STAND_INS=1',
    ]) {
      expect(error.message).toContain(word);
    }
  });

  it('names only the stand-ins still on', () => {
    const error = envErrorOf({ HOST: '192.168.1.10', RESEND_API_KEY: 're_x', RECAPTCHA_SITE_KEY: 'k', RECAPTCHA_SECRET_KEY: 's' });
    expect(error.message).toContain('payments');
    expect(error.message).not.toContain('RESEND_API_KEY');
    expect(error.message).not.toContain('captcha (');
  });

  it('starts when every risky stand-in is off, when HOST is loopback, or with ALLOW_STAND_INS=1', () => {
    const keys = { RESEND_API_KEY: 're_x', RECAPTCHA_SITE_KEY: 'k', RECAPTCHA_SECRET_KEY: 's', PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 'secret' };
    // Realtime and Google stand-ins are still on here: they let nobody in.
    expect(loadEnv({ HOST: '0.0.0.0', ...keys }).HOST).toBe('0.0.0.0');
    expect(loadEnv({ HOST: '127.0.0.1' }).HOST).toBe('127.0.0.1');
    expect(loadEnv({ HOST: '::1' }).HOST).toBe('::1');
    const demo = loadEnv({ HOST: '0.0.0.0', ALLOW_STAND_INS: '1' });
    expect(demo.ALLOW_STAND_INS).toBe(true);
    expect(envErrorOf({ ALLOW_STAND_INS: 'yes' }).message).toContain('ALLOW_STAND_INS');
  });

  it('says so in the start banner when ALLOW_STAND_INS=1 lets them out', () => {
    const running = (env: ReturnType<typeof loadEnv>) =>
      ({
        url: 'http://localhost:4321',
        port: 4321,
        env,
        services: { database: { where: 'memory' }, realtime: { host: 'localhost:1999' } },
      }) as unknown as RunningServer;
    const demo = banner(running(loadEnv({ HOST: '0.0.0.0', ALLOW_STAND_INS: '1' })));
    expect(demo).toMatch(/ALLOW_STAND_INS=1: mail, captcha, payments stand-ins reachable by anyone on 0\.0\.0\.0/);
    expect(banner(running(loadEnv({})))).not.toContain('ALLOW_STAND_INS');
  });

  it('npm start refuses through the "Cannot start" path', () => {
    const run = runStartScript({ HOST: '0.0.0.0', PGLITE_DIR: 'memory://' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Cannot start: HOST=0.0.0.0 would expose these stand-ins');
    expect(run.stderr).toContain('ALLOW_STAND_INS=1');
  });
});
