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
 * Reject control characters (except newline and tab), bidi controls (above), unpaired
 * surrogates and noncharacters: PostgreSQL can't store a NUL (the insert fails) and would store
 * U+FFFD for a lone surrogate; the noncharacters (U+FDD0–U+FDEF and the last two code points of
 * every plane, U+FFFE, U+FFFF, U+1FFFE … U+10FFFF) are no text anyone writes, and U+FFFE and
 * U+FFFF make an XML document of it ill-formed (the journal's feed, issue 29).
 */
const NONCHARACTER = /\p{Noncharacter_Code_Point}/u;
export const isCleanText = (s: string) =>
  !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(s) && hasNoBidiControls(s) && s.isWellFormed() && !NONCHARACTER.test(s);
const clean = isCleanText;

/**
 * The invisible characters (Unicode's default-ignorable code points: they draw nothing) and what
 * a name may keep of them. In a name they make one person look like another in the admin's lists
 * or reverse what a mail subject reads: bidi controls and marks, zero-width space, word joiner,
 * byte order mark, soft hyphen (U+00AD), the invisible math operators (U+2061–U+2064), the
 * combining grapheme joiner (U+034F), the Mongolian vowel separator (U+180E), the Hangul fillers
 * (U+115F, U+1160, U+3164, U+FFA0: letters to Unicode, blank on screen, so a name of one looks
 * filled in) and the tag characters (U+E0000–U+E007F). Kept where a script needs them:
 * - the zero-width non-joiner and joiner (U+200C, U+200D) after a character of a script that
 *   spells with them (Persian and Arabic, Devanagari, Bengali, Sinhala and their kin) and before
 *   another of its characters, a space or the end, and the joiner between two emoji (a family);
 *   beside a Latin, Greek or Cyrillic letter or a digit, after a space or alone, no script needs
 *   them and they would only hide a difference;
 * - a variation selector after an emoji, a Han ideograph (a family name's own glyph) or a
 *   Mongolian letter, the characters it chooses a form of.
 * E-mail addresses refuse every one of them (`isVisibleAddress`).
 */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;
const JOINERS = new Set(['\u200C', '\u200D']);
const VARIATION_SELECTOR = /^[\u180B-\u180D\u180F\uFE00-\uFE0F\u{E0100}-\u{E01EF}]$/u;
const JOINING_SCRIPTS = [
  'Arabic',
  'Syriac',
  'Nko',
  'Mandaic',
  'Hanifi_Rohingya',
  'Mongolian',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Tibetan',
  'Myanmar',
  'Khmer',
  'Balinese',
  'Javanese',
  'Sundanese',
  'Tai_Tham',
  'Limbu',
  'Chakma',
  'Grantha',
  'Newa',
  'Sharada',
  'Tirhuta',
  'Kaithi',
  'Syloti_Nagri',
];
const JOINING = new RegExp(`^(?:${JOINING_SCRIPTS.map((s) => `\\p{scx=${s}}`).join('|')})$`, 'u');
const EMOJI = /^\p{Extended_Pictographic}$/u;
const EMOJI_TAIL = /^(?:\p{Extended_Pictographic}|\p{Emoji_Modifier}|\uFE0F)$/u;
const SELECTS_A_FORM = /^(?:\p{Emoji}|\p{Ideographic}|\p{scx=Mongolian})$/u;
/** Blank on screen though not default-ignorable: the braille blank. */
const BLANK = /\u2800/;

/** Whether the invisible character at `i` of `chars` (code points) is one its neighbours' script needs. */
function needed(chars: string[], i: number): boolean {
  const c = chars[i]!;
  const before = chars[i - 1] ?? '';
  const after = chars[i + 1] ?? '';
  if (JOINERS.has(c)) {
    if (c === '\u200D' && EMOJI_TAIL.test(before) && EMOJI.test(after)) return true;
    return JOINING.test(before) && (JOINING.test(after) || !/[\p{L}\p{N}]/u.test(after));
  }
  if (VARIATION_SELECTOR.test(c)) return SELECTS_A_FORM.test(before);
  return false;
}

/** A name with nothing invisible in it but the joiners and selectors its script needs: the one rule of every person's name. */
export const isVisibleText = (s: string) => {
  if (BLANK.test(s)) return false;
  if (!INVISIBLE.test(s)) return true;
  const chars = [...s];
  return chars.every((c, i) => !INVISIBLE.test(c) || needed(chars, i));
};
/** A name shows at least one letter or digit (a name of punctuation or emoji alone names nobody). */
export const hasLetters = (s: string) => /[\p{L}\p{N}]/u.test(s);
const isVisibleAddress = (s: string) => !INVISIBLE.test(s);
export const invisibleCharactersMessage = (label: string) =>
  `${label} must not contain invisible characters (zero-width spaces or text-direction marks). Please retype it.`;

export const lettersMessage = (label: string) => `${label} must contain letters. Please retype it.`;

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
    .refine(isVisibleText, invisibleCharactersMessage(label))
    .refine(hasLetters, lettersMessage(label));

/**
 * One address, one mailbox: no quoting (`"ana"@…` and `"a\na"@…` reach the same mailbox as
 * `ana@…`, so one person could register, subscribe and spend a mail allowance twice; nobody types
 * them) and no list separators (`,` `;`: one address names one recipient).
 */
const ADDRESS = /^[^\s@"\\,;]+@[^\s@"\\,;]+\.[^\s@"\\,;]+$/;

/**
 * Trimmed and lower-cased, so one address is one person whatever the letter case; the trailing
 * dot of a fully qualified domain (`…@gmail.com.`, the same mailbox) is dropped for the same reason.
 */
export const email = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email is too long')
  // Before the format check, whose \s counts U+FEFF as a space: the clearer message comes first.
  .refine(isVisibleAddress, invisibleCharactersMessage('Email'))
  .regex(ADDRESS, 'Please enter a valid email address.')
  .refine(clean, 'Please enter a valid email address.')
  .transform((s) => s.toLowerCase().replace(/\.+$/, ''));

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
