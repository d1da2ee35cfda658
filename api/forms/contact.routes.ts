import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import { limitVisitorCopy, rateLimit } from '../middleware/rate-limit.ts';
import { verifyHuman } from '../middleware/human.ts';
import { validateJson } from '../validation.ts';
import { CONTACT_MESSAGE_SENT, contactMessage } from '../../contract/forms.ts';
import { insertContactMessage } from './messages.repo.ts';
import { contactMails } from './mails.ts';
import { deliver } from '../mail/send.ts';
import { brandNames } from '../pages/brand.ts';
import { LIMITS } from '../limits/limits.ts';

/** The /contact form (SPEC.md sections 3, 5, 7, 8). */
export const contact = new Hono<AppEnv>().post('/', rateLimit(LIMITS.contact), validateJson(contactMessage), async (c) => {
  const { db, env, mailer, limits } = c.var.services;
  const body = c.req.valid('json');
  await verifyHuman(c, body.recaptchaToken, 'contact_form_submit');
  const message = { name: body.name, email: body.email, message: body.message };
  await insertContactMessage(db, message);
  await deliver(mailer, await limitVisitorCopy(limits, contactMails(env, (await brandNames(db)).yoga, message), message.email));
  return c.json({ message: CONTACT_MESSAGE_SENT });
});
