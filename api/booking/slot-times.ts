/**
 * When a slot she adds starts: her date and time read on her clocks (SITE_TIMEZONE). One rule for
 * every way a slot is made (the slots form, a weekly series she creates ahead, issue 32): a time
 * her clocks skip is refused, a time they show twice is the first and noted, and it must lie
 * ahead of now.
 */
import { wallTime } from '../lib/time.ts';

export type SlotTime = { ok: true; startsAt: Date; ambiguous: boolean } | { ok: false; kind: 'skipped' | 'past' };

export function slotTime(date: string, time: string, zone: string, now: Date): SlotTime {
  const wall = wallTime(date, time, zone);
  if (wall.kind === 'skipped') return { ok: false, kind: 'skipped' };
  if (wall.instant.getTime() <= now.getTime()) return { ok: false, kind: 'past' };
  return { ok: true, startsAt: wall.instant, ambiguous: wall.kind === 'ambiguous' };
}
