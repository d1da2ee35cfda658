/**
 * The token of a link in a mail that opens one row without a login (a gift card's printable card,
 * a tasting's pay page): the first 128 bits of an HMAC-SHA256 of the row's id, keyed with
 * APP_SECRET under a label of its own, so a token made for one kind of link opens no other, a
 * link reveals nothing of the secret, and no one without the mail can make one. No database row:
 * any replica checks it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The token of the `label` link to the row `id`. */
export function linkToken(secret: string, label: string, id: string): string {
  if (!secret) throw new Error(`a ${label} link needs APP_SECRET`);
  return createHmac('sha256', secret).update(`${label}\0${id}`).digest().subarray(0, 16).toString('base64url');
}

/** Whether `token` is the `label` link's to the row `id`, compared in constant time. */
export function linkTokenIs(secret: string, label: string, id: string, token: string): boolean {
  const expected = Buffer.from(linkToken(secret, label, id));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
