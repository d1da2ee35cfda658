/**
 * Packages and what a client holds (issue 32, decision 0035): the packages she sells, the credits
 * a client holds with her and their ledger, the clients and sales she enters by hand. Shared with
 * the islands: zod only. Each field has a doc line: the admin's help text comes from here.
 */
import { z } from 'zod';
import { email, id, isoDate, nameText, optionalText, requiredText } from './common.ts';
import { PAYMENT_UNSUCCESSFUL, SESSION_TYPES, sessionType, type SessionType } from './booking.ts';
import { SESSION_TYPE_KEYS, amountOutOfRange, type SessionTypeKey } from './settings.ts';
import { usd } from './event-price-rules.ts';

export const PACKAGE_NOT_FOUND = 'No package with this id.';
export const PACKAGE_DELETED = 'Package deleted.';
export const CLIENT_EMAIL_TAKEN = 'A client with this e-mail already exists.';
export const CLIENT_NOT_FOUND = 'No client with this id.';
export const NO_CREDIT_FOR_TYPE = (type: string) => `You have no session credit left for a ${type}. Please pay for this session instead.`;
export const CLIENT_HAS_NO_CREDIT = (type: string) => `The client has no session credit left for a ${type}. Record how the session is paid instead.`;
export const CREDIT_BELOW_ZERO = (held: number) => `That would take more sessions than the client holds (${held}).`;
export const PACKAGE_NOT_OFFERED = 'This package is not offered any more. Please choose another.';
export const PACKAGE_PAYMENT_FOR_ANOTHER = 'This payment was made for another package. Please pay for this package.';
export const LOT_NOT_FOUND = 'This client holds no such package.';
export const LOT_ALREADY_REFUNDED = 'This package was refunded already.';
/** The amount a client picks lies on the package's scale: "The amount for Eight weeks of yoga therapy must be between $80 and $600." */
export const packageAmountOutOfRange = (p: { name: string; minPriceCents: number; maxPriceCents: number }) =>
  amountOutOfRange({ min: p.minPriceCents / 100, max: p.maxPriceCents / 100 }, p.name);

/** A session type, by the name the booking page shows or by its settings key ('yogaTherapy'). */
const sessionTypeName = z
  .string({ error: `must be one of: ${SESSION_TYPES.join(', ')}` })
  .trim()
  .transform((v, ctx): SessionType => {
    const byKey = SESSION_TYPE_KEYS[v as SessionTypeKey];
    if (byKey) return byKey;
    if ((SESSION_TYPES as readonly string[]).includes(v)) return v as SessionType;
    ctx.addIssue({ code: 'custom', message: `must be one of: ${SESSION_TYPES.join(', ')}` });
    return z.NEVER;
  });

const cents = (label: string) =>
  z
    .number({ error: `${label} must be a whole number of cents` })
    .int(`${label} must be a whole number of cents`)
    .min(0, `${label} must not be negative`)
    .max(10_000_00, `${label} must be at most $10,000`);

/** A package she sells. */
export const packageFields = z
  .object({
    /** What the client reads: "Eight weeks of yoga therapy". */
    name: nameText('Name', 120),
    /** The session types its credits can book. */
    sessionTypes: z
      .array(sessionTypeName, { error: 'Session types must be a list' })
      .min(1, 'Choose at least one session type')
      .max(SESSION_TYPES.length)
      .transform((list) => [...new Set(list)]),
    /** How many sessions it holds. */
    sessions: z
      .number({ error: 'Sessions must be a whole number' })
      .int('Sessions must be a whole number')
      .min(1, 'Sessions must be at least 1')
      .max(100, 'Sessions must be at most 100'),
    /** The lowest price on her sliding scale, in cents. */
    minPriceCents: cents('The lowest price'),
    /** The price she suggests, in cents. */
    suggestedPriceCents: cents('The suggested price'),
    /** The highest price, in cents (equal to the lowest: a single price). */
    maxPriceCents: cents('The highest price'),
    /** How many months its credits last after purchase. */
    monthsValid: z
      .number({ error: 'Months must be a whole number' })
      .int('Months must be a whole number')
      .min(1, 'Months must be at least 1')
      .max(60, 'Months must be at most 60'),
    /** Offered to clients (an inactive one stays with those who hold it). */
    active: z.boolean({ error: 'Active must be true or false' }).default(true),
  })
  .refine((p) => p.minPriceCents <= p.suggestedPriceCents && p.suggestedPriceCents <= p.maxPriceCents, {
    message: 'The prices must go lowest ≤ suggested ≤ highest',
    path: ['suggestedPriceCents'],
  });
export type PackageFields = z.input<typeof packageFields>;

