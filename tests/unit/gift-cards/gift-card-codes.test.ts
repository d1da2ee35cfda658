/**
 * Gift card codes (issue 33, decision 0041): 16 characters of 32 that read aloud and type
 * without doubt, 80 bits derived from APP_SECRET and the card's id; typed in any case, with
 * spaces or dashes; nothing invisible passes.
 */
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { codeOf, groupCode, lastFour } from '../../../api/gift-cards/codes.ts';
import { CODE_ALPHABET, hashCode, normalizeCode } from '../../../api/money/card-code.ts';

const SECRET = 'a-test-secret-of-at-least-thirty-two-chars';

describe('gift card codes', () => {
  it('use 32 characters without 0, O, 1 or I', () => {
    expect(new Set(CODE_ALPHABET).size).toBe(32);
    for (const ch of '0O1I') expect(CODE_ALPHABET).not.toContain(ch);
  });

  it('are 16 characters, the same for a card wherever asked, different per card and per secret', () => {
    const id = randomUUID();
    const code = codeOf(SECRET, id);
    expect(code).toMatch(/^[2-9A-HJ-NP-Z]{16}$/);
    expect(codeOf(SECRET, id)).toBe(code);
    expect(codeOf(`${SECRET}x`, id)).not.toBe(code);
    const many = new Set(Array.from({ length: 2_000 }, () => codeOf(SECRET, randomUUID())));
    expect(many.size).toBe(2_000);
    // Every character of the alphabet turns up in every position over many cards: no position is fixed.
    const codes = [...many];
    for (let i = 0; i < 16; i++) expect(new Set(codes.map((c) => c[i])).size).toBe(32);
  });

  it('read the way people type them, and nothing else', () => {
    const code = codeOf(SECRET, randomUUID());
    const grouped = groupCode(code);
    expect(grouped).toMatch(/^(.{4}-){3}.{4}$/);
    for (const typed of [
      grouped,
      grouped.toLowerCase(),
      code,
      ` ${grouped.replaceAll('-', ' ')} `,
      grouped.replaceAll('-', '\u2013'),
      grouped.replaceAll('-', '\u00a0'),
    ]) {
      expect(normalizeCode(typed)).toBe(code);
    }
    for (const typed of [
      code.slice(1),
      `${code}2`,
      `${code.slice(0, 8)}\u200b${code.slice(8)}`,
      `\ufeff${code}`,
      code.replace(/.$/, '0'),
      code.replace(/.$/, 'O'),
      '',
    ]) {
      expect(normalizeCode(typed)).toBeNull();
    }
    expect(hashCode(code)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashCode(code)).not.toContain(code.toLowerCase());
    expect(lastFour(code)).toBe(code.slice(12));
  });
});
