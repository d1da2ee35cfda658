/**
 * Issue 29, "Names" and "One inbox, one allowance": the one rule of a person's name
 * (contract/common.ts nameText, isVisibleText) and of an address (email, canonicalMailbox).
 */
import { describe, expect, it } from 'vitest';
import { email, invisibleCharactersMessage, isCleanText, isVisibleText, lettersMessage, nameText } from '../../../contract/common.ts';
import { check } from '../../../contract/check.ts';
import { canonicalMailbox } from '../../../api/services/limits.ts';

const name = nameText('Name');
const accepted = (s: string) => check(name, s).ok;
/** The refusal that names the rule (a bidi control also gets the bidi controls' own message first). */
const refusal = (s: string) => {
  const r = check(name, s);
  if (r.ok) return undefined;
  const messages = r.issues.map((i) => i.message);
  return messages.find((m) => m === invisibleCharactersMessage('Name')) ?? messages[0];
};

describe('the name rule: joiners where a script needs them', () => {
  it('takes a Persian name with a ZWNJ (مهر‌انگیز) and Devanagari with a ZWJ (क्‍ष)', () => {
    expect(accepted('مهر\u200cانگیز')).toBe(true);
    expect(accepted('می\u200cخواهم')).toBe(true);
    expect(accepted('क्\u200dष')).toBe(true);
    // At the end of a word of its script, as Persian keyboards leave it.
    expect(accepted('مهرداد\u200c کاظمی')).toBe(true);
    expect(accepted('Anjali क्\u200dषमा')).toBe(true);
    // Sinhala and Bengali too (the rule names scripts, not one language).
    expect(accepted('ශ්\u200dරී')).toBe(true);
    expect(accepted('র\u200d্য')).toBe(true);
  });

  it('takes an emoji family, a Han name with its ideographic variation selector, and plain names', () => {
    expect(accepted('Ana 👨\u200d👩\u200d👧')).toBe(true);
    expect(accepted('辻\u{E0100}本')).toBe(true);
    expect(accepted('Zoë O’Brien-Łukasz')).toBe(true);
    expect(accepted('Ἀλέξανδρος')).toBe(true);
    expect(accepted('Анна')).toBe(true);
  });

  it('refuses joiners beside Latin letters or digits, among Cyrillic or Greek letters, or alone', () => {
    for (const s of [
      'An\u200cna',
      'An\u200dna',
      'Ann\u200c 2',
      '\u200cAnna',
      'Ан\u200dна',
      'Ан\u200cна',
      'Ἀλέ\u200dξανδρος',
      '\u200c',
      '\u200d',
      '\u200c\u200c',
      'مهر\u200c\u200cانگیز',
      'مهر\u200cAnna',
      'मोहन \u200d',
    ]) {
      expect(refusal(s), JSON.stringify(s)).toBe(invisibleCharactersMessage('Name'));
    }
  });

  it('refuses a variation selector after a Latin letter', () => {
    expect(refusal('Ana\ufe0f')).toBe(invisibleCharactersMessage('Name'));
  });
});

describe('the name rule: every other invisible character', () => {
  const INVISIBLE: [string, string][] = [
    ['RIGHT-TO-LEFT OVERRIDE', '\u202e'],
    ['LEFT-TO-RIGHT OVERRIDE', '\u202d'],
    ['RIGHT-TO-LEFT ISOLATE', '\u2067'],
    ['ZERO WIDTH SPACE', '\u200b'],
    ['SOFT HYPHEN', '\u00ad'],
    ['INVISIBLE TIMES', '\u2062'],
    ['FUNCTION APPLICATION', '\u2061'],
    ['COMBINING GRAPHEME JOINER', '\u034f'],
    ['MONGOLIAN VOWEL SEPARATOR', '\u180e'],
    ['HANGUL FILLER', '\u3164'],
    ['HANGUL CHOSEONG FILLER', '\u115f'],
    ['HANGUL JUNGSEONG FILLER', '\u1160'],
    ['HALFWIDTH HANGUL FILLER', '\uffa0'],
    ['TAG LATIN SMALL LETTER A', '\u{E0061}'],
    ['CANCEL TAG', '\u{E007F}'],
    ['LANGUAGE TAG', '\u{E0001}'],
    ['WORD JOINER', '\u2060'],
    ['BYTE ORDER MARK', '\ufeff'],
    ['KHMER VOWEL INHERENT AQ', '\u17b4'],
  ];
  for (const [what, c] of INVISIBLE) {
    it(`refuses ${what} inside a name, and a name of it alone`, () => {
      expect(refusal(`Ana${c} Lima`)).toBe(invisibleCharactersMessage('Name'));
      expect(refusal(`مهر${c}انگیز`)).toBe(invisibleCharactersMessage('Name'));
      expect(isVisibleText(c)).toBe(false);
      expect(accepted(c)).toBe(false);
      expect(accepted(`${c}${c}${c}`)).toBe(false);
    });
  }

  it('refuses a name of the braille blank, and one with no letter at all', () => {
    expect(refusal('\u2800')).toBe(invisibleCharactersMessage('Name'));
    expect(refusal('...')).toBe(lettersMessage('Name'));
    expect(refusal('🌸')).toBe(lettersMessage('Name'));
  });

  it('still keeps the bidi marks out of names but in free text', () => {
    expect(accepted('Ana\u200f')).toBe(false);
    expect(isCleanText('سلام\u200f!')).toBe(true);
  });
});

describe('one inbox, one allowance', () => {
  const parsed = (s: string) => {
    const r = check(email, s);
    return r.ok ? r.data : undefined;
  };

  it('takes a fully qualified domain as the same address (its trailing dot dropped)', () => {
    expect(parsed('Ana@Gmail.com.')).toBe('ana@gmail.com');
    expect(parsed('ana@example.org..')).toBe('ana@example.org');
  });

  it('refuses quoted names and lists of addresses', () => {
    for (const s of ['"ana"@gmail.com', '"a.n.a"@example.com', '"ana@gmail.com"', 'a\\na@gmail.com', 'ana,bob@gmail.com', 'ana@gmail.com;bob@x.com']) {
      expect(parsed(s), s).toBeUndefined();
    }
  });

  it('refuses every invisible character in an address, joiners included', () => {
    for (const c of ['\u200c', '\u200d', '\u00ad', '\u2062', '\u034f', '\u180e', '\u3164', '\u{E0061}']) {
      expect(check(email, `an${c}a@gmail.com`).ok, JSON.stringify(c)).toBe(false);
    }
  });

  it('gives one allowance to the trailing-dot and quoted spellings of one mailbox', () => {
    const one = canonicalMailbox('victim@gmail.com');
    expect(canonicalMailbox('victim@gmail.com.')).toBe(one);
    expect(canonicalMailbox('"victim"@gmail.com')).toBe(one);
    expect(canonicalMailbox('"v.i.c.t.i.m+x"@GMAIL.com.')).toBe(one);
    expect(canonicalMailbox('"vic\\tim"@googlemail.com')).toBe(one);
    expect(canonicalMailbox('victim@example.com.')).toBe('victim@example.com');
  });
});
