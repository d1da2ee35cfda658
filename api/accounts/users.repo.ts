/**
 * Client accounts: the users' own rows (the one place that reads and writes them; the other
 * wings read a client through findUserById) and the clients as the admin sees them. Their login
 * links are api/accounts/login-tokens.repo.ts, their cookie sessions api/middleware/sessions.ts.
 */
import { sql } from 'kysely';
import type { DB } from '../../db/client.ts';
import { instantKey, instantThenId, keysetPage } from '../lib/pages.repo.ts';

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
export async function insertUser(db: DB, user: { email: string; firstName: string; lastName: string; phone?: string }) {
  return db
    .insertInto('users')
    .values({ email: user.email.trim().toLowerCase(), firstName: user.firstName, lastName: user.lastName, ...(user.phone ? { phone: user.phone } : {}) })
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
// The admin's view

/**
 * A page of clients as the admin sees them (issue 36): newest first, after the cursor's keys, one
 * row more than `limit`; `since` an instant, `q` in a name or the e-mail. users_created_at_id
 * (0036) serves the order.
 */
export async function pageUsers(db: DB, page: { limit: number; after?: string[] | undefined; q?: string | undefined; since?: string | undefined }) {
  return db
    .selectFrom('users')
    .select([
      'id',
      'firstName',
      'lastName',
      'preferredName',
      'pronoun',
      'email',
      'phone',
      'city',
      'zipcode',
      'createdAt',
      instantKey('users.created_at').as('cursorAt'),
    ])
    .$if(page.since !== undefined, (w) => w.where('createdAt', '>=', new Date(page.since!)))
    .$call((w) => keysetPage(w, page, USER_KEYS, 'desc', ['first_name', 'last_name', 'preferred_name', 'email']))
    .execute();
}

const USER_KEYS = instantThenId('users.created_at', 'users.id');
