/**
 * The mail that confirms a client's request to delete their account (issue 23): the link is
 * the only way to confirm, so the request can't be made for someone else's account.
 */
import type { Env } from '../env.ts';
import type { OutgoingMail } from '../services/mail/index.ts';
import { greeting, mail, siteFooter as footer } from '../mail/layout.ts';
import { signToken, verifyToken } from '../lib/signed-token.ts';

const DELETE_PURPOSE = 'delete-account';
/** How long the confirmation link works. */
export const DELETION_LINK_VALID_MS = 60 * 60 * 1000;

/** The link's token: the account and the link's end, signed with APP_SECRET (no row needed: the account's end is its last use). */
export const deletionToken = (env: Pick<Env, 'APP_SECRET'>, userId: string, now = Date.now()) =>
  signToken(env.APP_SECRET, DELETE_PURPOSE, `${userId}:${now + DELETION_LINK_VALID_MS}`);

/** The account a token names while it is valid, else null. */
export function accountOfDeletionToken(env: Pick<Env, 'APP_SECRET'>, token: string): string | null {
  const [userId, until] = verifyToken(env.APP_SECRET, DELETE_PURPOSE, token)?.split(':') ?? [];
  return userId && until && Number(until) > Date.now() ? userId : null;
}

export const deletionLink = (env: Env, token: string) => `${env.SITE_URL}/account-deletion?token=${encodeURIComponent(token)}`;

export function confirmDeletionMail(env: Env, brand: string, user: { email: string; firstName: string }, token: string): OutgoingMail {
  return mail(user.email, `Confirm the deletion of your account at ${brand}`, {
    heading: 'Delete your account?',
    paragraphs: [
      greeting(user.firstName),
      'You asked to delete your account. Confirming erases your profile, your intake answers, your class sign-ups and your newsletter subscription. Payment records stay for the books, without your name or address.',
      'You can download your data from your account page first.',
      'The link works for one hour. If you did not ask for this, ignore this mail: nothing is deleted without the link.',
    ],
    action: { label: 'Confirm the deletion', url: deletionLink(env, token) },
    footer: footer(env, brand),
  });
}
