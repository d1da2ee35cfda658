/**
 * Mail routes (issue 21): Resend's delivery webhook, and the teacher's view of what did not leave.
 *
 *   POST /api/webhooks/resend                 signed bounce/complaint events → the address suppressed
 *   GET  /api/admin/mail/unsent               failed and skipped mails, newest first (never their text)
 *   POST /api/admin/mail/{id}/retry           one more try of a failed mail
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { validateParams } from '../validation.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { LIMITS } from '../services/limits.ts';
import { id } from '../../contract/common.ts';
import { listUnsentMails, suppressAddress } from './outbox.repo.ts';
import { retryUnsent } from './outbox.ts';
import { verifyMailEvent, webhookSecret } from './resend-webhook.ts';
import { maskedAddress } from './send.ts';

export const MAIL_WEBHOOK_UNVERIFIED = 'The event’s signature could not be verified.';
export const MAIL_NOT_RETRYABLE = 'No failed mail with this id.';
export const MAIL_WEBHOOK_NOT_JSON = 'An event is sent as application/json.';

export const mailWebhooks = new Hono<AppEnv>().post('/resend', rateLimit(LIMITS.mailWebhook), async (c) => {
  const { env, db } = c.var.services;
  const secret = webhookSecret(env);
  // Resend posts JSON; any other body is not one of its events, and is not read.
  if (!/^application\/json\s*(;|$)/i.test(c.req.header('content-type') ?? '')) return c.json({ message: MAIL_WEBHOOK_NOT_JSON }, 415);
  const payload = await c.req.text();
  // Resend sends the Standard Webhooks headers under Svix's names; either spelling is read.
  const header = (name: string) => c.req.header(`svix-${name}`) ?? c.req.header(`webhook-${name}`) ?? '';
  const headers = { id: header('id'), timestamp: header('timestamp'), signature: header('signature') };
  let event;
  try {
    if (!secret) throw new Error('RESEND_WEBHOOK_SECRET is not set');
    event = verifyMailEvent(secret, payload, headers);
  } catch {
    return c.json({ message: MAIL_WEBHOOK_UNVERIFIED }, 401);
  }
  if (event.kind === 'ignored') return c.json({ received: true, ignored: event.type });
  for (const address of event.addresses) {
    await suppressAddress(db, address, event.kind, event.detail);
    console.warn(`[mail] ${maskedAddress(address)} ${event.kind}: later mails to it are skipped`);
  }
  return c.json({ received: true, suppressed: event.addresses.length });
});

const mailParams = z.object({ id });

const retryRefusals: Record<'not-retryable', { status: 404; message: string }> = { 'not-retryable': { status: 404, message: MAIL_NOT_RETRYABLE } };

export const adminMail = new Hono<AppEnv>()
  .get('/unsent', requireAdmin(), async (c) => c.json(await listUnsentMails(c.var.services.db)))
  .post('/:id/retry', requireAdmin(), validateParams(mailParams), async (c) => {
    const { services } = c.var;
    const result = await retryUnsent(services, c.req.valid('param').id);
    if (!result.ok) return c.json({ message: retryRefusals[result.kind].message }, retryRefusals[result.kind].status);
    return c.json({ message: result.sent ? 'Sent.' : 'Queued: it will be tried again shortly.', sent: result.sent });
  });
