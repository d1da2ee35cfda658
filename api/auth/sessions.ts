/**
 * Sessions after the Lucia guide (docs/decisions/0003): a random token lives only in the
 * browser's HttpOnly cookie; the database keeps its SHA-256, so a leaked table yields no
 * usable session. Expiry slides: a session in use is extended once it is half spent.
 * Clients and the administrator have separate tables, so one kind never unlocks the other.
 */
import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';
import type { DB } from '../../db/client.ts';

/** A token from `bytes` random bytes (20 = 160 bits by default), base32 for cookies and URLs. */
export function generateToken(bytes = 20): string {
  const raw = new Uint8Array(bytes);
  crypto.getRandomValues(raw);
  return encodeBase32LowerCaseNoPadding(raw);
}

/** What is stored in place of a token. */
export function hashToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

export type SessionKind = 'user' | 'admin';

const kinds = {
  user: { table: 'userSessions', subject: 'userId', lifetimeMs: 30 * 24 * 3600_000 },
  // The administrator's session is shorter: it can change everything.
  admin: { table: 'adminSessions', subject: 'adminId', lifetimeMs: 12 * 3600_000 },
} as const;

export interface ValidSession {
  id: string;
  subjectId: string;
  expiresAt: Date;
  /** True when this validation extended the expiry (the cookie should be re-sent). */
  renewed: boolean;
}

export function sessionStore(db: DB, kind: SessionKind) {
  const { table, subject, lifetimeMs } = kinds[kind];
  // The two tables differ only in the subject column's name; typed as the user table.
  const t = table as 'userSessions';
  const col = subject as 'userId';

  return {
    lifetimeMs,

    async create(subjectId: string, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
      const token = generateToken();
      const expiresAt = new Date(now.getTime() + lifetimeMs);
      await db.insertInto(t).values({ id: hashToken(token), [col]: subjectId, expiresAt } as never).execute();
      return { token, expiresAt };
    },

    async validate(token: unknown, now = new Date()): Promise<ValidSession | null> {
      if (typeof token !== 'string' || token.length < 16 || token.length > 128) return null;
      const id = hashToken(token);
      const row = await db.selectFrom(t).select(['id', 'expiresAt', col]).where('id', '=', id).executeTakeFirst();
      if (!row) return null;
      const expiresAt = new Date(row.expiresAt);
      if (expiresAt.getTime() <= now.getTime()) {
        await db.deleteFrom(t).where('id', '=', id).execute();
        return null;
      }
      let renewed = false;
      let current = expiresAt;
      if (expiresAt.getTime() - now.getTime() < lifetimeMs / 2) {
        current = new Date(now.getTime() + lifetimeMs);
        await db.updateTable(t).set({ expiresAt: current }).where('id', '=', id).execute();
        renewed = true;
      }
      return { id, subjectId: row[col], expiresAt: current, renewed };
    },

    async invalidate(token: string): Promise<void> {
      await db.deleteFrom(t).where('id', '=', hashToken(token)).execute();
    },

    async invalidateAll(subjectId: string): Promise<void> {
      await db.deleteFrom(t).where(col, '=', subjectId).execute();
    },
  };
}
