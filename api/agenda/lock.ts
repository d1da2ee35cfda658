/**
 * Taking her time under the agenda's lock (issue 35, decision 0044): a busy time, a class or a
 * gig is written inside a transaction that first takes the lock every claim of a slot takes, so a
 * booking claimed at that moment either sees the new thing (and is refused) or was booked before
 * it (and stands, named in her warning).
 */
import type { Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';
import { lockAgenda } from './agenda.repo.ts';

export async function underAgendaLock<T>(db: DB, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await lockAgenda(trx);
    return work(trx);
  });
}
