/**
 * Which tables a request changed, read in one small query (issue 49: CI in fifteen minutes).
 * `hardening-bad-input` asks "did anything change anywhere?" some thousands of times; it used to
 * hash every row of every table each time, a cost that grew with the rows the suite had written.
 * Here a trigger on each table notes every row written (inserted, deleted, or updated to a
 * different value; a TRUNCATE too) in a log that the test reads: a transaction rolled back leaves
 * no note, as it leaves no row. It is stricter than comparing contents: a row written and put back
 * counts as a change. Installed in a test's own database only, never by the product.
 */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';

const LOG = 'test_table_changes';

/** Puts the triggers on every table of the database but `except`, and answers the tables it watches. */
export async function watchTableChanges(db: DB, except: readonly string[] = []): Promise<string[]> {
  const plain = db.withoutPlugins();
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(plain);
  const tables = rows.map((r) => r.name).filter((t) => t !== LOG && !except.includes(t));
  // An append-only log: no row of it is ever updated, so two transactions noting changes never wait on each other.
  await sql`create table if not exists ${sql.table(LOG)} (t text not null)`.execute(plain);
  await sql`create or replace function test_note_change() returns trigger language plpgsql as $$
    begin insert into test_table_changes (t) values (TG_TABLE_NAME); return null; end $$`.execute(plain);
  for (const t of tables) {
    const table = sql.table(t);
    await sql`drop trigger if exists test_note_write on ${table}`.execute(plain);
    await sql`drop trigger if exists test_note_update on ${table}`.execute(plain);
    await sql`drop trigger if exists test_note_truncate on ${table}`.execute(plain);
    await sql`create trigger test_note_write after insert or delete on ${table} for each row execute function test_note_change()`.execute(plain);
    // An UPDATE that leaves a row as it was is no change (text: every column type compares so, json too).
    await sql`create trigger test_note_update after update on ${table} for each row
      when (old::text is distinct from new::text) execute function test_note_change()`.execute(plain);
    await sql`create trigger test_note_truncate after truncate on ${table} for each statement execute function test_note_change()`.execute(plain);
  }
  return tables;
}

/** How many writes each of `tables` has had since its triggers were put on: "n writes" by table. */
export async function tableChanges(db: DB, tables: readonly string[]): Promise<Record<string, string>> {
  const { rows } = await sql<{ t: string; n: number }>`select t, count(*)::int as n from ${sql.table(LOG)} group by t`.execute(db.withoutPlugins());
  const counted = new Map(rows.map((r) => [r.t, r.n]));
  return Object.fromEntries(tables.map((t) => [t, `${counted.get(t) ?? 0} writes`]));
}
