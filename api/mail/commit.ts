/**
 * The change and its mails in one transaction, sent after the commit (decision 0024, issue 31's
 * handler recipe): the one way a use-case or a route writes something that mails someone.
 *
 *   const done = await commitWithMails(services, async (trx) => {
 *     await insertContactMessage(trx, message);
 *     return { result: undefined, mails: await queueMails(trx, 'contact-message', mails) };
 *   });
 *   // done.allSent: every queued mail left now (a route may answer 503 when the mail was the point).
 *
 * `work` runs in one transaction and queues its mails there (outbox.repo.ts queueMails); after
 * the commit they are sent at once (outbox.ts sendQueued), and whatever does not leave now stays
 * in the outbox for the periodic sender. If `work` throws, nothing is written and nothing is sent.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Services } from '../services/index.ts';
import type { QueuedMails } from './outbox.repo.ts';
import { sendQueued } from './outbox.ts';

/** What a change answers: its own result and the outbox ids of the mails it queued (none: []). */
export interface Change<T> {
  result: T;
  mails: QueuedMails;
}

/** The committed change: its result, the mails queued with it, how many left now. */
export interface Committed<T> extends Change<T> {
  sent: number;
  /** Every queued mail left now (true when none was queued). */
  allSent: boolean;
}

/** Runs `work` in one transaction, commits, then sends the mails it queued. */
export async function commitWithMails<T>(
  services: Pick<Services, 'db' | 'env' | 'mailer'>,
  work: (trx: Transaction<Database>) => Promise<Change<T>>,
): Promise<Committed<T>> {
  const { result, mails } = await services.db.transaction().execute(work);
  const sent = await sendQueued(services, mails);
  return { result, mails, sent, allSent: sent === mails.length };
}

/**
 * `commitWithMails` for a use-case whose answer carries the mails it queued (`mails` on its ok
 * branches, none on a refusal): the answer is returned once the change is committed and its
 * mails sent, so the route that asked sends nothing by hand.
 */
export async function commitAnswer<T extends object>(
  services: Pick<Services, 'db' | 'env' | 'mailer'>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  const { result } = await commitWithMails(services, async (trx) => {
    const answer = await work(trx);
    return { result: answer, mails: 'mails' in answer ? (answer.mails as QueuedMails) : [] };
  });
  return result;
}
