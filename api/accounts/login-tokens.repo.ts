/**
 * Client accounts: the users' own rows and the mailed login links (login_tokens); their cookie
 * sessions are api/accounts/sessions.ts. The admin's view of clients is api/accounts/users.repo.ts;
 * the token generation and hashing is api/accounts/login-tokens.ts (only hashes reach these functions).
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database, LoginTokensTable } from '../../db/schema.ts';

export type LoginPurpose = LoginTokensTable['purpose'];

const profile = [
  'id',
  'email',
  'firstName',
  'lastName',
  'phone',
  'preferredName',
  'pronoun',
  'city',
  'zipcode',
  'image',
  'googleId',
  'emailVerifiedAt',
  'createdAt',
] as const;

export async function findUserById(db: DB, id: string) {
  return db.selectFrom('users').select(profile).where('id', '=', id).executeTakeFirst();
}

export async function findUserByEmail(db: DB, email: string) {
  return db.selectFrom('users').select(profile).where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
}

/**
 * Creates an unverified account; undefined when the e-mail already has one (two registrations
 * racing: the unique constraint decides, the loser is treated as "already registered").
 */
export async function insertUser(db: DB, user: { email: string; firstName: string; lastName: string }) {
  return db
    .insertInto('users')
    .values({ email: user.email.trim().toLowerCase(), firstName: user.firstName, lastName: user.lastName })
    .onConflict((oc) => oc.column('email').doNothing())
    .returning(profile)
    .executeTakeFirst();
}

export interface ProfileChanges {
  firstName: string;
  lastName: string;
  phone?: string | undefined;
  preferredName?: string | undefined;
  pronoun?: string | undefined;
  city?: string | undefined;
  zipcode?: string | undefined;
}

/** The account page's fields; the e-mail is never among them. */
export async function updateProfile(db: DB, id: string, changes: ProfileChanges) {
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as ProfileChanges;
  return db.updateTable('users').set(set).where('id', '=', id).returning(profile).executeTakeFirst();
}

/** The link proves the address: set once, the first time. */
export async function markEmailVerified(db: DB, id: string) {
  return db
    .updateTable('users')
    .set({ emailVerifiedAt: sql<Date>`coalesce(email_verified_at, now())` })
    .where('id', '=', id)
    .returning(profile)
    .executeTakeFirst();
}

/**
 * The account a Google sign-in belongs to, in one transaction: the one already linked to this
 * Google id; else the one with this (Google-verified) e-mail, which gets linked; else a new one.
 * Undefined when the e-mail belongs to an account linked to another Google id.
 */
export async function findOrCreateGoogleUser(db: DB, g: { googleId: string; email: string; firstName: string; lastName: string; image: string | null }) {
  const email = g.email.trim().toLowerCase();
  return db.transaction().execute(async (trx) => {
    const linked = await trx.selectFrom('users').select('id').where('googleId', '=', g.googleId).executeTakeFirst();
    if (linked) return markEmailVerified(trx, linked.id);

    const byEmail = await trx
      .updateTable('users')
      .set({
        googleId: g.googleId,
        emailVerifiedAt: sql<Date>`coalesce(email_verified_at, now())`,
        image: sql<string | null>`coalesce(image, ${g.image})`,
      })
      .where('email', '=', email)
      .where('googleId', 'is', null)
      .returning(profile)
      .executeTakeFirst();
    if (byEmail) return byEmail;

    return trx
      .insertInto('users')
      .values({ email, firstName: g.firstName, lastName: g.lastName, image: g.image, googleId: g.googleId, emailVerifiedAt: new Date() })
      .onConflict((oc) => oc.doNothing())
      .returning(profile)
      .executeTakeFirst();
  });
}

// ---------------------------------------------------------------------------------------------
// Login links

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