/** GET /api/packages (and the admin's list). */
export interface PackageView {
  _id: string;
  name: string;
  sessionTypes: string[];
  sessions: number;
  minPriceCents: number;
  suggestedPriceCents: number;
  maxPriceCents: number;
  monthsValid: number;
  active: boolean;
}

/** POST /api/admin/users: a client she adds by hand (no mail is sent unless she asks for the welcome). */
export const newClient = z.object({
  firstName: nameText('First name'),
  lastName: nameText('Last name'),
  email,
  phone: optionalText('Phone', 40).default(''),
  /** A welcome mail with a login link (off unless she ticks it). */
  sendWelcome: z.boolean({ error: 'sendWelcome must be true or false' }).default(false),
});
export type NewClient = z.input<typeof newClient>;

/** How a sale she enters by hand was paid. */
export const SALE_METHODS = ['cash', 'check', 'venmo', 'zelle', 'card', 'free'] as const;
export type SaleMethod = (typeof SALE_METHODS)[number];
/** How each method reads (her forms, the receipt, the tax year). */
export const SALE_METHOD_WORDS: Readonly<Record<SaleMethod, string>> = {
  cash: 'cash',
  check: 'check',
  venmo: 'Venmo',
  zelle: 'Zelle',
  card: 'card (elsewhere)',
  free: 'given free',
};

/** POST /api/admin/users/{id}/packages: a package sold outside the site. */
export const offlineSale = z.object({
  packageId: z.string({ error: 'Choose a package' }).uuid('Choose a package'),
  /** What the client paid, in cents (0 when given free). */
  amountCents: cents('The amount'),
  method: z.enum(SALE_METHODS, { error: `Method must be one of: ${SALE_METHODS.join(', ')}` }),
  /** The day the money came in (her day). */
  paidOn: isoDate,
  /** A receipt mailed to the client through the outbox (off unless she ticks it). */
  sendReceipt: z.boolean({ error: 'sendReceipt must be true or false' }).default(false),
});
export type OfflineSale = z.input<typeof offlineSale>;

/** How she was paid for a session she books for a client, when no credit pays it. */
export const recordedPayment = z.object({
  method: z.enum(SALE_METHODS, { error: `Method must be one of: ${SALE_METHODS.join(', ')}` }),
  /** What the client paid, in cents (0 when given free). */
  amountCents: cents('The amount'),
  /** The day the money came in (her day). */
  paidOn: isoDate,
});

/**
 * POST /api/admin/users/{id}/sessions: she books a free slot for the client, paid by one of the
 * client's credits (`{ credit: true }`) or by a payment she records.
 */
export const adminBooking = z.object({
  slotId: id,
  sessionType,
  pay: z.union([z.object({ credit: z.literal(true) }).strict(), recordedPayment.strict()], {
    error: 'Pay must be { credit: true } or { method, amountCents, paidOn }',
  }),
  message: optionalText('Message', 2000),
  /** The client's 'Booking Confirmed!' mail (off unless she ticks it). */
  sendConfirmation: z.boolean({ error: 'sendConfirmation must be true or false' }).default(false),
});
export type AdminBooking = z.input<typeof adminBooking>;
export const ADMIN_BOOKED = 'Session booked.';

/** POST /api/admin/users/{id}/credits: her adjustment, with its reason; may be negative, never below zero. */
export const creditAdjustment = z.object({
  sessions: z
    .number({ error: 'Sessions must be a whole number' })
    .int('Sessions must be a whole number')
    .min(-100, 'Sessions must be at least -100')
    .max(100, 'Sessions must be at most 100')
    .refine((n) => n !== 0, 'Sessions must not be 0'),
  reason: requiredText('Reason', 300),
});
export type CreditAdjustment = z.input<typeof creditAdjustment>;

/** POST /api/user/{id}/packages/{packageId}/paypal-order: what the client pays, on the package's scale (checked by the server). */
export const packageOrderRequest = z.object({ amountCents: cents('The amount').refine((n) => n > 0, 'The amount must be more than $0') });
export type PackageOrderRequest = z.input<typeof packageOrderRequest>;

/** POST /api/user/{id}/packages/{packageId}/buy: the PayPal order she approved. */
export const packagePurchaseRequest = z.object({
  paypalOrderId: z
    .string({ error: PAYMENT_UNSUCCESSFUL })
    .trim()
    .regex(/^[A-Za-z0-9-]{1,64}$/, PAYMENT_UNSUCCESSFUL),
});
export type PackagePurchaseRequest = z.input<typeof packagePurchaseRequest>;

