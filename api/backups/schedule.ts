/**
 * The embedded database backs itself up (issue 21): the running server dumps its own PGlite
 * (no second process may open the folder) into BACKUP_DIR as `auto-<time>.tar.gz` when the
 * newest automatic backup is BACKUP_INTERVAL_HOURS old, then deletes the automatic backups the
 * retention no longer keeps (retention.ts: BACKUP_KEEP_DAILY days, BACKUP_KEEP_WEEKLY weeks).
 *
 * It looks a minute after start and then every hour (or every interval, if shorter), so a
 * server restarted often still backs up on time and one started after a long stop backs up
 * soon. Off with BACKUP_AUTO=0, on PostgreSQL (its provider backs it up: docs/DEPLOY.md) and
 * for a database in memory. Requests wait only while the tarball is made in memory (0.3 s for a
 * 150 MB database); it is compressed to the file after (docs/bench/backup.md).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { Services } from '../services/index.ts';
import { runEvery } from '../lib/periodic.ts';
import { backupPglite } from './backup.ts';
import { backupName, listBackups, removeStalePartials } from './files.ts';
import { formatBytes } from '../../contract/backups.ts';
import { backupsToKeep } from './retention.ts';

type ScheduleServices = Pick<Services, 'env' | 'database'>;

const HOUR_MS = 3_600_000;

/** Whether this server backs itself up. */
export const autoBackupsOn = ({ env, database }: ScheduleServices): boolean =>
  env.BACKUP_AUTO && database.kind === 'pglite' && !!database.pglite && env.PGLITE_DIR !== 'memory://';

/** Takes one automatic backup now and applies the retention; what it wrote and deleted. */
export async function takeAutoBackup(
  pglite: PGlite,
  options: { dir: string; keepDaily: number; keepWeekly: number; now?: Date },
): Promise<{ file: string; bytes: number; deleted: string[] }> {
  const now = options.now ?? new Date();
  removeStalePartials(options.dir, now.getTime());
  const file = backupName('auto', 'pglite', now);
  const bytes = await backupPglite(pglite, join(options.dir, file));
  return { file, bytes, deleted: pruneAutoBackups(options.dir, options.keepDaily, options.keepWeekly) };
}

/** Deletes the automatic backups the retention does not keep (never a manual one); their names. */
export function pruneAutoBackups(dir: string, keepDaily: number, keepWeekly: number): string[] {
  const autos = listBackups(dir).filter((b) => b.kind === 'auto');
  const keep = backupsToKeep(autos, keepDaily, keepWeekly);
  const deleted: string[] = [];
  for (const b of autos) {
    if (keep.has(b.name)) continue;
    rmSync(join(dir, b.name), { force: true });
    deleted.push(b.name);
  }
  return deleted;
}

/** Starts the automatic backups when they are on; returns a stop that waits for a backup under way. */
export function startAutoBackups(services: ScheduleServices): () => Promise<void> {
  if (!autoBackupsOn(services)) return async () => {};
  const { env, database } = services;
  const intervalMs = env.BACKUP_INTERVAL_HOURS * HOUR_MS;
  const checkMs = Math.max(1_000, Math.min(intervalMs, HOUR_MS));
  const say = env.QUIET || env.NODE_ENV === 'test' ? () => {} : (line: string) => console.log(line);
  let inFlight: Promise<void> | null = null;
  let stopped = false;

  const check = async () => {
    const newest = listBackups(env.BACKUP_DIR).find((b) => b.kind === 'auto');
    // Half a check of slack: a backup due a moment after a check is taken at that check, so
    // the time of day does not creep by an hour each day.
    if (newest && Date.now() - newest.at.getTime() < intervalMs - checkMs / 2) return;
    const started = Date.now();
    const { file, bytes, deleted } = await takeAutoBackup(database.pglite!, {
      dir: env.BACKUP_DIR,
      keepDaily: env.BACKUP_KEEP_DAILY,
      keepWeekly: env.BACKUP_KEEP_WEEKLY,
    });
    say(
      `[backups] ${join(env.BACKUP_DIR, file)} (${formatBytes(bytes)}) in ${Date.now() - started} ms` +
        (deleted.length ? `; ${deleted.length} older removed` : ''),
    );
  };
  const tick = () => {
    if (stopped || inFlight) return inFlight ?? Promise.resolve();
    inFlight = check()
      .catch((err: unknown) => console.error('[backups] automatic backup failed:', err instanceof Error ? err.message : err))
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };

  const first = setTimeout(() => void tick(), Math.min(checkMs, 60_000));
  first.unref();
  const stopEvery = runEvery('backups', checkMs, tick);
  return async () => {
    stopped = true;
    clearTimeout(first);
    stopEvery();
    await inFlight;
  };
}
