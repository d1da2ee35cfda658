/**
 * Her settings (issue 20): the numbers and defaults the teacher sets herself in the back office,
 * stored one row per key (db/migrations/0013) and read through these schemas; a key she never
 * set reads as its default. Shared with the admin's editor and the booking island: zod only.
 * Each field has a doc line: the editor's help text comes from here.
 */
import { z } from 'zod';
import { isCleanText } from './common.ts';
import { SESSION_TYPES, type SessionType } from './booking.ts';
import { place, placeLink } from './slots.ts';
import { DEFAULT_FOOD_LICENCE, foodLicence } from './food.ts';
import { shopAddressLine, type ShopAddress } from './tax.ts';

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

/** An inclusive range of whole dollars. */
export interface DollarRange {
  min: number;
  max: number;
}

/** Short keys for the booking page's session types (SPEC.md section 3), as the settings name them. */
export const SESSION_TYPE_KEYS = { individualYoga: SESSION_TYPES[0], yogaTherapy: SESSION_TYPES[1] } as const satisfies Record<string, SessionType>;
export type SessionTypeKey = keyof typeof SESSION_TYPE_KEYS;

/** What a session type is called in a sentence: 'yoga therapy'. */
export const SESSION_TYPE_WORDS: Record<SessionTypeKey, string> = { individualYoga: 'individual yoga', yogaTherapy: 'yoga therapy' };

/**
 * The session types in addresses (issue 30): the guided booking /user/{id}/book/{slug} and the
 * `book` the registration carries into its mailed link, so the link leads back to that booking.
 */
export const SESSION_TYPE_SLUGS = { individualYoga: 'individual-yoga', yogaTherapy: 'yoga-therapy' } as const satisfies Record<SessionTypeKey, string>;
export type SessionTypeSlug = (typeof SESSION_TYPE_SLUGS)[SessionTypeKey];
export const sessionTypeSlug = z.enum([SESSION_TYPE_SLUGS.individualYoga, SESSION_TYPE_SLUGS.yogaTherapy], {
  error: 'must be individual-yoga or yoga-therapy',
});
export const sessionTypeKeyOfSlug = (slug: string | null | undefined): SessionTypeKey | undefined =>
  (Object.keys(SESSION_TYPE_SLUGS) as SessionTypeKey[]).find((k) => SESSION_TYPE_SLUGS[k] === slug);

export const sessionTypeKeyOf = (type: string): SessionTypeKey | undefined =>
  (Object.keys(SESSION_TYPE_KEYS) as SessionTypeKey[]).find((k) => SESSION_TYPE_KEYS[k] === type);

/**
 * What follows the ranges in the sliding-scale sentence as the booking page has always said it
 * (SPEC.md sections 2 and 9): the default of `slidingScaleNote`.
 */
export const DEFAULT_SLIDING_SCALE_NOTE = 'Pay what is sustainable for you. I suggest committing to at least 8 weeks.';

/** A session type's amounts: one inclusive range of whole dollars and her words after it. */
export const typeAmounts = z
  .object({
    /** The lowest amount, in whole dollars. */
    min: dollars,
    /** The highest amount, in whole dollars. */
    max: dollars,
    /** Words after "per hour" in the sliding-scale sentence, e.g. "through June 2026"; may be empty. */
    note: z
      .string({ error: 'must be text' })
      .trim()
      .max(120, 'must be at most 120 characters')
      .refine((v) => !/[\r\n]/.test(v), 'must be one line')
      .refine(isCleanText, 'contains characters that are not allowed'),
  })
  .refine((r) => r.min <= r.max, { message: 'the lowest amount (min) must not be above the highest (max)', path: ['max'] });
export type TypeAmounts = z.output<typeof typeAmounts>;

