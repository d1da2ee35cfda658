import { Hono } from 'hono';
import { html } from 'hono/html';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import type { Services } from '../services/index.ts';
import { validateQuery } from '../validation.ts';
import { email, isCleanText } from '../../contract/common.ts';
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

const mailEventRequest = z.object({ type: z.enum(['bounced', 'complained']), email });
type MailEventRequest = z.infer<typeof mailEventRequest>;

/**
 * Posts what Resend would (a bounce or complaint for `email`), signed, through the real webhook
 * route (POST /api/webhooks/resend), so a bounce can be tried by hand: the mailbox page's buttons
 * and POST /api/dev/mailbox/events both come here.
 */
async function postMailEvent(services: Services, type: MailEventRequest['type'], email: string): Promise<Response> {
  const payload = mailEventPayload(type, email);
  const signed = signMailEvent(services.env.RESEND_WEBHOOK_SECRET ?? DEV_WEBHOOK_SECRET, payload);
  return new Hono<AppEnv>()
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
}

/** GET /api/dev/mailbox[?to=] -> [{to, subject, text, html, links, headers, attachments (with content), sentAt}], newest first. */
export const devApi = new Hono<AppEnv>()
  .get('/mailbox', validateQuery(mailboxQuery), async (c) => {
    const { to } = c.req.valid('query');
    return c.json(await listMailbox(c.var.services.db, to ? { to } : {}));
  })
  // POST /api/dev/mailbox/events {type: bounced|complained, email}: a signed event through the real webhook route.
  .post('/mailbox/events', validateJson(mailEventRequest), async (c) => {
    const { type, email } = c.req.valid('json');
    const res = await postMailEvent(c.var.services, type, email);
    return c.json(await res.json(), res.status as 200);
  });

const EVENT_DONE: Record<MailEventRequest['type'], string> = { bounced: 'bounced', complained: 'reported as spam' };

/**
 * GET /dev/mailbox: the same mails for people, links clickable; each with the buttons "Bounce" and
 * "Complaint" (a plain form post to POST /dev/mailbox/events, so no script and nothing for the
 * Content-Security-Policy to allow).
 */
export const devPages = new Hono<AppEnv>()
  .post('/mailbox/events', async (c) => {
    const form = mailEventRequest.safeParse(await c.req.parseBody());
    if (!form.success) return c.text(form.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n'), 400);
    const res = await postMailEvent(c.var.services, form.data.type, form.data.email);
    if (!res.ok) return c.text(((await res.json()) as { message?: string }).message ?? `The webhook answered ${res.status}`, res.status as 400);
    return c.redirect(`/dev/mailbox?${new URLSearchParams({ event: form.data.type, email: form.data.email })}`, 303);
  })
  .get('/mailbox', async (c) => {
    const mails = await listMailbox(c.var.services.db);
    const done = mailEventRequest.safeParse({ type: c.req.query('event'), email: c.req.query('email') });
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
      form { display: flex; gap: 0.5rem; margin: 0.5rem 0; }
      button { font: inherit; font-size: 0.9rem; min-height: 32px; padding: 0.25rem 0.75rem; border: 1px solid #888; border-radius: 6px; background: #fff; cursor: pointer; }
    </style>
  </head>
  <body>
    <main>
      <h1>Mailbox</h1>
      <p>Mails the site would have sent. This page exists only while no mail service is configured.</p>
      ${done.success ? html`<p role="status">${done.data.email} ${EVENT_DONE[done.data.type]}: the webhook took the event; later mails to it are skipped.</p>` : ''}
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
          <form method="post" action="/dev/mailbox/events" aria-label="Mail events for ${m.to}">
            <input type="hidden" name="email" value="${m.to}" />
            <button type="submit" name="type" value="bounced">Bounce</button>
            <button type="submit" name="type" value="complained">Complaint</button>
          </form>
          <pre>${m.text}</pre>
        </article>`,
      )}
    </main>
  </body>
</html>`);
  });
