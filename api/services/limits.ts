/**
 * Request limits shared by every server process (issue 13, decision 0015): counted in
 * PostgreSQL's `rate_limits` table through rate-limiter-flexible, so two replicas allow what
 * one allows; in memory on PGlite, which is one process anyway. Keys are hashed before they
 * are stored: a limit per recipient keys on an e-mail address, which the table never holds.
 *
 * Every bucket, its key and its numbers live in LIMITS below; the "Limits" table of docs/architecture.md
 * lists the same numbers.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** What a limit counts, and per what. */
export interface Limit {
  /** The bucket's name: a prefix of its keys. */
  bucket: string;
  /** Requests (or mails) allowed per window. */
  max: number;
  windowMs: number;
  /** The answer's message when refused; the generic one otherwise. */
  message?: string;
}

const minutes = (n: number) => n * 60_000;

export const TOO_MANY = 'Too many requests. Please wait a moment and try again.';
export const TOO_MANY_MAILS = 'Too many e-mails were sent to this address recently. Please wait an hour and try again.';
export const TOO_MANY_ADMIN_ATTEMPTS = 'Too many failed attempts. Please wait a little and try again.';

/**
 * Every limit of the API. Per client address only as a coarse backstop, sized for a workshop of
 * 30 people on one wifi (each of them registering, asking for a login link, signing up for a
 * class and checking in); the real limits key on what is protected: the recipient of a mail,
 * the signed-in account, the admin account.
 */
export const LIMITS = {
  // Anything that mails an address whose owner has not proven it: per recipient (its
  // canonicalMailbox), whoever asks.
  mailTo: { bucket: 'mail-to', max: 5, windowMs: minutes(60), message: TOO_MANY_MAILS },

  // Per client address: the backstop.
  register: { bucket: 'user-register', max: 60, windowMs: minutes(15) },
  login: { bucket: 'user-login', max: 60, windowMs: minutes(15) },
  verifyLink: { bucket: 'user-verify', max: 90, windowMs: minutes(15) },
  google: { bucket: 'user-google', max: 60, windowMs: minutes(15) },
  classSignup: { bucket: 'signup', max: 60, windowMs: minutes(15) },
  waitlist: { bucket: 'waitlist', max: 60, windowMs: minutes(15) },
  classGiveBack: { bucket: 'class-give-back', max: 30, windowMs: minutes(10) },
  waitlistLeave: { bucket: 'waitlist-leave', max: 30, windowMs: minutes(10) },
  checkStudent: { bucket: 'check-student', max: 90, windowMs: minutes(15) },
  contact: { bucket: 'contact', max: 20, windowMs: minutes(10) },
  meetingRequest: { bucket: 'booking-request', max: 20, windowMs: minutes(10) },
  /** A private tasting asked for on /chocolates (issue 34). */
  tastingRequest: { bucket: 'tasting-request', max: 20, windowMs: minutes(10) },
  subscribe: { bucket: 'subscribe', max: 60, windowMs: minutes(15) },
  unsubscribe: { bucket: 'unsubscribe', max: 30, windowMs: minutes(10) },
  oneClick: { bucket: 'one-click', max: 120, windowMs: minutes(1) },
  shopCoupon: { bucket: 'coupon', max: 10, windowMs: minutes(10), message: 'Too many coupon attempts. Please wait a few minutes and try again.' },
  checkout: { bucket: 'checkout', max: 60, windowMs: minutes(10) },
  /**
   * A gift card's code tried (a balance asked, a card spent; issue 33): 20 tries per address in 15
   * minutes. Against 2^80 codes that is no hope for a guesser, and plenty for a family of cards.
   */
  giftCardCode: {
    bucket: 'gift-card-code',
    max: 20,
    windowMs: minutes(15),
    message: 'Too many gift card codes were tried. Please wait a few minutes and try again.',
  },
  placeOrder: { bucket: 'orders', max: 60, windowMs: minutes(10) },
  paypalWebhook: { bucket: 'paypal-webhook', max: 600, windowMs: minutes(1) },
  /** Resend's delivery events (bounces, complaints), verified by signature. */
  mailWebhook: { bucket: 'mail-webhook', max: 600, windowMs: minutes(1) },
  adminLogin: { bucket: 'admin-login', max: 30, windowMs: minutes(15) },

  // Per signed-in account.
  bookingCoupon: { bucket: 'booking-coupon', max: 30, windowMs: minutes(15) },
  bookingOrder: { bucket: 'booking-order', max: 20, windowMs: minutes(10) },
  booking: { bucket: 'booking', max: 20, windowMs: minutes(10) },
  bookingChange: { bucket: 'booking-change', max: 20, windowMs: minutes(10) },
  calendarFeedSecret: { bucket: 'calendar-feed', max: 10, windowMs: minutes(10) },
  profile: { bucket: 'profile', max: 30, windowMs: minutes(15) },
  /**
   * The link that confirms a client's own deletion: hers alone, per account, so that strangers
   * asking for login links to her address (LIMITS.mailTo) can't keep her from leaving (issue 29).
   */
  deletionMail: { bucket: 'deletion-mail', max: 5, windowMs: minutes(60), message: TOO_MANY_MAILS },

  // Calendar apps poll feeds from a few addresses for many people.
  calendarFeed: { bucket: 'calendar-feed-read', max: 120, windowMs: minutes(10) },
} as const satisfies Record<string, Limit>;

/**
 * The admin login's growing delay, per admin e-mail: after the FREE_FAILURES-th wrong password
 * in a row, each further one makes the account wait twice as long as the last (2 s, 4 s, 8 s …
 * up to 15 minutes), from any address. The delay holds back wrong passwords only: the right one
 * is let in during it (it is checked first) and ends the run of failures, so a stranger who
 * knows her e-mail can't lock her out (issue 21).
 */
