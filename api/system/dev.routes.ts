import { Hono } from 'hono';
import { html } from 'hono/html';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { validateQuery } from '../validation.ts';
import { isCleanText } from '../../contract/common.ts';
import { listMailbox } from '../services/mail/mailbox.ts';
import { validateJson } from '../validation.ts';
import { mailWebhooks } from '../mail/mail.routes.ts';
import { DEV_WEBHOOK_SECRET, mailEventPayload, signMailEvent } from '../mail/resend-webhook.ts';

/**
 * Pages and endpoints of the local stand-ins. Mounted only while a stand-in is on, which
 * never happens in production (api/env.ts).
 */

// A NUL in the filter would fail the query (PostgreSQL text has none): refused here instead.
const mailboxQuery = z.object({
  to: z.string().max(254, 'to is too long').refine(isCleanText, 'to contains characters that are not allowed').optional(),
});

const mailEventRequest = z.object({ type: z.enum(['bounced', 'complained']), email: z.string().trim().email().max(254) });

/** GET /api/dev/mailbox[?to=] -> [{to, subject, text, html, links, headers, attachments (with content), sentAt}], newest first. */
export const devApi = new Hono<AppEnv>()
  .get('/mailbox', validateQuery(mailboxQuery), async (c) => {
    const { to } = c.req.valid('query');
    return c.json(await listMailbox(c.var.services.db, to ? { to } : {}));
  })
  // POST /api/dev/mailbox/events {type: bounced|complained, email}: the stand-in posts what Resend
  // would, signed, through the real webhook route (POST /api/webhooks/resend), so a bounce can be tried by hand.
  .post('/mailbox/events', validateJson(mailEventRequest), async (c) => {
    const { type, email } = c.req.valid('json');
    const payload = mailEventPayload(type, email);
    const signed = signMailEvent(c.var.services.env.RESEND_WEBHOOK_SECRET ?? DEV_WEBHOOK_SECRET, payload);
    const services = c.var.services;
    const res = await new Hono<AppEnv>()
      .use('*', async (inner, next) => {
        inner.set('services', services);
        await next();
      })
      .route('/', mailWebhooks)
      .request('/resend', {
        method: 'POST',
        body: payload,
        headers: { 'content-type': 'application/json', 'svix-id': signed.id, 'svix-timestamp': signed.timestamp, 'svix-signature': signed.signature },
      });
    return c.json(await res.json(), res.status as 200);
  });

/** GET /dev/mailbox: the same mails for people, links clickable. */
export const devPages = new Hono<AppEnv>().get('/mailbox', async (c) => {
  const mails = await listMailbox(c.var.services.db);
  c.header('cache-control', 'no-store');
  return c.html(html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>Mailbox (development)</title>
    <style>
      body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1.5rem; color: #222; }
      article { border: 1px solid #ddd; border-radius: 8px; padding: 1rem; margin: 1rem 0; }
      h2 { margin: 0 0 0.25rem; font-size: 1.1rem; }
      .meta { color: #555; font-size: 0.9rem; }
      pre { white-space: pre-wrap; background: #f7f7f7; padding: 0.75rem; border-radius: 6px; }
      a { color: #1a56b0; word-break: break-all; }
    </style>
  </head>
  <body>
    <main>
      <h1>Mailbox</h1>
      <p>Mails the site would have sent. This page exists only while no mail service is configured.</p>
      ${mails.length === 0 ? html`<p>No mail yet.</p>` : ''}
      ${mails.map(
        (m) => html`<article>
          <h2>${m.subject}</h2>
          <p class="meta">To ${m.to} · <time datetime="${m.sentAt}">${new Date(m.sentAt).toLocaleString('en-US')}</time></p>
          ${
            m.links.length
              ? html`<ul>
                ${m.links.map((l) => html`<li><a href="${l}">${l}</a></li>`)}
              </ul>`
              : ''
          }
          ${m.attachments.length ? html`<p class="meta">Attachments: ${m.attachments.map((a) => a.filename).join(', ')}</p>` : ''}
          <pre>${m.text}</pre>
        </article>`,
      )}
    </main>
  </body>
</html>`);
});
