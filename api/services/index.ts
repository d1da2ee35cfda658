/**
 * Builds every outside-service client from the environment: the real one when its keys are
 * configured (always in production, which refuses to start without them), else the stand-in.
 */
import type { Env } from '../env.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import type { Mailer } from './mail/index.ts';
import { createResendMailer } from './mail/resend.ts';
import { createMailboxMailer } from './mail/mailbox.ts';
import { createDevHumanCheck, createRecaptcha, type HumanCheck } from './captcha.ts';
import { createPayPalClient, type Payments } from './payments/paypal.ts';
import { createPayPalEmulator, EMULATOR_CLIENT_ID, EMULATOR_CLIENT_SECRET, EMULATOR_WEBHOOK_ID } from './payments/emulator.ts';
import { createRealtime, type Realtime } from './realtime.ts';
import { createTaxRateStandIn, createWaDorRates, WA_DOR_RATES_URL, type TaxRateService } from './tax-rates.ts';
import type { Hono } from 'hono';
import { createLimits, type Limits } from '../limits/limits.ts';
import { trackLimits } from '../middleware/rate-limit.ts';
import { createPublisher, type Publisher } from '../pages/render-ahead.ts';
import { distDirOf, readBuildStamp } from '../build-info.ts';
import { clockOf, type Clock } from '../lib/clock.ts';

export interface Services {
  env: Env;
  database: DatabaseHandle;
  db: DatabaseHandle['db'];
  /** The one clock every date a person reads comes from (api/lib/clock.ts). */
  clock: Clock;
  mailer: Mailer;
  humanCheck: HumanCheck;
  payments: Payments;
  realtime: Realtime;
  /** The sales-tax rate service (issue 29): Washington's, or its stand-in. */
  taxRates: TaxRateService;
  /** Request limits, shared by every replica on PostgreSQL (api/limits/limits.ts). */
  limits: Limits;
  /** Public pages made ahead of the request, shared by every replica (api/pages/render-ahead.ts). */
  publisher: Publisher;
  /** Present only while the PayPal emulator stands in; mounted at /dev/paypal. */
  paypalEmulator?: Hono;
}

/** Overrides let tests swap one client (e.g. a Resend pointed at a local fake). */
export function createServices(env: Env, database: DatabaseHandle, overrides: Partial<Services> = {}): Services {
  const { db } = database;
  const clock = overrides.clock ?? clockOf(env);
  const mailer = env.standIns.mail
    ? createMailboxMailer(db)
    : createResendMailer({ apiKey: env.RESEND_API_KEY!, from: env.MAIL_FROM, baseUrl: env.RESEND_BASE_URL });

  const humanCheck = env.standIns.captcha
    ? createDevHumanCheck()
    : createRecaptcha({ secret: env.RECAPTCHA_SECRET_KEY!, verifyUrl: env.RECAPTCHA_VERIFY_URL, minScore: env.RECAPTCHA_MIN_SCORE });

  let payments: Payments;
  let paypalEmulator: Hono | undefined;
  if (env.standIns.payments) {
    // Same client code as production; only the transport goes to the in-process emulator.
    const emulator = createPayPalEmulator();
    paypalEmulator = emulator;
    payments = createPayPalClient(
      {
        clientId: EMULATOR_CLIENT_ID,
        clientSecret: EMULATOR_CLIENT_SECRET,
        baseUrl: 'http://paypal-emulator.local',
        webhookId: env.PAYPAL_WEBHOOK_ID ?? EMULATOR_WEBHOOK_ID,
        fetch: async (input, init) => emulator.fetch(new Request(input, init)),
      },
      'emulator',
    );
  } else {
    payments = createPayPalClient({
      clientId: env.PAYPAL_CLIENT_ID!,
      clientSecret: env.PAYPAL_CLIENT_SECRET!,
      baseUrl: env.PAYPAL_API_BASE,
      webhookId: env.PAYPAL_WEBHOOK_ID,
    });
  }

  const realtime = createRealtime({
    host: env.PARTYKIT_HOST ?? `127.0.0.1:${env.PARTYKIT_PORT}`,
    secret: env.PARTYKIT_SECRET,
    dev: env.standIns.realtime,
  });

  const taxRates = env.standIns.taxRates
    ? createTaxRateStandIn()
    : createWaDorRates({ baseUrl: env.TAX_RATE_SERVICE_URL ?? WA_DOR_RATES_URL, timeoutMs: env.TAX_RATE_TIMEOUT_MS });

  const limits = trackLimits(createLimits(database.pool));

  // Rendered pages are kept per build: a build's HTML names its own hashed assets.
  const publisher = createPublisher(db, {
    buildId: readBuildStamp(distDirOf(env.DIST_DIR))?.inputs ?? 'unbuilt',
    siteUrl: env.SITE_URL,
    timeZone: env.SITE_TIMEZONE,
    clock,
    log: env.QUIET ? undefined : (l) => console.log(l),
  });
  return {
    env,
    database,
    db,
    clock,
    mailer,
    humanCheck,
    payments,
    realtime,
    taxRates,
    limits,
    publisher,
    ...(paypalEmulator ? { paypalEmulator } : {}),
    ...overrides,
  };
}
