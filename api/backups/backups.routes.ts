import { resolve } from 'node:path';
import { Hono } from 'hono';
import type { AppEnv } from '../types.ts';
import { requireAdmin } from '../middleware/auth.ts';
import type { BackupStatusView } from '../../contract/backups.ts';
import { lastBackup } from './files.ts';
import { autoBackupsOn } from './schedule.ts';

/** GET /api/admin/backups: the newest backup in BACKUP_DIR (time, size, name) and whether this server makes them. */
export const adminBackups = new Hono<AppEnv>().use('*', requireAdmin()).get('/', (c) => {
  const { env, database } = c.var.services;
  const view: BackupStatusView = {
    last: lastBackup(env.BACKUP_DIR),
    auto: autoBackupsOn(c.var.services),
    dir: resolve(env.BACKUP_DIR),
    intervalHours: env.BACKUP_INTERVAL_HOURS,
    keep: { daily: env.BACKUP_KEEP_DAILY, weekly: env.BACKUP_KEEP_WEEKLY },
    database: database.kind,
  };
  return c.json(view);
});
