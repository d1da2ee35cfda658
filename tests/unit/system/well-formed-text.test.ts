/**
 * Issue 29, "Text that stays well-formed": the noncharacters are refused wherever text is
 * (isCleanText, as NUL and lone surrogates are), and the feed's XML escaping drops whatever XML
 * 1.0 can't carry, for text stored before the rule.
 */
import { describe, expect, it } from 'vitest';
import { isCleanText } from '../../../contract/common.ts';
import { xml } from '../../../api/pages/journal-render.ts';
import { must } from '../../helpers/guards.ts';

/** Every noncharacter: U+FDD0–U+FDEF, and the last two code points of each of the 17 planes. */
const NONCHARACTERS = [
  ...Array.from({ length: 32 }, (_, i) => 0xfdd0 + i),
  ...Array.from({ length: 17 }, (_, plane) => [plane * 0x10000 + 0xfffe, plane * 0x10000 + 0xffff]).flat(),
].map((cp) => String.fromCodePoint(cp));

describe('isCleanText', () => {
  it('refuses each of the 66 noncharacters, as it refuses NUL and a lone surrogate', () => {
    expect(NONCHARACTERS).toHaveLength(66);
    for (const c of NONCHARACTERS) expect(isCleanText(`a${c}b`), must(c.codePointAt(0), 'c.codePointAt(0)').toString(16)).toBe(false);
    expect(isCleanText('a\u0000b')).toBe(false);
    expect(isCleanText('a\ud800b')).toBe(false);
  });

  it('keeps their neighbours: U+FDCF, U+FDF0, U+FFFD, an astral emoji, the private use areas', () => {
    for (const s of ['\ufdcf', '\ufdf0', '\ufffd', '🍫', '\ue000', '\u{F0000}', '\u{10FFFD}']) expect(isCleanText(`a${s}b`), s).toBe(true);
  });
});

describe('the feed’s XML escaping', () => {
  it('drops every noncharacter, the C0 controls and lone surrogates, and escapes markup', () => {
    expect(xml(`Old${NONCHARACTERS.join('')} <words> & "more"\u0000\u0008\ud800`)).toBe('Old &lt;words&gt; &amp; &quot;more&quot;');
    expect(xml('tab\tline\nreturn\r🍫')).toBe('tab\tline\nreturn\r🍫');
  });
});
