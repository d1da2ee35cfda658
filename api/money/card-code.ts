/**
 * A gift card's code as a buyer types it (issue 33, decision 0041): what a code is (16 characters
 * from 32 that can't be mistaken for one another), how a typed one is read, and the hash it is
 * stored and looked up by. The money floor reads it to find the card that pays (cards.ts); the
 * gift-cards wing makes the codes (api/gift-cards/codes.ts) and stores their hash.
 */
import { createHash } from 'node:crypto';

/** The alphabet: digits 2–9 and the letters without I and O. */
export const CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const CODE_LENGTH = 16;

/**
 * The 16 characters a person typed, upper-cased, without spaces or dashes; null when it can't be a
 * code (a wrong length or a character outside the alphabet), which is answered as any unknown code.
 */
export function normalizeCode(typed: string): string | null {
  // Spaces and dashes as people type them (a phone's no-break space, an en dash); nothing
  // invisible: a code with a zero-width character or a byte order mark in it is no code.
  const code = typed.toUpperCase().replace(/[ \t\u00a0\u2010-\u2015-]/g, '');
  if (code.length !== CODE_LENGTH) return null;
  for (const ch of code) if (!CODE_ALPHABET.includes(ch)) return null;
  return code;
}

/** What is stored and looked up: the SHA-256 of the normalised code, in hex. */
export const hashCode = (normalized: string) => createHash('sha256').update(normalized).digest('hex');
