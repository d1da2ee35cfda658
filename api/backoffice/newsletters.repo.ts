/** Newsletters and their outbox (db/migrations/0011_back_office.ts, decision 0018): plain SQL. */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database, OutboxState } from '../../db/schema.ts';
import type { NewsletterDraft } from '../../contract/backoffice.ts';

const columns = ['id', 'subject', 'bodyMarkdown', 'status', 'totalCount', 'createdAt', 'updatedAt', 'sendStartedAt', 'sentAt'] as const;

export async function insertNewsletter(db: DB, draft: NewsletterDraft) {
  return db.insertInto('newsletters').values({ subject: draft.subject, bodyMarkdown: draft.body }).returning(columns).executeTakeFirstOrThrow();
}

/** Changes a draft; undefined when there is no such newsletter or it left 'draft'. */
export async function updateDraft(db: DB, id: string, draft: NewsletterDraft) {
  return db
    .updateTable('newsletters')
    .set({ subject: draft.subject, bodyMarkdown: draft.body, updatedAt: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'draft')
    .returning(columns)
    .executeTakeFirst();
}

export async function findNewsletter(db: DB, id: string) {
  return db.selectFrom('newsletters').select(columns).where('id', '=', id).executeTakeFirst();
}

/** Newest first. */
export async function listNewsletters(db: DB) {
  return db.selectFrom('newsletters').select(columns).orderBy('createdAt', 'desc').orderBy('id').limit(500).execute();
}

export type NewsletterRow = Awaited<ReturnType<typeof findNewsletter>> & {};

/** How many outbox rows of each newsletter are in each state, counted now. */
export async function outboxCounts(db: DB, ids: string[]): Promise<Map<string, Record<OutboxState, number>>> {
  const counts = new Map<string, Record<OutboxState, number>>();
  if (ids.length === 0) return counts;
  const rows = await db
    .selectFrom('newsletterOutbox')
    .select(['newsletterId', 'state', (eb) => eb.fn.countAll<string>().as('n')])
    .where('newsletterId', 'in', ids)
    .groupBy(['newsletterId', 'state'])
    .execute();
  for (const r of rows) {
    const c = counts.get(r.newsletterId) ?? { pending: 0, sending: 0, sent: 0, skipped: 0, failed: 0 };
    c[r.state] = Number(r.n);
    counts.set(r.newsletterId, c);
  }
  return counts;
}

/**
 * Starts the send of a draft, in the caller's transaction: the newsletter becomes 'sending' with
 * the postal address every copy will carry (CAN-SPAM, decision 0059), and every current
 * subscriber gets one outbox row (the primary key makes it one). 'not_draft' when it was sent or
 * is being sent already (a second click, a second tab); 'no_postal_address' when `postalAddress`
 * is empty (she has set none, and her shop's address has no street): nothing changes, nothing is queued.
 */
export async function startSend(
  trx: Transaction<Database>,
  id: string,
  now: Date,
  postalAddress: string,
): Promise<{ ok: true; total: number } | { ok: false; kind: 'not_found' | 'not_draft' | 'no_subscribers' | 'no_postal_address' }> {
  const row = await trx.selectFrom('newsletters').select(['status']).where('id', '=', id).forUpdate().executeTakeFirst();
  if (!row) return { ok: false, kind: 'not_found' };
  if (row.status !== 'draft') return { ok: false, kind: 'not_draft' };
  if (!postalAddress.trim()) return { ok: false, kind: 'no_postal_address' };
  const inserted = await trx
    .insertInto('newsletterOutbox')
    .columns(['newsletterId', 'email'])
    .expression((eb) => eb.selectFrom('subscribers').select([eb.val(id).as('newsletterId'), 'email']))
    .onConflict((oc) => oc.doNothing())
    .returning('email')
    .execute();
  const total = inserted.length;
  if (total === 0) return { ok: false, kind: 'no_subscribers' };
  await trx
    .updateTable('newsletters')
    .set({ status: 'sending', totalCount: total, sendStartedAt: now, updatedAt: now, postalAddress })
    .where('id', '=', id)
    .execute();
  return { ok: true, total };
}

/** A stale claim is given up after this many claims (a mail that kills its sender each time). */
export const MAX_CLAIMS = 3;

export interface ClaimedRow {
  newsletterId: string;
  email: string;
  state: 'sending' | 'skipped';
  attempts: number;
}

/**
 * Claims up to `limit` outbox rows in one statement: 'pending' ones, and 'sending' ones whose
 * claim is older than `staleMs` (their sender died). FOR UPDATE SKIP LOCKED lets concurrent
 * senders take disjoint rows. Whoever is no longer a subscriber now is marked 'skipped' by the
 * same statement instead of 'sending'. Takes a transaction that the caller keeps to this and
 * commits before any mail goes out.
 */
export async function claimOutbox(trx: Transaction<Database>, limit: number, now: Date, staleMs: number): Promise<ClaimedRow[]> {
  const stale = new Date(now.getTime() - staleMs);
  // A row that has killed its sender MAX_CLAIMS times is given up rather than tried forever.
  await trx
    .updateTable('newsletterOutbox')
    .set({ state: 'failed', error: `gave up after ${MAX_CLAIMS} claims` })
    .where('state', '=', 'sending')
    .where('claimedAt', '<', stale)
    .where('attempts', '>=', MAX_CLAIMS)
    .execute();
  const { rows } = await sql<ClaimedRow>`
    update newsletter_outbox o
    set state = case when exists (select 1 from subscribers s where s.email = o.email) then 'sending' else 'skipped' end,
        claimed_at = ${now}::timestamptz,
        attempts = o.attempts + 1
    from (
      select newsletter_id, email from newsletter_outbox
      where state = 'pending' or (state = 'sending' and claimed_at < ${stale}::timestamptz)
      order by newsletter_id, email
      limit ${limit}
      for update skip locked
    ) c
    where o.newsletter_id = c.newsletter_id and o.email = c.email
    returning o.newsletter_id as "newsletterId", o.email, o.state, o.attempts`.execute(trx);
  return rows;
}

/** The mail left: the row is done. Only a row still 'sending' moves (a late twin changes nothing). */
export async function markSent(db: DB, newsletterId: string, email: string, now: Date): Promise<void> {
  await db
    .updateTable('newsletterOutbox')
    .set({ state: 'sent', sentAt: now, error: null })
    .where('newsletterId', '=', newsletterId)
    .where('email', '=', email)
    .where('state', '=', 'sending')
    .execute();
}

/**
 * The mail service refused or failed: back to 'pending' for the next tick, or 'failed' for good
 * (a permanent refusal, api/mail/outbox.ts isRetryable, or too many claims).
 */
export async function markUnsent(db: DB, row: ClaimedRow, error: string, permanent = false): Promise<void> {
  await db
    .updateTable('newsletterOutbox')
    .set({ state: permanent || row.attempts >= MAX_CLAIMS ? 'failed' : 'pending', error: error.slice(0, 500) })
    .where('newsletterId', '=', row.newsletterId)
    .where('email', '=', row.email)
    .where('state', '=', 'sending')
    .execute();
}

/** A claimed row whose address bounced or complained (mail_suppressions): skipped, not sent. */
export async function markSuppressed(db: DB, row: ClaimedRow, reason: string): Promise<void> {
  await db
    .updateTable('newsletterOutbox')
    .set({ state: 'skipped', error: `not sent: the address ${reason}` })
    .where('newsletterId', '=', row.newsletterId)
    .where('email', '=', row.email)
    .where('state', '=', 'sending')
    .execute();
}

/** Newsletters whose outbox has drained become 'sent', with their final counts. */
export async function finishDrained(db: DB, now: Date): Promise<void> {
  await sql`
    update newsletters n
    set status = 'sent', sent_at = ${now}::timestamptz, updated_at = ${now}::timestamptz,
        sent_count = (select count(*) from newsletter_outbox o where o.newsletter_id = n.id and o.state = 'sent'),
        skipped_count = (select count(*) from newsletter_outbox o where o.newsletter_id = n.id and o.state = 'skipped'),
        failed_count = (select count(*) from newsletter_outbox o where o.newsletter_id = n.id and o.state = 'failed')
    where n.status = 'sending'
      and not exists (select 1 from newsletter_outbox o where o.newsletter_id = n.id and o.state in ('pending', 'sending'))`.execute(db);
}

/** Subjects, bodies and postal addresses (null: sent before 0045) of the newsletters the claimed rows belong to. */
export async function lettersOf(db: DB, ids: string[]) {
  if (ids.length === 0) return new Map<string, { subject: string; body: string; postalAddress: string | null }>();
  const rows = await db.selectFrom('newsletters').select(['id', 'subject', 'bodyMarkdown', 'postalAddress']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, { subject: r.subject, body: r.bodyMarkdown, postalAddress: r.postalAddress }]));
}

export async function adminEmail(db: DB, adminId: string): Promise<string | undefined> {
  return (await db.selectFrom('admins').select('email').where('id', '=', adminId).executeTakeFirst())?.email;
}
