import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import type { PayPalConfigView, PublicConfigView } from '../../contract/config.ts';
import { handOverOnly } from '../../contract/food.ts';
import { readSettings } from '../settings/settings.repo.ts';
import { readTaxSettings } from '../shop/tax-settings.repo.ts';

/** Public configuration the islands need at run time (never a secret). */
export const config = new Hono<AppEnv>()
  // SPEC.md section 7: GET /config/paypal -> {clientId}. With the emulator on, the SDK URL too.
  .get('/paypal', (c) => {
    const { payments } = c.var.services;
    return c.json({
      clientId: payments.clientId,
      currency: 'USD',
      ...(payments.kind === 'emulator' ? { sdkBaseUrl: '/dev/paypal/sdk/js', emulator: true } : {}),
    } satisfies PayPalConfigView);
  })
  .get('/public', async (c) => {
    const { env, realtime, db } = c.var.services;
    const [settings, tax] = await Promise.all([readSettings(db), readTaxSettings(db)]);
    return c.json({
      recaptchaSiteKey: env.standIns.captcha ? null : (env.RECAPTCHA_SITE_KEY ?? null),
      googleSignIn: !env.standIns.google,
      realtimeHost: realtime.host,
      timezone: env.SITE_TIMEZONE,
      // Her amount ranges, read each time: a change she saves shows on the next page load.
      booking: settings.bookingAmounts,
      // The town, not the street: her kitchen's address goes only to the buyer whose order is ready.
      // Cottage mode (issue 48): hand-over only; the checkout refuses a shipped cart whatever the page says.
      pickup: { city: tax.shopAddress.city, hours: settings.pickupHours, handOverOnly: handOverOnly(settings.foodLicence) },
    } satisfies PublicConfigView);
  });
