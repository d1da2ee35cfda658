import { Hono, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { validateJson, validateParams } from '../validation.ts';
import { assertSelf, requireAdmin, requireUser } from '../middleware/auth.ts';
import { rateLimit, tooMany } from '../middleware/rate-limit.ts';
import { LIMITS } from '../services/limits.ts';
import { id } from '../../contract/common.ts';
import { NOT_LOGGED_IN } from '../../contract/user.ts';
import {
  ACCOUNT_DELETED,
  ACCOUNT_ERASED_BY_ADMIN,
  CLIENT_NOT_FOUND,
  DELETE_LINK_INVALID,
  DELETE_MAIL_NOT_SENT,
  DELETE_REQUEST_SENT,
  deleteAccountRequest,
} from '../../contract/practice.ts';
import { sendNow } from '../mail/outbox.ts';
import { brandNames } from '../site/brand.ts';
import { keyringOf } from '../lib/keys.ts';
import type { Reader } from '../practice/records.ts';
import { clearSessionCookie } from '../middleware/session-cookies.ts';
import { clientData, clientDataHtml } from './client-data.ts';
import { accountOfDeletionToken, confirmDeletionMail, deletionToken } from './deletion-mails.ts';
import { eraseAccount, type EraseRefusal } from './erase-account.ts';
import { findUserById } from './users.repo.ts';
import type { Context } from 'hono';

/**
 * The client's data in their own hands (issue 23; GDPR articles 15, 17, 20):
 *
 *   GET  /api/user/{id}/export            everything the site holds about them, as a JSON file
 *   GET  /api/user/{id}/export/html       the same, as a readable page
 *   POST /api/user/{id}/delete-request    mails the link that confirms the deletion
 *   POST /api/user/delete-account         {token}: the link's token; the account is erased
 *   GET  /api/admin/users/{id}/export     the same JSON, for a client who asks by mail
 *   POST /api/admin/users/{id}/erase      the same deletion, for a client who asks by mail
 *   DELETE /api/admin/users/{id}          the same deletion, from the Clients list (SPEC.md section 7)
 *
 * All three deletions are eraseAccount: the money records stay for the books without the name.
 */

type Answer = { status: 400 | 404; message: string };

/** The client's own link: an account already gone is a link that no longer works. */
const byLinkAnswers: Record<EraseRefusal, Answer> = { 'no-account': { status: 400, message: DELETE_LINK_INVALID } };
/** The teacher's: from the client's page or the Clients list. */
const byAdminAnswers: Record<EraseRefusal, Answer> = { 'no-account': { status: 404, message: CLIENT_NOT_FOUND } };

const userParams = z.object({ id });

const selfOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  assertSelf(c, c.req.param('id'));
  await next();
};

const fileDate = () => new Date().toISOString().slice(0, 10);

async function exportOf(c: Context<AppEnv>, userId: string, reader: Reader) {
  const { db, env } = c.var.services;
  return clientData(db, keyringOf(env), userId, reader);
}

export const clientDataRoutes = new Hono<AppEnv>()
  .get('/:id/export', requireUser(), validateParams(userParams), selfOnly, async (c) => {
    const data = await exportOf(c, c.req.valid('param').id, { actor: 'client' });
    if (!data) return c.json({ message: NOT_LOGGED_IN }, 401);
    c.header('content-disposition', `attachment; filename="my-data-${fileDate()}.json"`);
    return c.json(data);
  })
  .get('/:id/export/html', requireUser(), validateParams(userParams), selfOnly, async (c) => {
    const data = await exportOf(c, c.req.valid('param').id, { actor: 'client' });
    if (!data) return c.json({ message: NOT_LOGGED_IN }, 401);
    c.header('content-disposition', `attachment; filename="my-data-${fileDate()}.html"`);
    return c.html(clientDataHtml(data, (await brandNames(c.var.services.db)).yoga));
  })
  .post('/:id/delete-request', requireUser(), validateParams(userParams), selfOnly, rateLimit({ ...LIMITS.profile, per: 'account' }), async (c) => {
    const { db, env, limits } = c.var.services;
    const user = await findUserById(db, c.req.valid('param').id);
    if (!user) return c.json({ message: NOT_LOGGED_IN }, 401);
    // Her own allowance, per account: others asking for login links to her address spend theirs
    // (LIMITS.mailTo), not this one.
    const allowance = await limits.take(LIMITS.deletionMail, `account:${user.id}`);
    if (!allowance.ok) return tooMany(c, allowance, LIMITS.deletionMail.message);
    // The link is signed, not stored: the mail reports no change of its own, it goes through the outbox alone.
    const sent = await sendNow(c.var.services, 'account-deletion-link', [
      confirmDeletionMail(env, (await brandNames(db)).yoga, user, deletionToken(env, user.id)),
    ]);
    if (sent !== 1) return c.json({ message: DELETE_MAIL_NOT_SENT }, 503);
    return c.json({ message: DELETE_REQUEST_SENT });
  })
  .post('/delete-account', rateLimit(LIMITS.verifyLink), validateJson(deleteAccountRequest), async (c) => {
    const { env } = c.var.services;
    const userId = accountOfDeletionToken(env, c.req.valid('json').token);
    if (!userId) return c.json({ message: DELETE_LINK_INVALID }, 400);
    const erased = await eraseAccount(c.var.services, userId);
    if (!erased.ok) return c.json({ message: byLinkAnswers[erased.kind].message }, byLinkAnswers[erased.kind].status);
    clearSessionCookie(c, 'user', env.NODE_ENV === 'production');
    return c.json({ message: ACCOUNT_DELETED });
  });

export const adminClientData = new Hono<AppEnv>()
  .get('/users/:id/export', requireAdmin(), validateParams(userParams), async (c) => {
    const data = await exportOf(c, c.req.valid('param').id, { actor: 'admin', adminId: c.var.adminId! });
    if (!data) return c.json({ message: CLIENT_NOT_FOUND }, 404);
    c.header('content-disposition', `attachment; filename="client-data-${fileDate()}.json"`);
    return c.json(data);
  })
  .post('/users/:id/erase', requireAdmin(), validateParams(userParams), async (c) => {
    const erased = await eraseAccount(c.var.services, c.req.valid('param').id);
    if (!erased.ok) return c.json({ message: byAdminAnswers[erased.kind].message }, byAdminAnswers[erased.kind].status);
    return c.json({ message: ACCOUNT_ERASED_BY_ADMIN });
  })
  .delete('/users/:id', requireAdmin(), validateParams(userParams), async (c) => {
    const erased = await eraseAccount(c.var.services, c.req.valid('param').id);
    if (!erased.ok) return c.json({ message: byAdminAnswers[erased.kind].message }, byAdminAnswers[erased.kind].status);
    return c.json({ message: ACCOUNT_ERASED_BY_ADMIN });
  });
