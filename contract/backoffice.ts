/**
 * The teacher's back office (issue 16): newsletters, finances, exports and the site
 * announcement. Shared with the admin islands and the announcement script: zod only.
 */
import type { UnsentMailView } from './mail.ts';
import { INCOME_ROWS, type IncomeFigures } from './books.ts';
import { z } from 'zod';
import { bidiControlsMessage, hasNoBidiControls, isCleanText, requiredText } from './common.ts';

// ---------------------------------------------------------------------------------------------
// Newsletters

export const NEWSLETTER_NOT_FOUND = 'Newsletter not found.';
export const NEWSLETTER_NOT_DRAFT = 'This newsletter has been sent already; it can no longer be changed or sent again.';
export const NEWSLETTER_NO_SUBSCRIBERS = 'There are no subscribers to send this newsletter to.';
export const NEWSLETTER_SENDING = 'The newsletter is on its way.';
export const NEWSLETTER_TEST_SENT = 'A test was sent to your address.';
export const NEWSLETTER_BODY_MAX = 50_000;

/** POST /api/admin/newsletters, PUT /api/admin/newsletters/{id}, POST …/preview */
export const newsletterDraft = z.object({
  subject: requiredText('Subject', 150).refine((s) => !/[\r\n]/.test(s), 'Subject must be on one line'),
  body: z
    .string({ error: 'Body is required' })
    .trim()
    .min(1, 'Body is required')
    .max(NEWSLETTER_BODY_MAX, `Body must be at most ${NEWSLETTER_BODY_MAX} characters`)
    .refine(hasNoBidiControls, bidiControlsMessage('Body'))
    .refine(isCleanText, 'Body contains characters that are not allowed'),
});
export type NewsletterDraft = z.output<typeof newsletterDraft>;

export type NewsletterStatus = 'draft' | 'sending' | 'sent';

export interface NewsletterView {
  id: string;
  subject: string;
  body: string;
  status: NewsletterStatus;
  /** Recipients when the send started; sent, skipped (unsubscribed meanwhile) and failed so far. */
  total: number;
  sent: number;
  skipped: number;
  failed: number;
  createdAt: string;
  updatedAt: string;
  sendStartedAt: string | null;
  sentAt: string | null;
}

/** POST /api/admin/newsletters/preview: the mail as a subscriber gets it. */
export interface NewsletterPreview {
  subject: string;
  html: string;
  text: string;
}

// ---------------------------------------------------------------------------------------------
// Finances

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const month = (label: string) =>
  z
    .string({ error: `${label} is required (YYYY-MM)` })
    .regex(MONTH, `${label} must look like YYYY-MM`)
    .refine((s) => Number(s.slice(0, 4)) >= 2000 && Number(s.slice(0, 4)) <= 2100, `${label} must be between 2000-01 and 2100-12`);

/** GET /api/admin/finances?from=YYYY-MM&to=YYYY-MM (both months included; at most 10 years). */
export const financesQuery = z
  .object({ from: month('from'), to: month('to') })
  .refine((q) => q.from <= q.to, { message: 'from must not be after to', path: ['to'] })
  .refine((q) => Number(q.to.slice(0, 4)) * 12 + Number(q.to.slice(5)) - (Number(q.from.slice(0, 4)) * 12 + Number(q.from.slice(5))) < 120, {
    message: 'The range may cover at most 120 months',
    path: ['to'],
  });
export type FinancesQuery = z.output<typeof financesQuery>;

/**
 * The money of one month, or of the whole range: the income figures as the Tax year shows them
 * (one definition, issue 30, decision 0031), with the counts behind them; every amount in cents.
 */
export interface FinanceFigures extends IncomeFigures {
  /** Orders paid and kept (paid, ready for pickup, shipped, picked up): the orders in shop sales. */
  ordersPaidCount: number;
  /** Of shop sales, the shipping charged. */
  shippingCents: number;
  /** Shop sales ÷ orders paid, net of sales tax, rounded down; 0 without orders. */
  averageOrderCents: number;
  /** The payments in session payments kept: paid sessions booked, and paid sessions cancelled and not refunded. */
  sessionsPaidCount: number;
  /** Sessions booked free with the coupon (no money). */
  couponBookingsCount: number;
  /** Gig classes paid in the period: the gigs paid. */
  gigsPaidCount: number;
  /** Orders refunded in PayPal: those in refunded orders. */
  orderRefundsCount: number;
  /** Paid sessions cancelled and refunded: those in refunded sessions. */
  sessionRefundsCount: number;
}

