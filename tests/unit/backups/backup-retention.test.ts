import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backupsToKeep, weekOf } from '../../../api/backups/retention.ts';
import { backupName, lastBackup, listBackups, parseBackupName, stampOf } from '../../../api/backups/files.ts';
import { pruneAutoBackups } from '../../../api/backups/schedule.ts';
import { formatOf } from '../../../api/backups/backup.ts';
import { loadEnv } from '../../../api/env.ts';
import { itemAt } from '../../helpers/guards.ts';

const DAY = 86_400_000;
const at = (iso: string) => new Date(iso);
const auto = (d: Date) => ({ name: backupName('auto', 'pglite', d), at: d });

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'backups-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('backup retention (7 daily, 4 weekly by default)', () => {
  it('weeks start on Monday, in UTC', () => {
    expect(weekOf(at('2026-11-30T00:00:00Z'))).toBe('2026-11-30'); // a Monday
    expect(weekOf(at('2026-12-06T23:59:59Z'))).toBe('2026-11-30'); // its Sunday
    expect(weekOf(at('2026-12-07T00:00:00Z'))).toBe('2026-12-07');
    expect(weekOf(at('2027-01-01T12:00:00Z'))).toBe('2026-12-28'); // across the new year
  });

  it('keeps the newest of each of the last 7 days and of each of the last 4 weeks', () => {
    // One backup a day at 03:00 UTC for 60 days, ending Wednesday 2026-12-30.
    const end = at('2026-12-30T03:00:00Z').getTime();
    const all = Array.from({ length: 60 }, (_, i) => auto(new Date(end - i * DAY)));
    const keep = backupsToKeep(all, 7, 4);
    const kept = all.filter((b) => keep.has(b.name)).map((b) => b.at.toISOString().slice(0, 10));
    expect(kept).toEqual([
      // the last 7 days (the newest is also this week's)
      '2026-12-30',
      '2026-12-29',
      '2026-12-28',
      '2026-12-27', // Sunday: the newest of the week of Dec 21
      '2026-12-26',
      '2026-12-25',
      '2026-12-24',
      // the newest of the weeks of Dec 14 and Dec 7 (the 4 weeks: Dec 28, 21, 14, 7)
      '2026-12-20',
      '2026-12-13',
    ]);
  });

  it('takes the newest of several backups in one day', () => {
    const all = [auto(at('2026-12-01T01:00:00Z')), auto(at('2026-12-01T13:00:00Z')), auto(at('2026-12-01T23:00:00Z')), auto(at('2026-11-30T23:00:00Z'))];
    expect([...backupsToKeep(all, 1, 0)]).toEqual([itemAt(all, 2).name]);
    expect([...backupsToKeep(all, 2, 0)].sort()).toEqual([itemAt(all, 3).name, itemAt(all, 2).name].sort());
  });

  it('counts days that have a backup: after a month off, the last 7 are still there', () => {
    const before = Array.from({ length: 10 }, (_, i) => auto(new Date(at('2026-10-10T03:00:00Z').getTime() - i * DAY)));
    const after = auto(at('2026-11-20T03:00:00Z'));
    const keep = backupsToKeep([after, ...before], 7, 0);
    expect(keep.size).toBe(7);
    expect(keep.has(after.name)).toBe(true);
    expect(keep.has(itemAt(before, 5).name)).toBe(true);
    expect(keep.has(itemAt(before, 6).name)).toBe(false);
  });

  it('always keeps the newest, even when asked to keep nothing weekly', () => {
    const one = auto(at('2026-12-01T03:00:00Z'));
    expect([...backupsToKeep([one], 0, 0)]).toEqual([one.name]);
    expect(backupsToKeep([], 7, 4).size).toBe(0);
  });

  it('a server backing up daily for 90 days ends with 7 daily + the weekly files, and never deletes a manual one', () => {
    const dir = tempDir();
    writeFileSync(join(dir, backupName('manual', 'pglite', at('2026-09-01T10:00:00Z'))), 'm');
    writeFileSync(join(dir, 'notes.txt'), 'not a backup');
    const start = at('2026-10-01T03:00:00Z').getTime();
    let deleted = 0;
    for (let day = 0; day < 90; day++) {
      writeFileSync(join(dir, backupName('auto', 'pglite', new Date(start + day * DAY))), 'x');
      deleted += pruneAutoBackups(dir, 7, 4).length;
    }
    const autos = listBackups(dir).filter((b) => b.kind === 'auto');
    expect(autos.length).toBeGreaterThanOrEqual(7 + 2);
    expect(autos.length).toBeLessThanOrEqual(7 + 4);
    expect(new Set(autos.slice(0, 7).map((b) => b.at.toISOString().slice(0, 10))).size).toBe(7);
    expect(new Set(autos.map((b) => weekOf(b.at))).size).toBe(4);
    expect(deleted).toBe(90 - autos.length);
    expect(readdirSync(dir)).toContain('notes.txt');
    expect(listBackups(dir).filter((b) => b.kind === 'manual')).toHaveLength(1);
  });
});

