/**
 * Refunds owed (db/migrations/0042_refunds_owed.ts, decision 0055): written in the transaction
 * that takes the money back on the ledger, then claimed before each try by one conditional
 * UPDATE that pushes its next try out by a lease, so of the press that owed it and the runners
 * of every replica, one tries it at a time; a crashed try's lease lapses and the runner takes it.
 */
import { sql, type Selectable, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database, RefundOwedKind, RefundsOwedTable } from '../../db/schema.ts';

export type RefundOwed = Selectable<RefundsOwedTable>;

/** What a new row names: the table's own columns, without what the table keeps itself (state, tries, times). */
export type NewRefundOwed = Pick<RefundOwed, 'kind' | 'subjectId' | 'what' | 'userId' | 'paypalOrderId' | 'paypalCaptureId' | 'amountCents'>;

/** Owes a refund, in the caller's transaction; undefined when this subject's refund is owed (or made) already. */
export async function insertRefundOwed(trx: Transaction<Database>, row: NewRefundOwed): Promise<string | undefined> {
  const inserted = await trx
    .insertInto('refundsOwed')
    .values(row)
    .onConflict((oc) => oc.columns(['kind', 'subjectId']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id;
}

const leaseUntil = (leaseMs: number) => sql<Date>`now() + make_interval(secs => ${leaseMs / 1000})`;

/** Claims one refund owed for a try, when it is due and nobody holds it: its row, else undefined. */
export async function claimRefundOwed(db: DB, id: string, leaseMs: number): Promise<RefundOwed | undefined> {
  return db
    .updateTable('refundsOwed')
    .set({ nextTryAt: leaseUntil(leaseMs) })
    .where('id', '=', id)
    .where('state', '=', 'owed')
    .where('nextTryAt', '<=', sql<Date>`now()`)
    .returningAll()
    .executeTakeFirst();
}

/** Claims up to `limit` refunds owed whose next try is due, oldest first; another runner's are skipped. */
export async function claimDueRefunds(db: DB, leaseMs: number, limit: number): Promise<RefundOwed[]> {
  const due = db
    .selectFrom('refundsOwed')
    .select('id')
    .where('state', '=', 'owed')
    .where('nextTryAt', '<=', sql<Date>`now()`)
    .orderBy('nextTryAt')
    .limit(limit)
    .forUpdate()
    .skipLocked();
  return db
    .updateTable('refundsOwed')
    .set({ nextTryAt: leaseUntil(leaseMs) })
    .where('id', 'in', due)
    .returningAll()
    .execute();
}

/** PayPal refunded it (now or before): done. */
export async function markRefundDone(db: DB, id: string, paypalCaptureId: string): Promise<void> {
  await db
    .updateTable('refundsOwed')
    .set({ state: 'done', doneAt: sql<Date>`now()`, paypalCaptureId, lastError: null })
    .where('id', '=', id)
    .where('state', '=', 'owed')
    .execute();
}

/**
 * A try that failed: counted, its error kept, the next try after `waitMs`; marked told. Answers
 * whether she was not told of it yet (the first failure), so the caller mails her in this
 * transaction, once.
 */
export async function markRefundFailed(
  trx: Transaction<Database>,
  id: string,
  failure: { error: string; waitMs: (attempts: number) => number; paypalCaptureId: string | null },
): Promise<{ firstFailure: boolean; attempts: number } | undefined> {
  const row = await trx.selectFrom('refundsOwed').select(['attempts', 'toldAt', 'state']).where('id', '=', id).forUpdate().executeTakeFirst();
  if (!row || row.state !== 'owed') return undefined;
  const attempts = row.attempts + 1;
  await trx
    .updateTable('refundsOwed')
    .set({
      attempts,
      lastError: failure.error.slice(0, 500),
      nextTryAt: leaseUntil(failure.waitMs(attempts)),
      toldAt: sql<Date>`coalesce(told_at, now())`,
      ...(failure.paypalCaptureId ? { paypalCaptureId: failure.paypalCaptureId } : {}),
    })
    .where('id', '=', id)
    .execute();
  return { firstFailure: row.toldAt === null, attempts };
}

/** One subject's refund (the lot's, the card's), owed or done; undefined when none was owed. */
export function refundOfSubject(db: DB, kind: RefundOwedKind, subjectId: string) {
  return db.selectFrom('refundsOwed').selectAll().where('kind', '=', kind).where('subjectId', '=', subjectId).executeTakeFirst();
}

/** The refunds still owed to a client, oldest first (her page, the client's balance). */
export function refundsOwedTo(db: DB, userId: string) {
  return db
    .selectFrom('refundsOwed')
    .select(['id', 'kind', 'what', 'amountCents', 'attempts', 'lastError', 'createdAt'])
    .where('userId', '=', userId)
    .where('state', '=', 'owed')
    .orderBy('createdAt')
    .execute();
}

/** Every refund still owed, oldest first, with the client's name (her Today). */
export function allRefundsOwed(db: DB) {
  return db
    .selectFrom('refundsOwed')
    .leftJoin('users', 'users.id', 'refundsOwed.userId')
    .select([
      'refundsOwed.id',
      'refundsOwed.kind',
      'refundsOwed.what',
      'refundsOwed.amountCents',
      'refundsOwed.userId',
      'refundsOwed.attempts',
      'refundsOwed.lastError',
      'refundsOwed.createdAt',
      'users.firstName',
      'users.lastName',
    ])
    .where('refundsOwed.state', '=', 'owed')
    .orderBy('refundsOwed.createdAt')
    .execute();
}
