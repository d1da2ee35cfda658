/**
 * How many rows a table holds: the API tests' "a refusal stored nothing" and "a write stored one",
 * counted the same way everywhere (PostgreSQL answers count(*) as a bigint string; here a number).
 */
import type { DB } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';

export async function rowCount(db: DB, table: keyof Database): Promise<number> {
  const { n } = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}