export interface FinanceMonth extends FinanceFigures {
  /** YYYY-MM in the teacher's zone. */
  month: string;
}

/** Sales tax collected in a range, per month and per quarter (YYYY-Qn), in cents (issue 29: also per location code). */
export interface SalesTaxPeriods {
  taxCents: number;
  months: { month: string; taxCents: number }[];
  quarters: { quarter: string; taxCents: number }[];
}

export interface FinancesView {
  from: string;
  to: string;
  timeZone: string;
  totals: FinanceFigures;
  months: FinanceMonth[];
  bestSellers: { name: string; quantity: number; cents: number }[];
  /**
   * Sales tax collected (orders paid and kept) per destination state, per month and per quarter
   * (YYYY-Qn) of the range, for filing (issue 24); refunded orders returned theirs.
   */
  salesTaxByState: (SalesTaxPeriods & { state: string; locations: (SalesTaxPeriods & { locationCode: string | null; jurisdiction: string | null })[] })[];
  /**
   * Sessions owed (issue 32): the unused session credits not lapsed on `asOf` (her day, today),
   * whatever the range, and their value (each lot's price ÷ its sessions × what is left).
   */
  sessionsOwed: { sessions: number; cents: number; asOf: string };
  /**
   * Gift cards owed (issue 33): what the cards still hold now, whatever the range, and how many
   * hold something. A liability, not income: a card's money is income when it buys something.
   */
  giftCardsOwed: { cards: number; cents: number };
  /**
   * Her private tastings (issue 34): requests that came, quotes she sent and tastings booked (the
   * deposit paid) in the range; the balances still owed on booked tastings now, whatever the range.
   * Their deposits and balances are income (the figures' tastingsCents), by the day each was paid.
   */
  tastings: { requests: number; quoted: number; booked: number; balanceDueCents: number };
}

// ---------------------------------------------------------------------------------------------
// Exports

export const EXPORTS = ['orders', 'clients', 'subscribers', 'signups'] as const;
export type ExportName = (typeof EXPORTS)[number];

// ---------------------------------------------------------------------------------------------
// The site announcement

export const ANNOUNCEMENT_MAX = 200;
export const ANNOUNCEMENT_SAVED = 'Announcement saved.';
export const ANNOUNCEMENT_CLEARED = 'Announcement removed.';

/** An instant with its offset, as `Date.toISOString()` writes it (seconds and fraction optional). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

const instant = (label: string) =>
  z
    .string({ error: `${label} must be a date and time` })
    .refine((s) => ISO_INSTANT.test(s) && !Number.isNaN(Date.parse(s)), `${label} must be a date and time (ISO 8601, e.g. 2026-12-24T09:00:00Z)`)
    .nullable()
    .optional()
    .transform((s) => s ?? null);

/** PUT /api/admin/announcement: an empty message removes the announcement. */
export const announcementInput = z
  .object({
    message: z
      .string({ error: 'Message is required' })
      .trim()
      .max(ANNOUNCEMENT_MAX, `Message must be at most ${ANNOUNCEMENT_MAX} characters`)
      .refine(hasNoBidiControls, bidiControlsMessage('Message'))
      .refine(isCleanText, 'Message contains characters that are not allowed')
      .refine((s) => !/[\r\n]/.test(s), 'Message must be on one line'),
    link: z
      .string({ error: 'Link must be text' })
      .trim()
      .max(500, 'Link must be at most 500 characters')
      .refine(isCleanText, 'Link contains characters that are not allowed')
      .refine((s) => {
        if (s === '') return true;
        try {
          const u = new URL(s);
          return u.protocol === 'https:' || u.protocol === 'http:';
        } catch {
          return false;
        }
      }, 'Link must be an http:// or https:// address')
      .nullable()
      .optional()
      .transform((s) => (s ? s : null)),
    startsAt: instant('Start'),
    endsAt: instant('End'),
  })
  .refine((a) => !a.startsAt || !a.endsAt || Date.parse(a.startsAt) < Date.parse(a.endsAt), { message: 'End must be after start', path: ['endsAt'] });
