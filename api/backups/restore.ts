/**
 * `npm run restore -- FILE [--force]` (scripts/restore.ts): loads a backup (backup.ts) into the
 * database the environment names, as `npm start` would open it, and says what it restored.
 *
 * Only into an empty database unless told: a non-empty one is refused (RestoreRefused) and kept
 * as it is. With `force`, what it replaces is kept too:
 * - PGlite: the backup is loaded into a new folder beside PGLITE_DIR and checked; only then the
 *   old folder is moved aside (`<folder>.before-restore-<time>`) and the new one takes its name;
 * - PostgreSQL: the database is first saved with pg_dump into BACKUP_DIR
 *   (`before-restore-<time>.dump`), then schema public is dropped and made again, and
 *   pg_restore loads the file in one transaction (all of it or, on an error, nothing).
 * The next `npm start` migrates a restored older backup forward, as after any upgrade.
 */
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Env } from '../env.ts';
import { openDatabase, pgliteLockPath } from '../../db/client.ts';
import { emptyPublicSchema, publicTableNames, tableCounts, tableCountsOf, type TableCount } from './backups.repo.ts';
import { BackupError, FORMAT_NAME, type BackupResult, assertPgliteFolderFree, backupPostgres, formatOf, isNonEmptyFolder, runPgTool } from './backup.ts';
import { backupName, stampOf } from './files.ts';

/** The database is not empty and `force` was not given. */
export class RestoreRefused extends BackupError {
  override name = 'RestoreRefused';
}

/** What a restore did, told as a backup's figures are (the file read, the tables written). */
export interface RestoreResult extends BackupResult {
  /** Where what the restore replaced was kept (with `force` on a non-empty database). */
  keptAt?: string;
}

export async function restoreDatabase(env: Env, file: string, options: { force?: boolean } = {}): Promise<RestoreResult> {
  const started = Date.now();
  const path = resolve(file);
  if (!existsSync(path) || !statSync(path).isFile()) throw new BackupError(`There is no backup file at ${path}.`);
  const bytes = statSync(path).size;
  const format = formatOf(await readHead(path));
  const database = env.DATABASE_URL ? 'postgres' : 'pglite';
  if (format === null) throw new BackupError(`${path} is not a backup: neither ${FORMAT_NAME.pglite} nor ${FORMAT_NAME.postgres}.`);
  if (format !== database) {
    throw new BackupError(
      `${path} is ${FORMAT_NAME[format]}, but the environment names ${database === 'postgres' ? 'a PostgreSQL server (DATABASE_URL)' : 'the embedded database (PGLITE_DIR)'}, ` +
        `which restores only ${FORMAT_NAME[database]}. ` +
        (format === 'pglite' ? 'Unset DATABASE_URL to restore it into a PGlite folder.' : 'Set DATABASE_URL to the PostgreSQL database to restore it into.'),
    );
  }
  const restored =
    database === 'postgres' ? await restorePostgres(env, env.DATABASE_URL!, path, !!options.force) : await restorePglite(env.PGLITE_DIR, path, !!options.force);
  return { file: path, bytes, database, ms: Date.now() - started, ...restored };
}

async function readHead(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const head = new Uint8Array(8);
    await handle.read(head, 0, 8, 0);
    return head;
  } finally {
    await handle.close();
  }
}

const notEmpty = (where: string, what: string, keep: string) =>
  new RestoreRefused(`${where} is not empty (${what}). Restore into an empty database, or pass --force to replace what is there (${keep}).`);

async function restorePglite(dir: string, file: string, force: boolean): Promise<Omit<RestoreResult, 'file' | 'bytes' | 'database' | 'ms'>> {
  assertPgliteFolderFree(dir);
  const target = resolve(dir);
  const occupied = isNonEmptyFolder(target);
  const stamp = stampOf(new Date());
  if (occupied && !force)
    throw notEmpty(`The database folder ${dir} (PGLITE_DIR)`, 'it holds a database already', `the folder is kept as ${dir}.before-restore-${stamp}`);

  // Loaded and checked in a folder of its own first: a bad file never costs the database in place.
  const loading = `${target}.restoring-${stamp}`;
  rmSync(loading, { recursive: true, force: true });
  mkdirSync(loading, { recursive: true });
  let tables: TableCount[];
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const pglite = await PGlite.create({ dataDir: loading, loadDataDir: new Blob([new Uint8Array(await readFile(file))]) });
    try {
      tables = await tableCounts((query) => pglite.query<Record<string, unknown>>(query));
    } finally {
      await pglite.close();
    }
  } catch (err) {
    rmSync(loading, { recursive: true, force: true });
    throw new BackupError(`${file} could not be loaded as a PGlite database: ${err instanceof Error ? err.message : String(err)}`);
  }

  let keptAt: string | undefined;
  if (occupied) {
    keptAt = `${target}.before-restore-${stamp}`;
    renameSync(target, keptAt);
  } else if (existsSync(target)) {
    rmSync(target, { recursive: true, force: true });
  }
  renameSync(loading, target);
  // A lock a crashed server left names a dead process; the folder it named is gone.
  try {
    rmSync(pgliteLockPath(target), { force: true });
  } catch {
    // Never written (db/client.ts).
  }
  return { where: `PGlite in ${dir}`, tables, keptAt };
}

async function restorePostgres(env: Env, url: string, file: string, force: boolean): Promise<Omit<RestoreResult, 'file' | 'bytes' | 'database' | 'ms'>> {
  const handle = await openDatabase({ url, poolMax: 1 });
  try {
    const existing = await publicTableNames(handle.db);
    let keptAt: string | undefined;
    if (existing.length > 0) {
      const safety = resolve(join(env.BACKUP_DIR, backupName('before-restore', 'postgres', new Date())));
      const sample = existing.slice(0, 3).join(', ') + (existing.length > 3 ? ', …' : '');
      if (!force) throw notEmpty(`The database ${handle.where}`, `${existing.length} tables: ${sample}`, `it is saved first to ${safety}`);
      await backupPostgres(url, safety);
      keptAt = safety;
      // Everything of the app lives in schema public (tables, sequences, types, the migrations' own).
      await emptyPublicSchema(handle.db);
    }
    try {
      await runPgTool('pg_restore', ['--no-owner', '--no-acl', '--single-transaction', '--exit-on-error', file], url);
    } catch (err) {
      const kept = keptAt ? ` What was there before is in ${keptAt}.` : '';
      throw new BackupError(`${(err as Error).message}\nNothing was restored (one transaction).${kept}`);
    }
    return { where: handle.where, tables: await tableCountsOf(handle.db), keptAt };
  } finally {
    await handle.close();
  }
}