export const ADMIN_DELAY = { freeFailures: 3, firstDelayS: 2, maxDelayS: 15 * 60, forgetAfterS: 24 * 60 * 60 } as const;

/**
 * The mailbox an address delivers to, as the key of a per-recipient allowance (issue 21):
 * lower-cased; a `+tag` dropped for every domain (most providers deliver `ana+x@` to `ana@`);
 * for Gmail, dots in the name dropped too and googlemail.com taken as gmail.com (Gmail ignores
 * both); a domain's trailing dot and a quoted name dropped. `victim+1@…`, `victim+2@…`,
 * `v.i.c.t.i.m@gmail.com`, `victim@gmail.com.` and `"victim"@gmail.com` then share one allowance. Only
 * a key: mail still goes to the address as typed.
 */
export function canonicalMailbox(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  let local = address.slice(0, at);
  // A fully qualified domain's trailing dot (`gmail.com.`) and a quoted name (`"ana"@`) reach the
  // same mailbox as the plain address (the schema refuses quotes; addresses from elsewhere may hold them).
  let domain = address.slice(at + 1).replace(/\.+$/, '');
  if (local.length > 1 && local.startsWith('"') && local.endsWith('"')) local = local.slice(1, -1).replace(/\\(.)/g, '$1');
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (domain === 'gmail.com') local = local.replaceAll('.', '') || local;
  return `${local}@${domain}`;
}

/** How a take ended: allowed, or refused with the seconds until it would be allowed. */
export type Taken = { ok: true } | { ok: false; retryAfterS: number };

export interface Limits {
  readonly store: 'postgres' | 'memory';
  /** Counts one against `key` in `limit`; refused once the window's allowance is spent. */
  take(limit: Limit, key: string): Promise<Taken>;
  /** Whether `key` is waiting out an admin-login delay, and for how long. */
  adminDelay(account: string): Promise<Taken>;
  /** Records a failed admin login for `account`, starts or lengthens its delay when due, and says the delay now in force. */
  adminFailed(account: string): Promise<Taken>;
  /** A right password: the run of failures ends. */
  adminSucceeded(account: string): Promise<void>;
  /** Forgets every count (tests). */
  reset(): Promise<void>;
}

const TABLE = 'rate_limits';

/** Keys are stored hashed: a bucket per recipient must not keep a list of e-mail addresses. */
const hashed = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 32);

const secondsOf = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

/**
 * The limits of one process: on `pool` (PostgreSQL, shared with every replica) or in memory.
 * A PostgreSQL that does not answer falls back to the same limits in memory (rate-limiter-
 * flexible's insurance limiter) rather than failing the request.
 */
export function createLimits(pool?: pg.Pool): Limits {
  const limiters = new Map<string, RateLimiterAbstract>();
  let sweeping = false;

  const limiter = (keyPrefix: string, points: number, durationS: number): RateLimiterAbstract => {
    const name = `${keyPrefix}/${points}/${durationS}`;
    let found = limiters.get(name);
    if (!found) {
      const memory = new RateLimiterMemory({ keyPrefix, points, duration: durationS });
      if (pool) {
        found = new RateLimiterPostgres({
          storeClient: pool,
          storeType: 'pool',
          tableName: TABLE,
          // Made by migration 0008, so no replica races to create it.
          tableCreated: true,
          keyPrefix,
          points,
          duration: durationS,
          insuranceLimiter: memory,
          // One limiter per process deletes the table's expired rows (all buckets share it).
          clearExpiredByTimeout: !sweeping,
        });
        sweeping = true;
      } else {
        found = memory;
      }
      limiters.set(name, found);
    }
    return found;
  };

  const windowS = (limit: Limit) => Math.max(1, Math.ceil(limit.windowMs / 1000));
  // The admin's run of failures, and the delay it earned (a bucket blocked for that long).
  const failures = () => limiter('admin-failures', 1_000_000, ADMIN_DELAY.forgetAfterS);
  const delays = () => limiter('admin-delay', 1, ADMIN_DELAY.maxDelayS);

  return {
    store: pool ? 'postgres' : 'memory',
    async take(limit, key) {
      try {
        await limiter(limit.bucket, limit.max, windowS(limit)).consume(hashed(key));
        return { ok: true };
      } catch (err) {
        if (err instanceof RateLimiterRes) return { ok: false, retryAfterS: secondsOf(err) };
        throw err;
      }
    },
    async adminDelay(account) {
      const res = await delays().get(hashed(account));
      return res && res.consumedPoints > 1 && res.msBeforeNext > 0 ? { ok: false, retryAfterS: secondsOf(res) } : { ok: true };
    },
    async adminFailed(account) {
      const run = await failures().penalty(hashed(account), 1);
      const beyond = run.consumedPoints - ADMIN_DELAY.freeFailures;
      if (beyond <= 0) return { ok: true };
      const delayS = Math.min(ADMIN_DELAY.firstDelayS * 2 ** (beyond - 1), ADMIN_DELAY.maxDelayS);
      await delays().block(hashed(account), delayS);
      return { ok: false, retryAfterS: delayS };
    },
    async adminSucceeded(account) {
      await Promise.all([failures().delete(hashed(account)), delays().delete(hashed(account))]);
    },
    async reset() {
      if (pool) await pool.query(`DELETE FROM ${TABLE}`);
      // Memory counts live in the limiters: new ones start from nothing.
      limiters.clear();
      sweeping = false;
    },
  };
}