export type AnnouncementInput = z.output<typeof announcementInput>;

/** GET /api/announcement: the live one, or `{announcement: null}`. */
export interface AnnouncementView {
  /** Changes whenever the message or link changes: the key a dismissal is remembered by. */
  id: string;
  message: string;
  link: string | null;
  startsAt: string | null;
  endsAt: string | null;
}

// ---------------------------------------------------------------------------------------------
// Finances as CSV (issue 20)

/** The figures only Finances shows, in its order and words (the counts behind the income figures). */
export const FINANCE_COUNT_ROWS: readonly (readonly [Exclude<keyof FinanceFigures, keyof IncomeFigures>, string, 'cents' | 'count'])[] = [
  ['ordersPaidCount', 'Orders paid', 'count'],
  ['shippingCents', 'of which shipping', 'cents'],
  ['averageOrderCents', 'Average order (net of tax)', 'cents'],
  ['sessionsPaidCount', 'Paid sessions kept', 'count'],
  ['couponBookingsCount', 'Sessions booked with the coupon', 'count'],
  ['gigsPaidCount', 'Gig classes paid', 'count'],
  ['orderRefundsCount', 'Orders refunded', 'count'],
  ['sessionRefundsCount', 'Sessions refunded', 'count'],
];

/**
 * GET /api/admin/exports/finances.csv?from=YYYY-MM&to=YYYY-MM: the figures per month, as the
 * finances page shows them: the income figures (the Tax year's columns, INCOME_ROWS), then the counts.
 */
export const FINANCES_CSV_COLUMNS = ['Month', ...INCOME_ROWS.map(([, label]) => label), ...FINANCE_COUNT_ROWS.map(([, label]) => label)] as const;

// ---------------------------------------------------------------------------------------------
// The Today panel (issue 20)

/** One group of the Today panel: how many, the admin list it links to, and the first few. */
export interface TodayGroup<T> {
  count: number;
  /** The admin page that lists them (with the filter its list API answers for the same count). */
  href: string;
  /** The first few (at most TODAY_ITEMS), soonest or newest first, each with its own row's address. */
  items: (T & TodayItemLink)[];
}

/** Issue 30: each item opens its list on its own row (adminLinks.item: the list's filter and `focus=<id>`). */
export interface TodayItemLink {
  href: string;
}

/** How many items each group carries; `count` is always the whole. */
export const TODAY_ITEMS = 5;
/** "This week": today and the six days after it, on the teacher's calendar. "Newest": the last seven days. */
export const TODAY_WEEK_DAYS = 7;

export interface TodayOrder {
  _id: string;
  createdAt: string;
  payerName: string;
  total: number;
  isLocalPickup: boolean;
}

/** A pickup order still to be handed over (issue 30): paid (to make ready) or ready for pickup. */
export interface TodayPickup {
  _id: string;
  createdAt: string;
  payerName: string;
  total: number;
  status: 'paid' | 'ready_for_pickup';
}

/** A class she taught and was not paid for yet (issue 30). */
export interface TodayGig {
  _id: string;
  date: string;
  time: string;
  className: string;
  location: string;
  rateCents: number;
  /** Days since she taught it. */
  ageDays: number;
}

export interface TodaySession {
  _id: string;
  startsAt: string;
  date: string;
  time: string;
  clientName: string;
  sessionType: string;
  /** Where: an address or an online link; '' for none. */
  place: string;
}

export interface TodayClass {
  _id: string;
  title: string;
  startsAt: string;
  date: string;
  time: string;
  location: string;
  /** Places taken (sign-ups) of `capacity`. */
  taken: number;
  capacity: number;
  /** People waiting for a place. */
  waitlist: number;
}

export interface TodayFailedMails {
  newsletterId: string;
  subject: string;
  /** Recipients whose mail failed. */
  failed: number;
}

/** One item of the Today panel's failed mails: a newsletter's failures, or one mail that did not leave. */
export type TodayFailedMail = ({ source: 'newsletter' } & TodayFailedMails) | ({ source: 'outbox' } & UnsentMailView);