describe('the backup folder', () => {
  it('names a backup by its time, without colons, and reads the name back', () => {
    const when = at('2026-11-28T03:15:07.123Z');
    expect(stampOf(when)).toBe('2026-11-28T03-15-07Z');
    expect(backupName('auto', 'pglite', when)).toBe('auto-2026-11-28T03-15-07Z.tar.gz');
    expect(backupName('manual', 'postgres', when)).toBe('manual-2026-11-28T03-15-07Z.dump');
    expect(parseBackupName('auto-2026-11-28T03-15-07Z.tar.gz')).toEqual({
      name: 'auto-2026-11-28T03-15-07Z.tar.gz',
      kind: 'auto',
      at: at('2026-11-28T03:15:07Z'),
    });
    expect(parseBackupName('auto-2026-11-28T03-15-07Z.tar.gz.ab12cd34.partial')).toBeNull();
    expect(parseBackupName('auto-2026-13-45T03-15-07Z.tar.gz')).toBeNull();
  });

  it('the last backup is the newest automatic or manual one, with its size; not what a restore replaced', () => {
    const dir = tempDir();
    expect(lastBackup(dir)).toBeNull();
    expect(lastBackup(join(dir, 'missing'))).toBeNull();
    writeFileSync(join(dir, backupName('auto', 'pglite', at('2026-11-27T03:00:00Z'))), 'abc');
    writeFileSync(join(dir, backupName('manual', 'pglite', at('2026-11-28T09:00:00Z'))), 'abcdef');
    writeFileSync(join(dir, backupName('before-restore', 'postgres', at('2026-11-29T09:00:00Z'))), 'x');
    expect(lastBackup(dir)).toEqual({ at: '2026-11-28T09:00:00.000Z', bytes: 6, file: 'manual-2026-11-28T09-00-00Z.tar.gz' });
  });

  it('tells the formats apart by their first bytes', () => {
    expect(formatOf(new Uint8Array([0x50, 0x47, 0x44, 0x4d, 0x50, 1, 14, 0]))).toBe('postgres');
    expect(formatOf(new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]))).toBe('pglite');
    expect(formatOf(new TextEncoder().encode('-- SQL dump'))).toBeNull();
  });
});

describe('backup settings', () => {
  it('are on by default with a daily interval, 7 daily and 4 weekly, in .data/backups; off under NODE_ENV=test unless asked', () => {
    const dev = loadEnv({ NODE_ENV: 'development' });
    expect([dev.BACKUP_AUTO, dev.BACKUP_DIR, dev.BACKUP_INTERVAL_HOURS, dev.BACKUP_KEEP_DAILY, dev.BACKUP_KEEP_WEEKLY]).toEqual([
      true,
      '.data/backups',
      24,
      7,
      4,
    ]);
    expect(loadEnv({ NODE_ENV: 'test' }).BACKUP_AUTO).toBe(false);
    expect(loadEnv({ NODE_ENV: 'test', BACKUP_AUTO: '1' }).BACKUP_AUTO).toBe(true);
    expect(loadEnv({ NODE_ENV: 'development', BACKUP_AUTO: '0' }).BACKUP_AUTO).toBe(false);
  });

  it('refuse nonsense with the variable named', () => {
    expect(() => loadEnv({ BACKUP_INTERVAL_HOURS: '0' })).toThrow(/BACKUP_INTERVAL_HOURS/);
    expect(() => loadEnv({ BACKUP_KEEP_DAILY: '0' })).toThrow(/BACKUP_KEEP_DAILY/);
    expect(() => loadEnv({ BACKUP_KEEP_WEEKLY: '-1' })).toThrow(/BACKUP_KEEP_WEEKLY/);
    expect(() => loadEnv({ BACKUP_AUTO: 'yes' })).toThrow(/BACKUP_AUTO/);
  });
});
