/**
 * The mail outbox's SQL (decision 0024). A use-case writes its mails with `queueMails` inside the
 * transaction of its change; the sender (outbox.ts) claims due rows, sends them with no
 * transaction open and records how each ended.
 *
 * No secret at rest in clear (issue 47, decision 0052): a row's words (subject, text, html,
 * headers, attachments) are written sealed (sealed-mail.ts) into `sealed`, under `key_id`, and
 * its clear columns stay empty; the claim opens them; once sent they are dropped and only the
 * subject is kept in clear (subjects name people and what happened, never a code or a link).
 * A row with no key id is clear: a legacy row queued before 0039, sent as it is.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database, MailOutboxState } from '../../db/schema.ts';
import type { OutgoingMail } from '../services/mail/index.ts';
import { canonicalMailbox } from '../services/limits.ts';
import type { UnsentMailView } from '../../contract/mail.ts';
import { openMail, sealMail, unopenedReason, type MailWords } from './sealed-mail.ts';

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
      mails.map((m) => {
        // The id is made here, so the sealed words are bound to their row before it exists.
        const id = randomUUID();
        const { keyId, sealed } = sealMail(id, m);
        return {
          id,
          kind,
          to: m.to,
          canonicalTo: canonicalMailbox(m.to),
          about: canonicalMailbox(personOf(m)),
          accountId: accountOf.get(personOf(m)) ?? null,
          names: JSON.stringify((m.names ?? []).map(canonicalMailbox)),
          // The words only sealed: the clear columns stay empty (a legacy row holds its words in them).
          subject: '',
          text: '',
          keyId,
          sealed,
        };
      }),
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
  /** Its sealed words did not open with any key this process knows (why, without content): not sent. */
  unopened?: string;
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
  keyId: string | null;
  sealed: string | null;
};

/** The Idempotency-Key an outbox row is sent with (the development mailbox keeps it too). */
export const outboxKey = (id: string) => `mail/${id}`;

/** A row's words: opened when sealed, as stored when clear (a legacy row). */
function wordsOf(r: Pick<Row, 'id' | 'subject' | 'text' | 'html' | 'headers' | 'attachments' | 'keyId' | 'sealed'>): MailWords {
  if (r.keyId && r.sealed) return openMail(r.id, r.keyId, r.sealed);
  return { subject: r.subject, text: r.text, html: r.html, headers: r.headers ?? {}, attachments: r.attachments ?? [] };
}

function toClaimed(r: Row): ClaimedMail {
  const claimed = { id: r.id, kind: r.kind, to: r.to, attempts: r.attempts, suppressed: r.state === 'skipped' };
  let words: MailWords;
  try {
    words = wordsOf(r);
  } catch (err) {
    return { ...claimed, mail: { to: r.to, subject: '', text: '' }, unopened: unopenedReason(err) };
  }
  return {
    ...claimed,
    mail: {
      to: r.to,
      subject: words.subject,
      text: words.text,
      ...(words.html ? { html: words.html } : {}),
      ...(Object.keys(words.headers).length ? { headers: words.headers } : {}),
      ...(words.attachments?.length ? { attachments: words.attachments } : {}),
      // The row's id: the same on every try, whichever replica sends it.
      idempotencyKey: outboxKey(r.id),
    },
  };
}

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
    returning o.id, o.kind, o."to", o.subject, o.text, o.html, o.headers, o.attachments, o.attempts, o.state, o.key_id as "keyId", o.sealed`.execute(db);
  return rows.map(toClaimed);
}

/** A sent mail's columns once its words are dropped. */
const DROPPED = { text: '', html: '', headers: '{}', attachments: '[]', keyId: null, sealed: null } as const;

/**
 * The provider has it. Only the claimant's 'sending' row moves: a late twin changes nothing. Its
 * words are dropped (a sent mail's link or code must not outlive it at rest): who, what kind,
 * when and its `subject` (clear: subjects carry no secret) are kept, for her and the export,
 * unless the mail names someone else.
 */
export async function markMailSent(db: DB, id: string, claimedBy: string, now: Date, subject: string): Promise<void> {
  await db
    .updateTable('mailOutbox')
    // A mail that names someone besides its recipient (mail_outbox.names: the card "from" its
    // buyer) keeps no subject either: a subject can name her, and one who is erased while it
    // waited must not stay named in clear after it leaves (decision 0053).
    .set({ state: 'sent', sentAt: now, lastError: null, subject: sql<string>`case when names = '[]'::jsonb then ${subject} else '' end`, ...DROPPED })
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

/**
 * What failed or was skipped (since `since`), newest first: the teacher's list (never the mail's
 * text). The subject she needs to know which mail it was is opened from the sealed words.
 */
export async function listUnsentMails(db: DB, options: { since?: Date; limit?: number } = {}): Promise<UnsentMailView[]> {
  let query = db
    .selectFrom('mailOutbox')
    .select(['id', 'kind', 'to', 'subject', 'state', 'lastError', 'attempts', 'createdAt', 'keyId', 'sealed'])
    .where('state', 'in', ['failed', 'skipped'])
    .orderBy('createdAt', 'desc')
    .limit(options.limit ?? 200);
  if (options.since) query = query.where('createdAt', '>=', options.since);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    to: r.to,
    subject: subjectOf(r),
    state: r.state as 'failed' | 'skipped',
    error: r.lastError ?? '',
    attempts: r.attempts,
    createdAt: new Date(r.createdAt).toISOString(),
  }));
}

/** The subject of a row for her list: opened when sealed; said plainly when it does not open here. */
function subjectOf(r: { id: string; subject: string; keyId: string | null; sealed: string | null }): string {
  if (!r.keyId || !r.sealed) return r.subject;
  try {
    return openMail(r.id, r.keyId, r.sealed).subject;
  } catch {
    return '(its words do not open here)';
  }
}

/** `npm run rotate-keys`: the rows sealed with another key than `currentKeyId` (unsent mails: a few at most). */
export async function mailsSealedWithOtherKeys(db: DB, currentKeyId: string) {
  return db.selectFrom('mailOutbox').select(['id', 'keyId', 'sealed']).where('keyId', 'is not', null).where('keyId', '!=', currentKeyId).execute();
}

/** Writes a row's words sealed again, unless they changed meanwhile (sent and dropped, say); whether it did. */
export async function resealMailRow(db: DB, id: string, was: string, next: { keyId: string; sealed: string }): Promise<boolean> {
  const r = await db.updateTable('mailOutbox').set(next).where('id', '=', id).where('sealed', '=', was).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
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
