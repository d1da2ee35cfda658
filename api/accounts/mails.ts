/**
 * The accounts' mails: links that verify an address or sign in, and the note to an address
 * that has no account. Every value goes to renderMail as text, which escapes it. Signed with her
 * yoga brand (`brand`, api/site/brand.ts).
 */
import type { Env } from '../env.ts';
import type { OutgoingMail } from '../services/mail/index.ts';
import { greeting, mail, siteFooter as footer } from '../mail/layout.ts';
import type { SessionTypeSlug } from '../../contract/settings.ts';

const VALID_FOR = 'The link works once and expires in 10 minutes.';
const NOT_YOU = 'If you did not ask for this, you can ignore this mail: nothing happens without the link.';

/** Where a link leads after signing in (issue 30): the booking of this session type, else My Bookings. */
const leadsTo = (book?: SessionTypeSlug) => (book ? `&book=${book}` : '');
export const verifyEmailLink = (env: Env, token: string, book?: SessionTypeSlug) =>
  `${env.SITE_URL}/verify-email?token=${encodeURIComponent(token)}${leadsTo(book)}`;
export const loginLink = (env: Env, token: string, book?: SessionTypeSlug) => `${env.SITE_URL}/verify-login?token=${encodeURIComponent(token)}${leadsTo(book)}`;

/** After registering: confirm the address (and be signed in). */
export function verifyEmailMail(env: Env, brand: string, user: { email: string; firstName: string }, token: string, book?: SessionTypeSlug): OutgoingMail {
  return mail(user.email, `Verify your email for ${brand}`, {
    heading: 'Welcome! Please verify your email',
    paragraphs: [greeting(user.firstName), 'Thank you for creating an account. Confirm this address to finish and sign in.', VALID_FOR, NOT_YOU],
    action: { label: 'Verify my email', url: verifyEmailLink(env, token, book) },
    footer: footer(env, brand),
  });
}

/**
 * Someone registered with an address that already has an account. The page said the same as for
 * a new address; the owner learns here, and gets a login link instead of a second account.
 */
export function alreadyRegisteredMail(
  env: Env,
  brand: string,
  user: { email: string; firstName: string },
  token: string,
  book?: SessionTypeSlug,
): OutgoingMail {
  return mail(user.email, `You already have an account at ${brand}`, {
    heading: 'You already have an account',
    paragraphs: [
      greeting(user.firstName),
      'Someone (hopefully you) tried to register with this address, which already has an account. Use the link below to log in.',
      VALID_FOR,
      NOT_YOU,
    ],
    action: { label: 'Log in', url: loginLink(env, token, book) },
    footer: footer(env, brand),
  });
}

export function loginLinkMail(env: Env, brand: string, user: { email: string; firstName: string }, token: string, book?: SessionTypeSlug): OutgoingMail {
  return mail(user.email, `Your login link for ${brand}`, {
    heading: 'Log in to your account',
    paragraphs: [greeting(user.firstName), 'Use the link below to log in.', VALID_FOR, NOT_YOU],
    action: { label: 'Log in', url: loginLink(env, token, book) },
    footer: footer(env, brand),
  });
}

/**
 * She added the client by hand and chose to welcome them (issue 32): a login link like the one
 * the login page mails, and where to ask for another once it has lapsed.
 */
export function welcomeMail(env: Env, brand: string, user: { email: string; firstName: string }, token: string): OutgoingMail {
  return mail(user.email, `Welcome to ${brand}`, {
    heading: 'Your account is ready',
    paragraphs: [
      greeting(user.firstName),
      `${brand} has made an account for you: your sessions, your balance and your bookings are there. Use the link below to log in.`,
      VALID_FOR,
      `After that, ask for a new link at ${env.SITE_URL}/login whenever you want to log in.`,
    ],
    action: { label: 'Log in', url: loginLink(env, token) },
    footer: footer(env, brand),
  });
}

/** A login was asked for an address without an account: the page can't say so, this mail does. */
export function noAccountMail(env: Env, brand: string, email: string): OutgoingMail {
  return mail(email, `Log in to ${brand}`, {
    heading: 'No account with this email',
    paragraphs: [
      'Hi,',
      'Someone (hopefully you) asked for a login link for this address, but there is no account with it yet. You can create one in a minute.',
      NOT_YOU,
    ],
    action: { label: 'Create an account', url: `${env.SITE_URL}/register` },
    footer: footer(env, brand),
  });
}