/** The answer of a package bought: its lot, who paid (PayPal's first name) and what she holds now. */
export interface PackageBoughtView {
  lotId: string;
  payerFirstName: string;
  balance: BalanceView;
}

/** POST /api/admin/users/{id}/lots/{lotId}/refund: the unused sessions taken back; a PayPal sale's capture refunded. */
export interface LotRefundedView {
  message: string;
  sessionsTakenBack: number;
  /**
   * 'none': not paid through PayPal (she returns the money herself); 'owed': PayPal refused for
   * now, the refund is owed and the site tries again until PayPal answers (issue 47).
   */
  paypalRefund: 'refunded' | 'owed' | 'none';
  balance: BalanceView;
}
export const lotRefunded = (taken: number, paypalRefund: LotRefundedView['paypalRefund']) =>
  `${taken === 0 ? 'No unused sessions were left to take back' : `${taken} unused ${taken === 1 ? 'session' : 'sessions'} taken back`}; sessions already used stay used. ${
    paypalRefund === 'refunded'
      ? 'The PayPal payment was refunded in full.'
      : paypalRefund === 'owed'
        ? REFUND_OWED_WORDS
        : 'Return the money the way it was paid.'
  }`;

/** Her answer when PayPal refused a refund for now (issue 47): owed, retried, nothing lost. */
export const REFUND_OWED_WORDS = 'PayPal could not refund the payment just now: the refund is owed and the site will try again until PayPal makes it.';

/** A refund owed to the client (issue 47): what it is for and how much, until PayPal makes it. */
export interface RefundOwedView {
  _id: string;
  /** What was refunded: a package's name, a gift card. */
  what: string;
  amountCents: number;
  /** When it was owed (ISO). */
  since: string;
}

/** "Refund owed: $360.00 for Eight weeks of yoga therapy": one line, the same on her pages and the client's. */
export const refundOwedWords = (r: Pick<RefundOwedView, 'what' | 'amountCents'>) => `Refund owed: ${usd(r.amountCents)} for ${r.what}`;

/** Why a ledger row was written. */
export type LedgerReason = 'bought' | 'used' | 'returned' | 'forfeited' | 'expired' | 'refunded' | 'adjusted';

/** GET /api/user/{id}/balance. */
export interface BalanceView {
  /** Sessions she can still book with, over every credit not yet lapsed. */
  sessionsRemaining: number;
  credits: { lotId: string; packageName: string; sessionTypes: string[]; remaining: number; expiresOn: string | null }[];
  /** Newest first. */
  history: { at: string; change: number; reason: LedgerReason; packageName: string; note: string }[];
  /** Refunds owed to the client and not yet made through PayPal (issue 47), oldest first. */
  refundsOwed: RefundOwedView[];
}

/** "Use 1 of your 6 sessions (until 15 Feb)": the booking page's offer of a credit. */
export function creditOffer(remaining: number, expiresOn: string | null): string {
  const until = expiresOn
    ? ` (until ${new Date(`${expiresOn}T12:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' })})`
    : '';
  return `Use 1 of your ${remaining} ${remaining === 1 ? 'session' : 'sessions'}${until}`;
}

/**
 * What a package saves, in the client's words, against booking its sessions one at a time at the
 * top of her sliding scale for their type (`perSession`, her settings' range: the booking page's
 * and /yoga's one source, contract/settings.ts amountRange). At the package's suggested price:
 * "$45 a session at the suggested $360; saves $280 against 8 single sessions at $80". A package
 * that saves nothing says only its price per session.
 */
export function packageSavingWords(p: Pick<PackageView, 'sessions' | 'suggestedPriceCents'>, perSession: { min: number; max: number }): string {
  const each = Math.round(p.suggestedPriceCents / p.sessions);
  const singles = p.sessions * perSession.max * 100;
  const price = `${usdWords(each)} a session at the suggested ${usdWords(p.suggestedPriceCents)}`;
  return singles > p.suggestedPriceCents
    ? `${price}; saves ${usdWords(singles - p.suggestedPriceCents)} against ${p.sessions} single sessions at $${perSession.max}`
    : price;
}

/** 36000 → "$360", 4550 → "$45.50". */
const usdWords = (cents: number) => `$${Math.floor(cents / 100).toLocaleString('en-US')}${cents % 100 ? `.${String(cents % 100).padStart(2, '0')}` : ''}`;

/** A package's price on her scale: "$80–$600", or "$450" when it has one price. */
export const packagePriceWords = (p: Pick<PackageView, 'minPriceCents' | 'maxPriceCents'>) =>
  p.minPriceCents === p.maxPriceCents ? usdWords(p.minPriceCents) : `${usdWords(p.minPriceCents)}–${usdWords(p.maxPriceCents)}`;
