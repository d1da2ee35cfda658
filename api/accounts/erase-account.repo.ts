/**
 * The erasure's statements (api/accounts/erase-account.ts; issue 23, GDPR article 17, decision
 * 0025), each run in the erasure's one transaction, in the order it gives: her account held,
 * the books' rows kept without who, what no law requires erased, her mails, then the account.
 */
import { sql, type Transaction } from 'kysely';
import type { Database, PaymentAttemptsTable } from '../../db/schema.ts';

type Trx = Transaction<Database>;

/** Her account, held until the erasure commits (two erasures of one account run one at a time). */
export async function lockAccount(trx: Trx, userId: string) {
  return trx.selectFrom('users').selectAll().where('id', '=', userId).forUpdate().executeTakeFirst();
}

/** The other accounts whose address is at one of `domains` (the mailbox compare is the caller's). */
export async function otherAccountsAtDomains(trx: Trx, userId: string, domains: readonly string[]) {
  return trx
    .selectFrom('users')
    .select(['id', 'email'])
    .where('id', '!=', userId)
    .where(sql<string>`split_part(rtrim(email, '.'), '@', 2)`, 'in', domains)
    .execute();
}

/**
 * Erases her outbox rows: those filed under her account, and, unless another account delivers
 * to her mailbox (`shared`), those about her mailbox filed under no account or hers. Their ids.
 */
export async function deleteOutboxMailsOf(trx: Trx, userId: string, mailbox: string, shared: boolean) {
  return trx
    .deleteFrom('mailOutbox')
    .where((eb) =>
      eb.or([
        eb('accountId', '=', userId),
        // A mailbox another account also delivers to: only the rows filed under her account.
        ...(shared ? [] : [eb.and([eb('about', '=', mailbox), eb.or([eb('accountId', 'is', null), eb('accountId', '=', userId)])])]),
      ]),
    )
    .returning('id')
    .execute();
}

/**
 * The mails to others that name her (mail_outbox.names, decision 0053: the gift card to its
 * recipient names its buyer, the buyer's receipt names the recipient), once they have left:
 * their words emptied, who, what kind and when kept for the other person. One still waiting to
 * leave keeps its words until it is sent (the sender drops them then): it is someone else's mail.
 * Their ids.
 */
export async function emptyMailsNaming(trx: Trx, mailbox: string) {
  return (
    trx
      .updateTable('mailOutbox')
      // Her mailbox leaves the list too: the row then names no one it was about.
      .set({ subject: '', text: '', html: '', names: sql`names - ${mailbox}::text` as never })
      .where(sql<boolean>`names @> ${JSON.stringify([mailbox])}::jsonb`)
      .where('state', 'not in', ['pending', 'sending'])
      .returning('id')
      .execute()
  );
}

/** The development mailbox's copies of mails to others that name her (sent with one of `keys`): their words emptied. */
export async function emptyMailboxCopies(trx: Trx, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await trx.updateTable('mails').set({ subject: '', text: '', html: '' }).where('idempotencyKey', 'in', keys).execute();
}

/** Every session she booked, past or to come (their calendar events are hers, decision 0053). */
export async function sessionIdsOf(trx: Trx, userId: string): Promise<string[]> {
  const rows = await trx.selectFrom('slots').select('id').where('bookedBy', '=', userId).execute();
  return rows.map((r) => r.id);
}

/**
 * The free meetings booked on the home page with her address (issue 47), past or to come: their
 * events in the teacher's calendar are hers too (a free meeting is a session there, keyed by its
 * own id). eraseRowsOfAddress deletes them.
 */
export async function freeMeetingIdsOf(trx: Trx, email: string): Promise<string[]> {
  const rows = await trx
    .selectFrom('freeMeetings')
    .select('id')
    .where(sql`lower(email)`, '=', email)
    .execute();
  return rows.map((r) => r.id);
}

/** The development mailbox's copies: addressed to `email` exactly, or sent with one of `keys`. */
export async function deleteMailboxCopies(trx: Trx, email: string, keys: readonly string[]): Promise<void> {
  await trx
    .deleteFrom('mails')
    .where((eb) => eb.or([eb(sql<string>`lower(trim(${sql.ref('to')}))`, '=', email), ...(keys.length ? [eb('idempotencyKey', 'in', keys)] : [])]))
    .execute();
}

export async function deleteSuppression(trx: Trx, mailbox: string): Promise<void> {
  await trx.deleteFrom('mailSuppressions').where('email', '=', mailbox).execute();
}

