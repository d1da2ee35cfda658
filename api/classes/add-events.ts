/**
 * She adds an event, or a series of them (SPEC.md; issue 34): the rows are written under the
 * agenda's lock (issue 35, decision 0044), so a slot claimed at this moment sees the class, or
 * was booked first. What they overlap is told after, by the route (save, then warn).
 */
import type { Insertable } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { EventsTable } from '../../db/schema.ts';
import { underAgendaLock } from '../agenda/lock.ts';
import { insertEvents } from './events.repo.ts';

export function addEvents(db: DB, rows: Insertable<EventsTable>[]) {
  return underAgendaLock(db, (trx) => insertEvents(trx, rows));
}