/**
 * The booking page's payment amount (issue 30, decision 0032): one range per session type, the
 * one source of every reading of it. The chosen type's range is the amount field's label, its
 * min and max, what enables Continue, what the check on Continue lets through and what the
 * server accepts; the sliding-scale sentence is written from the same ranges (slidingScale()).
 * Seeded from the spec's sliding scale (individual yoga $80-$110, yoga therapy $10-$80), so the
 * spec's label ($10-$110, both ranges together) and its check's words ("at least $10") still
 * hold; its other numbers (50, 140, 200, 201) contradicted these and are gone.
 */
export const bookingAmounts = z.object({
  /** One range per session type. */
  ranges: z.object({
    /** Individual Yoga Session (60 min). */
    individualYoga: typeAmounts,
    /** Yoga Therapy Session (60 min). */
    yogaTherapy: typeAmounts,
  }),
  /** The sliding-scale sentence's end, after the ranges, in her words; may be empty. */
  slidingScaleNote: z
    .string({ error: 'must be text' })
    .trim()
    .max(600, 'must be at most 600 characters')
    .refine(isCleanText, 'contains characters that are not allowed'),
});
export type BookingAmounts = z.output<typeof bookingAmounts>;

/** PUT /api/admin/settings/meeting refuses anything but a web address or nothing. */
export const MEETING_ROOM_INVALID = 'Your meeting room link must be a web address starting with https:// or http:// (or empty to clear it).';
/** Saved, or cleared. */
export const MEETING_ROOM_SAVED = 'Meeting room link saved.';
export const MEETING_ROOM_CLEARED = 'Meeting room link cleared.';

/**
 * Her own meeting room (issue 35): a web address or '' for none. Only http(s), so every mail and
 * calendar file links to the web and nothing else.
 */
export const roomUrl = z
  .string({ error: MEETING_ROOM_INVALID })
  .trim()
  .max(500, 'Your meeting room link must be at most 500 characters.')
  .refine(isCleanText, MEETING_ROOM_INVALID)
  .refine((s) => s === '' || placeLink(s) !== null, MEETING_ROOM_INVALID);

/** PUT /api/admin/settings/meeting: {roomUrl} ('' clears it). */
export const meetingRoomRequest = z.object({ roomUrl });

const HOUR_MINUTE = /^([01]\d|2[0-3]):[0-5]\d$/;

/** When the home page offers her free 30-minute meeting (issue 35), on her clocks. */
export const meetingHours = z
  .object({
    /** The days, 1 (Monday) to 7 (Sunday). */
    days: z.array(z.number().int().min(1).max(7), { error: 'days must be a list of weekdays, 1 (Monday) to 7 (Sunday)' }).max(7),
    /** The first time offered, HH:mm. */
    from: z.string().regex(HOUR_MINUTE, 'must be a time, HH:mm'),
    /** The end: the last meeting ends by then, HH:mm. */
    to: z.string().regex(HOUR_MINUTE, 'must be a time, HH:mm'),
    /** How many days ahead are offered (1 to 60). */
    daysAhead: z.number().int().min(1).max(60),
    /** The fewest hours between now and a time offered (0 to 168). */
    noticeHours: z.number().int().min(0).max(168),
  })
  .refine((h) => h.from < h.to, { message: 'the end (to) must be after the start (from)', path: ['to'] });
export type MeetingHours = z.output<typeof meetingHours>;

/**
 * What her Google Calendar receives as a session's title (issue 48, decision 0058): never the
 * session type's words (a "Yoga Therapy Session" names a health service, which Washington's My
 * Health My Data Act counts as consumer health data shared with Google). 'initial': "Session ·
 * Jane D." (the default); 'fullName': "Session · Jane Doe"; 'none': "Session".
 */
export const CALENDAR_TITLES = ['initial', 'fullName', 'none'] as const;
export type CalendarTitle = (typeof CALENDAR_TITLES)[number];

/** PUT /api/admin/settings/postal-address: the one refusal of an empty address. */
export const POSTAL_ADDRESS_REQUIRED = 'Enter your postal address (a PO box will do): every newsletter must carry it.';
export const POSTAL_ADDRESS_SAVED = 'Postal address saved.';

