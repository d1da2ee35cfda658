/**
 * Her settings (issue 20): the numbers and defaults the teacher sets herself in the back office,
 * stored one row per key (db/migrations/0013) and read through these schemas; a key she never
 * set reads as its default. Shared with the admin's editor and the booking island: zod only.
 * Each field has a doc line: the editor's help text comes from here.
 */
import { z } from 'zod';
import { isCleanText } from './common.ts';
import { BOOKING_MAX_DOLLARS, BOOKING_MIN_DOLLARS, SESSION_TYPES, type SessionType } from './booking.ts';
import { place } from './slots.ts';

/** Saved. */
export const SETTINGS_SAVED = 'Settings saved.';

const WHOLE_DOLLARS = 'must be a whole number of dollars';
const MAX_DOLLARS = 10_000;

/** A whole number of dollars from $1 to $10,000 (money in the settings is never cents). */
const dollars = z
  .number({ error: WHOLE_DOLLARS })
  .int(WHOLE_DOLLARS)
  .min(1, 'must be at least $1')
  .max(MAX_DOLLARS, `must be at most $${MAX_DOLLARS.toLocaleString('en-US')}`);

/** An inclusive range of whole dollars; the lowest never above the highest. */
export const dollarRange = z
  .object({
    /** The lowest amount, in whole dollars. */
    min: dollars,
    /** The highest amount, in whole dollars. */
    max: dollars,
  })
  .refine((r) => r.min <= r.max, { message: 'the lowest amount (min) must not be above the highest (max)', path: ['max'] });
export type DollarRange = z.output<typeof dollarRange>;

/** Short keys for the booking page's session types (SPEC.md section 3), as the settings name them. */
export const SESSION_TYPE_KEYS = { individualYoga: SESSION_TYPES[0], yogaTherapy: SESSION_TYPES[1] } as const satisfies Record<string, SessionType>;
export type SessionTypeKey = keyof typeof SESSION_TYPE_KEYS;

/** What a session type is called in a sentence: 'yoga therapy'. */
export const SESSION_TYPE_WORDS: Record<SessionTypeKey, string> = { individualYoga: 'individual yoga', yogaTherapy: 'yoga therapy' };

export const sessionTypeKeyOf = (type: string): SessionTypeKey | undefined =>
  (Object.keys(SESSION_TYPE_KEYS) as SessionTypeKey[]).find((k) => SESSION_TYPE_KEYS[k] === type);

/**
 * The spec's sliding-scale sentence (SPEC.md sections 2 and 9), as the booking page has always
 * said it: the default of `slidingScale`.
 */
export const DEFAULT_SLIDING_SCALE =
  'Sliding scale: individual yoga $80–$110 per hour; yoga therapy $10–$80 per hour through June 2026. Pay what is sustainable for you. I suggest committing to at least 8 weeks.';

/**
 * The booking page's payment amount. The defaults are SPEC.md section 5's readings, kept as the
 * spec gives them although they disagree: the label says $10-$110, the amount field allows 50 to
 * 200 (and the server accepts that range), Continue is enabled for 50 to 140, and the check on
 * Continue allows up to 201. She makes them agree by setting them.
 */
export const bookingAmounts = z.object({
  /** The range the amount field's label shows: "Payment amount ($10-$110)". */
  label: dollarRange,
  /** The amounts the server accepts for a paid session, and the amount field's lowest and highest value. */
  accepted: dollarRange,
  /** Continue is enabled (without a valid coupon) only for an amount in this range. */
  continue: dollarRange,
  /** On Continue, an amount below the Continue range's lowest or above this gives 'Invalid Payment Amount'. */
  clickMax: z.number({ error: WHOLE_DOLLARS }).int(WHOLE_DOLLARS).min(1, 'must be at least $1').max(MAX_DOLLARS, `must be at most $${MAX_DOLLARS}`),
  /**
   * A range of a session type's own (e.g. yoga therapy $10–$80): when set, it is what the server
   * accepts, what enables Continue and what the check on Continue allows for that type, in place
   * of the three above. Null: that type follows the ranges above.
   */
  perType: z.object({
    /** Individual Yoga Session (60 min): its own range, or null. */
    individualYoga: dollarRange.nullable(),
    /** Yoga Therapy Session (60 min): its own range, or null. */
    yogaTherapy: dollarRange.nullable(),
  }),
  /** The sliding-scale sentence under the amount field. */
  slidingScale: z
    .string({ error: 'must be text' })
    .trim()
    .min(1, 'must not be empty')
    .max(600, 'must be at most 600 characters')
    .refine(isCleanText, 'contains characters that are not allowed'),
});
export type BookingAmounts = z.output<typeof bookingAmounts>;

