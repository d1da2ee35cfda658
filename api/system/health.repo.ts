/** The health probe's one question to the database (api/system/health.routes.ts). */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';

/** Resolves when the database answers a trivial query; throws when it does not. */
export async function pingDatabase(db: DB): Promise<void> {
  await sql`select 1`.execute(db);
}
