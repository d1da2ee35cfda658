import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { validateJson, validateParams } from '../validation.ts';
import { rateLimit, takeMailTo, tooMany } from '../middleware/rate-limit.ts';
import { assertSelf, requireUser } from '../middleware/auth.ts';
import { sessionStore } from '../middleware/sessions.ts';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from '../middleware/session-cookies.ts';
import { keepRoundTrip, takeRoundTrip } from '../middleware/oauth-round-trip.ts';
import { issueLoginToken, redeemLoginToken } from './login-tokens.ts';
import { exchangeGoogleCode, googleAuthorization, googleConfig } from './google.ts';
import { id } from '../../contract/common.ts';
import {
  EMAIL_VERIFIED,
  GOOGLE_UNAVAILABLE,
  LOGGED_OUT,
  LOGIN_EMAIL_SENT,
  LOGIN_LINK_INVALID,
  LOGIN_MAIL_NOT_SENT,
  NOT_LOGGED_IN,
  PROFILE_UPDATED,
  REGISTRATION_MAIL_NOT_SENT,
  REGISTRATION_SENT,
  VERIFICATION_FAILED,
  linkTokenRequest,
  loginRequest,
  profileUpdate,
  registration,
  type EmailVerifiedView,
  type LoginVerifiedView,
  type ProfileUpdatedView,
  type SessionUser,
  type TokenCheckView,
  type UserView,
} from '../../contract/user.ts';
import { findOrCreateGoogleUser, findUserByEmail, findUserById, insertUser, markEmailVerified, updateProfile } from './users.repo.ts';
import { queueMails, type QueuedMails } from '../mail/outbox.repo.ts';
import { sendNow } from '../mail/outbox.ts';
import { commitWithMails } from '../mail/commit.ts';
import { brandNames } from '../site/brand.ts';
import { alreadyRegisteredMail, loginLinkMail, noAccountMail, verifyEmailMail } from './mails.ts';
import type { User } from '../../db/schema.ts';
import { LIMITS, TOO_MANY_MAILS } from '../services/limits.ts';
import { verifyHuman } from '../middleware/human.ts';

/**
 * Client accounts (SPEC.md sections 2, 4, 6, 7, 8; docs/decisions/0013): register and log in
 * by mailed link, Google sign-in, the cookie session's validate / refresh / logout, and the
 * account page. The session lives only in the HttpOnly cookie `yc_user`: no token is ever in
 * a body or a redirect URL. Register and login answer the same whether or not the e-mail has
 * an account; the mail tells its owner the rest.
 */

type Profile = Pick<User, 'id' | 'email' | 'firstName' | 'lastName' | 'phone' | 'preferredName' | 'pronoun' | 'city' | 'zipcode' | 'image' | 'createdAt'>;

const sessionUser = (u: Profile): SessionUser => ({
  id: u.id,
  firstName: u.firstName,
  lastName: u.lastName,
  email: u.email,
  image: u.image,
  phone: u.phone,
  preferredName: u.preferredName,
  pronoun: u.pronoun,
  city: u.city,
  zipcode: u.zipcode,
});

const userView = (u: Profile): UserView => ({ _id: u.id, ...sessionUser(u), createdAt: new Date(u.createdAt).toISOString() });

const secure = (c: Context<AppEnv>) => c.var.services.env.NODE_ENV === 'production';

/** Signs this browser in as `userId`, ending the session it held before. */
async function startSession(c: Context<AppEnv>, userId: string): Promise<void> {
  const sessions = sessionStore(c.var.services.db, 'user');
  const previous = readSessionCookie(c, 'user');
  if (previous) await sessions.invalidate(previous);
  const { token, expiresAt } = await sessions.create(userId);
  setSessionCookie(c, 'user', token, expiresAt, secure(c));
}

/**
 * A change whose whole point is its mail: commitWithMails sends it after the commit, and the
 * route answers 503 when one did not leave now (logged, never shown; the outbox tries again).
 */
const mailed = (mails: QueuedMails) => ({ result: undefined, mails });

/** /api/user/{id}/... belongs to the user {id} only (403 otherwise), checked before the body. */
const selfOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  assertSelf(c, c.req.param('id'));
  await next();
};

const userParams = z.object({ id });

/** Google's round trip keeps state and the PKCE verifier in short-lived cookies of its own path. */
const GOOGLE_ROUND_TRIP = { state: 'yc_google_state', verifier: 'yc_google_verifier', path: '/api/user/auth/google' };

