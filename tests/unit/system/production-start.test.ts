import { describe, expect, it } from 'vitest';
import { runStartScript } from '../../helpers/child.ts';

describe('NODE_ENV=production npm start', () => {
  it('refuses to start without its keys and names the missing ones', () => {
    const run = runStartScript({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db.example/prod' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Production needs these environment variables:');
    for (const key of ['SITE_URL', 'RESEND_API_KEY', 'PAYPAL_CLIENT_ID', 'PARTYKIT_HOST', 'BOOKING_COUPON']) expect(run.stderr).toContain(key);
    // DATABASE_URL was given, so it is not named.
    expect(run.stderr).not.toMatch(/\bDATABASE_URL\b/);
  });
});
