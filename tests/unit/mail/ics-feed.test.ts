/** buildFeed (api/mail/ics.ts): the public class feed's calendar, read back by ical.js. */
import { describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { buildFeed } from '../../../api/mail/ics.ts';
import { itemAt } from '../../helpers/guards.ts';

describe('buildFeed', () => {
  const feed = buildFeed({
    name: 'Yoga & Chocolates classes',
    timezone: 'America/Los_Angeles',
    stamp: new Date('2026-11-23T12:00:00Z'),
    events: [
      {
        uid: 'class-1@example.com',
        start: new Date('2026-11-01T08:30:00Z'),
        durationMinutes: 90,
        summary: 'Flow; slow, then fast',
        location: 'Studio, Room 2',
      },
      { uid: 'class-2@example.com', start: new Date('2026-11-01T10:30:00Z'), summary: 'Long '.repeat(40).trim(), description: 'Line one\nLine two' },
    ],
  });

  it('is CRLF, folded at 75 octets, one VEVENT per class with UTC instants', () => {
    expect(feed.endsWith('\r\n')).toBe(true);
    for (const line of feed.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(feed).toContain('DTSTART:20261101T083000Z');
    expect(feed).toContain('DTEND:20261101T100000Z');
    expect(feed).not.toContain('VTIMEZONE');
  });

  it('reads back with every field intact (escaping undone)', () => {
    const calendar = new ICAL.Component(ICAL.parse(feed));
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Yoga & Chocolates classes');
    const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    expect(events.map((e) => e.uid)).toEqual(['class-1@example.com', 'class-2@example.com']);
    expect(itemAt(events, 0).summary).toBe('Flow; slow, then fast');
    expect(itemAt(events, 0).location).toBe('Studio, Room 2');
    // The clocks fell back in Los Angeles on 2026-11-01 at 09:00Z: each instant is still exact.
    expect(itemAt(events, 0).startDate.toJSDate().toISOString()).toBe('2026-11-01T08:30:00.000Z');
    expect(itemAt(events, 1).startDate.toJSDate().toISOString()).toBe('2026-11-01T10:30:00.000Z');
    expect(itemAt(events, 1).endDate.toJSDate().toISOString()).toBe('2026-11-01T11:30:00.000Z');
    expect(itemAt(events, 1).summary).toBe('Long '.repeat(40).trim());
    expect(itemAt(events, 1).description).toBe('Line one\nLine two');
  });

  it('is an empty calendar without classes', () => {
    const calendar = new ICAL.Component(ICAL.parse(buildFeed({ name: 'x', timezone: 'UTC', events: [] })));
    expect(calendar.getAllSubcomponents('vevent')).toHaveLength(0);
  });
});
