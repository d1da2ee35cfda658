/** What the renderer reads for a page beyond the published content (api/pages/render-context.ts). */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';

/** The classes starting between `from` and `until`, soonest first (at most 60), with the places taken in each. */
export async function classesWithPlacesTaken(db: DB, from: Date, until: Date) {
  return db
    .selectFrom('events')
    .leftJoin('classSignups', 'classSignups.eventId', 'events.id')
    .select(['events.id', 'events.title', 'events.location', 'events.startsAt', 'events.capacity', 'events.isExternal'])
    .select(sql<number>`count(class_signups.id)::int`.as('taken'))
    .where('events.startsAt', '>', from)
    .where('events.startsAt', '<', until)
    .groupBy('events.id')
    .orderBy('events.startsAt')
    .limit(60)
    .execute();
}
