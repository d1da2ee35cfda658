/**
 * The mail outbox's SQL (decision 0024). A use-case writes its mails with `queueMails` inside the
 * transaction of its change; the sender (outbox.ts) claims due rows, sends them with no
 * transaction open and records how each ended.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database, MailOutboxState } from '../../db/schema.ts';
import type { OutgoingMail } from '../services/mail/index.ts';
import { canonicalMailbox } from '../limits/limits.ts';
import type { UnsentMailView } from '../../contract/mail.ts';

/** A database handle or an open transaction: queueMails must get the change's transaction. */
type Handle = DB | Transaction<Database>;

/** Outbox ids of mails a use-case queued: handed to sendQueued after the commit. */
export type QueuedMails = readonly string[];

/**
 * Writes `mails` to the outbox in the caller's transaction (`kind` names what they report, for
 * the teacher's list). Nothing is sent: after the commit, `sendQueued` sends them at once, and
 * the periodic sender sends whatever a crash left.
 */
export async function queueMails(trx: Transaction<Database>, kind: string, mails: readonly OutgoingMail[]): Promise<QueuedMails> {
  if (mails.length === 0) return [];
  // Each row is filed under the person it is about and her account, if she has one: an
  // erasure finds her mails by these two, never by searching the words (decision 0029).
  const persons = [...new Set(mails.map(personOf))];
  const accounts = await trx.selectFrom('users').select(['id', 'email']).where('email', 'in', persons).execute();
  const accountOf = new Map(accounts.map((a) => [a.email, a.id]));
  const rows = await trx
    .insertInto('mailOutbox')
    .values(
      mails.map((m) => ({
        kind,
        to: m.to,
        canonicalTo: canonicalMailbox(m.to),
        about: canonicalMailbox(personOf(m)),
        accountId: accountOf.get(personOf(m)) ?? null,
        subject: m.subject,
        text: m.text,
        html: m.html ?? '',
        headers: JSON.stringify(m.headers ?? {}),
        attachments: JSON.stringify(m.attachments ?? []),
      })),
    )
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The address of the person a mail is about, as accounts store addresses (trimmed, lower case). */
const personOf = (m: OutgoingMail) => (m.about ?? m.to).trim().toLowerCase();

/** How long the periodic sender leaves a just-queued mail to the request that queued it. */
export const FRESH_MAIL_GRACE_MS = 5_000;

export interface ClaimedMail {
  id: string;
  kind: string;
  to: string;
  mail: OutgoingMail;
  attempts: number;
  /** The address bounced or complained: the row was marked skipped by the claim, not sent. */
  suppressed: boolean;
}

type Row = {
  id: string;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  attachments: OutgoingMail['attachments'];
  attempts: number;
  state: MailOutboxState;
};

/** The Idempotency-Key an outbox row is sent with (the development mailbox keeps it too). */
export const outboxKey = (id: string) => `mail/${id}`;

const toClaimed = (r: Row): ClaimedMail => ({
  id: r.id,
  kind: r.kind,
  to: r.to,
  attempts: r.attempts,
  suppressed: r.state === 'skipped',
  mail: {
    to: r.to,
    subject: r.subject,
    text: r.text,
    ...(r.html ? { html: r.html } : {}),
    ...(Object.keys(r.headers).length ? { headers: r.headers } : {}),
    ...(r.attachments?.length ? { attachments: r.attachments } : {}),
    // The row's id: the same on every try, whichever replica sends it.
    idempotencyKey: outboxKey(r.id),
  },
});

/**
 * Claims for `claimedBy`, in one committed statement: rows that are due (pending and past their
 * next try) or whose sender died (sending, claimed before `staleBefore`), at most `limit`; or, with
 * `ids`, only those rows and only if still pending (the request that queued them sends them
 * right after its commit). SKIP LOCKED: two replicas claiming at once take different rows. A row
 * whose address is suppressed is claimed as 'skipped' and not sent.
 */
export async function claimMails(
  db: DB,
  options: { claimedBy: string; now: Date; limit: number; staleBefore: Date; ids?: QueuedMails },
): Promise<ClaimedMail[]> {
  const { claimedBy, now, limit, staleBefore, ids } = options;
  const due = ids
    ? sql`state = 'pending' and id in (${sql.join(ids.map((id) => sql`${id}`))})`
    : // A mail never tried is left to the request that queued it for FRESH_MAIL_GRACE_MS: that request
      // sends it right after its commit and answers by whether it left.
      sql`(state = 'pending' and next_attempt_at <= ${now}::timestamptz
            and (attempts > 0 or created_at <= ${new Date(now.getTime() - FRESH_MAIL_GRACE_MS)}::timestamptz))
          or (state = 'sending' and claimed_at < ${staleBefore}::timestamptz)`;
  const { rows } = await sql<Row>`
    update mail_outbox o
    set state = case when exists (select 1 from mail_suppressions s where s.email = o.canonical_to) then 'skipped' else 'sending' end,
        last_error = case when exists (select 1 from mail_suppressions s where s.email = o.canonical_to)
          then (select 'not sent: the address ' || s.reason from mail_suppressions s where s.email = o.canonical_to) else o.last_error end,
        claimed_by = ${claimedBy}, claimed_at = ${now}::timestamptz, attempts = o.attempts + 1
    from (select id from mail_outbox where ${due} order by next_attempt_at limit ${limit} for update skip locked) c
    where o.id = c.id
    returning o.id, o.kind, o."to", o.subject, o.text, o.html, o.headers, o.attachments, o.attempts, o.state`.execute(db);
  return rows.map(toClaimed);
}

/** The provider has it. Only the claimant's 'sending' row moves: a late twin changes nothing. */
export async function markMailSent(db: DB, id: string, claimedBy: string, now: Date): Promise<void> {
  await db
    .updateTable('mailOutbox')
    .set({ state: 'sent', sentAt: now, lastError: null })
    .where('id', '=', id)
    .where('state', '=', 'sending')
    .where('claimedBy', '=', claimedBy)
    .execute();
}

/** A try failed: 'pending' again from `retryAt`, or 'failed' for good (retryAt null). */
export async function markMailUnsent(db: DB, id: string, claimedBy: string, error: string, retryAt: Date | null): Promise<void> {
  await db
    .updateTable('mailOutbox')
    .set(retryAt ? { state: 'pending', nextAttemptAt: retryAt, lastError: error } : { state: 'failed', lastError: error })
    .where('id', '=', id)
    .where('state', '=', 'sending')
    .where('claimedBy', '=', claimedBy)
    .execute();
}

/** Records a bounce or complaint (Resend's webhook): later mails to the mailbox are skipped. */
export async function suppressAddress(db: Handle, email: string, reason: 'bounced' | 'complained', detail: string | null): Promise<void> {
  await db
    .insertInto('mailSuppressions')
    .values({ email: canonicalMailbox(email), reason, detail })
    .onConflict((oc) => oc.column('email').doUpdateSet({ reason, detail }))
    .execute();
}

/** Which of `emails` are suppressed: a lookup answering the reason ('bounced', 'complained') or undefined. */
export async function suppressionsOf(db: Handle, emails: readonly string[]): Promise<(email: string) => string | undefined> {
  const keys = [...new Set(emails.map(canonicalMailbox))];
  const rows = keys.length ? await db.selectFrom('mailSuppressions').select(['email', 'reason']).where('email', 'in', keys).execute() : [];
  const byKey = new Map(rows.map((r) => [r.email, r.reason]));
  return (email) => byKey.get(canonicalMailbox(email));
}

/** What failed or was skipped (since `since`), newest first: the teacher's list (never the mail's text). */
export async function listUnsentMails(db: DB, options: { since?: Date; limit?: number } = {}): Promise<UnsentMailView[]> {
  let query = db
    .selectFrom('mailOutbox')
    .select(['id', 'kind', 'to', 'subject', 'state', 'lastError', 'attempts', 'createdAt'])
    .where('state', 'in', ['failed', 'skipped'])
    .orderBy('createdAt', 'desc')
    .limit(options.limit ?? 200);
  if (options.since) query = query.where('createdAt', '>=', options.since);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    to: r.to,
    subject: r.subject,
    state: r.state as 'failed' | 'skipped',
    error: r.lastError ?? '',
    attempts: r.attempts,
    createdAt: new Date(r.createdAt).toISOString(),
  }));
}

/** The teacher asks for one more try of a failed mail (after fixing the address, say). */
export async function retryMail(db: DB, id: string, now: Date): Promise<boolean> {
  const r = await db
    .updateTable('mailOutbox')
    .set({ state: 'pending', nextAttemptAt: now, attempts: 0, lastError: null })
    .where('id', '=', id)
    .where('state', '=', 'failed')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