/** Kept for the books, without who: her sessions, their cancellations, her payments and orders lose her name and address. */
export async function keepBooksWithoutWho(trx: Trx, userId: string, email: string): Promise<void> {
  await trx.updateTable('slots').set({ firstName: null, lastName: null, email: null, message: null, link: null }).where('bookedBy', '=', userId).execute();
  await trx.updateTable('bookingCancellations').set({ userId: null, firstName: '', lastName: '', email: '' }).where('userId', '=', userId).execute();
  // Payment attempts of every kind (issue 47): each kind's names and addresses, reached by her
  // account or her exact address in the field that holds it, never by a search of the words.
  const blank = (fields: Record<string, string>) => sql`${sql.ref('details')} || ${JSON.stringify(fields)}::jsonb` as never;
  // Each kind: the details' fields that name her, the field that holds her address (or her
  // account, for a booking and a card she bought signed in), and whether PayPal's name for the
  // payer goes too (she was the payer).
  const kinds: { kind: PaymentAttemptsTable['kind']; fields: string[]; addressIn?: string; byAccount?: true; payer: boolean }[] = [
    { kind: 'booking', fields: ['firstName', 'lastName', 'email', 'message'], byAccount: true, payer: false },
    { kind: 'order', fields: ['payerName', 'payerEmail'], addressIn: 'payerEmail', payer: true },
    // A gift card she bought (signed in or not), and one bought for her: the message names them both.
    { kind: 'gift_card', fields: ['buyerName', 'buyerEmail', 'message'], addressIn: 'buyerEmail', byAccount: true, payer: true },
    { kind: 'gift_card', fields: ['recipientName', 'recipientEmail', 'message'], addressIn: 'recipientEmail', payer: false },
    // A workshop place she paid (issue 34).
    { kind: 'event', fields: ['name', 'email', 'phone'], addressIn: 'email', payer: true },
  ];
  for (const k of kinds) {
    await trx
      .updateTable('paymentAttempts')
      .set({ details: blank(Object.fromEntries(k.fields.map((f) => [f, '']))), ...(k.payer ? { payerFirstName: null } : {}) })
      .where('kind', '=', k.kind)
      .where((eb) =>
        eb.or([...(k.byAccount ? [eb('userId', '=', userId)] : []), ...(k.addressIn ? [eb(sql<string>`lower(details->>${k.addressIn})`, '=', email)] : [])]),
      )
      .execute();
  }
  // Whatever else her account paid (packages, bookings): the account and PayPal's name for her go.
  await trx.updateTable('paymentAttempts').set({ userId: null, payerFirstName: null }).where('userId', '=', userId).execute();
  await trx.updateTable('orders').set({ payerName: '', payerEmail: '', shipToName: null, shipToAddress: null }).where('payerEmail', '=', email).execute();
  // Gift cards (issue 33): the cards she bought keep their money and lose her name and address; a
  // card given to her and delivered loses her name, address and the words to her (its code, held
  // by whoever has it, still spends). A card on its way to her is the buyer's, left as it is.
  await trx
    .updateTable('giftCards')
    .set({ buyerName: '', buyerEmail: null, message: '' })
    .where(sql`lower(buyer_email)`, '=', email)
    .execute();
  await trx
    .updateTable('giftCards')
    .set({ recipientName: '', recipientEmail: '', message: '' })
    .where(sql`lower(recipient_email)`, '=', email)
    .where('deliveredAt', 'is not', null)
    .execute();
}

/**
 * Erased by her address: class sign-ups and waitlist places, the newsletter subscription and its
 * send records, contact messages and meeting requests; her name and address taken off the money
 * of class places and tasting requests (issue 34), which her books keep. The send records erased (their mails' keys).
 */
export async function eraseRowsOfAddress(trx: Trx, email: string) {
  await trx.deleteFrom('classSignups').where('email', '=', email).execute();
  await trx.deleteFrom('classWaitlist').where('email', '=', email).execute();
  await trx.deleteFrom('subscribers').where('email', '=', email).execute();
  const newsletters = await trx.deleteFrom('newsletterOutbox').where('email', '=', email).returning(['newsletterId', 'email']).execute();
  await trx.deleteFrom('contactMessages').where('email', '=', email).execute();
  await trx.deleteFrom('bookingRequests').where('email', '=', email).execute();
  // A free meeting is no money: it goes, and its time with it (its event renamed first: eraseEventsOf).
  await trx
    .deleteFrom('freeMeetings')
    .where(sql`lower(email)`, '=', email)
    .execute();
  // Issue 34: the money of a class place stays in her books; who paid does not (a tasting's: tastings/deleted-account.repo.ts).
  await trx.updateTable('eventPayments').set({ name: '', email: '' }).where('email', '=', email).execute();
  return newsletters;
}

/** The account itself (its sessions, login links and private records go with it: on delete cascade). */
export async function deleteAccount(trx: Trx, userId: string): Promise<void> {
  await trx.deleteFrom('users').where('id', '=', userId).execute();
}
