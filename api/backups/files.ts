/**
 * The backup folder (BACKUP_DIR): how backups are named, found and written.
 *
 *   auto-2026-11-28T03-15-00Z.tar.gz      the embedded database's own daily backup (schedule.ts)
 *   manual-2026-11-28T03-15-00Z.tar.gz    `npm run backup` without a file name (PGlite)
 *   manual-2026-11-28T03-15-00Z.dump      the same on PostgreSQL (pg_dump's custom format)
 *   before-restore-….tar.gz / .dump       what `npm run restore -- --force` replaced (PostgreSQL)
 *
 * A backup's time is the one in its name (a copy keeps it; a file's mtime would not). Only
 * `auto-` files are ever deleted, by the retention (retention.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export type BackupKind = 'auto' | 'manual' | 'before-restore';

/** The extension of each database's backup format. */
export const EXTENSION = { pglite: 'tar.gz', postgres: 'dump' } as const;

const NAME = /^(auto|manual|before-restore)-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z\.(tar\.gz|dump)$/;

/** `2026-11-28T03:15:00.123Z` → `2026-11-28T03-15-00Z` (no colons: they trouble Windows and scp). */
export const stampOf = (at: Date): string =>
  at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(':', '-');

export const backupName = (kind: BackupKind, database: keyof typeof EXTENSION, at: Date): string => `${kind}-${stampOf(at)}.${EXTENSION[database]}`;

export interface BackupFile {
  name: string;
  kind: BackupKind;
  at: Date;
}

/** Reads a name this module gave, or null for anything else in the folder. */
export function parseBackupName(name: string): BackupFile | null {
  const m = NAME.exec(name);
  if (!m) return null;
  const at = new Date(`${m[2]}T${m[3]}:${m[4]}:${m[5]}Z`);
  return Number.isNaN(at.getTime()) ? null : { name, kind: m[1] as BackupKind, at };
}

/** The backups in `dir`, newest first (none when the folder does not exist yet). */
export function listBackups(dir: string): BackupFile[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .map(parseBackupName)
    .filter((b): b is BackupFile => b !== null)
    .sort((a, b) => b.at.getTime() - a.at.getTime() || b.name.localeCompare(a.name));
}

/** The newest backup of the current database (automatic or manual; not what a restore replaced). */
export function lastBackup(dir: string): { at: string; bytes: number; file: string } | null {
  for (const b of listBackups(dir)) {
    if (b.kind === 'before-restore') continue;
    try {
      return { at: b.at.toISOString(), bytes: statSync(join(dir, b.name)).size, file: b.name };
    } catch {
      // Deleted between the listing and the stat: the next one.
    }
  }
  return null;
}

/**
 * Writes `file` so that it is either absent or complete: into a `.partial` beside it, flushed to
 * disk, then renamed. `produce` gets the temporary path (pg_dump writes there itself).
 */
export async function writeAtomically(file: string, produce: (tmp: string) => Promise<void>): Promise<number> {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${randomBytes(4).toString('hex')}.partial`;
  try {
    await produce(tmp);
    const handle = await open(tmp, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return statSync(file).size;
}

/** Removes `.partial` files a crash left in the folder (older than an hour: never one being written). */
export function removeStalePartials(dir: string, now = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.endsWith('.partial')) continue;
    const path = join(dir, name);
    try {
      if (now - statSync(path).mtimeMs > 3_600_000) rmSync(path, { force: true });
    } catch {
      // Gone already.
    }
  }
}
