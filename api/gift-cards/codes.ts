/**
 * A gift card's code made (issue 33, decision 0041; how a typed code is read: api/money/card-code.ts): 16 characters from 32 that can't be mistaken for
 * one another read aloud or typed (no 0/O, no 1/I), 5 bits each: 80 bits. Shown in four groups of
 * four (`K7QM-2XWD-9PHN-4RTA`); typed in any case, with or without the dashes and spaces.
 *
 * The code is never stored. It is the first 80 bits of an HMAC-SHA256, keyed with APP_SECRET,
 * of the card's id (itself a random UUID): to anyone without the secret as unpredictable as 80
 * random bits, and any replica can write it into the recipient's mail on the delivery day without
 * a copy kept anywhere. What is stored is its SHA-256 (80 unpredictable bits need no salt for the
 * hash to be hopeless to reverse; a look-up is one index probe) and its last four, for the teacher.
 *
 * A copy of the database holds no code or link that works (issue 47, decision 0052): the mails
 * that carry them (the recipient's code and print link, the buyer's change link) wait in the
 * outbox sealed with the private records' key, and their words are dropped once sent
 * (api/mail/sealed-mail.ts). tests/api/mail/secrets-at-rest.test.ts searches pg_dump, the PGlite
 * folder with its WAL and a backup for every code and token it made.
 */
import { createHmac } from 'node:crypto';
import { linkToken, linkTokenIs } from '../lib/link-token.ts';
import { CODE_ALPHABET, CODE_LENGTH } from '../money/card-code.ts';

/** The card's code, normalised (16 characters, no dashes): the same for its id wherever it is asked. */
export function codeOf(secret: string, cardId: string): string {
  if (!secret) throw new Error('a gift card code needs APP_SECRET');
  const mac = createHmac('sha256', secret).update(`gift-card-code\0${cardId}`).digest();
  // 16 × 5 bits from the first 10 bytes.
  let bits = 0n;
  for (const byte of mac.subarray(0, 10)) bits = (bits << 8n) | BigInt(byte);
  let code = '';
  for (let i = CODE_LENGTH - 1; i >= 0; i--) code += CODE_ALPHABET[Number((bits >> BigInt(i * 5)) & 31n)];
  return code;
}

/** `K7QM2XWD9PHN4RTA` → `K7QM-2XWD-9PHN-4RTA`. */
export const groupCode = (code: string) => code.match(/.{1,4}/g)!.join('-');

/** The last four characters, for the teacher's list and the buyer's mails. */
export const lastFour = (normalized: string) => normalized.slice(-4);

/** What a card's link is for: the buyer's change of its delivery, or the recipient's printable card. */
export type CardLink = 'change' | 'print';

/**
 * The token of a card's link (the buyer's change in the receipt, the printable card in the
 * recipient's mail): api/lib/link-token.ts with its own label per link, so a link reveals nothing
 * of the code or of the other link.
 */
export const linkTokenOf = (secret: string, link: CardLink, cardId: string): string => linkToken(secret, `gift-card-${link}`, cardId);

/** Whether a token is the card's for that link, compared in constant time. */
export const linkTokenMatches = (secret: string, link: CardLink, cardId: string, token: string): boolean =>
  linkTokenIs(secret, `gift-card-${link}`, cardId, token);
