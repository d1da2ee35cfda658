/**
 * Deleting a client's account (issue 23; GDPR article 17, decision 0025), in one transaction:
 * what no law requires to keep is erased, the money records stay for the books without the
 * name and the address.
 *
 * - Erased: the account (its sessions, login links, intake answers, session notes and access
 *   log go with it: on delete cascade), class sign-ups and waitlist places, the newsletter
 *   subscription and its send records, contact messages, meeting requests and free meetings sent with the
 *   address, and every mail to or about them (the outbox, the development mailbox `mails`, the
 *   suppression of their mailbox): found by account and mailbox, never by their words.
 * - Kept without who: booked sessions (date, type, amount, PayPal ids: the books' rows), their
 *   cancellations and refunds, payment attempts of every kind, chocolate orders bought with the
 *   address, gift cards she bought or was given, her tastings. Names, e-mail, phone, message,
 *   shipping name and address, a tasting's place are cleared.
 * - Reached wherever the money put her (issue 47, decision 0053): the mails to others that name
 *   her are emptied once sent; the events written to the teacher's Google Calendar for her
 *   sessions and tastings are renamed to a neutral title, then taken out; a tasting of hers still
 *   to come is called off by the teacher's policy and the teacher told what, never who; a gift
 *   card on its way to her waits unsent, its buyer asked for a new recipient.
 * The sums of the finances page and its CSV files are the same before and after.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { canonicalMailbox } from '../services/limits.ts';
import { outboxKey } from '../mail/outbox.repo.ts';
import { idempotencyKey as newsletterKey } from '../backoffice/newsletter-sender.ts';
import { commitWithMails } from '../mail/commit.ts';
import type { Services } from '../services/index.ts';
import { cancelComingSessionsOfDeletedAccount, settleCancelledOfDeletedAccount } from '../booking/sessions-of-deleted-account.ts';
import { cancelComingTastingsOfDeletedAccount, settleTastingsOfDeletedAccount } from '../tastings/tastings-of-deleted-account.ts';
import { eraseTastingsOf } from '../tastings/deleted-account.repo.ts';
import { eraseEventsOf, nudgeWriteBack } from '../agenda/write-back.ts';
import { withholdCardsOfErased } from '../gift-cards/gift-cards.ts';
import {
  deleteAccount,
  deleteMailboxCopies,
  deleteOutboxMailsOf,
  deleteSuppression,
  emptyMailboxCopies,
  emptyMailsNaming,
  eraseRowsOfAddress,
  freeMeetingIdsOf,
  keepBooksWithoutWho,
  lockAccount,
  otherAccountsAtDomains,
  sessionIdsOf,
} from './erase-account.repo.ts';

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
  const sameDomain = await otherAccountsAtDomains(trx, user.id, domain === 'gmail.com' ? ['gmail.com', 'googlemail.com'] : [domain]);
  const shared = sameDomain.some((u) => canonicalMailbox(u.email) === mailbox);
  const erased = await deleteOutboxMailsOf(trx, user.id, mailbox, shared);
  const keys = [...erased.map((r) => outboxKey(r.id)), ...newsletterKeys];
  await deleteMailboxCopies(trx, user.email, keys);
  // Mails to others that name her (decision 0053): found by the mailbox they recorded, emptied.
  if (!shared)
    await emptyMailboxCopies(
      trx,
      (await emptyMailsNaming(trx, mailbox)).map((r) => outboxKey(r.id)),
    );
  if (!shared) await deleteSuppression(trx, mailbox);
}

/** Why an account was not erased: there is none by that id (or it was erased already). */
export type EraseRefusal = 'no-account';
export type EraseResult = { ok: true } | { ok: false; kind: EraseRefusal };

export type EraseDeps = Pick<Services, 'db' | 'env' | 'payments' | 'mailer' | 'realtime' | 'clock'> & Partial<Pick<Services, 'calendar'>>;

/**
 * The one erasure of an account, whoever asks: the client by the mailed link, the teacher from
 * the client's page or from the Clients list (no route deletes the user row alone). Sessions
 * still to come are cancelled by her policy first and the teacher is mailed them (issue 30);
 * refunds and the mail leave after the commit.
 */
export async function eraseAccount(deps: EraseDeps, userId: string): Promise<EraseResult> {
  const { result: done } = await commitWithMails(deps, async (trx) => {
    const user = await lockAccount(trx, userId);
    if (!user) return { result: undefined, mails: [] };
    const email = user.email;
    const now = deps.clock.now();
    // Every session of hers, read before the coming ones are freed: their calendar events are hers.
    const sessionIds = [...(await sessionIdsOf(trx, userId)), ...(await freeMeetingIdsOf(trx, email))];

    // Her sessions to come: cancelled (refunded by policy after the commit), the teacher told which.
    const coming = await cancelComingSessionsOfDeletedAccount(trx, deps.env, userId, now);
    // Her tastings to come: called off by the same notice, the teacher told what (issue 47).
    const tastings = await cancelComingTastingsOfDeletedAccount(trx, deps.env, { email, now });
    const tastingEventIds = await eraseTastingsOf(trx, email);
    await eraseEventsOf(trx, { sessionIds, tastingEventIds }, now);

    // Cards on their way to her wait for a new recipient, their buyers asked for one (issue 47).
    const withheld = await withholdCardsOfErased(trx, deps.env, email);
    await keepBooksWithoutWho(trx, userId, email);
    const newsletters = await eraseRowsOfAddress(trx, email);
    await eraseMails(
      trx,
      user,
      newsletters.map((n) => newsletterKey(n.newsletterId, n.email)),
    );
    await deleteAccount(trx, userId);
    return { result: { sessions: coming.cancelled, tastings: tastings.cancelled }, mails: [...coming.mails, ...tastings.mails, ...withheld] };
  });
  if (!done) return { ok: false, kind: 'no-account' };
  // Her events renamed, then taken out of the teacher's calendar, now rather than at the next tick.
  nudgeWriteBack(deps);
  await settleCancelledOfDeletedAccount(deps, done.sessions);
  await settleTastingsOfDeletedAccount(deps, done.tastings);
  return { ok: true };
}
