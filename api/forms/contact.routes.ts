import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { verifyHuman } from '../middleware/human.ts';
import { validateJson } from '../validation.ts';
import { CONTACT_MESSAGE_SENT, contactMessage } from '../../contract/forms.ts';
import { insertContactMessage } from './messages.repo.ts';
import { contactMails } from './mails.ts';
import { deliver } from '../mail/send.ts';

/** The /contact form (SPEC.md sections 3, 5, 7, 8). */
export const contact = new Hono<AppEnv>().post(
  '/',
  rateLimit({ bucket: 'contact', max: 5, windowMs: 10 * 60_000 }),
  validateJson(contactMessage),
  async (c) => {
    const { db, env, mailer } = c.var.services;
    const body = c.req.valid('json');
    await verifyHuman(c, body.recaptchaToken, 'contact_form_submit');
    const message = { name: body.name, email: body.email, message: body.message };
    await insertContactMessage(db, message);
    await deliver(mailer, contactMails(env, message));
    return c.json({ message: CONTACT_MESSAGE_SENT });
  },
);