/** Every setting, whole. */
export const settingsSchema = z.object({
  /**
   * Where her sessions happen unless she says otherwise for a slot: a street address, or an
   * online link (https://…) that the mails and the client's dashboard make a link. Empty: none.
   */
  defaultPlace: place,
  /** The booking page's payment amount: its ranges and the sliding-scale sentence. */
  bookingAmounts,
  /**
   * Up to how many hours before a session starts its client can cancel it (refunded in full) or
   * move it from My Bookings; closer, the dashboard says to write to her. Her pages say it where
   * they write {notice period}, and the reminders say it too.
   */
  cancelNoticeHours: z
    .number({ error: 'must be a whole number of hours' })
    .int('must be a whole number of hours')
    .min(0, 'must be 0 hours or more')
    .max(24 * 14, 'must be at most 336 hours (two weeks)'),
  /**
   * When a buyer can collect a local-pickup order, in her words ("Tuesdays and Saturdays, 10 am
   * to 2 pm"): the cart says it and the ready-for-pickup mail tells it, with her shop's address.
   * Empty: the mail asks the buyer to reply to find a time.
   */
  pickupHours: z
    .string({ error: 'must be text' })
    .trim()
    .max(300, 'must be at most 300 characters')
    .refine((v) => !/[\r\n]/.test(v), 'must be one line')
    .refine(isCleanText, 'contains characters that are not allowed'),
});
export type Settings = z.output<typeof settingsSchema>;
export type SettingsKey = keyof Settings;
export const SETTINGS_KEYS = Object.keys(settingsSchema.shape) as SettingsKey[];

/** PUT /api/admin/settings: any of the settings, each whole; those left out keep their value. */
export const settingsUpdate = settingsSchema.partial().refine((s) => Object.keys(s).length > 0, 'Send at least one setting to change.');
export type SettingsUpdate = z.input<typeof settingsUpdate>;

/** The spec's values: what a setting she never set reads as. */
export const DEFAULT_SETTINGS: Settings = {
  defaultPlace: '',
  bookingAmounts: {
    label: { min: 10, max: 110 },
    accepted: { min: BOOKING_MIN_DOLLARS, max: BOOKING_MAX_DOLLARS },
    continue: { min: 50, max: 140 },
    clickMax: 201,
    perType: { individualYoga: null, yogaTherapy: null },
    slidingScale: DEFAULT_SLIDING_SCALE,
  },
  cancelNoticeHours: 24,
  pickupHours: '',
};

/** "24 hours", "1 hour": the notice period in a sentence. */
export const hoursInWords = (hours: number) => `${hours} ${hours === 1 ? 'hour' : 'hours'}`;

/** GET and PUT /api/admin/settings: every setting, and (PUT) what was saved. */
export interface SettingsView {
  settings: Settings;
  message?: string;
}

// ---------------------------------------------------------------------------------------------
// The amount rules, one function for the server and the booking island.

export interface AmountRules {
  /** What the server accepts (and the amount field's min and max). */
  accepted: DollarRange;
  /** What enables Continue. */
  continue: DollarRange;
  /** What the check on Continue lets through. */
  click: DollarRange;
  /** The session type's own range applies ('yoga therapy'), or undefined: the general ranges. */
  typeWords?: string;
}

/** The ranges that apply to an amount for `sessionType` ('' or unknown: the general ones). */
export function amountRules(a: BookingAmounts, sessionType: string): AmountRules {
  const key = sessionTypeKeyOf(sessionType);
  const own = key ? a.perType[key] : null;
  if (key && own) return { accepted: own, continue: own, click: own, typeWords: SESSION_TYPE_WORDS[key] };
  return { accepted: a.accepted, continue: a.continue, click: { min: a.continue.min, max: a.clickMax } };
}

export const inRange = (r: DollarRange, dollarsAmount: number) => dollarsAmount >= r.min && dollarsAmount <= r.max;

/** The server's refusal of an amount outside what she accepts. */
export const amountOutOfRange = (r: DollarRange, typeWords?: string) =>
  `The amount${typeWords ? ` for ${typeWords}` : ''} must be between $${r.min} and $${r.max}.`;

/** What a disabled Continue lacks, each as an instruction; empty when Continue may be pressed. */
export function continueBlockers(a: BookingAmounts, state: { slotChosen: boolean; sessionType: string; couponValid: boolean; amount: string }): string[] {
  const out: string[] = [];
  if (!state.slotChosen) out.push('pick a time');
  if (!state.sessionType) out.push('choose a session type');
  if (!state.couponValid) {
    const rules = amountRules(a, state.sessionType);
    const n = Number(state.amount);
    if (state.amount.trim() === '' || Number.isNaN(n) || !inRange(rules.continue, n)) {
      out.push(`enter an amount between $${rules.continue.min} and $${rules.continue.max}${rules.typeWords ? ` for ${rules.typeWords}` : ''}`);
    }
  }
  return out;
}

/** The line under a disabled Continue: "To continue, pick a time and enter an amount between $50 and $140." */
export function continueHint(blockers: readonly string[]): string {
  if (blockers.length === 0) return '';
  const list = blockers.length === 1 ? blockers[0]! : `${blockers.slice(0, -1).join(', ')} and ${blockers[blockers.length - 1]}`;
  return `To continue, ${list}.`;
}
