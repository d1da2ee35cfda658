/** Field schemas reused by many forms. Messages are the ones a visitor reads. */
import { z } from 'zod';

/**
 * Reject control characters (except newline and tab) and unpaired surrogates: PostgreSQL can't
 * store a NUL (the insert fails) and would store U+FFFD for a lone surrogate.
 */
export const isCleanText = (s: string) => !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(s) && s.isWellFormed();
const clean = isCleanText;

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

/** Trimmed and lower-cased, so one address is one person whatever the letter case. */
export const email = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email is too long')
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Please enter a valid email address.')
  .refine(clean, 'Please enter a valid email address.')
  .transform((s) => s.toLowerCase());

/** YYYY-MM-DD that is a real calendar date. */
export const isoDate = z
  .string({ error: 'Date is required' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Date must look like YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
  }, 'Date is not a real date');

/** HH:mm, 24-hour. */
export const clockTime = z
  .string({ error: 'Time is required' })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Time must look like HH:mm');

/** An opaque id from a URL or body: bounded, no surprises for the database. */
export const id = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'Invalid id');
