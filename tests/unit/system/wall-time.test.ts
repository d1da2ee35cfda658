/**
 * Issue 12, item 6: wall times the teacher's clocks skip or show twice, and the shared field
 * schemas' edges (dates outside 2000–2100, invisible characters in names and e-mails; the
 * joiners names need, issue 21).
 */
import { describe, expect, it } from 'vitest';
import { wallTime, zonedInstant } from '../../../api/lib/time.ts';
import { DATE_OUT_OF_RANGE, email, invisibleCharactersMessage, isoDate, isVisibleText, nameText } from '../../../contract/common.ts';
import { personName } from '../../../contract/forms.ts';
import { profileUpdate, registration } from '../../../contract/user.ts';
import { must } from '../../helpers/guards.ts';

const LA = 'America/Los_Angeles';
const iso = (d: Date | undefined) => d?.toISOString();

describe('wallTime', () => {
  it('calls an ordinary time exact', () => {
    const w = wallTime('2026-07-01', '09:00', LA);
    expect(w.kind).toBe('exact');
    expect(iso(w.instant)).toBe('2026-07-01T16:00:00.000Z');
  });

  it('calls 02:00–02:59 on the spring-forward day skipped (2026-03-08 in Los Angeles)', () => {
    for (const time of ['02:00', '02:30', '02:59']) expect(wallTime('2026-03-08', time, LA).kind, time).toBe('skipped');
    expect(wallTime('2026-03-08', '01:59', LA).kind).toBe('exact');
    expect(wallTime('2026-03-08', '03:00', LA).kind).toBe('exact');
    // Same instant as zonedInstant's forward move, so nothing that relied on it changes.
    expect(iso(wallTime('2026-03-08', '02:30', LA).instant)).toBe(iso(zonedInstant('2026-03-08', '02:30', LA)));
  });

  it('calls 01:00–01:59 on the fall-back day ambiguous, first occurrence first (2026-11-01)', () => {
    const w = wallTime('2026-11-01', '01:30', LA);
    expect(w.kind).toBe('ambiguous');
    expect(iso(w.instant)).toBe('2026-11-01T08:30:00.000Z'); // PDT
    expect(iso(w.later)).toBe('2026-11-01T09:30:00.000Z'); // PST
    expect(wallTime('2026-11-01', '00:59', LA).kind).toBe('exact');
    expect(wallTime('2026-11-01', '02:00', LA).kind).toBe('exact');
  });

  it('knows other zones: Berlin skips 02:xx in late March, UTC skips nothing', () => {
    expect(wallTime('2026-03-29', '02:30', 'Europe/Berlin').kind).toBe('skipped');
    expect(wallTime('2026-10-25', '02:30', 'Europe/Berlin').kind).toBe('ambiguous');
    expect(wallTime('2026-03-08', '02:30', 'UTC').kind).toBe('exact');
  });
});

describe('isoDate keeps to 2000–2100', () => {
  it('accepts the ends of the range and refuses beyond them', () => {
    for (const ok of ['2000-01-01', '2026-11-23', '2100-12-31']) expect(isoDate.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['1999-12-31', '2101-01-01', '9999-12-31', '0000-01-01']) {
      const result = isoDate.safeParse(bad);
      expect(result.success, bad).toBe(false);
      expect(
        result.error?.issues.map((i) => i.message),
        bad,
      ).toContain(DATE_OUT_OF_RANGE);
    }
  });
});

describe('names and e-mails refuse invisible characters', () => {
  // Refused in names and addresses alike.
  const invisible = [
    '\u202a',
    '\u202b',
    '\u202c',
    '\u202d',
    '\u202e',
    '\u2066',
    '\u2067',
    '\u2068',
    '\u2069',
    '\u200e',
    '\u200f',
    '\u061c',
    '\u200b',
    '\u2060',
    '\ufeff',
  ];
  // The zero-width non-joiner and joiner: Persian, Hindi and other scripts spell names with them (issue 21).
  const joiners = ['\u200c', '\u200d'];

  it('isVisibleText knows each of them, and lets ordinary non-Latin names through', () => {
    for (const ch of invisible) expect(isVisibleText(`a${ch}b`), must(ch.codePointAt(0), 'ch.codePointAt(0)').toString(16)).toBe(false);
    for (const ok of ['Ana Lima', 'José Núñez', 'محمد علي', 'שרה כהן', '山田 太郎', 'Zoë O’Brien-Smith']) expect(isVisibleText(ok), ok).toBe(true);
  });

  it('lets names spell with ZWNJ and ZWJ, but not between Latin letters, where they only hide a difference', () => {
    for (const ok of ['مهرداد\u200c کاظمی', 'می\u200cخواهم', 'क्\u200dष', 'ন্\u200dন']) {
      expect(isVisibleText(ok), ok).toBe(true);
      expect(personName.safeParse(ok).success, ok).toBe(true);
      expect(registration.safeParse({ firstName: ok, lastName: 'Lima', email: 'ana@example.com' }).success, ok).toBe(true);
    }
    for (const ch of joiners) {
      expect(isVisibleText(`A${ch}na`)).toBe(false);
      expect(personName.safeParse(`Ana${ch}1`).error?.issues[0]?.message).toBe(invisibleCharactersMessage('Name'));
    }
  });

  it('in e-mail, personName, nameText and the account schemas, with a clear message', () => {
    for (const ch of invisible) {
      expect(email.safeParse(`ana${ch}@example.com`).error?.issues[0]?.message).toBe(invisibleCharactersMessage('Email'));
      expect(personName.safeParse(`Ana${ch} Lima`).error?.issues[0]?.message).toMatch(/must not contain (invisible|text-direction)/);
      expect(nameText('First name').safeParse(`A${ch}na`).success).toBe(false);
      expect(registration.safeParse({ firstName: 'Ana', lastName: `Li${ch}ma`, email: 'ana@example.com' }).success).toBe(false);
      expect(profileUpdate.safeParse({ firstName: 'Ana', lastName: 'Lima', preferredName: `An${ch}nie` }).success).toBe(false);
    }
    // An address takes no joiner at all: two addresses that look the same must be the same.
    for (const ch of joiners) expect(email.safeParse(`ana${ch}@example.com`).error?.issues[0]?.message).toBe(invisibleCharactersMessage('Email'));
    expect(registration.safeParse({ firstName: 'Ana', lastName: 'Lima', email: 'ana@example.com' }).success).toBe(true);
    expect(profileUpdate.safeParse({ firstName: 'Ana', lastName: 'Lima' }).success).toBe(true);
  });
});
