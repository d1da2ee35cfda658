import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { limitVisitorCopy, rateLimit } from '../middleware/rate-limit.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { validateJson, validateParams } from '../validation.ts';
import { id } from '../../contract/common.ts';
import {
  ALREADY_SUBSCRIBED,
  INVALID_UNSUBSCRIBE_LINK,
  SUBSCRIBED,
  UNSUBSCRIBED,
  newSubscriber,
  unsubscribeRequest,
  type SubscriberView,
} from '../../contract/subscribers.ts';
import { verifyToken } from '../lib/signed-token.ts';
import { addSubscriber, isSubscribed, listSubscribers, removeSubscriber, removeSubscriberByEmail } from './subscribers.repo.ts';
import { UNSUBSCRIBE_PURPOSE, welcomeMail } from './mails.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { commitWithMails } from '../mail/commit.ts';
import { brandNames } from '../site/brand.ts';
import { postalAddressOf } from '../settings/settings.repo.ts';
import { LIMITS } from '../services/limits.ts';

/**
 * The newsletter (SPEC.md sections 2, 4, 7, 8): subscribe from the footer, unsubscribe from
 * /unsubscribe (by e-mail as the spec has it, or by the signed token of a mail's link), and the
 * RFC 8058 one-click POST that mail providers send from the List-Unsubscribe header.
 */
export const subscribers = new Hono<AppEnv>()
  .post('/subscribe', rateLimit(LIMITS.subscribe), validateJson(newSubscriber), async (c) => {
    const { db, env, limits } = c.var.services;
    const { email } = c.req.valid('json');
    // On the list already: no welcome, and none of the address's mail allowance spent on it.
    if (await isSubscribed(db, email)) return c.json({ message: ALREADY_SUBSCRIBED }, 409);
    // The limiter counts on a connection of its own: the welcome is decided before the transaction.
    const [brand, postal] = await Promise.all([brandNames(db), postalAddressOf(db)]);
    const mails = await limitVisitorCopy(limits, [welcomeMail(env, brand.yoga, email, postal.address)], email);
    // The subscription and its welcome in one transaction (decision 0024). One statement
    // (INSERT ... ON CONFLICT DO NOTHING): concurrent twins make one row, and one welcome.
    const added = await commitWithMails(c.var.services, async (trx) => {
      const row = await addSubscriber(trx, email);
      return { result: row, mails: row ? await queueMails(trx, 'welcome', mails) : [] };
    });
    if (!added.result) return c.json({ message: ALREADY_SUBSCRIBED }, 409);
    return c.json({ message: SUBSCRIBED }, 201);
  })

  // The same answer whether or not the address was on the list: the page can't probe the list.
  .post('/unsubscribe', rateLimit(LIMITS.unsubscribe), validateJson(unsubscribeRequest), async (c) => {
    const { db, env } = c.var.services;
    const body = c.req.valid('json');
    let email = body.email;
    if (body.token !== undefined) {
      const signed = verifyToken(env.APP_SECRET, UNSUBSCRIBE_PURPOSE, body.token);
      if (!signed) return c.json({ message: INVALID_UNSUBSCRIBE_LINK }, 400);
      email = signed;
    }
    if (email) await removeSubscriberByEmail(db, email);
    return c.json({ message: UNSUBSCRIBED });
  })

  // RFC 8058: the provider POSTs `List-Unsubscribe=One-Click` (form-encoded, no cookies, no
  // Origin) to the URL of the List-Unsubscribe header; the signed token is the whole authority.
  // Providers send from few addresses for many people, hence the generous limit.
  .post('/one-click', rateLimit(LIMITS.oneClick), async (c) => {
    const { db, env } = c.var.services;
    const email = verifyToken(env.APP_SECRET, UNSUBSCRIBE_PURPOSE, c.req.query('token'));
    if (!email) return c.json({ message: INVALID_UNSUBSCRIBE_LINK }, 400);
    await removeSubscriberByEmail(db, email);
    return c.json({ message: UNSUBSCRIBED });
  });

/** The admin's Subscribers page: GET /api/admin/subscribers, DELETE /api/admin/subscribers/{id}. */
export const adminSubscribers = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/', async (c) => {
    const rows = await listSubscribers(c.var.services.db);
    return c.json(rows.map((r): SubscriberView => ({ _id: r.id, email: r.email, subscribedAt: new Date(r.subscribedAt).toISOString() })));
  })
  .delete('/:id', validateParams(z.object({ id })), async (c) => {
    const removed = await removeSubscriber(c.var.services.db, c.req.valid('param').id);
    if (!removed) return c.json({ message: 'Subscriber not found.' }, 404);
    return c.json({ message: 'Subscriber deleted.' });
  });
