/**
 * The one place the environment is read. Every variable is listed here with a doc line;
 * `.env.example` and the table of docs/environment.md mirror this list.
 *
 * Development and tests run with no keys at all: each outside service then uses its local
 * stand-in. Production (NODE_ENV=production) refuses to start until every key below marked
 * "production" is set, and names the missing ones.
 */
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { z } from 'zod';

const optional = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

const schema = z.object({
  /** development | test | production. Production turns every stand-in off. */
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  /** Port of the one Node server (site + API). */
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  /**
   * Interface to listen on. Unset: 127.0.0.1 outside production (the stand-ins let anyone log in
   * and "pay"), 0.0.0.0 in production.
   */
  HOST: optional,
  /** Set to 1 to let the stand-ins run on a non-loopback HOST (a demo on a LAN). */
  ALLOW_STAND_INS: z
    .enum(['0', '1'])
    .default('0')
    .transform((v) => v === '1'),
  /** Public origin of the site, used in mail links and OAuth redirects (production). */
  SITE_URL: optional,
  /** PostgreSQL connection string (production). Unset: embedded PGlite under PGLITE_DIR. */
  DATABASE_URL: optional,
  /** Folder of the embedded PGlite database; `memory://` keeps it in memory. */
  PGLITE_DIR: z.string().default('.data/pglite'),
  /** Connection pool size per server process when DATABASE_URL is set. */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  /** The teacher's time zone: owns slot and event times. */
  SITE_TIMEZONE: z.string().default('America/Los_Angeles'),
  /** Seeded administrator e-mail (production). */
  ADMIN_EMAIL: optional,
  /** Seeded administrator password, at least 12 characters (production). */
  ADMIN_PASSWORD: optional,
  /** Secret for signed links such as unsubscribe tokens, at least 32 characters (production). */
  APP_SECRET: optional,
  /** Where the teacher receives notifications (production). */
  TEACHER_EMAIL: optional,
  /** Sender address of every mail, e.g. "Studio <hello@example.com>" (production). */
  MAIL_FROM: optional,
  /** Resend API key (production). Unset: mails go to the local mailbox at /dev/mailbox. */
  RESEND_API_KEY: optional,
  /** Resend API origin; only tests change it (the `resend` package's own name for it). */
  RESEND_BASE_URL: z.string().url().default('https://api.resend.com'),
  /**
   * The signing secret of the Resend webhook (whsec_…) that reports bounces and complaints to
   * POST /api/webhooks/resend. Unset: the route refuses every event (with the local mailbox, a
   * development secret lets /dev/mailbox post them).
   */
  RESEND_WEBHOOK_SECRET: optional,
  /** reCAPTCHA v3 site key, public (production). Unset with the secret: the dev verifier. */
  RECAPTCHA_SITE_KEY: optional,
  /** reCAPTCHA v3 secret key (production). */
  RECAPTCHA_SECRET_KEY: optional,
  /** reCAPTCHA verification endpoint; only tests change it. */
  RECAPTCHA_VERIFY_URL: z.string().url().default('https://www.google.com/recaptcha/api/siteverify'),
  /** Lowest reCAPTCHA v3 score accepted as human. */
  RECAPTCHA_MIN_SCORE: z.coerce.number().min(0).max(1).default(0.5),
  /** PayPal REST client id (production). Unset with the secret: the local PayPal emulator. */
  PAYPAL_CLIENT_ID: optional,
  /** PayPal REST client secret (production). */
  PAYPAL_CLIENT_SECRET: optional,
  /** PayPal REST origin: sandbox by default, https://api-m.paypal.com for live money. */
  PAYPAL_API_BASE: z.string().url().default('https://api-m.sandbox.paypal.com'),
  /**
   * Id of the site's webhook in PayPal's developer dashboard (the app → Webhooks). Optional even
   * in production: unset, POST /api/paypal/webhook answers 404 and payments completed, denied,
   * refunded or reversed in PayPal after checkout are not reflected in the orders.
   */
  PAYPAL_WEBHOOK_ID: optional,
  /** Google OAuth client id. Unset: the Google button is hidden. */
  GOOGLE_CLIENT_ID: optional,
  /** Google OAuth client secret. */
  GOOGLE_CLIENT_SECRET: optional,
  /** Google's OAuth authorization endpoint; only tests change it. */
  GOOGLE_AUTH_URL: z.string().url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  /** Google's OAuth token endpoint; only tests change it. */
  GOOGLE_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com/token'),
  /**
   * Google Calendar API v3's origin and path (issue 35); only tests change it. Her calendar uses
   * the same OAuth client as the sign-in (GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET); unset, the
   * local calendar stand-in at /dev/google answers instead (never in production).
   */
  GOOGLE_CALENDAR_API_URL: z.string().url().default('https://www.googleapis.com/calendar/v3'),
  /**
   * How old her Google busy times may be before they are read again (issue 35): each server
   * process also reads them this often, and a booking attempt reads them first when older.
   */
  GOOGLE_CALENDAR_REFRESH_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(300_000),
  /**
   * How often each server process writes her agenda to her Google Calendar (issue 35): each
   * booking, move and cancel also starts a write at once; classes, gigs and tastings she adds
   * arrive within this.
   */
  GOOGLE_CALENDAR_WRITE_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  /** How old a write's claim must be before another process takes it again (the claimant died mid-write). */
  GOOGLE_CALENDAR_WRITE_STALE_MS: z.coerce.number().int().min(100).max(3_600_000).default(120_000),
  /** How long a booking attempt waits for that read of her busy times before it goes on with the ones stored. */
  GOOGLE_CALENDAR_BOOKING_WAIT_MS: z.coerce.number().int().min(0).max(10_000).default(1_500),
  /**
   * The sales-tax rate service (issue 29, decision 0028): Washington Department of Revenue's
   * address rate lookup, free and keyless. Unset: that service in production, the local stand-in
   * (a few Washington ZIP codes, no network) otherwise; set: that URL (tests point it at a fake).
   */
  TAX_RATE_SERVICE_URL: z.string().url().optional(),
  /** How long a rate lookup may take before her imported table stands in (the checkout never waits longer). */
  TAX_RATE_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3_000),
  /** How long the service's answer for a ZIP is used before it is asked again (shared by every replica). */
  TAX_RATE_CACHE_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 92)
    .default(24),
  /** Host of the PartyKit room, e.g. yoga.me.partykit.dev (production). Unset: `partykit dev` on PARTYKIT_PORT. */
  PARTYKIT_HOST: optional,
  /** Shared secret the API sends when it tells the room about a booking (production). */
  PARTYKIT_SECRET: optional,
  /** Port of the local `partykit dev` stand-in. */
  PARTYKIT_PORT: z.coerce.number().int().min(1).max(65535).default(1999),
  /** The one booking coupon that makes a session free (compared ignoring case and spaces). */
  BOOKING_COUPON: optional,
  /** How many sessions one client may book with the coupon, over all their bookings (an 8-week commitment). */
  BOOKING_COUPON_LIMIT: z.coerce.number().int().min(0).max(1000).default(8),
  /** How often each server process looks for session and class reminders that are due. */
  REMINDER_INTERVAL_MS: z.coerce.number().int().min(20).max(3_600_000).default(60_000),
  /**
   * How often each server process asks the database whether another process published a page
   * (issue 19, decision 0020): the bound on how stale a replica's pages can be.
   */
  RENDER_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  /** How often each server process looks for journal posts whose scheduled time has come (issue 22). */
  JOURNAL_SCHEDULE_MS: z.coerce.number().int().min(50).max(3_600_000).default(10_000),
  /** How often each server process looks for payment attempts left half way (by a crash or a lost answer). */
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /**
   * The mail outbox (issue 21, decision 0024): how often each server process looks for mails
   * that are due (a retry, or one a crash left unsent). A mail is sent at once after the commit
   * of its change; this is only the bound on how late a leftover goes out.
   */
  OUTBOX_INTERVAL_MS: z.coerce.number().int().min(20).max(3_600_000).default(2_000),
  /** How long a claimed mail may stay unconfirmed before another sender takes it over (its sender died). */
  OUTBOX_CLAIM_STALE_MS: z.coerce.number().int().min(100).max(86_400_000).default(60_000),
  /** The wait before a failed mail's second try; each further try waits twice as long (at most an hour). */
  OUTBOX_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  /** Tries before a mail that keeps failing (5xx, timeouts) is given up and shown to the teacher. */
  OUTBOX_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  /**
   * How long an open payment attempt may go without news before the reconciler takes it over and
   * asks PayPal how it ended. Longer than a checkout's slowest PayPal answers (two 30 s captures).
   */
  PAYMENT_ATTEMPT_STALE_MS: z.coerce.number().int().min(100).max(86_400_000).default(300_000),
  /**
   * A refund owed (issue 47, decision 0055) that PayPal refused waits this long before its second
   * try, each further try twice as long (at most six hours); looked for every RECONCILE_INTERVAL_MS.
   */
  REFUND_RETRY_BASE_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /**
   * How many minutes after its PayPal order was made a booking whose client approved the payment
   * and never pressed Finalize Booking (the tab closed) is finalized by the server, or released
   * and both sides mailed (issue 20). Looked for on the reconciler's schedule (RECONCILE_INTERVAL_MS).
   */
  UNFINALIZED_BOOKING_MINUTES: z.coerce.number().min(0).max(1_440).default(10),
  /** Where the built site lives (relative to the project, or absolute); dist/ by default. */
  DIST_DIR: z.string().min(1).optional(),
  /** Newsletter mails each server process sends a minute at most (Resend's default limit is 2 requests a second). */
  NEWSLETTER_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(100),
  /** How often each server process looks for newsletter mails to send. */
  NEWSLETTER_INTERVAL_MS: z.coerce.number().int().min(20).max(3_600_000).default(5_000),
  /** How long a claimed newsletter mail may stay unconfirmed before another sender takes it over (its sender died). */
  NEWSLETTER_CLAIM_STALE_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(600_000),
  /**
   * Backups (issue 21, api/backups/): the folder of the embedded database's automatic backups
   * (and of `npm run backup` without a file name), relative to the project or absolute. Keep it
   * on another disk, or copy it off the machine: a backup beside the database dies with its disk.
   */
  BACKUP_DIR: z.string().trim().min(1).default('.data/backups'),
  /** 1: the embedded database backs itself up (default, except under NODE_ENV=test); 0: off. Never with DATABASE_URL. */
  BACKUP_AUTO: z.enum(['0', '1']).optional(),
  /** Hours between automatic backups (checked at most hourly, and a minute after start). */
  BACKUP_INTERVAL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 31)
    .default(24),
  /** Automatic backups kept: the newest of each of the last N days that have one … */
  BACKUP_KEEP_DAILY: z.coerce.number().int().min(1).max(366).default(7),
  /** … and the newest of each of the last M weeks (Monday to Sunday, UTC) that have one. */
  BACKUP_KEEP_WEEKLY: z.coerce.number().int().min(0).max(520).default(4),
  /**
   * How many photos each server process decodes and encodes at a time (uploads and Open Graph
   * cuts; about 50 MB each for a 12-MP photo). Further uploads wait their turn, already received.
   */
  IMAGE_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** Largest accepted request body in bytes (image uploads have their own limit). */
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(512 * 1024),
  /**
   * How many proxies in front append to X-Forwarded-For (1 behind a load balancer, 2 behind a
   * CDN and a balancer): the client's address is the entry the first of them appended, the
   * N-th from the end; earlier entries are the client's own claim and never used. 0: the
   * socket's address. `true`/`false` are read as 1/0.
   */
  TRUST_PROXY: z
    .string()
    .regex(/^(?:\d|true|false)$/, 'must be a number of proxies from 0 to 9')
    .default('0')
    .transform((v) => (v === 'true' ? 1 : v === 'false' ? 0 : Number(v))),
  /**
   * The proxies whose X-Forwarded-For (and -Host, X-Request-Id) TRUST_PROXY believes: their
   * addresses, comma-separated IPs or CIDR ranges (`10.0.0.0/8`, `fd00::/8`). A request from any
   * other peer is taken at its socket address, whatever headers it sends. The default, loopback,
   * fits a proxy on the same machine; name the balancer's addresses when it is elsewhere, and bind
   * the app where only the proxy reaches it (docs/DEPLOY.md).
   */
  TRUSTED_PROXIES: z
    .string()
    .default('127.0.0.1,::1')
    .transform((v, ctx) => {
      const entries = v
        .split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean);
      for (const e of entries) {
        if (!isIpOrCidr(e)) ctx.addIssue({ code: 'custom', message: `"${e}" is not an IP address or a CIDR range (like 10.0.0.0/8)` });
      }
      return entries;
    }),
  /**
   * The request log's lines: `json` (one object per line with a request id, for a log collector;
   * the default in production) or `text` (for people; the default otherwise).
   */
  LOG_FORMAT: z.enum(['json', 'text']).optional(),
  /**
   * The key that encrypts intake answers and session notes (issue 23, decision 0025): 32 random
   * bytes in base64 (`openssl rand -base64 32`) (production). Unset in development: a key made
   * once and kept beside the embedded database. A key that can't open the stored records stops
   * the server at start.
   */
  PRIVATE_RECORDS_KEY: optional,
  /** While rotating (`npm run rotate-keys`): the previous key(s), comma-separated; remove once the command has run. */
  PRIVATE_RECORDS_OLD_KEYS: optional,
  /**
   * Tests only (production refuses it): the instant, ISO 8601 with its offset, that the server's
   * clock shows at start; it runs on from there (api/lib/clock.ts). The e2e test of her evening
   * starts a server at 21:30 in SITE_TIMEZONE on the last day of a month with it.
   */
  CLOCK_START: z.iso.datetime({ offset: true, error: 'CLOCK_START must be an ISO 8601 instant with its offset, like 2026-11-30T21:30:00-08:00' }).optional(),
  /** Set to 1 to silence the per-request log line. */
  QUIET: z
    .enum(['0', '1'])
    .default('0')
    .transform((v) => v === '1'),
});

