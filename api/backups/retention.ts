/**
 * Which automatic backups to keep: the newest of each of the last `daily` days that have one,
 * and the newest of each of the last `weekly` weeks (Monday to Sunday) that have one, in UTC.
 * Counting days "that have one" (not calendar days) means a server that was off for a month
 * still keeps its last `daily` backups instead of deleting them all. The newest backup is
 * always kept (it is its day's newest and `daily` is at least 1).
 */
export interface Dated {
  name: string;
  at: Date;
}

const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** The Monday (UTC) that starts `at`'s week, as YYYY-MM-DD. */
export function weekOf(at: Date): string {
  const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return dayOf(d);
}

/** The names to keep; every other name given should be deleted. */
export function backupsToKeep(backups: readonly Dated[], daily: number, weekly: number): Set<string> {
  const newestFirst = [...backups].sort((a, b) => b.at.getTime() - a.at.getTime() || b.name.localeCompare(a.name));
  const keep = new Set<string>();
  const pick = (limit: number, period: (at: Date) => string) => {
    const seen = new Set<string>();
    for (const b of newestFirst) {
      const p = period(b.at);
      if (seen.has(p)) continue;
      if (seen.size >= limit) break;
      seen.add(p);
      keep.add(b.name);
    }
  };
  pick(Math.max(1, daily), dayOf);
  pick(weekly, weekOf);
  return keep;
}
