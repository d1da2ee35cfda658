/**
 * Client accounts: registration, login by mailed link, the account page (SPEC.md sections 3,
 * 5, 7, 8). Shared with the islands: no server-only imports here.
 */
import { z } from 'zod';
import { pageQuery, sinceFilter } from './paging.ts';
import { email, hasLetters, invisibleCharactersMessage, isVisibleText, lettersMessage, nameText, optionalText } from './common.ts';
import { humanToken } from './forms.ts';
import { sessionTypeSlug } from './settings.ts';

/** Answers and messages the pages show (SPEC.md section 8 where it gives them). */
export const REGISTRATION_SENT = 'Registration successful! Please check your email to verify your account.';
export const LOGIN_EMAIL_SENT = 'Login email sent. Check your inbox.';
export const EMAIL_VERIFIED = 'Email verified successfully.';
export const VERIFICATION_FAILED = 'Verification failed.';
export const INVALID_VERIFICATION_LINK = 'Invalid verification link.';
export const LOGIN_LINK_INVALID = 'Your login link is invalid or has expired. Please request a new link and try again.';
/** The mail service refused (503): the login page's own default words, and the registration's. */
export const LOGIN_MAIL_NOT_SENT = 'Could not send login email. Please try again.';
export const REGISTRATION_MAIL_NOT_SENT = 'Could not send the verification email. Please try again.';
export const GOOGLE_UNAVAILABLE = 'Google sign-in is not available.';
export const PROFILE_UPDATED = 'Profile updated successfully!';
export const PROFILE_UPDATE_FAILED = 'Failed to update profile. Please try again later.';
export const NOT_LOGGED_IN = 'Please log in';
export const LOGGED_OUT = 'You have been logged out.';
export const USER_ID_REQUIRED = 'We couldn’t find your User ID. Please log in again or contact me if the issue persists.';

/** A name goes into mail subjects and greetings: one line only, nothing invisible. */
const name = (label: string) => nameText(label, 100);

/** POST /api/user/register (SPEC.md section 5: all three required). */
export const registration = z.object({
  firstName: name('First name'),
  lastName: name('Last name'),
  email,
  /** The human check (action `register`): registration mails an address nobody has proven. */
  recaptchaToken: humanToken,
  /** Issue 30: the session the newcomer set out to book; the mailed link leads back to it. */
  book: sessionTypeSlug.optional(),
});
export type Registration = z.input<typeof registration>;

/** POST /api/user/login */
export const loginRequest = z.object({ email, /** As for registration: where the link leads after signing in. */ book: sessionTypeSlug.optional() });
export type LoginRequest = z.input<typeof loginRequest>;

/**
 * POST /api/user/verify-email and /api/user/verify-login: {token} from the mailed link. Any
 * token that isn't a live one (missing, malformed, used, expired) gets the same refusal from
 * the server, VERIFICATION_FAILED or LOGIN_LINK_INVALID; the page checks for a missing token
 * itself ('Invalid verification link.').
 */
export const linkTokenRequest = z.object({
  token: z
    .unknown()
    .optional()
    .transform((v) => (typeof v === 'string' ? v.trim() : '')),
});

/** SPEC.md section 5: phone digits only, at most 10; zipcode digits only, at most 5; both may be empty. */
export const PHONE_RULE = 'Phone must be digits only, at most 10.';
export const ZIPCODE_RULE = 'Zipcode must be digits only, at most 5.';
const digits = (max: number, message: string) =>
  z
    .string({ error: message })
    .trim()
    .regex(new RegExp(`^[0-9]{0,${max}}$`), message);

/** optionalText without its default: a field left out stays as stored instead of becoming ''. */
const keep = (field: ReturnType<typeof optionalText>) => field.unwrap().optional();

/**
 * PUT /api/user/{id}/update. The e-mail is not editable and any field not listed here is
 * ignored; a field left out of the body keeps its stored value.
 */
export const profileUpdate = z.object({
  firstName: name('First name'),
  lastName: name('Last name'),
  phone: digits(10, PHONE_RULE).optional(),
  // Optional, else the same rule as every name (nameText).
  preferredName: keep(optionalText('Preferred name', 100))
    .refine((s) => !s || !/[\r\n]/.test(s), 'Preferred name must be on one line')
    .refine((s) => !s || isVisibleText(s), invisibleCharactersMessage('Preferred name'))
    .refine((s) => !s || hasLetters(s), lettersMessage('Preferred name')),
  pronoun: keep(optionalText('Pronoun', 50)),
  city: keep(optionalText('City & State', 100)),
  zipcode: digits(5, ZIPCODE_RULE).optional(),
});
export type ProfileUpdate = z.input<typeof profileUpdate>;

/** What the API says about the logged-in client (validate-token, verify-*). */
export interface SessionUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  image: string | null;
  phone: string;
  preferredName: string;
  pronoun: string;
  city: string;
  zipcode: string;
}

/** GET /api/user/{id} and the answer of the profile update. */
export interface UserView extends SessionUser {
  _id: string;
  createdAt: string;
}

/** POST /api/user/verify-email on success: the session cookie is set. */
export interface EmailVerifiedView {
  message: string;
  userId: string;
  user: SessionUser;
}

/** POST /api/user/verify-login on success: the session cookie is set. */
export interface LoginVerifiedView {
  userId: string;
  user: SessionUser;
}

/** POST /api/user/validate-token: 200 with the user, or 401 when the cookie holds no live session. */
export type TokenCheckView = { isValid: true; user: SessionUser } | { isValid: false; message: string };

/** PUT /api/user/{id}/update on success. */
export interface ProfileUpdatedView {
  message: string;
  user: UserView;
}

/** One row of the admin's clients list (GET /api/admin/users): the account without its picture. */
export type AdminUserView = Omit<UserView, 'image'>;

/**
 * GET /api/admin/users (issue 36): a page of clients, newest first (contract/paging.ts), those
 * registered `since` an instant (the Today panel's link), `q` found in a name or the e-mail.
 */
export const adminUsersQuery = pageQuery(['instant', 'id']).extend({ since: sinceFilter });
