/**
 * The one mail sender (issue 21, decision 0024). Every mail is written to the outbox in the
 * transaction of its change (outbox.repo.ts queueMails); right after the commit the request that
 * made it sends it (`sendQueued`: the visitor's login link leaves before the answer does), and
 * every server process's periodic tick (`sendDueMails`) sends what is left: a retry whose time
 * has come, or a mail whose process died between the commit and the send. Each row is claimed
 * by one process (SKIP LOCKED) and sent with its row id as Resend's Idempotency-Key, so a send
 * repeated after a crash is dropped by the provider: at least once, and duplicates only under
 * one key.
 *
 * How a try ends: the provider has it → 'sent'; no answer, a timeout, 408/409/429 or a 5xx →
 * 'pending' again after a backoff (OUTBOX_RETRY_BASE_MS doubling, at most an hour) until
 * OUTBOX_MAX_ATTEMPTS; any other 4xx (the provider will never take it) → 'failed' at once. Failed
 * and skipped mails are listed for the teacher (GET /api/admin/mail/unsent).
 *
 * No secret at rest in clear (issue 47, decision 0052): a mail's words are sealed from the moment
 * it is queued (sealed-mail.ts, the private records' key, bound to the row's id); the claim opens
 * them in this process, and once the provider has the mail they are dropped: the row keeps who,
 * what kind, when and its subject, never a code or a link. A dump, a backup, the PGlite folder
 * and its WAL hold no working code or link from a mail. A failed or skipped mail stays sealed
 * (her list opens only its subject); one whose key this process lacks is failed, not sent.
 */
import type { Services } from '../services/index.ts';
import { MailError, type OutgoingMail } from '../services/mail/index.ts';
import { PROCESS_ID } from '../lib/process.ts';
import {
  claimMails,
  mailsSealedWithOtherKeys,
  markMailSent,
  markMailUnsent,
  queueMails,
  resealMailRow,
  retryMail,
  type ClaimedMail,
  type QueuedMails,
} from './outbox.repo.ts';
import { resealMail } from './sealed-mail.ts';
import type { Keyring } from '../lib/keys.ts';
import { maskedAddress } from './send.ts';

type SenderServices = Pick<Services, 'db' | 'env' | 'mailer'>;

/** How many due mails one tick claims at most; the rest wait for the next tick. */
const BATCH = 50;
const HOUR_MS = 3_600_000;

/** Whether a failed try is worth another: no answer, a timeout, rate limits and 5xx are; other 4xx are not. */
export function isRetryable(err: unknown): boolean {
  if (!(err instanceof MailError)) return true;
  const { status } = err;
  return status === 0 || status === 408 || status === 409 || status === 429 || status >= 500;
}