export interface TodaySignup {
  _id: string;
  createdAt: string;
  name: string;
  classTitle: string;
  date: string;
}

export interface TodayClient {
  _id: string;
  createdAt: string;
  name: string;
  email: string;
}

export interface TodayTastingRequest {
  _id: string;
  createdAt: string;
  name: string;
  occasion: string;
  guests: number;
  /** The days the client offered (YYYY-MM-DD). */
  dates: string[];
}

/** A refund owed and not yet made through PayPal (issue 47): what for, how much, to whom, how often tried. */
export interface TodayRefundOwed {
  _id: string;
  /** What was refunded: a package's name, a gift card. */
  what: string;
  amountCents: number;
  /** The client's name; '' for a gift card's buyer (no account). */
  clientName: string;
  /** Failed tries so far, and PayPal's last answer. */
  attempts: number;
  lastError: string | null;
  since: string;
}

/** A product whose label lacks a fact (issue 48): what it lacks, in her words (contract/food.ts missingLabelFacts). */
export interface TodayLabelFacts {
  _id: string;
  name: string;
  /** 'ingredients', 'allergens', 'net weight': those not said yet. */
  missing: string[];
}

/** What her food licence lacks for a lawful label (issue 48), and where she sets it. */
export interface TodayFoodLicence {
  mode: 'licensed' | 'cottage';
  /** contract/food.ts missingLicenceFacts: her licence number first while licensed, then the business name, address, phone; [] when complete. */
  missing: string[];
  /** Her Settings page, at the food licence. */
  href: string;
}

/** GET /api/admin/today: what needs her today, each group a tap from its list. */
export interface TodayView {
  /** The teacher's date (YYYY-MM-DD in her zone) the panel is for. */
  today: string;
  timeZone: string;
  /** Paid orders not yet shipped or picked up; `toShip` + `toHandOver` = count. */
  ordersToDeliver: TodayGroup<TodayOrder> & { toShip: number; toHandOver: number };
  /** Pickup orders paid or ready for pickup, not picked up yet (issue 30); `ready` of them are ready. */
  comingPickups: TodayGroup<TodayPickup> & { ready: number };
  /** Classes taught and not paid (issue 30), oldest first; `cents` is what they owe her. */
  unpaidGigs: TodayGroup<TodayGig> & { cents: number };
  /** Booked sessions of today (those passed today too). */
  sessionsToday: TodayGroup<TodaySession>;
  /** Booked sessions from today to six days on. */
  sessionsThisWeek: TodayGroup<TodaySession>;
  /** Classes from now to six days on, with places and waitlists; `waitlisted` sums their waitlists. */
  nextClasses: TodayGroup<TodayClass> & { waitlisted: number };
  /**
   * Mails that failed, one group (issue 29): the mails (bookings, orders, login links…) that
   * failed or were skipped in the last seven days (issue 21), newest first, then the newsletters
   * some of whose mails failed, each one item with its count. `count` is of mails.
   */
  failedMails: TodayGroup<TodayFailedMail>;
  /** Class sign-ups of the last seven days. */
  newSignups: TodayGroup<TodaySignup>;
  /** Clients registered in the last seven days. */
  newClients: TodayGroup<TodayClient>;
  /** Tasting requests she has not quoted yet (issue 34), newest first: the Tastings page answers them. */
  tastingRequests: TodayGroup<TodayTastingRequest>;
  /**
   * Refunds owed (issue 47): PayPal refused them for now and the site tries again until it makes
   * them, oldest first, each a tap from the client's page (a card's: her gift cards); `cents` sums them.
   */
  refundsOwed: TodayGroup<TodayRefundOwed> & { cents: number };
  /** Her food licence (issue 48): Today asks for what a label lacks under it (the licence number, seeded empty) until she sets it. */
  foodLicence: TodayFoodLicence;
  /** Her postal address (issue 48): `missing` while neither her setting nor her shop's street gives one, so no newsletter can be sent. */
  postalAddress: { missing: boolean; href: string };
  /** Products missing label facts (issue 48), by name, each with what it lacks and a tap from her products, until she fills them. */
  labelFacts: TodayGroup<TodayLabelFacts>;
}