/** Every variable the server reads: `.env.example` names each, and no other (tests/unit/system/env-example.test.ts). */
export const ENV_VARIABLES: readonly string[] = Object.keys(schema.shape);

/** Keys production cannot run without. */
const productionKeys = [
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
] as const;

type Parsed = z.infer<typeof schema>;

export type Env = Omit<Parsed, 'BACKUP_AUTO'> & {
  /** Whether the embedded database backs itself up (BACKUP_AUTO, off by default under NODE_ENV=test). */
  BACKUP_AUTO: boolean;
  HOST: string;
  LOG_FORMAT: 'json' | 'text';
  SITE_URL: string;
  ADMIN_EMAIL: string;
  ADMIN_PASSWORD: string;
  APP_SECRET: string;
  TEACHER_EMAIL: string;
  MAIL_FROM: string;
  PARTYKIT_SECRET: string;
  BOOKING_COUPON: string;
  /** Which outside services run on their local stand-in. */
  standIns: { mail: boolean; captcha: boolean; payments: boolean; realtime: boolean; google: boolean; calendar: boolean; taxRates: boolean };
  /** Development defaults that were used because the variable was unset. */
  defaulted: string[];
};

export class EnvError extends Error {
  readonly missing: string[];
  constructor(message: string, missing: string[] = []) {
    super(message);
    this.name = 'EnvError';
    this.missing = missing;
  }
}

