/**
 * Her busy times (issue 35): added under the agenda's lock, so a booking being claimed at that
 * moment either sees the busy time (and is refused) or was booked before it (and stands).
 */
import type { DB } from '../../db/client.ts';
import { insertBusyTime, lockAgenda } from './agenda.repo.ts';

export async function addBusyTime(db: DB, busy: { startsAt: Date; endsAt: Date; title: string }) {
  const row = await db.transaction().execute(async (trx) => {
    await lockAgenda(trx);
    return insertBusyTime(trx, busy);
  });
  return { ...row, startsAt: new Date(row.startsAt), endsAt: new Date(row.endsAt) };
}
