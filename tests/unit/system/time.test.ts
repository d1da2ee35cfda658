import { describe, expect, it } from 'vitest';
import { addDays, weekday, zonedInstant, zonedNow } from '../../../api/lib/time.ts';

const LA = 'America/Los_Angeles';
const iso = (d: Date) => d.toISOString();

describe('zonedInstant', () => {
  it('reads a summer wall time in Los Angeles as PDT (UTC-7)', () => {
    expect(iso(zonedInstant('2026-07-01', '09:00', LA))).toBe('2026-07-01T16:00:00.000Z');
  });

  it('reads a winter wall time in Los Angeles as PST (UTC-8)', () => {
    expect(iso(zonedInstant('2026-01-15', '09:00', LA))).toBe('2026-01-15T17:00:00.000Z');
  });

  it('moves the date when the zone offset crosses midnight', () => {
    expect(iso(zonedInstant('2026-07-01', '19:30', LA))).toBe('2026-07-02T02:30:00.000Z');
    expect(iso(zonedInstant('2026-07-01', '00:00', LA))).toBe('2026-07-01T07:00:00.000Z');
    expect(iso(zonedInstant('2026-12-31', '23:59', LA))).toBe('2027-01-01T07:59:00.000Z');
  });

  it('handles zones east of UTC, half-hour offsets and UTC itself', () => {
    expect(iso(zonedInstant('2026-07-01', '09:00', 'Europe/Berlin'))).toBe('2026-07-01T07:00:00.000Z');
    expect(iso(zonedInstant('2026-01-15', '09:00', 'Europe/Berlin'))).toBe('2026-01-15T08:00:00.000Z');
    expect(iso(zonedInstant('2026-07-01', '09:00', 'Asia/Kolkata'))).toBe('2026-07-01T03:30:00.000Z');
    expect(iso(zonedInstant('2026-07-01', '00:15', 'Asia/Tokyo'))).toBe('2026-06-30T15:15:00.000Z');
    expect(iso(zonedInstant('2026-07-01', '09:00', 'UTC'))).toBe('2026-07-01T09:00:00.000Z');
  });

  describe('on the day clocks spring forward (2026-03-08, 02:00 PST -> 03:00 PDT)', () => {
    it('uses PST before the change and PDT after it', () => {
      expect(iso(zonedInstant('2026-03-08', '00:30', LA))).toBe('2026-03-08T08:30:00.000Z');
      expect(iso(zonedInstant('2026-03-08', '01:59', LA))).toBe('2026-03-08T09:59:00.000Z');
      expect(iso(zonedInstant('2026-03-08', '03:00', LA))).toBe('2026-03-08T10:00:00.000Z');
      expect(iso(zonedInstant('2026-03-08', '09:00', LA))).toBe('2026-03-08T16:00:00.000Z');
      expect(iso(zonedInstant('2026-03-07', '09:00', LA))).toBe('2026-03-07T17:00:00.000Z');
    });

    it('moves a wall time in the skipped hour forward by the gap, as JavaScript dates do', () => {
      // 02:30 does not exist on that day in Los Angeles: it becomes 03:30 PDT (10:30Z).
      expect(iso(zonedInstant('2026-03-08', '02:30', LA))).toBe('2026-03-08T10:30:00.000Z');
      // Same rule in Berlin: 02:30 on 2026-03-29 becomes 03:30 CEST (01:30Z).
      expect(iso(zonedInstant('2026-03-29', '02:30', 'Europe/Berlin'))).toBe('2026-03-29T01:30:00.000Z');
    });
  });

  describe('on the day clocks fall back (2026-11-01, 02:00 PDT -> 01:00 PST)', () => {
    it('uses PDT before the change and PST after it', () => {
      expect(iso(zonedInstant('2026-11-01', '00:30', LA))).toBe('2026-11-01T07:30:00.000Z');
      expect(iso(zonedInstant('2026-11-01', '02:00', LA))).toBe('2026-11-01T10:00:00.000Z');
      expect(iso(zonedInstant('2026-11-01', '09:00', LA))).toBe('2026-11-01T17:00:00.000Z');
      expect(iso(zonedInstant('2026-10-31', '09:00', LA))).toBe('2026-10-31T16:00:00.000Z');
    });

    it('reads the repeated hour as one of its two occurrences (the first, PDT)', () => {
      expect(iso(zonedInstant('2026-11-01', '01:30', LA))).toBe('2026-11-01T08:30:00.000Z');
    });
  });

  it('round-trips through zonedNow for every quarter hour of a DST-change day (except the skipped hour)', () => {
    for (const date of ['2026-03-08', '2026-11-01', '2026-07-01']) {
      for (let minutes = 0; minutes < 24 * 60; minutes += 15) {
        const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
        if (date === '2026-03-08' && time.startsWith('02:')) continue;
        expect(zonedNow(LA, zonedInstant(date, time, LA)), `${date} ${time}`).toEqual({ date, time });
      }
    }
  });
});

