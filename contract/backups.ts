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
