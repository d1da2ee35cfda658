/**
 * The mailed login links (login_tokens); the accounts they open are api/accounts/users.repo.ts,
 * their cookie sessions api/middleware/sessions.ts. The token generation and hashing is
 * api/accounts/login-tokens.ts (only hashes reach these functions).
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database, LoginTokensTable } from '../../db/schema.ts';

export type LoginPurpose = LoginTokensTable['purpose'];

/** Stores a link's hash; it expires `ttlSeconds` from now on the database's clock, which also judges it. */
export async function insertLoginToken(db: DB, row: { id: string; userId: string; purpose: LoginPurpose; ttlSeconds: number }) {
  await db
    .insertInto('loginTokens')
    .values({
      id: row.id,
      userId: row.userId,
      purpose: row.purpose,
      expiresAt: sql<Date>`now() + make_interval(secs => ${row.ttlSeconds})`,
    })
    .execute();
}

/** Links of this purpose sent to the user that are still usable: caps how many one address receives. */
export async function countLiveLoginTokens(db: DB, userId: string, purpose: LoginPurpose): Promise<number> {
  const row = await db
    .selectFrom('loginTokens')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('userId', '=', userId)
    .where('purpose', '=', purpose)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', sql<Date>`now()`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Spent and expired links of one user are of no use to anyone. */
export async function deleteDeadLoginTokens(db: DB, userId: string) {
  await db
    .deleteFrom('loginTokens')
    .where('userId', '=', userId)
    .where((w) => w.or([w('usedAt', 'is not', null), w('expiresAt', '<=', sql<Date>`now()`)]))
    .execute();
}

/**
 * Spends a link: one conditional UPDATE, so of any number of concurrent uses exactly one gets
 * the row back (the others find used_at set, or wait for the row lock and then do). The clock
 * is the database's, like the expiry written at issue time is compared against.
 */
export async function consumeLoginToken(trx: Transaction<Database>, id: string, purpose: LoginPurpose): Promise<string | undefined> {
  const row = await trx
    .updateTable('loginTokens')
    .set({ usedAt: sql<Date>`now()` })
    .where('id', '=', id)
    .where('purpose', '=', purpose)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', sql<Date>`now()`)
    .returning('userId')
    .executeTakeFirst();
  return row?.userId;
}
