/** Field schemas reused by many forms. Messages are the ones a visitor reads. */
import { z } from 'zod';

/**
 * Bidi controls that reorder text: the embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069). Invisible, they make text read otherwise than it was typed: a message, a mail
 * subject or an announcement read backwards ("gnp.exe"), a link that shows another address
 * (issue 21). Every text a visitor or the admin writes refuses them. The bidi marks (U+200E,
 * U+200F, U+061C) reorder nothing, only place neutral characters, and right-to-left writing
 * uses them: free text keeps them, names and addresses don't (below).
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;
export const hasNoBidiControls = (s: string) => !BIDI_CONTROLS.test(s);
export const bidiControlsMessage = (label: string) =>
  `${label} must not contain text-direction control characters (they can make text read backwards). Please retype it.`;

/**
 * Reject control characters (except newline and tab), bidi controls (above) and unpaired
 * surrogates: PostgreSQL can't store a NUL (the insert fails) and would store U+FFFD for a lone
 * surrogate.
 */
export const isCleanText = (s: string) => !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(s) && hasNoBidiControls(s) && s.isWellFormed();
const clean = isCleanText;

/**
 * Invisible characters in a name: the bidi controls and marks (U+202A–U+202E, U+2066–U+2069,
 * U+200E/U+200F, U+061C), zero-width space (U+200B), word joiner (U+2060) and byte order mark
 * (U+FEFF). In a name they make one person look like another in the admin's lists or reverse
 * what a mail subject reads. The zero-width non-joiner and joiner (U+200C, U+200D) are allowed:
 * Persian, Hindi, Bengali and other scripts need them to spell names, except next to a Latin
 * letter or digit, where no script needs them and they would only hide a difference.
 * E-mail addresses refuse all of them (`INVISIBLE_IN_ADDRESSES`).
 */
const INVISIBLE_IN_NAMES = /[\u061C\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/;
const JOINER_BY_LATIN = /[A-Za-z0-9\u00C0-\u024F][\u200C\u200D]|[\u200C\u200D][A-Za-z0-9\u00C0-\u024F]/;
const INVISIBLE_IN_ADDRESSES = /[\u061C\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/;
/** A name with nothing invisible in it but the joiners its script needs. */
export const isVisibleText = (s: string) => !INVISIBLE_IN_NAMES.test(s) && !JOINER_BY_LATIN.test(s);
const isVisibleAddress = (s: string) => !INVISIBLE_IN_ADDRESSES.test(s);
export const invisibleCharactersMessage = (label: string) =>
  `${label} must not contain invisible characters (zero-width spaces or text-direction marks). Please retype it.`;

/** A trimmed, required, single-purpose text field of at most `max` characters. */
export const requiredText = (label: string, max = 200) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine(hasNoBidiControls, bidiControlsMessage(label))
    .refine(clean, `${label} contains characters that are not allowed`);

export const optionalText = (label: string, max = 2000) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine(hasNoBidiControls, bidiControlsMessage(label))
    .refine(clean, `${label} contains characters that are not allowed`)
    .optional()
    .default('');

/** A person's name: required, one line (it goes into mail subjects and greetings), nothing invisible. */
export const nameText = (label: string, max = 100) =>
  requiredText(label, max)
    .refine((s) => !/[\r\n]/.test(s), `${label} must be on one line`)
    .refine(isVisibleText, invisibleCharactersMessage(label));

/** Trimmed and lower-cased, so one address is one person whatever the letter case. */
export const email = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email is too long')
  // Before the format check, whose \s counts U+FEFF as a space: the clearer message comes first.
  .refine(isVisibleAddress, invisibleCharactersMessage('Email'))
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Please enter a valid email address.')
  .refine(clean, 'Please enter a valid email address.')
  .transform((s) => s.toLowerCase());

/**
 * The years a class, slot or sign-up date may fall in. Far-off years are typing slips, and
 * past 9999 the instants no longer fit an ISO string or a database timestamp (a 500).
 */
export const MIN_YEAR = 2000;
export const MAX_YEAR = 2100;
export const DATE_OUT_OF_RANGE = `Date must be between ${MIN_YEAR}-01-01 and ${MAX_YEAR}-12-31`;

/** YYYY-MM-DD that is a real calendar date between MIN_YEAR and MAX_YEAR. */
export const isoDate = z
  .string({ error: 'Date is required' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Date must look like YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
  }, 'Date is not a real date')
  .refine((s) => {
    const year = Number(s.slice(0, 4));
    return year >= MIN_YEAR && year <= MAX_YEAR;
  }, DATE_OUT_OF_RANGE);

/** HH:mm, 24-hour. */
export const clockTime = z.string({ error: 'Time is required' }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Time must look like HH:mm');

/**
 * A wall time the teacher's clocks skip (spring forward): refused, since it names no instant and
 * moving it would put two slots at one instant.
 */
export const nonexistentTimeMessage = (date: string, time: string, zone: string) =>
  `${date} ${time} does not exist in ${zone}: the clocks skip that hour when daylight saving time starts. Please choose another time.`;

/** A wall time the clocks show twice (fall back): the first one is taken, and the admin is told. */
export const ambiguousTimeNote = (date: string, time: string, zone: string) =>
  `${date} ${time} happens twice in ${zone} (daylight saving time ends): the first one, still on summer time, was used.`;

/** An opaque id from a URL or body: bounded, no surprises for the database. */
export const id = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'Invalid id');
