/**
 * The mailed links that sign a client in (docs/decisions/0013, which keeps 0003's links as they
 * were): 32 random bytes (256 bits, base64url) in the link, only their SHA-256 in
 * `login_tokens`, valid 10 minutes, single use. A stolen database yields no usable link; a used
 * or expired one is worth nothing.
 */
import { randomBytes } from 'node:crypto';
import type { DB } from '../../db/client.ts';
import { hashToken } from '../middleware/sessions.ts';
import { consumeLoginToken, countLiveLoginTokens, deleteDeadLoginTokens, insertLoginToken, type LoginPurpose } from './login-tokens.repo.ts';

export type { LoginPurpose };

export const LOGIN_TOKEN_TTL_SECONDS = 10 * 60;
/**
 * At most this many unused links of one purpose live per account at a time: a stranger can't
 * fill someone's inbox by asking for link after link (the request still answers the same).
 */
export const MAX_LIVE_LOGIN_TOKENS = 5;

/** 32 bytes as base64url without padding: 43 characters of [A-Za-z0-9_-]. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function generateLoginToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Issues a link token for `userId`; undefined when the account already holds the maximum of
 * live links of that purpose (the caller then sends nothing, and answers as if it had).
 */
export async function issueLoginToken(db: DB, userId: string, purpose: LoginPurpose): Promise<string | undefined> {
  await deleteDeadLoginTokens(db, userId);
  if ((await countLiveLoginTokens(db, userId, purpose)) >= MAX_LIVE_LOGIN_TOKENS) return undefined;
  const token = generateLoginToken();
  await insertLoginToken(db, { id: hashToken(token), userId, purpose, ttlSeconds: LOGIN_TOKEN_TTL_SECONDS });
  return token;
}

/** Spends a link token; the user id when it was valid, unused and unexpired, else undefined. */
export async function redeemLoginToken(db: DB, token: unknown, purpose: LoginPurpose): Promise<string | undefined> {
  if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) return undefined;
  const id = hashToken(token);
  return db.transaction().execute((trx) => consumeLoginToken(trx, id, purpose));
}
