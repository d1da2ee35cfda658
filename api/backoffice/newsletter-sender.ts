/**
 * The newsletter sender (decision 0018). Every server process runs it every
 * NEWSLETTER_INTERVAL_MS; each tick claims at most the tick's share of
 * NEWSLETTER_RATE_PER_MINUTE outbox rows (one committed statement: newsletters.repo.ts
 * claimOutbox), sends them one by one with no transaction open, and marks each sent as soon as
 * the mail service has it. A process that dies mid-batch leaves its rows 'sending'; another
 * sender claims them again once NEWSLETTER_CLAIM_STALE_MS has passed, with the same
 * Idempotency-Key, so Resend drops a mail it already took in the last 24 hours. It shares the
 * transactional outbox's rules (api/mail/outbox.ts): which failures are retried, and addresses
 * that bounced or complained are skipped; both run on the server's one periodic runner.
 */
import { createHash } from 'node:crypto';
import type { Services } from '../services/index.ts';
import type { DB } from '../../db/client.ts';
import { claimOutbox, finishDrained, lettersOf, markSent, markSuppressed, markUnsent, startSend } from './newsletters.repo.ts';
import { newsletterIssueMail } from './mails.ts';
import { maskedAddress } from '../mail/send.ts';
import { isRetryable } from '../mail/outbox.ts';
import { suppressionsOf } from '../mail/outbox.repo.ts';
import { postalAddressOf } from '../settings/settings.repo.ts';

type SenderServices = Pick<Services, 'db' | 'env' | 'mailer'>;

/**
 * She sends a draft: in one transaction it becomes 'sending' and every subscriber gets an outbox
 * row; every copy carries her postal address (CAN-SPAM, decision 0059), so none means nothing is
 * queued ('no_postal_address'). The ticks send the rows.
 */
export async function startNewsletterSend(db: DB, id: string, now = new Date()) {
  const { address } = await postalAddressOf(db);
  return db.transaction().execute((trx) => startSend(trx, id, now, address));
}

export interface BatchResult {
  claimed: number;
  sent: number;
  skipped: number;
  failed: number;
}

/** How many rows one tick may claim: the rate spread over the ticks of a minute, at least one. */
export const perTick = (ratePerMinute: number, intervalMs: number) => Math.max(1, Math.floor((ratePerMinute * intervalMs) / 60_000));

/** The key one recipient's copy of one newsletter is sent with, whichever sender sends it. */
export const idempotencyKey = (newsletterId: string, email: string) =>
  `newsletter/${newsletterId}/${createHash('sha256').update(email).digest('hex').slice(0, 32)}`;

/** One tick: claim, send, mark; then newsletters with nothing left become 'sent'. */
export async function sendNewsletterBatch(services: SenderServices, options: { limit?: number; now?: Date } = {}): Promise<BatchResult> {
  const { db, env, mailer } = services;
  const now = options.now ?? new Date();
  const limit = options.limit ?? perTick(env.NEWSLETTER_RATE_PER_MINUTE, env.NEWSLETTER_INTERVAL_MS);
  // The claim commits before the first mail: no row stays locked while the mail service answers.
  const claimed = await db.transaction().execute((trx) => claimOutbox(trx, limit, now, env.NEWSLETTER_CLAIM_STALE_MS));
  const result: BatchResult = { claimed: claimed.length, sent: 0, skipped: 0, failed: 0 };
  const letters = await lettersOf(db, [...new Set(claimed.map((r) => r.newsletterId))]);
  // The address fixed when the send started; one sent before it was fixed (0045) carries today's.
  const current = [...letters.values()].some((l) => l.postalAddress === null) ? (await postalAddressOf(db)).address : '';
  // Addresses that bounced or complained (Resend's webhook) are skipped, as every other mail is.
  const suppressed = await suppressionsOf(
    db,
    claimed.map((r) => r.email),
  );
  for (const row of claimed) {
    if (row.state === 'skipped') {
      result.skipped++;
      continue;
    }
    const reason = suppressed(row.email);
    if (reason) {
      await markSuppressed(db, row, reason);
      result.skipped++;
      continue;
    }
    const letter = letters.get(row.newsletterId)!;
    try {
      await mailer.send(
        newsletterIssueMail(env, row.email, letter, letter.postalAddress ?? current, { idempotencyKey: idempotencyKey(row.newsletterId, row.email) }),
      );
    } catch (err) {
      result.failed++;
      const message = err instanceof Error ? err.message : String(err);
      console.error(`[newsletter] could not send to ${maskedAddress(row.email)}:`, message);
      await markUnsent(db, row, message, !isRetryable(err));
      continue;
    }
    await markSent(db, row.newsletterId, row.email, new Date());
    result.sent++;
  }
  await finishDrained(db, new Date());
  return result;
}
