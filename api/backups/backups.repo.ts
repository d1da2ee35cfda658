/**
 * What the backup and the restore ask the database (api/backups/backup.ts, restore.ts): every
 * table of the app by its name, so they read the catalogue and name the tables in raw SQL
 * (the table list is the database's, never a request's).
 */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';

export interface TableCount {
  table: string;
  rows: number;
}

/** Every table of the app (schema public) with its row count, by name, through `run` (Kysely's or PGlite's own query). */
export async function tableCounts(run: (query: string) => Promise<{ rows: Record<string, unknown>[] }>): Promise<TableCount[]> {
  const { rows } = await run(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
  );
  const out: TableCount[] = [];
  for (const { name } of rows as { name: string }[]) {
    const counted = await run(`select count(*)::int as n from public."${name.replaceAll('"', '""')}"`);
    out.push({ table: name, rows: Number(counted.rows[0]?.n ?? 0) });
  }
  return out;
}

/** tableCounts() through Kysely. */
export const tableCountsOf = (db: DB): Promise<TableCount[]> =>
  tableCounts(async (query) => ({ rows: (await sql.raw<Record<string, unknown>>(query).execute(db)).rows }));

/** The names of the tables and views in schema public (a restore refuses a database that has any). */
export async function publicTableNames(db: DB): Promise<string[]> {
  return (
    await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = 'public' order by table_name`.execute(db)
  ).rows.map((r) => r.name);
}

/** Drops schema public with everything in it (tables, sequences, types, the migrations' own) and makes it again, empty. */
export async function emptyPublicSchema(db: DB): Promise<void> {
  await sql`drop schema public cascade`.execute(db);
  await sql`create schema public`.execute(db);
}