/** When the try after `attempts` failed ones is due: doubling from `baseMs`, at most an hour, with jitter. */
export function retryDelayMs(attempts: number, baseMs: number, random = Math.random): number {
  const delay = Math.min(HOUR_MS, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(delay * (0.8 + 0.4 * random()));
}

export interface SendResult {
  claimed: number;
  sent: number;
  skipped: number;
  retrying: number;
  failed: number;
}

async function sendClaimed(services: SenderServices, claimed: ClaimedMail[]): Promise<SendResult> {
  const { db, env, mailer } = services;
  const result: SendResult = { claimed: claimed.length, sent: 0, skipped: 0, retrying: 0, failed: 0 };
  for (const row of claimed) {
    if (row.suppressed) {
      result.skipped++;
      continue;
    }
    if (row.unopened) {
      // Sealed with a key this process lacks: no try can send it until the key is configured.
      console.error(`[mail] could not open ${row.kind} to ${maskedAddress(row.to)}: ${row.unopened}`);
      await markMailUnsent(db, row.id, PROCESS_ID, row.unopened, null);
      result.failed++;
      continue;
    }
    try {
      await mailer.send(row.mail);
    } catch (err) {
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
      const retry = isRetryable(err) && row.attempts < env.OUTBOX_MAX_ATTEMPTS;
      const retryAt = retry ? new Date(Date.now() + retryDelayMs(row.attempts, env.OUTBOX_RETRY_BASE_MS)) : null;
      console.error(`[mail] could not send ${row.kind} to ${maskedAddress(row.to)} (try ${row.attempts}${retry ? ', will retry' : ', given up'}):`, message);
      await markMailUnsent(db, row.id, PROCESS_ID, message, retryAt);
      if (retry) result.retrying++;
      else result.failed++;
      continue;
    }
    await markMailSent(db, row.id, PROCESS_ID, new Date(), row.mail.subject);
    result.sent++;
  }
  return result;
}

/**
 * Sends the mails a use-case queued, right after its commit. Never throws: whatever is not sent
 * now stays in the outbox for the periodic sender. Answers how many left.
 */
export async function sendQueued(services: SenderServices, ids: QueuedMails): Promise<number> {
  if (ids.length === 0) return 0;
  try {
    const now = new Date();
    const claimed = await claimMails(services.db, { claimedBy: PROCESS_ID, now, limit: ids.length, staleBefore: now, ids });
    return (await sendClaimed(services, claimed)).sent;
  } catch (err) {
    console.error('[mail] sending after the commit failed; the outbox will retry:', err instanceof Error ? err.message : err);
    return 0;
  }
}

/**
 * Her retry of a mail that did not leave (GET /api/admin/mail/unsent): due again now with its
 * tries counted afresh, and tried at once; a failure goes back to the outbox's schedule as any
 * other. 'not-retryable' when it is not one of hers to retry (sent, pending, unknown).
 */
export async function retryUnsent(
  services: SenderServices,
  id: string,
  now = new Date(),
): Promise<{ ok: true; sent: boolean } | { ok: false; kind: 'not-retryable' }> {
  if (!(await retryMail(services.db, id, now))) return { ok: false, kind: 'not-retryable' };
  return { ok: true, sent: (await sendQueued(services, [id])) > 0 };
}

/** One tick of the periodic sender: mails due for a retry, and those a dead process left claimed. */
export async function sendDueMails(services: SenderServices, now = new Date()): Promise<SendResult> {
  const claimed = await claimMails(services.db, {
    claimedBy: PROCESS_ID,
    now,
    limit: BATCH,
    staleBefore: new Date(now.getTime() - services.env.OUTBOX_CLAIM_STALE_MS),
  });
  return sendClaimed(services, claimed);
}

/** Queues and sends mails that report no change of their own (a test newsletter to the teacher). */
export async function sendNow(services: SenderServices, kind: string, mails: readonly OutgoingMail[]): Promise<number> {
  const ids = await services.db.transaction().execute((trx) => queueMails(trx, kind, mails));
  return sendQueued(services, ids);
}

/**
 * `npm run rotate-keys` (api/practice/rotate.ts): the mails still waiting in the outbox, sealed
 * again with the current private records key, so PRIVATE_RECORDS_OLD_KEYS can go. Sent mails
 * hold no words to re-seal; a row no configured key opens is left as it is (and said). Answers
 * how many were sealed again.
 */
export async function resealOutbox(db: SenderServices['db'], ring: Keyring): Promise<number> {
  let n = 0;
  for (const row of await mailsSealedWithOtherKeys(db, ring.current.id)) {
    if (!row.keyId || !row.sealed) continue;
    let next: { keyId: string; sealed: string };
    try {
      next = resealMail(ring, row.id, row.keyId, row.sealed);
    } catch (err) {
      // A row no configured key opens (altered, or its key lost) is left as it is: it can't be sent either.
      console.warn(`[mail] outbox row ${row.id} was left sealed as it was: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    if (await resealMailRow(db, row.id, row.sealed, next)) n++;
  }
  return n;
}
