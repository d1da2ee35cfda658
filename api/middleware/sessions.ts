/**
 * Sessions after the current Lucia guide (docs/decisions/0013): the cookie holds
 * `<id>.<secret>`, two independent random strings. The database keeps the id in the clear (it
 * is only a lookup key) and the SHA-256 of the secret, so a leaked table yields no usable
 * session; the secret is compared in constant time, so response times say nothing about how
 * much of a guessed secret was right. Expiry slides (a session in use is extended once half
 * spent) but never past an absolute lifetime counted from the login: a stolen cookie that is
 * kept busy still dies. Clients and the administrator have separate tables, so one kind never
 * unlocks the other.
 */
import { timingSafeEqual } from 'node:crypto';
import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';
import type { DB } from '../../db/client.ts';
import { deleteSession, deleteSessionsOf, extendLiveSession, extendSession, findSessionRow, insertSessionRow, type SessionKind } from './sessions.repo.ts';

/** A token from `bytes` random bytes (20 = 160 bits by default), base32 for cookies and URLs. */
export function generateToken(bytes = 20): string {
  const raw = new Uint8Array(bytes);
  crypto.getRandomValues(raw);
  return encodeBase32LowerCaseNoPadding(raw);
}

/** SHA-256, hex: what is stored in place of a secret (session secrets, mailed link tokens). */
export function hashToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

// Two 20-byte base32 strings: anything else is not one of our tokens and is refused unread.
const TOKEN_SHAPE = /^([a-z2-7]{32})\.([a-z2-7]{32})$/;

/** The id part of a session token (the stored row's key), or undefined when it is not one. */
export function sessionIdOf(token: unknown): string | undefined {
  return typeof token === 'string' ? TOKEN_SHAPE.exec(token)?.[1] : undefined;
}

const DAY = 24 * 3600_000;

export type { SessionKind };

const kinds = {
  user: { lifetimeMs: 30 * DAY, maxAgeMs: 90 * DAY },
  // The administrator's session is shorter on both counts: it can change everything.
  admin: { lifetimeMs: 12 * 3600_000, maxAgeMs: 7 * DAY },
} as const;

export interface ValidSession {
  id: string;
  subjectId: string;
  expiresAt: Date;
  /** True when this validation extended the expiry (the cookie should be re-sent). */
  renewed: boolean;
}

export function sessionStore(db: DB, kind: SessionKind) {
  const { lifetimeMs, maxAgeMs } = kinds[kind];

  /** The live row `token` proves, or undefined; an expired or too old row is deleted on the way. */
  async function find(token: unknown, now: Date) {
    const match = typeof token === 'string' ? TOKEN_SHAPE.exec(token) : null;
    if (!match) return undefined;
    const [, id, secret] = match as unknown as [string, string, string];
    const row = await findSessionRow(db, kind, id);
    if (!row) return undefined;
    const expected = Buffer.from(row.secretHash, 'hex');
    const actual = Buffer.from(hashToken(secret), 'hex');
    // Lengths differ only for a damaged row; timingSafeEqual would throw on them.
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return undefined;
    const expiresAt = new Date(row.expiresAt);
    const endsAt = new Date(new Date(row.createdAt).getTime() + maxAgeMs);
    if (Math.min(expiresAt.getTime(), endsAt.getTime()) <= now.getTime()) {
      await deleteSession(db, kind, id);
      return undefined;
    }
    return { id, subjectId: row.subjectId, expiresAt, endsAt };
  }

  /** A full sliding lifetime from `now`, cut at the absolute end. */
  const nextExpiry = (endsAt: Date, now: Date) => new Date(Math.min(now.getTime() + lifetimeMs, endsAt.getTime()));

  return {
    lifetimeMs,
    maxAgeMs,

    async create(subjectId: string, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
      const id = generateToken();
      const secret = generateToken();
      const expiresAt = new Date(now.getTime() + lifetimeMs);
      // created_at is written from the same clock as expires_at: the absolute lifetime counts from it.
      await insertSessionRow(db, kind, { id, secretHash: hashToken(secret), subjectId, expiresAt, createdAt: now });
      return { token: `${id}.${secret}`, expiresAt };
    },

    async validate(token: unknown, now = new Date()): Promise<ValidSession | null> {
      const session = await find(token, now);
      if (!session) return null;
      const { id, subjectId, expiresAt, endsAt } = session;
      if (expiresAt.getTime() - now.getTime() >= lifetimeMs / 2) return { id, subjectId, expiresAt, renewed: false };
      const next = nextExpiry(endsAt, now);
      // Near the absolute end there is nothing left to extend by.
      if (next.getTime() <= expiresAt.getTime()) return { id, subjectId, expiresAt, renewed: false };
      await extendSession(db, kind, id, next);
      return { id, subjectId, expiresAt: next, renewed: true };
    },

    /**
     * The spec's refresh-token: a full sliding lifetime from now (never past the absolute end),
     * in place, so requests in flight with the same cookie keep working. Null when not valid.
     */
    async refresh(token: unknown, now = new Date()): Promise<ValidSession | null> {
      const session = await find(token, now);
      if (!session) return null;
      const next = nextExpiry(session.endsAt, now);
      if (!(await extendLiveSession(db, kind, session.id, next, now))) return null;
      return { id: session.id, subjectId: session.subjectId, expiresAt: next, renewed: true };
    },

    /** Ends the session `token` proves (a right id with a wrong secret ends nothing). */
    async invalidate(token: unknown): Promise<void> {
      const session = await find(token, new Date());
      if (session) await deleteSession(db, kind, session.id);
    },

    async invalidateAll(subjectId: string): Promise<void> {
      await deleteSessionsOf(db, kind, subjectId);
    },
  };
}
