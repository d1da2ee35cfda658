/** Field schemas reused by many forms. Messages are the ones a visitor reads. */
import { z } from 'zod';

/**
 * Reject control characters (except newline and tab) and unpaired surrogates: PostgreSQL can't
 * store a NUL (the insert fails) and would store U+FFFD for a lone surrogate.
 */
export const isCleanText = (s: string) => !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(s) && s.isWellFormed();
const clean = isCleanText;

/**
 * Bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E/U+200F, U+061C) and zero-width characters
 * (U+200B–U+200D, U+2060, U+FEFF) are invisible: in a name or an e-mail address they make one
 * person look like another in the admin's lists, reverse what a mail subject reads ("gnp.exe"),
 * or make two addresses that look the same. Names and addresses refuse them; free text (a
 * message, where joiners build emoji) keeps them.
 */
const INVISIBLE = /[\u061C\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/;
export const isVisibleText = (s: string) => !INVISIBLE.test(s);
export const invisibleCharactersMessage = (label: string) =>
  `${label} must not contain invisible characters (zero-width spaces or text-direction marks). Please retype it.`;

/** A trimmed, required, single-purpose text field of at most `max` characters. */
export const requiredText = (label: string, max = 200) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine(clean, `${label} contains characters that are not allowed`);

export const optionalText = (label: string, max = 2000) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
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
  .refine(isVisibleText, invisibleCharactersMessage('Email'))
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