const verifyLimit = rateLimit(LIMITS.verifyLink);

export const user = new Hono<AppEnv>()
  // New e-mail: an unverified account and a verification link. Known e-mail: a login link
  // instead (nothing about the existing account changes). The answer is the same for both.
  .post('/register', rateLimit(LIMITS.register), validateJson(registration), async (c) => {
    const { env, limits } = c.var.services;
    const body = c.req.valid('json');
    await verifyHuman(c, body.recaptchaToken, 'register');
    // The mail is the point of the request: past the recipient's allowance, nothing is done.
    const allowance = await takeMailTo(limits, body.email);
    if (!allowance.ok) return tooMany(c, allowance, TOO_MANY_MAILS);
    // The account, its link and the link's mail in one transaction (decision 0024).
    const registered = await commitWithMails(c.var.services, async (trx) => {
      const known = await findUserByEmail(trx, body.email);
      const created = known ? undefined : await insertUser(trx, body);
      // insertUser gives nothing back when a twin request created the account a moment ago.
      const existing = known ?? (created ? undefined : await findUserByEmail(trx, body.email));
      if (created) {
        const token = await issueLoginToken(trx, created.id, 'verify_email');
        if (token) return mailed(await queueMails(trx, 'verify-email', [verifyEmailMail(env, (await brandNames(trx)).yoga, created, token, body.book)]));
      } else if (existing) {
        const token = await issueLoginToken(trx, existing.id, 'login');
        if (token)
          return mailed(await queueMails(trx, 'already-registered', [alreadyRegisteredMail(env, (await brandNames(trx)).yoga, existing, token, body.book)]));
      }
      return mailed([]);
    });
    if (!registered.allSent) return c.json({ message: REGISTRATION_MAIL_NOT_SENT }, 503);
    return c.json({ message: REGISTRATION_SENT });
  })

  // POST only: the /verify-email page sends the token, so a mail scanner opening the link
  // (a GET) can't spend it. There is no GET handler.
  .post('/verify-email', verifyLimit, validateJson(linkTokenRequest), async (c) => {
    const { db } = c.var.services;
    const userId = await redeemLoginToken(db, c.req.valid('json').token, 'verify_email');
    const found = userId ? await markEmailVerified(db, userId) : undefined;
    if (!found) return c.json({ message: VERIFICATION_FAILED }, 400);
    await startSession(c, found.id);
    return c.json({ message: EMAIL_VERIFIED, userId: found.id, user: sessionUser(found) } satisfies EmailVerifiedView);
  })

  // Known e-mail: a login link. Unknown: a note with the way to register. Same answer.
  .post('/login', rateLimit(LIMITS.login), validateJson(loginRequest), async (c) => {
    const { db, env, limits } = c.var.services;
    const { email, book } = c.req.valid('json');
    const allowance = await takeMailTo(limits, email);
    if (!allowance.ok) return tooMany(c, allowance, TOO_MANY_MAILS);
    const found = await findUserByEmail(db, email);
    let sent: boolean;
    if (found) {
      // The link and its mail in one transaction (decision 0024).
      const linked = await commitWithMails(c.var.services, async (trx) => {
        const token = await issueLoginToken(trx, found.id, 'login');
        return mailed(token ? await queueMails(trx, 'login-link', [loginLinkMail(env, (await brandNames(trx)).yoga, found, token, book)]) : []);
      });
      sent = linked.allSent;
    } else {
      // Nothing changes for an unknown address: the note goes through the outbox on its own.
      sent = (await sendNow(c.var.services, 'no-account', [noAccountMail(env, (await brandNames(db)).yoga, email)])) === 1;
    }
    if (!sent) return c.json({ message: LOGIN_MAIL_NOT_SENT }, 503);
    return c.json({ message: LOGIN_EMAIL_SENT });
  })

  // The link proves the address too, so it is marked verified.
  .post('/verify-login', verifyLimit, validateJson(linkTokenRequest), async (c) => {
    const { db } = c.var.services;
    const userId = await redeemLoginToken(db, c.req.valid('json').token, 'login');
    const found = userId ? await markEmailVerified(db, userId) : undefined;
    if (!found) return c.json({ message: LOGIN_LINK_INVALID }, 400);
    await startSession(c, found.id);
    return c.json({ user: sessionUser(found), userId: found.id } satisfies LoginVerifiedView);
  })

  // SPEC.md section 7: {token} is accepted and ignored; the cookie decides.
  .post('/validate-token', async (c) => {
    const { db } = c.var.services;
    const token = readSessionCookie(c, 'user');
    const session = token ? await sessionStore(db, 'user').validate(token) : null;
    const found = session ? await findUserById(db, session.subjectId) : undefined;
    if (!token || !session || !found) {
      if (token) clearSessionCookie(c, 'user', secure(c));
      return c.json({ isValid: false, message: NOT_LOGGED_IN } satisfies TokenCheckView, 401);
    }
    if (session.renewed) setSessionCookie(c, 'user', token, session.expiresAt, secure(c));
    return c.json({ isValid: true, user: sessionUser(found) } satisfies TokenCheckView);
  })

  // SPEC.md section 7 (token refresh): renews the cookie session in place (a full lifetime from
  // now, never past its absolute end), so requests already in flight with the same cookie keep working.
  .post('/refresh-token', requireUser(), async (c) => {
    const { db } = c.var.services;
    const token = readSessionCookie(c, 'user')!;
    const session = await sessionStore(db, 'user').refresh(token);
    if (!session) return c.json({ message: NOT_LOGGED_IN }, 401);
    const { expiresAt } = session;
    setSessionCookie(c, 'user', token, expiresAt, secure(c));
    return c.json({ ok: true, expiresAt: expiresAt.toISOString() });
  })

  // Ends the session on the server too; answers 200 whatever the cookie held (idempotent).
  .post('/logout', async (c) => {
    const token = readSessionCookie(c, 'user');
    if (token) await sessionStore(c.var.services.db, 'user').invalidate(token);
    clearSessionCookie(c, 'user', secure(c));
    return c.json({ ok: true, message: LOGGED_OUT });
  })

  // Google sign-in: off (404) unless GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set.
  .get('/auth/google', (c) => {
    const config = googleConfig(c.var.services.env);
    if (!config) return c.json({ message: GOOGLE_UNAVAILABLE }, 404);
    const { url, state, codeVerifier } = googleAuthorization(config);
    keepRoundTrip(c, GOOGLE_ROUND_TRIP, { state, codeVerifier });
    return c.redirect(url.toString(), 302);
  })

  // Any failure (no or wrong state, refused code, unverified e-mail, e-mail linked to another
  // Google account) lands on /login; success on /user/oauth with the id only, never a token.
  .get('/auth/google/callback', rateLimit(LIMITS.google), async (c) => {
    const { db, env } = c.var.services;
    const code = c.req.query('code');
    const verifier = takeRoundTrip(c, GOOGLE_ROUND_TRIP, c.req.query('state'));
    const config = googleConfig(env);
    if (!config || !code || !verifier || code.length > 2048) {
      return c.redirect('/login', 302);
    }
    try {
      const profile = await exchangeGoogleCode(config, code, verifier);
      const found = await findOrCreateGoogleUser(db, {
        googleId: profile.googleId,
        email: profile.email,
        firstName: profile.firstName,
        lastName: profile.lastName,
        image: profile.picture,
      });
      if (!found) {
        console.warn('[google] the e-mail belongs to an account linked to another Google account');
        return c.redirect('/login', 302);
      }
      await startSession(c, found.id);
      return c.redirect(`/user/oauth?userId=${encodeURIComponent(found.id)}`, 302);
    } catch (err) {
      console.warn(`[google] sign-in failed: ${err instanceof Error ? err.message : String(err)}`);
      return c.redirect('/login', 302);
    }
  })

  .get('/:id', requireUser(), validateParams(userParams), selfOnly, async (c) => {
    const found = await findUserById(c.var.services.db, c.req.valid('param').id);
    if (!found) return c.json({ message: NOT_LOGGED_IN }, 401);
    return c.json(userView(found));
  })

  // The e-mail is never editable; fields the schema doesn't list are ignored.
  .put(
    '/:id/update',
    requireUser(),
    validateParams(userParams),
    selfOnly,
    rateLimit({ ...LIMITS.profile, per: 'account' }),
    validateJson(profileUpdate),
    async (c) => {
      const updated = await updateProfile(c.var.services.db, c.req.valid('param').id, c.req.valid('json'));
      if (!updated) return c.json({ message: NOT_LOGGED_IN }, 401);
      return c.json({ message: PROFILE_UPDATED, user: userView(updated) } satisfies ProfileUpdatedView);
    },
  );
