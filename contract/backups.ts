/**
 * Backups (issue 21): what the admin's Backups page shows. The server writes them
 * (api/backups/); the page only reads their status.
 */

/** GET /api/admin/backups */
export interface BackupStatusView {
  /** The newest backup in the folder (automatic or `npm run backup`), or null when there is none. */
  last: { at: string; bytes: number; file: string } | null;
  /** Whether this server backs the database up by itself (the embedded database with BACKUP_AUTO on). */
  auto: boolean;
  /** The folder the backups are written to, as the server sees it. */
  dir: string;
  /** Hours between automatic backups (BACKUP_INTERVAL_HOURS). */
  intervalHours: number;
  /** How many automatic backups are kept: one a day for `daily` days, one a week for `weekly` weeks. */
  keep: { daily: number; weekly: number };
  /** Which database this site runs on: a PostgreSQL server is backed up by its provider (docs/DEPLOY.md). */
  database: 'pglite' | 'postgres';
}

/**
 * "12.3 MB": a backup's size as the start banner, the reports and her Backups page say it (the
 * page says "bytes" under a kilobyte, the logs "B").
 */
export function formatBytes(bytes: number, unit = 'B'): string {
  if (bytes < 1024) return `${bytes} ${unit}`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let n = bytes / 1024;
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${n < 10 ? n.toFixed(1) : Math.round(n)} ${units[i]}`;
}
