/**
 * `npm run rotate-keys` (scripts/rotate-keys.ts): re-seals every private record (and her Google
 * Calendar token and the outbox's waiting mails, sealed with the same key) with the
 * current PRIVATE_RECORDS_KEY, reading older ones with the keys in PRIVATE_RECORDS_OLD_KEYS.
 * Safe to rerun: a record already sealed with the current key is left alone, so a second run
 * (or a run after a crash half way) changes only what is left.
 */
import type { Env } from '../env.ts';
import { EnvError } from '../env.ts';
import { openDatabase, pgliteOpenedBy } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { keyringOf } from '../lib/keys.ts';
import { rotateRecordKeys } from './records.ts';
import { resealCalendarToken } from '../agenda/calendar.ts';
import { resealOutbox } from '../mail/outbox.ts';

export async function rotateKeys(env: Env): Promise<{ answers: number; notes: number; calendarTokens: number; mails: number; keyId: string }> {
  if (!env.DATABASE_URL && env.PGLITE_DIR !== 'memory://') {
    const pid = pgliteOpenedBy(env.PGLITE_DIR);
    if (pid) throw new EnvError(`The embedded database is open in process ${pid}: stop the server first (PGlite is one process per folder).`);
  }
  const ring = keyringOf(env);
  const database = await openDatabase({ url: env.DATABASE_URL, pgliteDir: env.PGLITE_DIR, poolMax: 2 });
  try {
    await migrateToLatest(database.db);
    const counts = await rotateRecordKeys(database.db, ring);
    // Her Google Calendar token is sealed with the same key (issue 35).
    const calendarTokens = await resealCalendarToken(database.db, ring);
    // So are the words of mails not sent yet (issue 47, decision 0052).
    const mails = await resealOutbox(database.db, ring);
    return { ...counts, calendarTokens, mails, keyId: ring.current.id };
  } finally {
    await database.close();
  }
}
