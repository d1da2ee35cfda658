import { sql, type Kysely } from 'kysely';

/**
 * Issue 47 (decision 0055): a refund made after its commit (a package's PayPal sale refunded, a
 * gift card voided before delivery) is first owed: one row written in the transaction that takes
 * the money back on the ledger, then tried after the commit with no transaction open and, while
 * PayPal refuses, again by the refund runner with a growing wait, until PayPal answers. The row is
 * what her Today, the client's page and the client's own balance show as "refund owed".
 *
 * - kind + subject_id: what is refunded (the lot, the card); one row each (the unique index), so a
 *   second press finds it owed already rather than owing it twice.
 * - paypal_capture_id: the capture to refund, whose PayPal-Request-Id keys the call (a retry after
 *   a crash is the same request; a capture refunded already counts as done).
 * - user_id: the client it is owed to (null for a card bought by someone without an account);
 *   erased with her (set null): amounts and dates stay, who goes.
 * - attempts, next_try_at, last_error: the runner's; told_at: the teacher mailed of its first
 *   failure, once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('refunds_owed')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('package', 'gift_card')`))
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('what', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('paypal_order_id', 'text')
    .addColumn('paypal_capture_id', 'text')
    .addColumn('amount_cents', 'integer', (c) => c.notNull().check(sql`amount_cents >= 0`))
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('owed')
        .check(sql`state in ('owed', 'done')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_try_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_error', 'text')
    .addColumn('told_at', 'timestamptz')
    .addColumn('done_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index refunds_owed_once on refunds_owed (kind, subject_id)`.execute(db);
  await sql`create index refunds_owed_due on refunds_owed (next_try_at) where state = 'owed'`.execute(db);
  await sql`create index refunds_owed_user on refunds_owed (user_id) where user_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('refunds_owed').execute();
}
