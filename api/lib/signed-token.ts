/**
 * Signed tokens for links in mails that must work without a login and without a database
 * row, such as "unsubscribe": `<payload>.<signature>`, both base64url, the signature an
 * HMAC-SHA256 with APP_SECRET over the purpose and the payload. The purpose is signed too, so a
 * token made for one kind of link is worthless for another. No expiry: an unsubscribe link
 * must keep working in a mail read a year later.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Longest token accepted; longer input is refused before any work. */
const MAX_TOKEN_LENGTH = 1024;

function mac(secret: string, purpose: string, payload: string): Buffer {
  // The NUL can't occur in a purpose, so "a" + "\0" + "b:c" never collides with "a:b" + "\0" + "c".
  return createHmac('sha256', secret).update(`${purpose}\0${payload}`).digest();
}

export function signToken(secret: string, purpose: string, payload: string): string {
  if (!secret) throw new Error('signToken needs a secret');
  return `${Buffer.from(payload, 'utf8').toString('base64url')}.${mac(secret, purpose, payload).toString('base64url')}`;
}

/** The payload of a token this secret signed for this purpose, else null. */
export function verifyToken(secret: string, purpose: string, token: unknown): string | null {
  if (!secret || typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return null;
  const parts = token.split('.');
  if (parts.length !== 2) return null;
  const [encodedPayload, encodedSignature] = parts as [string, string];
  if (!/^[A-Za-z0-9_-]*$/.test(encodedPayload) || !/^[A-Za-z0-9_-]+$/.test(encodedSignature)) return null;
  const payload = Buffer.from(encodedPayload, 'base64url').toString('utf8');
  // Only the canonical encoding is accepted: one token per payload.
  if (Buffer.from(payload, 'utf8').toString('base64url') !== encodedPayload) return null;
  const given = Buffer.from(encodedSignature, 'base64url');
  if (given.toString('base64url') !== encodedSignature) return null;
  const expected = mac(secret, purpose, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return payload;
}
