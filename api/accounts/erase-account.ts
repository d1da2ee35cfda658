/**
 * Deleting a client's account (issue 23; GDPR article 17, decision 0025), in one transaction:
 * what no law requires to keep is erased, the money records stay for the books without the
 * name and the address.
 *
 * - Erased: the account (its sessions, login links, intake answers, session notes and access
 *   log go with it: on delete cascade), class sign-ups and waitlist places, the newsletter
 *   subscription and its send records, contact messages and meeting requests sent with the
 *   address, and every mail to or about them in the mail tables (the dev mailbox `mails`, the
 *   outbox and its suppressions when they exist).
 * - Kept without who: booked sessions (date, type, amount, PayPal ids: the books' rows), their
 *   cancellations and refunds, payment attempts, chocolate orders bought with the address.
 *   Names, e-mail, message, shipping name and address are cleared.
 * The sums of the finances page and its CSV files are the same before and after.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';

/** Tables that hold mails (their recipients and words); those that exist are swept. */
const MAIL_TABLES = ['mails', 'mail_outbox', 'mail_suppressions'];

async function sweepMailTables(trx: Transaction<Database>, needles: string[]): Promise<void> {
  const raw = trx.withoutPlugins();
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = current_schema() and data_type in ('text', 'character varying', 'jsonb', 'json')
      and table_name in (${sql.join(MAIL_TABLES)})`.execute(raw);
  const byTable = new Map<string, string[]>();
  for (const r of rows) byTable.set(r.table_name, [...(byTable.get(r.table_name) ?? []), r.column_name]);
  for (const [table, columns] of byTable) {
    const matches = columns.flatMap((column) => needles.map((n) => sql`strpos(lower(${sql.ref(column)}::text), ${n.toLowerCase()}) > 0`));
    await sql`delete from ${sql.table(table)} where ${sql.join(matches, sql` or `)}`.execute(raw);
  }
}

export async function eraseAccount(db: DB, userId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').selectAll().where('id', '=', userId).forUpdate().executeTakeFirst();
    if (!user) return false;
    const email = user.email;
    const fullName = `${user.firstName} ${user.lastName}`.trim();

    // Kept for the books, without who.
    await trx.updateTable('slots').set({ firstName: null, lastName: null, email: null, message: null, link: null }).where('bookedBy', '=', userId).execute();
    await trx.updateTable('bookingCancellations').set({ userId: null, firstName: '', lastName: '', email: '' }).where('userId', '=', userId).execute();
    await trx
      .updateTable('paymentAttempts')
      .set({
        userId: null,
        payerFirstName: null,
        details: sql`${sql.ref('details')} || ${JSON.stringify({ firstName: '', lastName: '', email: '', message: '' })}::jsonb` as never,
      })
      .where('userId', '=', userId)
      .execute();
    await trx
      .updateTable('paymentAttempts')
      .set({ payerFirstName: null, details: sql`${sql.ref('details')} || ${JSON.stringify({ payerName: '', payerEmail: '' })}::jsonb` as never })
      .where(sql<boolean>`lower(details->>'payerEmail') = ${email}`)
      .execute();
    await trx.updateTable('orders').set({ payerName: '', payerEmail: '', shipToName: null, shipToAddress: null }).where('payerEmail', '=', email).execute();

    // Erased.
    await trx.deleteFrom('classSignups').where('email', '=', email).execute();
    await trx.deleteFrom('classWaitlist').where('email', '=', email).execute();
    await trx.deleteFrom('subscribers').where('email', '=', email).execute();
    await trx.deleteFrom('newsletterOutbox').where('email', '=', email).execute();
    await trx.deleteFrom('contactMessages').where('email', '=', email).execute();
    await trx.deleteFrom('bookingRequests').where('email', '=', email).execute();
    await sweepMailTables(trx, [email, userId, ...(user.firstName && user.lastName ? [fullName] : [])]);
    await trx.deleteFrom('users').where('id', '=', userId).execute();
    return true;
  });
}