/** Her postal address (CAN-SPAM): a street address or a PO box, up to five lines. */
export const postalAddress = z
  .string({ error: 'must be text' })
  .trim()
  .max(300, 'must be at most 300 characters')
  .refine((v) => v.split(/\r?\n/).length <= 5, 'must be at most five lines')
  .refine(isCleanText, 'contains characters that are not allowed');

/** PUT /api/admin/settings/postal-address: {address}, never empty. */
export const postalAddressRequest = z.object({
  address: postalAddress.refine((v) => v !== '', POSTAL_ADDRESS_REQUIRED),
});

/**
 * Which postal address a newsletter or marketing mail carries (decision 0059), the one rule: the
 * address she set; else her shop's address (her tax settings') when it has a street line; else
 * none, and no newsletter can be sent. `from` says which.
 */
export interface PostalAddressView {
  address: string;
  from: 'setting' | 'shop' | 'none';
}
export function mailPostalAddress(postalAddress: string, shop: ShopAddress): PostalAddressView {
  if (postalAddress.trim()) return { address: postalAddress.trim(), from: 'setting' };
  if (shop.line1.trim()) return { address: shopAddressLine(shop), from: 'shop' };
  return { address: '', from: 'none' };
}

/** POST /api/admin/newsletters/{id}/send (and a journal post's) while no address is there: what is missing, and where. */
export const NEWSLETTER_NO_POSTAL_ADDRESS =
  'Add your postal address before sending: every newsletter must carry one (a PO box will do). Set it under Settings, or on the Newsletter page.';

