/**
 * Class sign-ups: the new student's form on /signup (waiver + drawn signature) and the
 * returning student's e-mail on /signup-selection (SPEC.md sections 3, 5, 7 and 8).
 * Shared with the islands: no server-only imports here (atob is in browsers and Node).
 */
import { z } from 'zod';
import { pageQuery, sinceFilter } from './paging.ts';
import { email, isoDate, requiredText } from './common.ts';
import { humanToken, personName, phone } from './forms.ts';
import { LINK_INVALID } from './class-places.ts';
import { payingGiftCardCode } from './gift-card-code.ts';
import { PAYMENT_UNSUCCESSFUL } from './booking.ts';

/**
 * A PayPal order id as PayPal issues them (issue 47): a NUL, a lone surrogate, a space or a 65th
 * character is refused by the schema (400), never sent on to PayPal.
 */
export const PAYPAL_ORDER_ID = /^[A-Za-z0-9-]{1,64}$/;

/** Answers the islands read. Those with 'already' / "email doesn't exist" drive SPEC.md section 8's dialogs. */
export const SIGNED_UP = 'Sign up successful';
export const REGISTRATION_CONFIRMED = 'Registration confirmed!';
export const ALREADY_SIGNED_UP = 'You are already signed up for this class.';
export const EMAIL_NOT_FOUND = "This email doesn't exist in our records. Please sign up as a new student.";
export const EMAIL_REQUIRED = 'Please enter your email address.';
export const CLASS_FULL = 'This class is full.';
/** Not "already ...": the island reads any message with 'already' as "Already Signed Up". */
export const CLASS_PAST = 'This class has taken place. Please pick an upcoming class from the calendar.';
export const CLASS_NOT_FOUND = "We couldn't find this class. Please pick it again from the calendar.";
export const CLASS_EXTERNAL = 'This class takes sign-ups through its own link on the calendar.';
export const WAIVER_REQUIRED = 'Please read and accept the liability waiver to sign up.';
/** SPEC.md section 5 ('Signature Required: ...'), the part after the title. */
export const SIGNATURE_REQUIRED = 'Please sign your name and save your signature before submitting the form.';
export const SIGNATURE_NOT_PNG = 'The signature must be a PNG image. Please sign again and save your signature.';
export const SIGNATURE_TOO_LARGE = 'The signature image is too large (at most 200 KB). Please clear it and sign again.';

/** What a canvas's toDataURL('image/png') starts with. */
export const PNG_DATA_URL_PREFIX = 'data:image/png;base64,';
/** Largest signature accepted, decoded. A 500 by 200 canvas signature is a few KB. */
export const SIGNATURE_MAX_BYTES = 200 * 1024;
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export type DecodedSignature = { ok: true; bytes: Uint8Array } | { ok: false; status: 400 | 413; message: string };

/**
 * The PNG bytes of a signature data URL, or why it is refused: 413 above SIGNATURE_MAX_BYTES
 * (checked before decoding anything), 400 unless it is base64 of a PNG (magic bytes, then IHDR).
 */
export function decodeSignature(dataUrl: string): DecodedSignature {
  if (!dataUrl.startsWith(PNG_DATA_URL_PREFIX)) return { ok: false, status: 400, message: SIGNATURE_NOT_PNG };
  const b64 = dataUrl.slice(PNG_DATA_URL_PREFIX.length);
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  if (Math.floor((b64.length * 3) / 4) - padding > SIGNATURE_MAX_BYTES) return { ok: false, status: 413, message: SIGNATURE_TOO_LARGE };
  if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) return { ok: false, status: 400, message: SIGNATURE_NOT_PNG };
  let binary: string;
  try {
    binary = atob(b64);
  } catch {
    return { ok: false, status: 400, message: SIGNATURE_NOT_PNG };
  }
  const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  const isPng = bytes.length > 16 && PNG_MAGIC.every((b, i) => bytes[i] === b) && binary.slice(12, 16) === 'IHDR';
  return isPng ? { ok: true, bytes } : { ok: false, status: 400, message: SIGNATURE_NOT_PNG };
}

/** POST /api/signup: a new student signs up for one class. */
export const classSignup = z.object({
  name: personName,
  email,
  phone,
  classTitle: requiredText('Class', 200),
  date: isoDate,
  waiver: z.literal(true, { error: WAIVER_REQUIRED }),
  // Format and size are checked with decodeSignature, which can answer 413.
  signature: z.string({ error: SIGNATURE_REQUIRED }).trim().min(1, SIGNATURE_REQUIRED),
  recaptchaToken: humanToken,
  /** A paid event (issue 34): the PayPal order POST /api/events/{id}/paypal-order made, approved. */
  paypalOrderId: z.string({ error: PAYMENT_UNSUCCESSFUL }).regex(PAYPAL_ORDER_ID, PAYMENT_UNSUCCESSFUL).optional(),
  /** A paid event taken with one of the signed-in client's class credits (issue 34). */
  useCredit: z.literal(true, { error: 'useCredit must be true or left out' }).optional(),
  /** A paid event paid in full with a gift card (issue 34), for `amountCents` on a sliding scale. */
  giftCardCode: payingGiftCardCode,
  amountCents: z
    .number({ error: 'amountCents must be a whole number of cents' })
    .int('amountCents must be a whole number of cents')
    .min(0)
    .max(100_000)
    .optional(),
});
export type ClassSignup = z.output<typeof classSignup>;

const blank = (x: unknown) => x === undefined || x === null || (typeof x === 'string' && x.trim() === '');

/**
 * POST /api/check-student: a returning student signs up with the e-mail alone. A missing
 * e-mail is the spec's one message for the whole form, without a field prefix.
 */
export const returningStudent = z
  .unknown()
  .superRefine((v, ctx) => {
    const o = typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
    if (blank(o.email)) ctx.addIssue({ code: 'custom', message: EMAIL_REQUIRED });
  })
  .pipe(
    z.object({
      email,
      classTitle: requiredText('Class', 200),
      date: isoDate,
    }),
  );
export type ReturningStudent = z.output<typeof returningStudent>;

/** One row of the admin's class sign-ups (GET /api/admin/signups); the signature is fetched on its own. */
/**
 * GET /api/admin/signups (issue 36): a page of sign-ups, latest class first (contract/paging.ts),
 * those made `since` an instant (the Today panel's link), `q` found in the name, e-mail or class.
 */
export const adminSignupsQuery = pageQuery(['day', 'instant', 'id']).extend({ since: sinceFilter });

/** GET /api/admin/signups/taken: places taken per class, for the events page (issue 36). */
export interface TakenPlacesView {
  classTitle: string;
  date: string;
  taken: number;
}

export interface SignupRowView {
  _id: string;
  date: string;
  classTitle: string;
  name: string;
  email: string;
  phone: string;
  hasSignature: boolean;
  /** The waiver revision the student accepted (null: signed before waivers were versioned). */
  waiverRevision: number | null;
  /** SHA-256 of that revision's text. */
  waiverHash: string | null;
  /** When the student signed up (ISO instant): the Today panel's newest sign-ups link here (issue 20). */
  createdAt: string;
}

/** POST /api/class-places/cancel, POST /api/waitlist/leave: the signed token from a mail's link (issue 15). */
export const linkToken = z.object({ token: z.string({ error: LINK_INVALID }).min(1, LINK_INVALID).max(1024, LINK_INVALID) });
