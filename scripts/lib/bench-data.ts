/**
 * Rows the benchmarks seed, written once: scripts/bench.ts's year and bench-speed's server both
 * fill a year of the teacher's slots.
 */
import type { Insertable } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';

/** `slots` inserted 500 at a time (one statement's parameters stay small); a date and time already there is kept as it is. */
export async function insertSlots(db: DB, slots: readonly Insertable<Database['slots']>[]): Promise<void> {
  for (let i = 0; i < slots.length; i += 500)
    await db
      .insertInto('slots')
      .values(slots.slice(i, i + 500))
      .onConflict((oc) => oc.columns(['date', 'time']).doNothing())
      .execute();
}
