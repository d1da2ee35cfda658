/**
 * Her busy times (issue 35): added under the agenda's lock (lock.ts), so a booking being claimed
 * at that moment either sees the busy time (and is refused) or was booked before it (and stands).
 */
import type { DB } from '../../db/client.ts';
import { insertBusyTime } from './agenda.repo.ts';
import { underAgendaLock } from './lock.ts';

export async function addBusyTime(db: DB, busy: { startsAt: Date; endsAt: Date; title: string }) {
  const row = await underAgendaLock(db, (trx) => insertBusyTime(trx, busy));
  return { ...row, startsAt: new Date(row.startsAt), endsAt: new Date(row.endsAt) };
}
