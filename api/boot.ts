/**
 * Start-up shared by the Node entry, `astro dev` and the tests: open the database, migrate,
 * seed, wire the services, build the app. Opened once per process, at start, not on the
 * first request. The composition root: the one place that builds the services (each outside
 * service's client or its stand-in, the limits, the page publisher) and hands them to the app.
 */
import type { Env } from './env.ts';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { pgliteTemplatePath } from '../db/pglite-template.ts';
import { seed } from './seed.ts';
import { seedPages } from './pages/seed-pages.ts';
import { preparePractice } from './practice/start.ts';
import type { Services } from './services/index.ts';
import { createApp } from './app.ts';
import { createResendMailer } from './services/mail/resend.ts';
import { createMailboxMailer } from './services/mail/mailbox.ts';
import { createDevHumanCheck, createRecaptcha } from './services/captcha.ts';
import { createPayPalClient, type Payments } from './services/payments/paypal.ts';
import { createPayPalEmulator, EMULATOR_CLIENT_ID, EMULATOR_CLIENT_SECRET, EMULATOR_WEBHOOK_ID } from './services/payments/emulator.ts';
import { createRealtime } from './services/realtime.ts';
import { createGoogleCalendar } from './services/calendar/google.ts';
import { createGoogleEmulator, EMULATOR_CALENDAR_CLIENT_ID, EMULATOR_CALENDAR_CLIENT_SECRET, type GoogleEmulator } from './services/calendar/emulator.ts';
import type { CalendarProvider } from './services/calendar/index.ts';
import { createTaxRateStandIn, createWaDorRates, WA_DOR_RATES_URL } from './services/tax-rates.ts';
import type { Hono } from 'hono';
import { createLimits } from './services/limits.ts';
import { trackLimits } from './middleware/rate-limit.ts';
import { createPublisher } from './pages/render-ahead.ts';
import { distDirOf, readBuildStamp } from './lib/build-info.ts';
import { clockOf } from './lib/clock.ts';
import { keyringOf } from './lib/keys.ts';
import { useOutboxKeys } from './mail/sealed-mail.ts';
import { purchaseHandler, type PurchaseKinds } from './money/settle.ts';
import { orderPurchase } from './shop/place-order.ts';
import { bookingPurchase } from './booking/finalize-booking.ts';
import { placePurchase } from './classes/paid-places.ts';
import { packagePurchase } from './packages/buy-package.ts';
import { giftCardPurchase } from './gift-cards/buy-gift-card.ts';
import { tastingPurchase } from './tastings/pay-tasting.ts';

/**
 * Every kind of purchase paid through a payment attempt, with the wing's adapter that records it
 * (the model: cal.com's map of payment apps, one table of kinds you can open). The reconciler and
 * PayPal's webhook meet attempts of every kind and settle each through this table (api/money/);
 * typed as a Record of every kind, so a kind added to the attempts and left out here does not
 * compile. The next money wing is its adapter and one line here.
 */
export const PURCHASE_KINDS: PurchaseKinds = {
  order: purchaseHandler(orderPurchase),
  booking: purchaseHandler((env) => bookingPurchase(env)),
  event: purchaseHandler(placePurchase),
  package: purchaseHandler(packagePurchase),
  gift_card: purchaseHandler(giftCardPurchase),
  tasting: purchaseHandler(tastingPurchase),
};

export interface BootOptions {
  /** Seed classes, slots, chocolates and coupons on a fresh database (default true). */
  seedContent?: boolean;
  overrides?: Partial<Services>;
  /**
   * The tests' copy of a migrated database (tests/helpers/database.ts): a new PGlite is loaded
   * from `pgliteTemplate` instead of the build's fresh cluster, and a database made from such a
   * copy starts as a first start does although its migrations are already applied. Never set by
   * the Node entry, so production always migrates what it opens.
   */
  migratedCopy?: { pgliteTemplate?: string };
}

/** Opens, migrates and seeds the database the environment names. */
export async function prepareDatabase(env: Env, options: BootOptions = {}) {
  const database = await openDatabase({
    url: env.DATABASE_URL,
    pgliteDir: env.PGLITE_DIR,
    pgliteTemplate: options.migratedCopy?.pgliteTemplate ?? pgliteTemplatePath(distDirOf(env.DIST_DIR)),
    poolMax: env.DATABASE_POOL_MAX,
  });
  try {
    const applied = await migrateToLatest(database.db);
    const firstStart = applied.includes('0001_initial') || options.migratedCopy !== undefined;
    const seeded = await seed(database.db, {
      adminEmail: env.ADMIN_EMAIL,
      adminPassword: env.ADMIN_PASSWORD,
      timezone: env.SITE_TIMEZONE,
      content: firstStart && options.seedContent !== false,
    });
    // The site's words: from the YAML only for pages the database lacks (never over her edits).
    await seedPages(database.db);
    // Private records (issue 23): a key that can't open them stops the start here.
    await preparePractice(database.db, env);
    return { database, applied, firstStart, seeded };
  } catch (err) {
    await database.close().catch(() => {});
    throw err;
  }
}

export function wire(env: Env, database: DatabaseHandle, overrides?: Partial<Services>) {
  const services = createServices(env, database, overrides);
  return { services, app: createApp(services, PURCHASE_KINDS) };
}

export async function boot(env: Env, options: BootOptions = {}) {
  const prepared = await prepareDatabase(env, options);
  const { services, app } = wire(env, prepared.database, options.overrides);
  return { ...prepared, app, services, close: () => prepared.database.close() };
}

/**
 * Builds every outside-service client from the environment: the real one when its keys are
 * configured (always in production, which refuses to start without them), else the stand-in.
 * Overrides let tests swap one client (e.g. a Resend pointed at a local fake).
 */
export function createServices(env: Env, database: DatabaseHandle, overrides: Partial<Services> = {}): Services {
  const { db } = database;
  const clock = overrides.clock ?? clockOf(env);
  // The outbox seals every mail's words with the private records' key (issue 47, decision 0052):
  // queueMails is given no environment, so its keys are set here, before anything is queued.
  useOutboxKeys(keyringOf(env));
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

  // Her Google Calendar: Google with the OAuth client; else, outside production, the same client
  // against the stand-in (the browser's consent page on our origin, the rest in process).
  let calendar: CalendarProvider | undefined;
  let calendarEmulator: GoogleEmulator | undefined;
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
    calendar = createGoogleCalendar({
      clientId: env.GOOGLE_CLIENT_ID,
      clientSecret: env.GOOGLE_CLIENT_SECRET,
      authUrl: env.GOOGLE_AUTH_URL,
      tokenUrl: env.GOOGLE_TOKEN_URL,
      apiBase: env.GOOGLE_CALENDAR_API_URL,
    });
  } else if (env.standIns.calendar) {
    const emulator = createGoogleEmulator();
    calendarEmulator = emulator;
    calendar = createGoogleCalendar(
      {
        clientId: EMULATOR_CALENDAR_CLIENT_ID,
        clientSecret: EMULATOR_CALENDAR_CLIENT_SECRET,
        authUrl: `${env.SITE_URL}/dev/google/o/oauth2/v2/auth`,
        tokenUrl: 'http://google-emulator.local/token',
        apiBase: 'http://google-emulator.local/calendar/v3',
        fetch: emulator.fetch,
      },
      'emulator',
    );
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
    ...(calendar ? { calendar } : {}),
    ...(calendarEmulator ? { calendarEmulator } : {}),
    ...overrides,
  };
}
