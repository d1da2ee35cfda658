/** Every key production needs, plus Google sign-in: a complete production environment for tests. */
export const productionEnv = (): Record<string, string> => ({
  NODE_ENV: 'production',
  SITE_URL: 'https://yoga.example.com/',
  DATABASE_URL: 'postgres://app:pw@db.example.com:5432/yoga',
  ADMIN_EMAIL: 'owner@example.com',
  ADMIN_PASSWORD: 'a-long-admin-password',
  APP_SECRET: 'x'.repeat(48),
  TEACHER_EMAIL: 'teacher@example.com',
  MAIL_FROM: 'Studio <hello@example.com>',
  RESEND_API_KEY: 're_live_key',
  RECAPTCHA_SITE_KEY: 'site-key',
  RECAPTCHA_SECRET_KEY: 'secret-key',
  PAYPAL_CLIENT_ID: 'paypal-id',
  PAYPAL_CLIENT_SECRET: 'paypal-secret',
  PAYPAL_API_BASE: 'https://api-m.paypal.com',
  GOOGLE_CLIENT_ID: 'google-id',
  GOOGLE_CLIENT_SECRET: 'google-secret',
  PARTYKIT_HOST: 'yoga.me.partykit.dev',
  PARTYKIT_SECRET: 'partykit-secret',
  BOOKING_COUPON: 'SPRING',
  // 32 bytes in base64 (issue 23): the private records' key.
  PRIVATE_RECORDS_KEY: 'cHJpdmF0ZS1yZWNvcmRzLWtleS1mb3ItdGVzdHMtMzI=',
});
