import { describe, expect, it } from 'vitest';
import { buildIcs, escapeText, foldLine } from '../../../api/mail/ics.ts';
import { itemAt, must } from '../../helpers/guards.ts';

const LA = 'America/Los_Angeles';
const base = {
  uid: 'signup-1@yoga.example',
  start: new Date('2026-07-01T16:00:00Z'), // 09:00 PDT
  timezone: LA,
  summary: 'Gentle Flow',
  location: 'Studio One',
  stamp: new Date('2026-06-01T12:34:56Z'),
};

/** Content lines: physical lines unfolded (RFC 5545 3.1). */
const unfold = (ics: string) => ics.replace(/\r\n /g, '').split('\r\n');
/** The block between BEGIN:name and its END, as content lines. */
const blocks = (ics: string, name: string) => {
  const lines = unfold(ics);
  const out: string[][] = [];
  lines.forEach((l, i) => {
    if (l === `BEGIN:${name}`) out.push(lines.slice(i + 1, lines.indexOf(`END:${name}`, i)));
  });
  return out;
};

describe('buildIcs', () => {
  it('writes one VEVENT in a VCALENDAR with CRLF line endings only', () => {
    const ics = buildIcs(base);
    expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:')).toBe(true);
    expect(ics.endsWith('END:VEVENT\r\nEND:VCALENDAR\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(unfold(ics)).toContain('METHOD:PUBLISH');
    expect(blocks(ics, 'VEVENT')).toHaveLength(1);
  });

  it("gives the event its UID, a UTC DTSTAMP, and start and end on the zone's clocks, an hour apart", () => {
    const [event] = blocks(buildIcs(base), 'VEVENT');
    expect(event).toEqual(
      expect.arrayContaining([
        'UID:signup-1@yoga.example',
        'DTSTAMP:20260601T123456Z',
        'DTSTART;TZID=America/Los_Angeles:20260701T090000',
        'DTEND;TZID=America/Los_Angeles:20260701T100000',
        'SUMMARY:Gentle Flow',
        'LOCATION:Studio One',
      ]),
    );
  });

  it('writes winter times in standard time and ends an hour later in real time across a clock change', () => {
    const [winter] = blocks(buildIcs({ ...base, start: new Date('2026-01-15T17:00:00Z') }), 'VEVENT');
    expect(winter).toContain('DTSTART;TZID=America/Los_Angeles:20260115T090000');
    // 01:30 PST on the night clocks spring forward: an hour later it is 03:30 PDT.
    const [spring] = blocks(buildIcs({ ...base, start: new Date('2026-03-08T09:30:00Z') }), 'VEVENT');
    expect(spring).toContain('DTSTART;TZID=America/Los_Angeles:20260308T013000');
    expect(spring).toContain('DTEND;TZID=America/Los_Angeles:20260308T033000');
    const [long] = blocks(buildIcs({ ...base, durationMinutes: 90 }), 'VEVENT');
    expect(long).toContain('DTEND;TZID=America/Los_Angeles:20260701T103000');
  });

  it('defines the zone with its clock changes around the event (VTIMEZONE)', () => {
    const ics = buildIcs(base);
    const tz = itemAt(blocks(ics, 'VTIMEZONE'), 0);
    expect(tz[0]).toBe('TZID:America/Los_Angeles');
    const joined = tz.join('\n');
    expect(joined).toContain('BEGIN:DAYLIGHT\nDTSTART:20260308T020000\nTZOFFSETFROM:-0800\nTZOFFSETTO:-0700\nEND:DAYLIGHT');
    expect(joined).toContain('BEGIN:STANDARD\nDTSTART:20261101T020000\nTZOFFSETFROM:-0700\nTZOFFSETTO:-0800\nEND:STANDARD');
    // The zone is defined before the event that uses it.
    expect(ics.indexOf('BEGIN:VTIMEZONE')).toBeLessThan(ics.indexOf('BEGIN:VEVENT'));
  });

  it('handles zones without clock changes and southern-hemisphere summers', () => {
    const kolkata = buildIcs({ ...base, timezone: 'Asia/Kolkata' });
    expect(blocks(kolkata, 'VEVENT')[0]).toContain('DTSTART;TZID=Asia/Kolkata:20260701T213000');
    expect(itemAt(blocks(kolkata, 'VTIMEZONE'), 0).join('\n')).toMatch(
      /BEGIN:STANDARD\nDTSTART:\d{8}T\d{6}\nTZOFFSETFROM:\+0530\nTZOFFSETTO:\+0530\nEND:STANDARD/,
    );
    expect(blocks(kolkata, 'DAYLIGHT')).toHaveLength(0);

    const sydney = buildIcs({ ...base, timezone: 'Australia/Sydney', start: new Date('2027-01-10T23:00:00Z') });
    expect(blocks(sydney, 'VEVENT')[0]).toContain('DTSTART;TZID=Australia/Sydney:20270111T100000');
    expect(itemAt(blocks(sydney, 'VTIMEZONE'), 0).join('\n')).toContain('BEGIN:DAYLIGHT\nDTSTART:20261004T020000\nTZOFFSETFROM:+1000\nTZOFFSETTO:+1100');
  });

  it('escapes text values and leaves no raw line break in them', () => {
    const [event] = blocks(
      buildIcs({ ...base, summary: 'Yin, Yang; and \\ more', location: 'Hall 2\nBack door', description: 'Line one\r\nLine two' }),
      'VEVENT',
    );
    expect(event).toContain('SUMMARY:Yin\\, Yang\\; and \\\\ more');
    expect(event).toContain('LOCATION:Hall 2\\nBack door');
    expect(event).toContain('DESCRIPTION:Line one\\nLine two');
  });

  it('folds long lines at 75 octets without splitting characters, and unfolding restores them', () => {
    const summary = `Restorative Yoga 🧘 with cacao ☕ tasting — ${'long words '.repeat(12)}`.trim();
    const ics = buildIcs({ ...base, summary });
    for (const physical of ics.split('\r\n')) {
      expect(Buffer.byteLength(physical, 'utf8')).toBeLessThanOrEqual(75);
      expect(physical).not.toContain('\uFFFD');
    }
    expect(ics).toContain('\r\n '); // it did fold
    expect(unfold(ics)).toContain(`SUMMARY:${summary}`);
  });

  it('publishes a confirmed event with no SEQUENCE line unless told otherwise', () => {
    const ics = buildIcs(base);
    expect(buildIcs({ ...base, method: 'PUBLISH', status: 'CONFIRMED' })).toBe(ics);
    expect(unfold(ics)).toContain('METHOD:PUBLISH');
    expect(blocks(ics, 'VEVENT')[0]).toContain('STATUS:CONFIRMED');
    expect(unfold(ics).some((l) => l.startsWith('SEQUENCE'))).toBe(false);
  });

  it('cancels an event: METHOD:CANCEL, the same UID, STATUS:CANCELLED and a higher SEQUENCE', () => {
    const ics = buildIcs({ ...base, method: 'CANCEL', status: 'CANCELLED', sequence: 1 });
    expect(unfold(ics)).toContain('METHOD:CANCEL');
    expect(unfold(ics)).not.toContain('METHOD:PUBLISH');
    const [event] = blocks(ics, 'VEVENT');
    expect(event).toEqual(expect.arrayContaining(['UID:signup-1@yoga.example', 'SEQUENCE:1', 'STATUS:CANCELLED']));
    expect(event).not.toContain('STATUS:CONFIRMED');
    // METHOD belongs to the calendar, not the event.
    expect(ics.indexOf('METHOD:CANCEL')).toBeLessThan(ics.indexOf('BEGIN:VEVENT'));
    expect(blocks(buildIcs({ ...base, sequence: 0 }), 'VEVENT')[0]).toContain('SEQUENCE:0');
  });

  it('names the organizer and, for a cancel, the attendee; their names cannot break the line', () => {
    const ics = buildIcs({
      ...base,
      method: 'CANCEL',
      organizer: { name: 'Yoga & Chocolates', email: 'teacher@example.com' },
      attendee: { name: 'Ana "x":mailto:evil@example.com\r\nATTENDEE:mailto:b@example.com', email: 'ana@example.com' },
    });
    const [event] = blocks(ics, 'VEVENT');
    expect(event).toContain('ORGANIZER;CN="Yoga & Chocolates":mailto:teacher@example.com');
    const attendees = must(event, 'event').filter((l) => l.startsWith('ATTENDEE'));
    expect(attendees).toEqual(['ATTENDEE;CN="Ana x:mailto:evil@example.comATTENDEE:mailto:b@example.com":mailto:ana@example.com']);
    expect(unfold(buildIcs(base)).some((l) => l.startsWith('ORGANIZER') || l.startsWith('ATTENDEE'))).toBe(false);
  });

  it('refuses a SEQUENCE that is not a whole number of zero or more', () => {
    for (const sequence of [-1, 1.5, Number.NaN]) expect(() => buildIcs({ ...base, sequence })).toThrow(/sequence/);
  });

  it('leaves out LOCATION and DESCRIPTION when there are none', () => {
    const event = itemAt(blocks(buildIcs({ ...base, location: '' }), 'VEVENT'), 0);
    expect(event.some((l) => l.startsWith('LOCATION'))).toBe(false);
    expect(event.some((l) => l.startsWith('DESCRIPTION'))).toBe(false);
  });
});

describe('escapeText and foldLine', () => {
  it('escape backslash first, then separators and newlines', () => {
    expect(escapeText('a\\,b')).toBe('a\\\\\\,b');
    expect(escapeText('x\ry\nz')).toBe('x\\ny\\nz');
    expect(escapeText('tab\tok, bell\u0007 gone')).toBe('tab\tok\\, bell gone');
  });

  it('keep short lines as they are and put a space before every continuation', () => {
    expect(foldLine('SUMMARY:short')).toBe('SUMMARY:short');
    const folded = foldLine(`X:${'é'.repeat(100)}`);
    const parts = folded.split('\r\n');
    expect(parts.length).toBeGreaterThan(2);
    expect(parts.slice(1).every((p) => p.startsWith(' '))).toBe(true);
    expect(parts.every((p) => Buffer.byteLength(p) <= 75)).toBe(true);
    expect(folded.replace(/\r\n /g, '')).toBe(`X:${'é'.repeat(100)}`);
  });
});