/** Development defaults: fine on a laptop, refused in production. */
const devDefaults = {
  ADMIN_EMAIL: 'admin@example.com',
  ADMIN_PASSWORD: 'namaste-cacao-42',
  APP_SECRET: 'dev-only-secret-dev-only-secret-dev-only',
  TEACHER_EMAIL: 'teacher@example.com',
  MAIL_FROM: 'Yoga & Chocolates <hello@example.com>',
  PARTYKIT_SECRET: 'dev-partykit-secret',
  BOOKING_COUPON: 'JOURNEY',
} as const;

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  // An empty variable (`PORT=`) means "not set", not "the empty string".
  const present = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const result = schema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new EnvError(`Invalid environment:\n  ${lines.join('\n  ')}`);
  }
  const parsed = result.data;
  const production = parsed.NODE_ENV === 'production';

  if (production) {
    const missing = productionKeys.filter((k) => !parsed[k]);
    if (missing.length) {
      throw new EnvError(`Production needs these environment variables: ${missing.join(', ')}`, [...missing]);
    }
    if ((parsed.APP_SECRET ?? '').length < 32) throw new EnvError('APP_SECRET must be at least 32 characters');
    if ((parsed.ADMIN_PASSWORD ?? '').length < 12) throw new EnvError('ADMIN_PASSWORD must be at least 12 characters');
    if (parsed.CLOCK_START) throw new EnvError('CLOCK_START sets the clock for tests; production runs on the real time: unset it');
  }
  // The key's form is checked here; whether it opens the stored records, at start (api/lib/keys.ts).
  const recordKeys = [parsed.PRIVATE_RECORDS_KEY, ...(parsed.PRIVATE_RECORDS_OLD_KEYS ?? '').split(',')].map((v) => v?.trim()).filter(Boolean);
  if (recordKeys.some((v) => Buffer.from(v!, 'base64').length !== 32)) {
    throw new EnvError('PRIVATE_RECORDS_KEY and PRIVATE_RECORDS_OLD_KEYS must each be 32 random bytes in base64 (make one with: openssl rand -base64 32)');
  }

  const defaulted: string[] = [];
  const withDefaults = { ...parsed } as Parsed & Record<keyof typeof devDefaults, string | undefined>;
  for (const [key, value] of Object.entries(devDefaults) as [keyof typeof devDefaults, string][]) {
    if (!withDefaults[key]) {
      withDefaults[key] = value;
      defaulted.push(key);
    }
  }

  const standIns = {
    mail: !parsed.RESEND_API_KEY,
    captcha: !(parsed.RECAPTCHA_SITE_KEY && parsed.RECAPTCHA_SECRET_KEY),
    payments: !(parsed.PAYPAL_CLIENT_ID && parsed.PAYPAL_CLIENT_SECRET),
    realtime: !parsed.PARTYKIT_HOST,
    google: !(parsed.GOOGLE_CLIENT_ID && parsed.GOOGLE_CLIENT_SECRET),
    // Her calendar's stand-in (issue 35): without the OAuth client, and never in production (there: no calendar to connect).
    calendar: !(parsed.GOOGLE_CLIENT_ID && parsed.GOOGLE_CLIENT_SECRET) && !production,
    // No key to wait for: production always asks the real service.
    taxRates: !parsed.TAX_RATE_SERVICE_URL && !production,
  };
  const host = parsed.HOST ?? (production ? '0.0.0.0' : '127.0.0.1');
  // The mailbox shows login links, the dev captcha and the PayPal emulator accept anyone: such a
  // server must not be reachable from other machines unless someone asked for it.
  const unsafe = unsafeStandIns(standIns);
  if (unsafe.length && !isLoopbackHost(host) && !parsed.ALLOW_STAND_INS) {
    throw new EnvError(
      `HOST=${host} would expose these stand-ins to other machines: ${unsafe.map((k) => standInHelp[k]).join('; ')}. ` +
        'Set their keys (or NODE_ENV=production, which needs them), listen on 127.0.0.1 (unset HOST), ' +
        'or set ALLOW_STAND_INS=1 for a demo on a trusted network.',
    );
  }

  return {
    ...withDefaults,
    HOST: host,
    BACKUP_AUTO: parsed.BACKUP_AUTO === undefined ? parsed.NODE_ENV !== 'test' : parsed.BACKUP_AUTO === '1',
    LOG_FORMAT: parsed.LOG_FORMAT ?? (production ? 'json' : 'text'),
    SITE_URL: (parsed.SITE_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/$/, ''),
    standIns,
    defaulted,
  } as Env;
}

