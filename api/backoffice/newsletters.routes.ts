import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { validateJson, validateParams } from '../validation.ts';
import { id } from '../../contract/common.ts';
import {
  NEWSLETTER_NO_SUBSCRIBERS,
  NEWSLETTER_NOT_DRAFT,
  NEWSLETTER_NOT_FOUND,
  NEWSLETTER_SENDING,
  NEWSLETTER_TEST_SENT,
  newsletterDraft,
  type NewsletterPreview,
  type NewsletterView,
} from '../../contract/backoffice.ts';
import { sendNow } from '../mail/outbox.ts';
import { newsletterIssueMail } from './mails.ts';
import { adminEmail, findNewsletter, insertNewsletter, listNewsletters, outboxCounts, updateDraft, type NewsletterRow } from './newsletters.repo.ts';
import { startNewsletterSend } from './newsletter-sender.ts';
import type { DB } from '../../db/client.ts';
import { NEWSLETTER_NO_POSTAL_ADDRESS } from '../../contract/settings.ts';
import { postalAddressOf } from '../settings/settings.repo.ts';

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

async function views(db: DB, rows: NewsletterRow[]): Promise<NewsletterView[]> {
  const counts = await outboxCounts(
    db,
    rows.filter((r) => r.status !== 'draft').map((r) => r.id),
  );
  return rows.map((r) => {
    const c = counts.get(r.id);
    return {
      id: r.id,
      subject: r.subject,
      body: r.bodyMarkdown,
      status: r.status,
      total: r.totalCount,
      sent: c?.sent ?? 0,
      skipped: c?.skipped ?? 0,
      failed: c?.failed ?? 0,
      createdAt: iso(r.createdAt)!,
      updatedAt: iso(r.updatedAt)!,
      sendStartedAt: iso(r.sendStartedAt),
      sentAt: iso(r.sentAt),
    };
  });
}

const params = validateParams(z.object({ id }));

/** Each refusal of a send, by its kind (the compiler checks none is missing). */
const sendRefusals: Record<Exclude<Awaited<ReturnType<typeof startNewsletterSend>>, { ok: true }>['kind'], { status: 404 | 409; message: string }> = {
  not_found: { status: 404, message: NEWSLETTER_NOT_FOUND },
  not_draft: { status: 409, message: NEWSLETTER_NOT_DRAFT },
  no_subscribers: { status: 409, message: NEWSLETTER_NO_SUBSCRIBERS },
  no_postal_address: { status: 409, message: NEWSLETTER_NO_POSTAL_ADDRESS },
};

/**
 * The admin's newsletters (issue 16, decision 0018): drafts, a preview in the mail layout, a
 * test to the admin's own address, the send (which only fills the outbox: the sender job
 * mails), and the status the progress bar polls.
 */
export const adminNewsletters = new Hono<AppEnv>()
  .use('*', requireAdmin())
  .get('/', async (c) => {
    const { db } = c.var.services;
    return c.json(await views(db, await listNewsletters(db)));
  })
  .post('/', validateJson(newsletterDraft), async (c) => {
    const { db } = c.var.services;
    const row = await insertNewsletter(db, c.req.valid('json'));
    return c.json((await views(db, [row]))[0], 201);
  })
  // The mail as a subscriber gets it, for the live preview; rendered here so the browser ships no Markdown code.
  .post('/preview', validateJson(newsletterDraft), async (c) => {
    const { db, env } = c.var.services;
    const mail = newsletterIssueMail(env, 'subscriber@example.com', c.req.valid('json'), (await postalAddressOf(db)).address);
    return c.json({ subject: mail.subject, html: mail.html ?? '', text: mail.text } satisfies NewsletterPreview);
  })
  .get('/:id', params, async (c) => {
    const { db } = c.var.services;
    const row = await findNewsletter(db, c.req.valid('param').id);
    if (!row) return c.json({ message: NEWSLETTER_NOT_FOUND }, 404);
    return c.json((await views(db, [row]))[0]);
  })
  .put('/:id', params, validateJson(newsletterDraft), async (c) => {
    const { db } = c.var.services;
    const newsletterId = c.req.valid('param').id;
    const row = await updateDraft(db, newsletterId, c.req.valid('json'));
    if (!row) return (await findNewsletter(db, newsletterId)) ? c.json({ message: NEWSLETTER_NOT_DRAFT }, 409) : c.json({ message: NEWSLETTER_NOT_FOUND }, 404);
    return c.json((await views(db, [row]))[0]);
  })
  .post('/:id/test', params, async (c) => {
    const { db, env } = c.var.services;
    const row = await findNewsletter(db, c.req.valid('param').id);
    if (!row) return c.json({ message: NEWSLETTER_NOT_FOUND }, 404);
    const to = await adminEmail(db, c.var.adminId!);
    if (!to) return c.json({ message: 'Your admin account has no address.' }, 409);
    // Reports no change of its own: queued in a transaction of its own and sent at once.
    const sent = await sendNow(c.var.services, 'newsletter-test', [
      newsletterIssueMail(env, to, { subject: row.subject, body: row.bodyMarkdown }, (await postalAddressOf(db)).address, { test: true }),
    ]);
    if (!sent) return c.json({ message: 'The test could not be sent. Please try again.' }, 502);
    return c.json({ message: NEWSLETTER_TEST_SENT, to });
  })
  .post('/:id/send', params, async (c) => {
    const { db } = c.var.services;
    const newsletterId = c.req.valid('param').id;
    const started = await startNewsletterSend(db, newsletterId);
    if (!started.ok) return c.json({ message: sendRefusals[started.kind].message }, sendRefusals[started.kind].status);
    const row = await findNewsletter(db, newsletterId);
    return c.json({ message: NEWSLETTER_SENDING, newsletter: (await views(db, [row!]))[0] }, 202);
  });
