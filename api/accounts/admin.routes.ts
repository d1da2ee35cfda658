import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import { validateJson, validateQuery } from '../validation.ts';
import { adminLogin, ADMIN_LOGIN_FAILED, type AdminSessionView, type AdminView } from '../../contract/admin.ts';
import { adminUsersQuery, type AdminUserView } from '../../contract/user.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { rateLimit, tooMany } from '../middleware/rate-limit.ts';
import { verifyHuman } from '../middleware/human.ts';
import { sessionStore } from '../middleware/sessions.ts';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from '../middleware/session-cookies.ts';
import { hashPassword, needsRehash, verifyPassword } from './password.ts';
import { findAdminByEmail, findAdminById, rehashAdminPassword } from './admins.repo.ts';
import { insertUser, pageUsers } from './users.repo.ts';
import { answerPage } from '../lib/pages.ts';
import { CLIENT_EMAIL_TAKEN, newClient } from '../../contract/packages.ts';
import { LIMITS, TOO_MANY_ADMIN_ATTEMPTS } from '../services/limits.ts';
import { commitWithMails } from '../mail/commit.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { brandNames } from '../site/brand.ts';
import { issueLoginToken } from './login-tokens.ts';
import { welcomeMail } from './mails.ts';

/**
 * The administrator's session (SPEC.md sections 4, 6, 7) and the clients list. The session
 * lives only in the HttpOnly cookie (docs/decisions/0013): no token ever goes in a body.
 */

// An unknown e-mail is checked against this hash, so it costs the same time as a wrong password.
let dummyHash: Promise<string> | undefined;
const unknownAdminHash = () => (dummyHash ??= hashPassword('no admin has this password, it only spends time'));

const adminView = (a: { id: string; email: string; name: string }): AdminView => ({ _id: a.id, email: a.email, name: a.name });

export const admin = new Hono<AppEnv>()
  .post('/login', rateLimit(LIMITS.adminLogin), validateJson(adminLogin), async (c) => {
    const { db, env, limits } = c.var.services;
    const body = c.req.valid('json');
    await verifyHuman(c, body.recaptchaToken, 'admin_login');

    // Per account, from any address: wrong passwords in a row make the next try wait longer
    // (api/services/limits.ts ADMIN_DELAY). Unknown e-mails count alike, so the delay tells nothing.
    // The password is checked first and the delay holds back only failures: anyone who knows her
    // e-mail can start a delay, and it must not lock her out (issue 21). A wrong password during
    // the delay is answered 429 and lengthens it; guessing stays bounded by the per-address
    // allowance above and the slow hash.
    const account = body.email.trim().toLowerCase();
    const found = await findAdminByEmail(db, body.email);
    const ok = await verifyPassword(body.password, found?.passwordHash ?? (await unknownAdminHash()));
    if (!found || !ok) {
      const waiting = !(await limits.adminDelay(account)).ok;
      const delay = await limits.adminFailed(account);
      if (waiting && !delay.ok) return tooMany(c, delay, TOO_MANY_ADMIN_ATTEMPTS);
      return c.json({ message: ADMIN_LOGIN_FAILED }, 401);
    }
    await limits.adminSucceeded(account);
    // The only moment the password is at hand: move an older hash (scrypt, weaker argon2id
    // parameters) to the current scheme.
    if (needsRehash(found.passwordHash)) {
      await rehashAdminPassword(db, found.id, found.passwordHash, await hashPassword(body.password));
    }

    const sessions = sessionStore(db, 'admin');
    // A session this browser held before is ended rather than left to expire.
    const previous = readSessionCookie(c, 'admin');
    if (previous) await sessions.invalidate(previous);
    const { token, expiresAt } = await sessions.create(found.id);
    setSessionCookie(c, 'admin', token, expiresAt, env.NODE_ENV === 'production');
    return c.json({ admin: adminView(found), expiresAt: expiresAt.toISOString() } satisfies AdminSessionView);
  })

  .get('/verify', requireAdmin(), async (c) => {
    const found = await findAdminById(c.var.services.db, c.var.adminId!);
    if (!found) return c.json({ message: 'Admin login required' }, 401);
    return c.json({ admin: adminView(found) } satisfies AdminSessionView);
  })

  // SPEC.md section 7 (token refresh): renews the cookie session in place, so requests already
  // in flight with the same cookie keep working.
  .post('/refresh-token', requireAdmin(), async (c) => {
    const { db, env } = c.var.services;
    // requireAdmin has just found this cookie's session valid; the extension stops at its absolute end.
    const token = readSessionCookie(c, 'admin')!;
    const found = await findAdminById(db, c.var.adminId!);
    const session = found ? await sessionStore(db, 'admin').refresh(token) : null;
    if (!found || !session) return c.json({ message: 'Admin login required' }, 401);
    const { expiresAt } = session;
    setSessionCookie(c, 'admin', token, expiresAt, env.NODE_ENV === 'production');
    return c.json({ admin: adminView(found), expiresAt: expiresAt.toISOString() } satisfies AdminSessionView);
  })

  // Ends the session on the server too; answering 204 whatever the cookie held keeps logout idempotent.
  .post('/logout', async (c) => {
    const { db, env } = c.var.services;
    const token = readSessionCookie(c, 'admin');
    if (token) await sessionStore(db, 'admin').invalidate(token);
    clearSessionCookie(c, 'admin', env.NODE_ENV === 'production');
    return c.body(null, 204);
  })

  // A client she adds by hand (issue 32): one who books by phone or pays in person. No mail is
  // sent unless she ticks the welcome: then a login link, queued with the account (decision 0024).
  // Otherwise the client logs in later by the link like anyone (the address is theirs to prove).
  .post('/users', requireAdmin(), validateJson(newClient), async (c) => {
    const { env } = c.var.services;
    const body = c.req.valid('json');
    const { result: created } = await commitWithMails(c.var.services, async (trx) => {
      const user = await insertUser(trx, body);
      const token = user && body.sendWelcome ? await issueLoginToken(trx, user.id, 'login') : undefined;
      const mails = user && token ? await queueMails(trx, 'welcome', [welcomeMail(env, (await brandNames(trx)).yoga, user, token)]) : [];
      return { result: user, mails };
    });
    if (!created) return c.json({ message: CLIENT_EMAIL_TAKEN }, 409);
    return c.json({ _id: created.id, id: created.id }, 201);
  })

  // Clients (SPEC.md section 2, /admin/users), newest first: a page of them (issue 36, decision
  // 0046), the body the spec's list, the next page's cursor in X-Next-Cursor.
  .get('/users', requireAdmin(), validateQuery(adminUsersQuery), async (c) => {
    const { cursor, ...query } = c.req.valid('query');
    const rows = await pageUsers(c.var.services.db, { ...query, after: cursor });
    return answerPage(
      c,
      rows,
      query.limit,
      (u) => [u.cursorAt, u.id],
      (u): AdminUserView => ({
        _id: u.id,
        id: u.id,
        firstName: u.firstName,
        lastName: u.lastName,
        preferredName: u.preferredName,
        pronoun: u.pronoun,
        email: u.email,
        phone: u.phone,
        city: u.city,
        zipcode: u.zipcode,
        createdAt: new Date(u.createdAt).toISOString(),
      }),
    );
  });
// DELETE /users/{id} is the client's erasure, with the rest of her data: client-data.routes.ts.