/** The stand-ins that let a stranger in: read login links, skip the human check, "pay" for nothing. */
const standInHelp = {
  mail: 'mail (the mailbox at /dev/mailbox shows every login link; set RESEND_API_KEY)',
  captcha: 'captcha (the dev verifier passes anyone; set RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY)',
  payments: 'payments (the PayPal emulator approves anything; set PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET)',
} as const;

export function unsafeStandIns(standIns: Env['standIns']): (keyof typeof standInHelp)[] {
  return (Object.keys(standInHelp) as (keyof typeof standInHelp)[]).filter((k) => standIns[k]);
}

/** An IPv4 or IPv6 address, or one with a /prefix that fits its family. */
export function isIpOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** True for an address only this machine can reach: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost') return true;
  if (h === '::1' || /^(0{0,4}:){7}0{0,3}1$/.test(h)) return true;
  const v4 = h.replace(/^::ffff:/, '');
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** For the entry points: the environment, or a plain message and exit 1 when it is not usable. */
/**
 * Reads `.env` (in the working directory, or `path`) into process.env when it exists, as
 * .env.example promises; a variable already set in the environment wins over the file.
 * Only the entry points call it (npm start, npm run dev, npm run build, node api/server.ts).
 */
export function readDotEnv(path = '.env'): boolean {
  if (!existsSync(path)) return false;
  process.loadEnvFile(path);
  return true;
}

export function loadEnvOrExit(source: Record<string, string | undefined> = process.env): Env {
  try {
    return loadEnv(source);
  } catch (err) {
    if (!(err instanceof EnvError)) throw err;
    exitCannotStart(err);
  }
}

/** Says why the server cannot start, the same way for every entry point, and exits. */
export function exitCannotStart(err: EnvError): never {
  console.error(`\n  Cannot start: ${err.message}\n  See .env.example and docs/environment.md for what each variable means.\n`);
  process.exit(1);
}

/** startServer(), with a refusal to start (EnvError) said plainly instead of as a crash. */
export async function orCannotStart<T>(starting: Promise<T>): Promise<T> {
  try {
    return await starting;
  } catch (err) {
    if (err instanceof EnvError) exitCannotStart(err);
    throw err;
  }
}
