import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('NODE_ENV=production npm start', () => {
  it('refuses to start without its keys and names the missing ones', () => {
    // Only PATH and HOME: none of the developer's variables leak in.
    const run = spawnSync(process.execPath, ['scripts/start.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'production', DATABASE_URL: 'postgres://db.example/prod' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Production needs these environment variables:');
    for (const key of ['SITE_URL', 'RESEND_API_KEY', 'PAYPAL_CLIENT_ID', 'PARTYKIT_HOST', 'BOOKING_COUPON']) expect(run.stderr).toContain(key);
    // DATABASE_URL was given, so it is not named.
    expect(run.stderr).not.toMatch(/\bDATABASE_URL\b/);
  });
});
