/** Events (group classes) and their sign-up counts. */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Insertable, Updateable } from 'kysely';
import type { EventsTable } from '../../db/schema.ts';
import { classColumns, TAKES_A_PLACE } from './signups.repo.ts';

// A class's columns as sign-ups read them, and what only the calendar and her list show (its
// length: issue 35).
const columns = [...classColumns, 'signUpLink', 'seriesId', 'minutes'] as const;

/**
 * Events starting at or after `from` (and before `until`, if given), in calendar order (uses
 * events_starts_at). The public calendar's (`everything` false) leaves out her private and
 * cancelled events; the admin's list has them all.
 */
export async function listEventsFrom(db: DB, from: Date, until?: Date, everything = false) {
  return db
    .selectFrom('events')
    .select(columns)
    .where('startsAt', '>=', from)
    .$if(until !== undefined, (q) => q.where('startsAt', '<', until!))
    .$if(!everything, (q) => q.where('private', '=', false).where('cancelledAt', 'is', null))
    .orderBy('startsAt')
    .orderBy('title')
    .orderBy('id')
    .execute();
}

/** All events of one form submission, in one statement. */
export async function insertEvents(db: DB, rows: Insertable<EventsTable>[]) {
  return db.insertInto('events').values(rows).returning(columns).execute();
}

export async function findEvent(db: DB, id: string) {
  return db.selectFrom('events').select(columns).where('id', '=', id).executeTakeFirst();
}

export async function updateEvent(db: DB, id: string, changes: Updateable<EventsTable>) {
  return db.updateTable('events').set(changes).where('id', '=', id).returning(columns).executeTakeFirst();
}

/** Deletes the events among `ids` that exist; their sign-ups keep their rows (event_id set null). */
export async function deleteEvents(db: DB, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.deleteFrom('events').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Capacity of the class `title` on `date` (the earliest, should two share a day) and the
 * sign-ups it has: those linked to the event, or made for its title and date.
 */
export async function classStatus(db: DB, title: string, date: string) {
  return db
    .selectFrom('events as e')
    .select((eb) => [
      'e.capacity',
      eb
        .selectFrom('classSignups as s')
        .select(sql<number>`count(*)::int`.as('n'))
        .where((w) => w.or([w('s.eventId', '=', w.ref('e.id')), w.and([w('s.classTitle', '=', w.ref('e.title')), w('s.date', '=', w.ref('e.date'))])]))
        .where(TAKES_A_PLACE)
        .as('taken'),
    ])
    .where('e.title', '=', title)
    .where('e.date', '=', date)
    .where('e.private', '=', false)
    .orderBy('e.startsAt')
    .limit(1)
    .executeTakeFirst();
}
