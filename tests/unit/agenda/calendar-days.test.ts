/**
 * Issue 29: the calendars' days are strings on her clocks, never the browser's: the same grid,
 * labels and today in any zone the page is drawn or hydrated in (site/lib/calendar.ts).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { addDaysTo, addMonths, dayLabel, dayOf, monthGrid, monthLabel, todayIn } from '../../../site/lib/calendar.ts';

const original = process.env.TZ;
afterAll(() => {
  process.env.TZ = original;
});

// 21:30 in Los Angeles on November 30th: December 1st in UTC, Kiritimati and Budapest.
const evening = new Date('2026-12-01T05:30:00Z');

describe.each(['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'UTC', 'America/Santiago'])('drawn in %s', (zone) => {
  it('her today, the grid, its labels and month steps do not depend on the zone of the machine', () => {
    process.env.TZ = zone;
    expect(todayIn('America/Los_Angeles', evening)).toBe('2026-11-30');
    expect(dayOf('2026-12-01T05:30:00Z', 'Europe/Budapest')).toBe('2026-12-01');
    const grid = monthGrid(2026, 10);
    expect(grid).toHaveLength(42);
    // November 1st 2026 is a Sunday: the grid starts on it and runs six weeks to December 12th.
    expect([grid[0], grid[41]]).toEqual(['2026-11-01', '2026-12-12']);
    expect(new Set(grid).size).toBe(42);
    expect(monthLabel(2026, 10)).toBe('November 2026');
    expect(dayLabel('2026-11-30')).toBe('Monday, November 30');
    expect(addMonths({ year: 2026, month: 11 }, 1)).toEqual({ year: 2027, month: 0 });
    expect(addDaysTo('2026-11-30', 1)).toBe('2026-12-01');
    // A zone whose clocks skip midnight (Santiago in September) still has every day once.
    expect(monthGrid(2026, 8)).toContain('2026-09-06');
  });
});