/** Every setting, whole. */
export const settingsSchema = z.object({
  /**
   * Where her sessions happen unless she says otherwise for a slot: a street address, or an
   * online link (https://…) that the mails and the client's dashboard make a link. Empty: none.
   */
  defaultPlace: place,
  /** The booking page's payment amount: a range per session type and the sliding-scale sentence's end. */
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
  /**
   * Your meeting room link (Zoom, Jitsi, any URL): the link of every online session and free
   * meeting, sent only to the person who booked it. Empty: their mail says the link will follow.
   */
  meetingRoomUrl: roomUrl,
  /** When the home page offers the free 30-minute online meeting: weekdays, hours, days ahead and notice. */
  meetingHours,
  /** How she sells her food: licensed (with its number) or cottage-food exempt, and what a label carries. */
  foodLicence,
  /**
   * Your postal address (a PO box will do): every newsletter and marketing mail carries it, as
   * CAN-SPAM asks. Empty: your shop's address is used; with neither, a newsletter cannot be sent.
   */
  postalAddress,
  /** What your Google Calendar receives as a session's title: "Session · Jane D." (initial), the full name, or "Session" alone. */
  calendarTitle: z.enum(CALENDAR_TITLES, { error: 'must be initial, fullName or none' }),
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
    ranges: {
      individualYoga: { min: 80, max: 110, note: '' },
      yogaTherapy: { min: 10, max: 80, note: 'through June 2026' },
    },
    slidingScaleNote: DEFAULT_SLIDING_SCALE_NOTE,
  },
  cancelNoticeHours: 24,
  pickupHours: '',
  meetingRoomUrl: '',
  // Weekdays 09:00-17:00, the next two weeks, at least four hours ahead.
  meetingHours: { days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00', daysAhead: 14, noticeHours: 4 },
  foodLicence: DEFAULT_FOOD_LICENCE,
  postalAddress: '',
  calendarTitle: 'initial',
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

const SESSION_TYPE_KEY_LIST = Object.keys(SESSION_TYPE_KEYS) as SessionTypeKey[];

/** "$10–$80", or "$80" when the range is one amount: the sentence's and her pages' words for a range. */
export const rangeInWords = (r: DollarRange) => (r.min === r.max ? `$${r.min}` : `$${r.min}–$${r.max}`);

/**
 * The range that applies to an amount for `sessionType`, with the type's words; for no type (or
 * one she doesn't offer) every type's range together, lowest to highest (the label before a type
 * is chosen: "$10-$110" by default, the spec's label).
 */
export function amountRange(a: BookingAmounts, sessionType: string): { range: DollarRange; typeWords?: string } {
  const key = sessionTypeKeyOf(sessionType);
  if (key) return { range: { min: a.ranges[key].min, max: a.ranges[key].max }, typeWords: SESSION_TYPE_WORDS[key] };
  const all = SESSION_TYPE_KEY_LIST.map((k) => a.ranges[k]);
  return { range: { min: Math.min(...all.map((r) => r.min)), max: Math.max(...all.map((r) => r.max)) } };
}

/** The amount field's label: SPEC.md's "Payment amount ($10-$110)", with the chosen type's range. */
export const amountLabel = (a: BookingAmounts, sessionType: string) => {
  const { range } = amountRange(a, sessionType);
  return `Payment amount ($${range.min}-$${range.max})`;
};

/**
 * The sliding-scale sentence under the amount, written from the ranges: "Sliding scale:
 * individual yoga $80–$110 per hour; yoga therapy $10–$80 per hour through June 2026." and her note.
 */
export function slidingScale(a: BookingAmounts): string {
  const parts = SESSION_TYPE_KEY_LIST.map((k) => {
    const r = a.ranges[k];
    return `${SESSION_TYPE_WORDS[k]} ${rangeInWords(r)} per hour${r.note ? ` ${r.note}` : ''}`;
  });
  return [`Sliding scale: ${parts.join('; ')}.`, a.slidingScaleNote].filter(Boolean).join(' ');
}

export const inRange = (r: DollarRange, dollarsAmount: number) => dollarsAmount >= r.min && dollarsAmount <= r.max;

/** The server's refusal of an amount outside the type's range: "The amount for yoga therapy must be between $10 and $80." */
export const amountOutOfRange = (r: DollarRange, typeWords?: string) =>
  `The amount${typeWords ? ` for ${typeWords}` : ''} must be between $${r.min} and $${r.max}.`;

/**
 * The words of 'Invalid Payment Amount' on Continue (SPEC.md section 5): "The amount must be at
 * least $10. Please adjust your entry and try again." with the type's lowest amount (yoga
 * therapy's $10 gives the spec's sentence), or its highest when the amount is above it.
 */
export const invalidPaymentAmount = (r: DollarRange, amount: number) =>
  `The amount must be ${amount > r.max ? `at most $${r.max}` : `at least $${r.min}`}. Please adjust your entry and try again.`;

/** What a disabled Continue lacks, each as an instruction; empty when Continue may be pressed. */
export function continueBlockers(a: BookingAmounts, state: { slotChosen: boolean; sessionType: string; couponValid: boolean; amount: string }): string[] {
  const out: string[] = [];
  if (!state.slotChosen) out.push('pick a time');
  if (!state.sessionType) out.push('choose a session type');
  if (!state.couponValid) {
    const { range, typeWords } = amountRange(a, state.sessionType);
    const n = Number(state.amount);
    if (state.amount.trim() === '' || Number.isNaN(n) || !inRange(range, n)) {
      out.push(`enter an amount between $${range.min} and $${range.max}${typeWords ? ` for ${typeWords}` : ''}`);
    }
  }
  return out;
}

/** The line under a disabled Continue: "To continue, pick a time and enter an amount between $10 and $80 for yoga therapy." */
export function continueHint(blockers: readonly string[]): string {
  if (blockers.length === 0) return '';
  const list = blockers.length === 1 ? blockers[0]! : `${blockers.slice(0, -1).join(', ')} and ${blockers[blockers.length - 1]}`;
  return `To continue, ${list}.`;
}
