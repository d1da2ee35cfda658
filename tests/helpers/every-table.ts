/**
 * The erasure's audit (issues 23, 29, 47): every row of every table of the database, read whole
 * as text, by table, found through the catalogue, so a table added later is searched too.
 */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';

/** Every row of every table, as text (row_to_json: every text and json column), by table. */
export async function everyTable(db: DB): Promise<Map<string, string>> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
  const out = new Map<string, string>();
  for (const { name } of rows) {
    const dump = await sql<{ row: string }>`select row_to_json(t)::text as row from ${sql.table(name)} t`.execute(db.withoutPlugins());
    out.set(name, dump.rows.map((r) => r.row).join('\n'));
  }
  return out;
}

/** Each row (as `table: row`) that holds one of `traces`, case aside: [] when the person is nowhere. */
export async function rowsNaming(db: DB, traces: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  const wanted = traces.map((t) => t.toLowerCase());
  for (const [table, rows] of await everyTable(db)) {
    for (const row of rows.split('\n')) {
      const lower = row.toLowerCase();
      const hits = wanted.filter((t) => lower.includes(t));
      if (hits.length) found.push(`${table} (${hits.join(', ')}): ${row.slice(0, 400)}`);
    }
  }
  return found;
}
