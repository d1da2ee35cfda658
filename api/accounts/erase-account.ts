/**
 * Deleting a client's account (issue 23; GDPR article 17, decision 0025), in one transaction:
 * what no law requires to keep is erased, the money records stay for the books without the
 * name and the address.
 *
 * - Erased: the account (its sessions, login links, intake answers, session notes and access
 *   log go with it: on delete cascade), class sign-ups and waitlist places, the newsletter
 *   subscription and its send records, contact messages and meeting requests sent with the
 *   address, and every mail to or about them (the outbox, the development mailbox `mails`, the
 *   suppression of their mailbox): found by account and mailbox, never by their words.
 * - Kept without who: booked sessions (date, type, amount, PayPal ids: the books' rows), their
 *   cancellations and refunds, payment attempts, chocolate orders bought with the address.
 *   Names, e-mail, message, shipping name and address are cleared.
 * The sums of the finances page and its CSV files are the same before and after.
 */
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { canonicalMailbox } from '../limits/limits.ts';
import { outboxKey } from '../mail/outbox.repo.ts';
import { idempotencyKey as newsletterKey } from '../backoffice/newsletter-sender.ts';
import { commitWithMails } from '../mail/commit.ts';
import type { Services } from '../services/index.ts';
import { cancelComingSessionsOfDeletedAccount, settleCancelledOfDeletedAccount } from '../booking/sessions-of-deleted-account.ts';

/**
 * Her mails, and nobody else's (issue 29, decision 0029): the outbox rows filed under her
 * account or her mailbox (about, account_id: queueMails), unless another account holds that
 * mailbox; the development mailbox's copies of those rows and of her newsletters (by the key
 * they were sent with) and whatever it holds addressed to her exactly; the suppression of her
 * mailbox when no other account delivers there. Never a search of the words: `ann@` is not
 * `joann@`, and a client named like the teacher is not the teacher.
 */
async function eraseMails(trx: Transaction<Database>, user: { id: string; email: string }, newsletterKeys: readonly string[]): Promise<void> {
  const mailbox = canonicalMailbox(user.email);
  const domain = mailbox.slice(mailbox.lastIndexOf('@') + 1);
  const sameDomain = await trx
    .selectFrom('users')
    .select(['id', 'email'])
    .where('id', '!=', user.id)
    .where(sql<string>`split_part(rtrim(email, '.'), '@', 2)`, 'in', domain === 'gmail.com' ? ['gmail.com', 'googlemail.com'] : [domain])
    .execute();
  const shared = sameDomain.some((u) => canonicalMailbox(u.email) === mailbox);
  const erased = await trx
    .deleteFrom('mailOutbox')
    .where((eb) =>
      eb.or([
        eb('accountId', '=', user.id),
        // A mailbox another account also delivers to: only the rows filed under her account.
        ...(shared ? [] : [eb.and([eb('about', '=', mailbox), eb.or([eb('accountId', 'is', null), eb('accountId', '=', user.id)])])]),
      ]),
    )
    .returning('id')
    .execute();
  const keys = [...erased.map((r) => outboxKey(r.id)), ...newsletterKeys];
  await trx
    .deleteFrom('mails')
    .where((eb) => eb.or([eb(sql<string>`lower(trim(${sql.ref('to')}))`, '=', user.email), ...(keys.length ? [eb('idempotencyKey', 'in', keys)] : [])]))
    .execute();
  if (!shared) await trx.deleteFrom('mailSuppressions').where('email', '=', mailbox).execute();
}

/** Why an account was not erased: there is none by that id (or it was erased already). */
export type EraseRefusal = 'no-account';
export type EraseResult = { ok: true } | { ok: false; kind: EraseRefusal };

export type EraseDeps = Pick<Services, 'db' | 'env' | 'payments' | 'mailer' | 'realtime' | 'clock'>;

/**
 * The one erasure of an account, whoever asks: the client by the mailed link, the teacher from
 * the client's page or from the Clients list (no route deletes the user row alone). Sessions
 * still to come are cancelled by her policy first and the teacher is mailed them (issue 30);
 * refunds and the mail leave after the commit.
 */
export async function eraseAccount(deps: EraseDeps, userId: string): Promise<EraseResult> {
  const { result: done } = await commitWithMails(deps, async (trx) => {
    const user = await trx.selectFrom('users').selectAll().where('id', '=', userId).forUpdate().executeTakeFirst();
    if (!user) return { result: undefined, mails: [] };
    const email = user.email;

    // Her sessions to come: cancelled (refunded by policy after the commit), the teacher told which.
    const coming = await cancelComingSessionsOfDeletedAccount(trx, deps.env, userId, deps.clock.now());

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
    const newsletters = await trx.deleteFrom('newsletterOutbox').where('email', '=', email).returning(['newsletterId', 'email']).execute();
    await trx.deleteFrom('contactMessages').where('email', '=', email).execute();
    await trx.deleteFrom('bookingRequests').where('email', '=', email).execute();
    await eraseMails(
      trx,
      user,
      newsletters.map((n) => newsletterKey(n.newsletterId, n.email)),
    );
    await trx.deleteFrom('users').where('id', '=', userId).execute();
    return { result: coming.cancelled, mails: coming.mails };
  });
  if (!done) return { ok: false, kind: 'no-account' };
  await settleCancelledOfDeletedAccount(deps, done);
  return { ok: true };
}
