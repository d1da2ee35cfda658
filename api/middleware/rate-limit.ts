import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../types.ts';
import { clientAddress } from './client.ts';
import { canonicalMailbox, LIMITS, TOO_MANY, type Limit, type Limits, type Taken } from '../services/limits.ts';
import type { OutgoingMail } from '../services/mail/index.ts';

/**
 * Limits as middleware and as a call (api/services/limits.ts holds the store and every number).
 * Refusals are 429 with a message and Retry-After.
 */
export interface RateLimitOptions extends Limit {
  /**
   * What the count is kept per: the client's address (the default, a coarse backstop), or the
   * signed-in account (after requireUser; the address when nobody is signed in).
   */
  per?: 'address' | 'account';
}

/** The 429 answer for a refused take. */
export function tooMany(c: Context<AppEnv>, taken: Extract<Taken, { ok: false }>, message = TOO_MANY) {
  c.header('retry-after', String(taken.retryAfterS));
  return c.json({ message }, 429);
}

/**
 * Counts one request against `options` as a call, for a limit that only some requests of a route
 * count against (a checkout that names a gift card's code): the 429 answer once it is spent, else undefined.
 */
export async function takeLimit(c: Context<AppEnv>, options: RateLimitOptions): Promise<Response | undefined> {
  const { env, limits } = c.var.services;
  const account = options.per === 'account' ? (c.var.userId ?? c.var.adminId) : undefined;
  const key = account ? `account:${account}` : `address:${clientAddress(c, env)}`;
  const taken = await limits.take(options, key);
  return taken.ok ? undefined : tooMany(c, taken, options.message);
}

export function rateLimit(options: RateLimitOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const refused = await takeLimit(c, options);
    if (refused) return refused;
    await next();
  };
}

/**
 * Counts one mail to `email` (an address whose owner has not proven it is theirs): at most
 * LIMITS.mailTo an hour to its mailbox (`ana+1@` and `ana+2@` are one: canonicalMailbox),
 * whoever asks and from wherever; refused once that allowance is spent.
 */
export async function takeMailTo(limits: Limits, email: string): Promise<Taken> {
  return limits.take(LIMITS.mailTo, `mail:${canonicalMailbox(email)}`);
}

/**
 * A form's mails with the visitor's own copy (a confirmation to the address they typed) left
 * out once that address has had LIMITS.mailTo mails this hour: the submission still reaches the
 * teacher, and nobody can flood someone else's inbox through the form.
 */
export async function limitVisitorCopy(limits: Limits, mails: OutgoingMail[], visitorEmail: string): Promise<OutgoingMail[]> {
  const visitor = visitorEmail.trim().toLowerCase();
  if (!mails.some((m) => m.to.trim().toLowerCase() === visitor)) return mails;
  return (await visitorCopyFor(limits, visitor))(mails);
}

/** Keeps or drops the visitor's own copy among a change's mails (visitorCopyFor decides which). */
export type VisitorCopy = (mails: OutgoingMail[]) => OutgoingMail[];

/**
 * The visitor's own copy, as limitVisitorCopy decides it, but asked before the change's
 * transaction opens (the limiter counts on a connection of its own on PostgreSQL): the answer is
 * applied to the mails built inside it (the class sign-up's, whose mails need the new row).
 */
export async function visitorCopyFor(limits: Limits, email: string): Promise<VisitorCopy> {
  const visitor = email.trim().toLowerCase();
  const isCopy = (m: OutgoingMail) => m.to.trim().toLowerCase() === visitor;
  if ((await takeMailTo(limits, visitor)).ok) return (mails) => mails;
  return (mails) => {
    if (mails.some(isCopy)) console.warn('[limits] a visitor copy was not sent: its address has had its mails for this hour');
    return mails.filter((m) => !isCopy(m));
  };
}

/** Tests: every Limits instance made in this process forgets its counts. */
const everyLimits: Set<Limits> = ((globalThis as { __limits?: Set<Limits> }).__limits ??= new Set());

export function trackLimits(limits: Limits): Limits {
  everyLimits.add(limits);
  return limits;
}

/** Forget every count (tests). */
export async function resetRateLimits(): Promise<void> {
  await Promise.all([...everyLimits].map((l) => l.reset().catch(() => {})));
}