describe('zonedNow', () => {
  it('gives the wall date and time of a fixed instant', () => {
    expect(zonedNow(LA, new Date('2026-07-01T16:00:00Z'))).toEqual({ date: '2026-07-01', time: '09:00' });
    expect(zonedNow(LA, new Date('2026-01-15T17:05:59Z'))).toEqual({ date: '2026-01-15', time: '09:05' });
    expect(zonedNow('Asia/Kolkata', new Date('2026-07-01T16:00:00Z'))).toEqual({ date: '2026-07-01', time: '21:30' });
  });

  it('gives the previous day in Los Angeles when UTC already has the next one', () => {
    expect(zonedNow(LA, new Date('2026-01-01T05:00:00Z'))).toEqual({ date: '2025-12-31', time: '21:00' });
  });

  it('writes midnight as 00:00, never 24:00', () => {
    expect(zonedNow(LA, new Date('2026-07-01T07:00:00Z'))).toEqual({ date: '2026-07-01', time: '00:00' });
    expect(zonedNow('UTC', new Date('2026-03-01T00:00:00Z'))).toEqual({ date: '2026-03-01', time: '00:00' });
  });

  it('defaults to the current instant', () => {
    const before = zonedNow('UTC', new Date());
    const now = zonedNow('UTC');
    const after = zonedNow('UTC', new Date());
    expect([before.date, after.date]).toContain(now.date);
    expect(now.time >= before.time || now.date > before.date).toBe(true);
    expect(now.time <= after.time || now.date < after.date).toBe(true);
  });
});

describe('addDays', () => {
  it('adds and subtracts within a month', () => {
    expect(addDays('2026-07-01', 0)).toBe('2026-07-01');
    expect(addDays('2026-07-01', 6)).toBe('2026-07-07');
    expect(addDays('2026-07-10', -3)).toBe('2026-07-07');
  });

  it('crosses month and year ends', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2026-04-30', 1)).toBe('2026-05-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-01-01', 365)).toBe('2027-01-01');
  });

  it('knows leap days', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2028-02-29', 1)).toBe('2028-03-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addDays('2100-02-28', 1)).toBe('2100-03-01');
    expect(addDays('2000-02-28', 1)).toBe('2000-02-29');
    expect(addDays('2028-01-01', 366)).toBe('2029-01-01');
  });

  it('is not shifted by the DST change (calendar arithmetic only)', () => {
    expect(addDays('2026-03-07', 1)).toBe('2026-03-08');
    expect(addDays('2026-03-08', 1)).toBe('2026-03-09');
    expect(addDays('2026-10-31', 1)).toBe('2026-11-01');
    expect(addDays('2026-11-01', 1)).toBe('2026-11-02');
  });
});

describe('weekday', () => {
  it('numbers the days from Sunday = 0', () => {
    expect(weekday('2026-07-05')).toBe(0); // Sunday
    expect(weekday('2026-07-06')).toBe(1);
    expect(weekday('2026-07-01')).toBe(3); // Wednesday
    expect(weekday('2026-07-04')).toBe(6); // Saturday
    expect(weekday('2026-01-01')).toBe(4); // Thursday
    expect(weekday('2028-02-29')).toBe(2); // Tuesday
  });

  it('agrees with addDays: seven days later is the same weekday', () => {
    for (let i = 0; i < 400; i += 1) {
      const d = addDays('2026-01-01', i);
      expect(weekday(addDays(d, 7))).toBe(weekday(d));
      expect(weekday(addDays(d, 1))).toBe((weekday(d) + 1) % 7);
    }
  });
});
