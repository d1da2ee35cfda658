import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import { limitVisitorCopy, rateLimit } from '../middleware/rate-limit.ts';
import { verifyHuman } from '../middleware/human.ts';
import { validateJson } from '../validation.ts';
import { CONTACT_MESSAGE_SENT, contactMessage } from '../../contract/forms.ts';
import { insertContactMessage } from './messages.repo.ts';
import { contactMails } from './mails.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { commitWithMails } from '../mail/commit.ts';
import { brandNames } from '../site/brand.ts';
import { LIMITS } from '../services/limits.ts';

/** The /contact form (SPEC.md sections 3, 5, 7, 8). */
export const contact = new Hono<AppEnv>().post('/', rateLimit(LIMITS.contact), validateJson(contactMessage), async (c) => {
  const { db, env, limits } = c.var.services;
  const body = c.req.valid('json');
  await verifyHuman(c, body.recaptchaToken, 'contact_form_submit');
  const message = { name: body.name, email: body.email, message: body.message };
  // The limiter counts on a connection of its own: the visitor's copy is decided before the transaction.
  const mails = await limitVisitorCopy(limits, contactMails(env, (await brandNames(db)).yoga, message), message.email);
  // The message and its mails in one transaction (decision 0024): a crash after the commit never loses them.
  await commitWithMails(c.var.services, async (trx) => {
    await insertContactMessage(trx, message);
    return { result: undefined, mails: await queueMails(trx, 'contact-message', mails) };
  });
  return c.json({ message: CONTACT_MESSAGE_SENT });
});
