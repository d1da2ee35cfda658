/**
 * Table types as Kysely sees them (camelCase: the CamelCasePlugin maps to snake_case columns).
 * Kept by hand beside db/migrations; a test compares them with the migrated database.
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface UsersTable {
  id: Generated<string>;
  /** Lower-cased; unique. */
  email: string;
  firstName: Generated<string>;
  lastName: Generated<string>;
  phone: Generated<string>;
  preferredName: Generated<string>;
  pronoun: Generated<string>;
  city: Generated<string>;
  zipcode: Generated<string>;
  image: string | null;
  googleId: string | null;
  emailVerifiedAt: Timestamp | null;
  /** The private calendar feed's URL secret (0009); null until the client makes one. */
  calendarSecret: string | null;
  createdAt: CreatedAt;
}

export interface SessionsTable {
  /** The random session id, the part of the cookie token `<id>.<secret>` before the dot. */
  id: string;
  /** SHA-256 (hex) of the token's secret part; the secret itself is never stored. */
  secretHash: string;
  expiresAt: Timestamp;
  createdAt: CreatedAt;
}
export interface UserSessionsTable extends SessionsTable {
  userId: string;
}
export interface AdminSessionsTable extends SessionsTable {
  adminId: string;
}

export interface LoginTokensTable {
  /** SHA-256 (hex) of the token in the mailed link. */
  id: string;
  userId: string;
  purpose: 'verify_email' | 'login';
  expiresAt: Timestamp;
  usedAt: Timestamp | null;
  createdAt: CreatedAt;
}

export interface AdminsTable {
  id: Generated<string>;
  email: string;
  name: Generated<string>;
  /** argon2id in PHC form (older: scrypt, rehashed at the next login), see api/accounts/password.ts. */
  passwordHash: string;
  createdAt: CreatedAt;
}

export interface EventsTable {
  id: Generated<string>;
  title: string;
  /** YYYY-MM-DD in SITE_TIMEZONE. */
  date: string;
  /** HH:mm in SITE_TIMEZONE. */
  time: string;
  /** The instant date + time denote; decides "past". */
  startsAt: Timestamp;
  location: Generated<string>;
  signUpLink: Generated<string>;
  isExternal: Generated<boolean>;
  /** Places in the class; class-status compares sign-ups with it. */
  capacity: Generated<number>;
  /** Shared by the events one "repeat" created. */
  seriesId: string | null;
  createdAt: CreatedAt;
  /** A fixed price (0030, issue 34); null with the three below null: a free event. */
  priceCents: number | null;
  /** Her sliding scale: pay what you can from the lowest up to the highest; null: not one. */
  minPriceCents: number | null;
  suggestedPriceCents: number | null;
  maxPriceCents: number | null;
  /** Held in her agenda (a tasting she sold), never on the public calendar or open to sign-ups. */
  private: Generated<boolean>;
  /** She called it off: its paid places are refunded by the refund runner. */
  cancelledAt: Timestamp | null;
  /** How long it takes her (0032, issue 35): its interval in her agenda. */
  minutes: Generated<number>;
}

export interface ClassSignupsTable {
  id: Generated<string>;
  eventId: string | null;
  classTitle: string;
  date: string;
  name: string;
  /** Lower-cased; one sign-up per (classTitle, date, email). */
  email: string;
  phone: Generated<string>;
  waiverAccepted: Generated<boolean>;
  signaturePng: Uint8Array | null;
  createdAt: CreatedAt;
  /** When the day-before reminder was claimed (issue 15); null until then. */
  reminderSentAt: Timestamp | null;
  /** The waiver revision accepted (page_revisions of 'waiver'), and a SHA-256 of its text; null before issue 19. */
  waiverRevision: number | null;
  waiverHash: string | null;
  /** 0030: null for a free place; 'held' while its buyer pays (until heldUntil); 'paid' once paid (paymentId). */
  payment: 'held' | 'paid' | null;
  heldUntil: Timestamp | null;
  /** The PayPal order made for the hold, and what the buyer chose to pay on the scale. */
  holdOrderId: string | null;
  holdAmountCents: number | null;
  /** 0041: the client address that asked for the hold (at most two live unpaid holds each); null once paid. */
  holdClient: string | null;
  paymentId: string | null;
  /** The roster (issue 34): checked in, or did not come. */
  attendance: 'present' | 'noShow' | null;
  attendanceAt: Timestamp | null;
  /** Added at the door by the teacher. */
  walkIn: Generated<boolean>;
}

export type EventPaymentMethod = 'paypal' | 'credit' | 'gift_card' | 'cash' | 'check';

/** The money for a class place (0030, issue 34), kept when the place is given back. */
export interface EventPaymentsTable {
  id: Generated<string>;
  eventId: string | null;
  eventTitle: string;
  eventDate: string;
  name: string;
  email: string;
  /** What was paid in money (a credit's place: 0, its money was counted when the package was sold). */
  amountCents: number;
  method: EventPaymentMethod;
  paypalOrderId: string | null;
  paypalCaptureId: string | null;
  /** The credit or gift card lot that paid, and the client whose credit it was. */
  lotId: string | null;
  userId: string | null;
  /** Her day the money came in (YYYY-MM-DD). */
  paidOn: string;
  /** 'due': a refund is owed and the refund runner will make it; 'done': given back. */
  refund: 'due' | 'done' | null;
  refundReason: 'cancelled-in-time' | 'event-cancelled' | 'removed' | null;
  refundedOn: string | null;
  createdAt: CreatedAt;
}

/** A full class's waitlist, first in line = lowest seq (issue 15). */
export interface ClassWaitlistTable {
  id: Generated<string>;
  seq: Generated<string>;
  eventId: string;
  name: string;
  /** Lower-cased; one entry per (eventId, email). */
  email: string;
  phone: Generated<string>;
  waiverAccepted: Generated<boolean>;
  signaturePng: Uint8Array | null;
  createdAt: CreatedAt;
  /** The waiver revision accepted (page_revisions of 'waiver'), and a SHA-256 of its text; null before issue 19. */
  waiverRevision: number | null;
  waiverHash: string | null;
}

export interface SubscribersTable {
  id: Generated<string>;
  /** Lower-cased; unique. */
  email: string;
  subscribedAt: CreatedAt;
}

export interface ImagesTable {
  id: Generated<string>;
  contentType: string;
  /** The largest size (WebP, at most 2560 px on the long side); older uploads: as uploaded. */
  bytes: Uint8Array;
  /** Size of `bytes` and a tiny blurred data: URI; null for uploads from before 0007. */
  width: number | null;
  height: number | null;
  placeholder: string | null;
  /** Her focal point for the landscape cut, as fractions of width and height (0018); null: not set. */
  focusX: number | null;
  focusY: number | null;
  createdAt: CreatedAt;
}

/** A smaller width of an image in one format, made once at upload. */
export interface ImageVariantsTable {
  imageId: string;
  format: 'avif' | 'webp';
  width: number;
  height: number;
  bytes: Uint8Array;
  /** '' for the whole photo; the landscape cut's key (`c50-30`, `ca`) for its sizes (0018). */
  crop: Generated<string>;
}

/** A photo of the /yoga or /chocolates slideshow. */
export interface GalleryPhotosTable {
  id: Generated<string>;
  gallery: 'yoga' | 'chocolates';
  imageId: string;
  alt: string;
  position: number;
  createdAt: CreatedAt;
}

export interface ProductsTable {
  id: Generated<string>;
  name: string;
  /** A URL: an uploaded image (/api/images/{id}), a site asset or an outside address. */
  image: Generated<string>;
  description: Generated<string>;
  details: Generated<string>;
  /** Price of one tin in cents. */
  priceCents: number;
  /** Tins in stock; 0 means sold out. Never negative (check constraint). */
  inventory: Generated<number>;
  /** Label facts (0043, issue 48): ingredients in order of weight, '' until written. */
  ingredients: Generated<string>;
  /** The major allergens it contains, lower case and by kind (contract/food.ts); null until she says. */
  allergens: string[] | null;
  /** She said it has none of them (allergens is then []). */
  allergenFree: Generated<boolean>;
  netWeightGrams: number | null;
  dietTags: Generated<string[]>;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
}

export interface CouponsTable {
  /** Upper-cased. */
  code: string;
  percentOff: number;
  active: Generated<boolean>;
  createdAt: CreatedAt;
}

export interface OrdersTable {
  id: Generated<string>;
  /** Unique: a replayed capture can never make a second order. Null for an order a gift card paid in full (0028). */
  paypalOrderId: string | null;
  paypalCaptureId: string | null;
  payerName: Generated<string>;
  payerEmail: Generated<string>;
  itemsTotalCents: number;
  discountCents: Generated<number>;
  shippingCents: Generated<number>;
  totalCents: number;
  couponCode: string | null;
  isLocalPickup: Generated<boolean>;
  /** The recipient and postal lines (newline-separated) PayPal reported; null for pickup. */
  shipToName: string | null;
  shipToAddress: string | null;
  /**
   * 'payment_pending' while PayPal holds the capture (ship nothing yet); then 'paid', or
   * 'payment_failed' when PayPal denies it (the tins went back to stock).
   */
  /** ready_for_pickup (0021): a pickup order packed, its buyer told where and when. */
  status: Generated<'payment_pending' | 'payment_failed' | 'paid' | 'ready_for_pickup' | 'shipped' | 'picked_up' | 'refunded'>;
  createdAt: CreatedAt;
  /** What the teacher typed when she marked it shipped (0013); null until then. */
  trackingNumber: string | null;
  carrier: string | null;
  /** What the buyer was last mailed about its delivery (status and tracking), and when (0013). */
  buyerTold: string | null;
  buyerToldAt: Timestamp | null;
  /** The sales tax charged (0017): cents, the rate in parts per million, the destination state (null for pickup), shipping taxed. */
  taxCents: Generated<number>;
  taxRatePpm: Generated<number>;
  taxState: string | null;
  taxOnShipping: Generated<boolean>;
  /** The place the rate is of (0019, issue 29): its ZIP, the state's location code, the jurisdiction; where the rate came from (null: no tax collected). */
  taxZip: string | null;
  taxLocationCode: string | null;
  taxJurisdiction: string | null;
  taxRateSource: 'service' | 'table' | 'fallback' | null;
  /** What a gift card paid of totalCents, and which card's lot (0028); PayPal captured the rest. */
  giftCardCents: Generated<number>;
  giftCardLotId: Generated<string | null>;
  /** When she marked it shipped or picked up (0045): the sales records' date shipped; null before, or once moved back. */
  deliveredAt: Timestamp | null;
}

export interface OrderItemsTable {
  id: Generated<string>;
  orderId: string;
  productId: string | null;
  /** Name and price as sold, kept even if the product changes later. */
  name: string;
  unitPriceCents: number;
  quantity: number;
}

export interface SlotsTable {
  id: Generated<string>;
  date: string;
  time: string;
  startsAt: Timestamp;
  /** Null while the slot is free. */
  bookedBy: string | null;
  bookedAt: Timestamp | null;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  sessionType: string | null;
  message: string | null;
  duration: Generated<string>;
  link: string | null;
  amountCents: number | null;
  couponUsed: Generated<boolean>;
  paypalOrderId: string | null;
  /** When the day-before reminder went out (claimed atomically; null until then). */
  reminderDaySentAt: Timestamp | null;
  /** When the two-hours-before reminder went out. */
  reminderSoonSentAt: Timestamp | null;
  /** The booking's calendar UID once it changed (0009); null: derived from id and bookedAt. */
  calendarUid: string | null;
  /** Revisions of the booking's calendar entry sent so far (0 = the confirmation). */
  calendarSequence: Generated<number>;
  createdAt: CreatedAt;
  /** Where the session happens: an address or an online link; '' for none (0013). */
  place: Generated<string>;
  /** The credit lot the session was booked with (0023); null when paid or free. */
  creditLotId: string | null;
  /** The weekly series it was booked in (0026); null for a single booking. */
  seriesId: string | null;
  /** Given online (0032): booking it makes its video link (in `link`). */
  online: Generated<boolean>;
}

/** A time she is not to be booked (0032, issue 35): typed by her, or read from her Google Calendar. */
export interface BusyTimesTable {
  id: Generated<string>;
  startsAt: Timestamp;
  endsAt: Timestamp;
  title: Generated<string>;
  source: 'manual' | 'google';
  /** The Google calendar it was read from; null for hers typed by hand. */
  calendarId: string | null;
  createdAt: CreatedAt;
}

/** One of her Google calendars as listed at the last connect or save (0033). */
export interface CalendarListEntry {
  id: string;
  summary: string;
  primary: boolean;
  accessRole: string;
}

/** A Google push channel on one of her busy calendars (0033). */
export interface WatchChannelRow {
  calendarId: string;
  id: string;
  resourceId: string;
  /** ISO instant. */
  expiresAt: string;
}

/** Her Google Calendar connection (0033, issue 35): one row, id 'google'. */
export interface CalendarConnectionsTable {
  id: Generated<string>;
  accountEmail: string;
  /** Her refresh token, sealed (api/practice/keys.ts); never read but to call Google. */
  refreshTokenSealed: string;
  keyId: string;
  calendars: ColumnType<CalendarListEntry[], string | undefined, string>;
  busyCalendarIds: ColumnType<string[], string | undefined, string>;
  writeCalendarId: string | null;
  channelToken: string;
  watchChannels: ColumnType<WatchChannelRow[], string | undefined, string>;
  /** The last refresh that succeeded. */
  fetchedAt: Timestamp | null;
  lastError: string | null;
  errorSince: Timestamp | null;
  connectedAt: CreatedAt;
  updatedAt: Timestamp;
}

/** A free 30-minute online meeting a visitor booked from the home page (0034, issue 35). */
export interface FreeMeetingsTable {
  id: Generated<string>;
  startsAt: Timestamp;
  minutes: Generated<number>;
  name: string;
  email: string;
  phone: Generated<string>;
  sessionType: Generated<string>;
  message: Generated<string>;
  /** Her meeting room at the booking; null: the link will follow. */
  link: string | null;
  /** Freed by the visitor's cancel link; null while it stands. */
  cancelledAt: Timestamp | null;
  createdAt: CreatedAt;
}

/** The calendar event as the site writes it (calendar_mirror.want). */
export interface MirroredEvent {
  summary: string;
  description: string;
  location: string;
  start: string;
  end: string;
  /** Ask Google for a Meet link with it (an online session while she is connected). */
  meet: boolean;
}

/** One thing of hers written to her Google Calendar, a durable queue of writes (0035, issue 35). */
export interface CalendarMirrorTable {
  calendarId: string;
  key: string;
  eventId: string;
  startsAt: Timestamp;
  /** The event as it should be (or, with wantHash null, as it last was). */
  want: ColumnType<MirroredEvent | null, string | null, string | null>;
  /** null: it should not be in her calendar. */
  wantHash: string | null;
  /** What Google holds since our last write that answered; null: nothing. */
  writtenHash: string | null;
  meetLink: string | null;
  heldUntil: Timestamp | null;
  claimedBy: string | null;
  claimedAt: Timestamp | null;
  attempts: Generated<number>;
  nextAttemptAt: Timestamp;
  lastError: string | null;
  updatedAt: Timestamp;
  /** The event was of an erased person (0040): renamed to a neutral title, then taken out. */
  erased: Generated<boolean>;
}

/** A session its client cancelled, and what became of its payment (0009, decision 0016). */
export interface BookingCancellationsTable {
  id: Generated<string>;
  slotId: string;
  userId: string | null;
  startsAt: Timestamp;
  sessionType: string;
  firstName: string;
  lastName: string;
  email: string;
  amountCents: number | null;
  couponUsed: boolean;
  paypalOrderId: string | null;
  paypalCaptureId: string | null;
  refundState: 'none' | 'pending' | 'refunded' | 'failed';
  refundId: string | null;
  refundNote: string | null;
  /** Who cancelled: the client online, or the teacher by deleting the booked slot (issue 21). */
  cancelledBy: Generated<'client' | 'teacher'>;
  /** When the session was booked (and paid): the books count its money in that month (0022, decision 0031); null before 0022 without a payment attempt. */
  bookedAt: Timestamp | null;
  createdAt: CreatedAt;
  updatedAt: Generated<Date>;
}

/** What a chocolate order costs and how it comes, in cents: as priced, stored on the order. */
export interface OrderMoney {
  itemsTotalCents: number;
  discountCents: number;
  shippingCents: number;
  totalCents: number;
  couponCode: string | null;
  isLocalPickup: boolean;
  /** The sales tax (issue 24); absent in attempts recorded before it: none. */
  taxCents?: number;
  taxRatePpm?: number;
  taxState?: string | null;
  taxOnShipping?: boolean;
  /** Where the rate is of and came from (issue 29); absent in attempts recorded before it. */
  taxZip?: string | null;
  taxLocationCode?: string | null;
  taxJurisdiction?: string | null;
  taxRateSource?: 'service' | 'table' | 'fallback' | null;
}

/** What an order's payment attempt pays for: the cart as priced when the tins were claimed. */
export interface OrderAttemptDetails extends OrderMoney {
  lines: { productId: string; name: string; unitPriceCents: number; quantity: number }[];
  /** Stand-ins the buyer's browser sent, used only when PayPal reports no payer. */
  payerName: string;
  payerEmail: string;
  /** The gift card that pays part (issue 33), debited with the claim; PayPal is owed totalCents less it. */
  giftCardLotId?: string | null;
  giftCardCents?: number;
}

/** What a booking's payment attempt pays for: the slot claim (also written on the slot). */
export interface BookingAttemptDetails {
  firstName: string;
  lastName: string;
  email: string;
  sessionType: string;
  message: string;
}

/** What a package's payment attempt pays for (issue 32): the package's terms as offered, and her day of the sale. */
export interface PackageAttemptDetails {
  packageId: string;
  name: string;
  sessionTypes: string[];
  sessions: number;
  monthsValid: number;
  /** Her day the money came in (the claim's day, from the clock): the credits last from it. */
  paidOn: string;
}

/** What a gift card bought through PayPal will be (issue 33): the card is made when the capture completes. */
export interface GiftCardAttemptDetails {
  design: GiftCardDesign;
  buyerName: string;
  buyerEmail: string;
  recipientName: string;
  recipientEmail: string;
  message: string;
  sendOn: string;
  /** Her day the money came in. */
  paidOn: string;
}

/** A class place paid through PayPal (issue 34): the held sign-up it pays for, completed when captured. */
export interface EventAttemptDetails {
  signupId: string;
  eventId: string;
  name: string;
  email: string;
  phone: string;
  /** Her day the money came in. */
  paidOn: string;
}

/** A tasting's deposit or balance paid through PayPal (issue 34). */
export interface TastingAttemptDetails {
  quoteId: string;
  part: 'deposit' | 'balance';
  /** Her day the money came in. */
  paidOn: string;
}

export type PaymentAttemptState = 'claimed' | 'capturing' | 'completed' | 'released';
export type PaymentSettler = 'checkout' | 'retry' | 'reconciler' | 'webhook';

/** A PayPal payment from the claim to its outcome: db/migrations/0005_payment_attempts.ts, docs/decisions/0012. */
export interface PaymentAttemptsTable {
  id: Generated<string>;
  kind: 'order' | 'booking' | 'package' | 'gift_card' | 'event' | 'tasting';
  /** Unique: one attempt per PayPal order. */
  paypalOrderId: string;
  /** The PayPal-Request-Id every capture of this attempt is sent with. */
  paypalRequestId: string;
  amountCents: number;
  currency: string;
  slotId: string | null;
  userId: string | null;
  details: ColumnType<
    OrderAttemptDetails | BookingAttemptDetails | PackageAttemptDetails | GiftCardAttemptDetails | EventAttemptDetails | TastingAttemptDetails,
    string,
    string
  >;
  state: Generated<PaymentAttemptState>;
  /** The server process that may release it, since claimedAt. */
  claimedBy: string;
  claimedAt: Timestamp;
  settledBy: PaymentSettler | null;
  outcome: string | null;
  orderId: string | null;
  paypalCaptureId: string | null;
  payerFirstName: string | null;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
}

export type SessionType = 'private yoga' | 'group yoga' | 'yoga therapy' | 'chocolates';

export interface BookingRequestsTable {
  id: Generated<string>;
  name: string;
  email: string;
  phone: string;
  sessionType: SessionType;
  message: Generated<string>;
  createdAt: CreatedAt;
}

export interface ContactMessagesTable {
  id: Generated<string>;
  name: string;
  email: string;
  message: string;
  createdAt: CreatedAt;
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  /** Base64. */
  content: string;
}

export interface MailsTable {
  id: Generated<string>;
  to: string;
  subject: string;
  text: Generated<string>;
  html: Generated<string>;
  headers: ColumnType<Record<string, string>, string | undefined, string>;
  attachments: ColumnType<MailAttachment[], string | undefined, string>;
  /** The Idempotency-Key it was sent with: the mailbox stores a key once, as Resend sends it once. */
  idempotencyKey: string | null;
  sentAt: CreatedAt;
}

/** Where a mail stands in the outbox (db/migrations/0015_mail_outbox.ts, decision 0024). */
export type MailOutboxState = 'pending' | 'sending' | 'sent' | 'failed' | 'skipped';

/** A mail written in the transaction of the change it reports, delivered at least once after the commit. */
export interface MailOutboxTable {
  /** Also the Idempotency-Key it is sent with, on every try. */
  id: Generated<string>;
  kind: string;
  to: string;
  /** The mailbox behind `to` (canonicalMailbox): what a suppression is matched on. */
  canonicalTo: string;
  /** The mailbox of the person the mail is about (its recipient, or the client a mail to the teacher names): what an erasure is matched on (0020). */
  about: string;
  /** The account that held `about` when it was queued, if any (0020). */
  accountId: string | null;
  /** The canonical mailboxes of the others the mail names (0040): an erasure reaches it by them. */
  names: ColumnType<string[], string | undefined, string>;
  /** Empty while sealed; once sent, the subject alone, kept clear (it carries no secret; 0039). */
  subject: string;
  /** Empty: the words are sealed (`sealed`), and dropped once sent; a legacy row's until 0039. */
  text: string;
  html: Generated<string>;
  headers: ColumnType<Record<string, string>, string | undefined, string>;
  attachments: ColumnType<MailAttachment[], string | undefined, string>;
  state: Generated<MailOutboxState>;
  attempts: Generated<number>;
  nextAttemptAt: Timestamp;
  claimedBy: string | null;
  claimedAt: Timestamp | null;
  lastError: string | null;
  createdAt: CreatedAt;
  sentAt: Timestamp | null;
  /** The key that sealed `sealed` (0039); null: a clear legacy row, or a sent one whose words were dropped. */
  keyId: string | null;
  /** The mail's words (subject, text, html, headers, attachments), sealed with the row's id (api/mail/sealed-mail.ts); dropped once sent. */
  sealed: string | null;
}

/** An address Resend reported as bounced or complained: later mails to it are skipped. */
export interface MailSuppressionsTable {
  email: string;
  reason: 'bounced' | 'complained';
  detail: string | null;
  createdAt: CreatedAt;
}

/** A newsletter the admin writes, then sends through the outbox (db/migrations/0011_back_office.ts, decision 0018). */
export interface NewslettersTable {
  id: Generated<string>;
  subject: string;
  bodyMarkdown: string;
  status: Generated<'draft' | 'sending' | 'sent'>;
  totalCount: Generated<number>;
  sentCount: Generated<number>;
  skippedCount: Generated<number>;
  failedCount: Generated<number>;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
  sendStartedAt: Timestamp | null;
  sentAt: Timestamp | null;
  /** The postal address every copy carries (0045, CAN-SPAM), fixed when its send starts; null for one sent before. */
  postalAddress: string | null;
}

/** A food sale she recorded by hand (0045, decision 0059): a market, a fair, a box handed over; no buyer. */
export interface FoodSalesTable {
  id: Generated<string>;
  /** Her day, YYYY-MM-DD in SITE_TIMEZONE. */
  soldOn: string;
  food: string;
  quantity: number;
  amountCents: number;
  /** Where it was sold: the event's address and organizer's contact, or the outlet. */
  place: string;
  createdAt: CreatedAt;
}

export type OutboxState = 'pending' | 'sending' | 'sent' | 'skipped' | 'failed';

/** One recipient of one newsletter; claimed by the sender (api/backoffice/newsletter-sender.ts). */
export interface NewsletterOutboxTable {
  newsletterId: string;
  email: string;
  state: Generated<OutboxState>;
  /** When a sender claimed it; a 'sending' row older than the stale window is claimed again. */
  claimedAt: Timestamp | null;
  attempts: Generated<number>;
  sentAt: Timestamp | null;
  error: string | null;
}

/** The one site-wide announcement (id 1). */
export interface AnnouncementsTable {
  id: number;
  message: string;
  link: string | null;
  startsAt: Timestamp | null;
  endsAt: Timestamp | null;
  updatedAt: Timestamp;
}

/** A page's content: the site's own (slug = its YAML file's name) or one of hers (issue 19). */
export interface PagesTable {
  /** A page's slug; a journal post's is `post/<id>` (0014). */
  slug: string;
  kind: 'builtin' | 'custom' | 'post';
  /** What the editor saved last: JSON text shaped like the page's YAML. */
  draft: string;
  /** Bumped on every save; a save naming an older one is refused. */
  draftVersion: Generated<number>;
  /** What the public sees (JSON text); null while not published. */
  published: string | null;
  publishedRevision: number | null;
  publishedAt: Timestamp | null;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
  /** A post scheduled to publish itself at this instant (0014); null otherwise. */
  publishAt: Timestamp | null;
  /** A post's date: its first publish, kept through an unpublish (0014). */
  firstPublishedAt: Timestamp | null;
  /** The newsletter made of a post, and when it was sent (0014). */
  newsletterId: string | null;
  newsletterSentAt: Timestamp | null;
}

/** Every publish of a page, kept unchanged. */
export interface PageRevisionsTable {
  slug: string;
  n: number;
  /** JSON text. */
  content: string;
  /** JSON text: dotted paths of the fields that changed against the revision before. */
  changed: string;
  restoredFrom: number | null;
  /** SHA-256 of the revision's visible text (the waiver's sign-ups keep it). */
  textHash: string;
  publishedAt: Timestamp;
}

export interface PageRedirectsTable {
  fromSlug: string;
  toSlug: string;
  createdAt: CreatedAt;
}

/** Public HTML (and the sitemap) made ahead of the request, per build. */
export interface RenderedPagesTable {
  buildId: string;
  path: string;
  status: Generated<number>;
  contentType: string;
  body: string;
  etag: string;
  /** From the render_generation sequence: newer renders have larger numbers. */
  generation: string;
  renderedAt: Timestamp;
}

/** One of her settings (0013): the value is JSON text, read through contract/settings.ts. */
export interface SettingsTable {
  key: string;
  value: string;
  updatedAt: Generated<Date>;
}

export type BookingOrderResolution = 'finalized-by-client' | 'finalized-by-server' | 'released' | 'lapsed';

/** A PayPal order the server made for a booking (0013), until it is finalized, released or lapses. */
export interface BookingOrdersTable {
  paypalOrderId: string;
  slotId: string;
  userId: string | null;
  amountCents: number;
  sessionType: string;
  createdAt: CreatedAt;
  claimedBy: string | null;
  claimedAt: Timestamp | null;
  resolvedAt: Timestamp | null;
  resolution: BookingOrderResolution | null;
  note: string | null;
}

/** A version of her intake form (0016): the questions as JSON text (contract/practice.ts). */
export interface IntakeFormsTable {
  version: number;
  questions: string;
  createdAt: CreatedAt;
}

/** A client's answers to one version (0016), sealed by api/practice/keys.ts: never plain text here. */
export interface IntakeAnswersTable {
  id: string;
  userId: string;
  formVersion: number;
  keyId: string;
  sealed: string;
  /** 0044: the consent to collect was given with these answers (false: saved before the site asked it). */
  collectConsent: Generated<boolean>;
  /** 0044: the consent to share (her supervisor may hear of the case); false unless ticked. */
  shareConsent: Generated<boolean>;
  createdAt: CreatedAt;
}

/** One saved version of her notes of a booked session (0016), sealed like the answers. */
export interface SessionNotesTable {
  id: string;
  slotId: string;
  userId: string;
  keyId: string;
  sealed: string;
  createdAt: CreatedAt;
}

/** A read of a client's private records (0016). */
export interface PrivateAccessLogTable {
  id: Generated<string>;
  userId: string;
  actor: 'admin' | 'client';
  adminId: string | null;
  what: string;
  createdAt: CreatedAt;
}

/** One sealed canary per key (0016): the server checks at start that its key opens it. */
export interface PrivateRecordKeysTable {
  keyId: string;
  sealed: string;
  createdAt: CreatedAt;
}

/** A state's sales tax rate from a day on (0017, issue 24): parts per million of the taxable amount. */
export interface TaxRatesTable {
  id: Generated<string>;
  state: string;
  stateName: string;
  ratePpm: number;
  shippingTaxable: Generated<boolean>;
  /** YYYY-MM-DD in SITE_TIMEZONE. */
  startsOn: string;
  updatedAt: Generated<Date>;
}

/** Her imported copy of a state's published rate table (0019, issue 29): per 5-digit ZIP. */
export interface TaxZipRatesTable {
  state: string;
  zip: string;
  ratePpm: number;
  locationCode: string;
  jurisdiction: string;
  importedAt: Generated<Date>;
}

/** The rate service's answers per state and ZIP (0019): the cache every replica shares. */
export interface TaxRateLookupsTable {
  state: string;
  zip: string;
  ratePpm: number | null;
  locationCode: string | null;
  jurisdiction: string | null;
  /** When the service last answered a rate; null: never. */
  lookedUpAt: Timestamp | null;
  /** When the service last failed (or did not know the ZIP); null: not since it answered. */
  failedAt: Timestamp | null;
  /** How many times the service was asked for this ZIP (a test's witness, and hers). */
  asked: Generated<number>;
}

/** Where she teaches (0017): the round trip from home in tenths of a mile. */
export interface LocationsTable {
  id: Generated<string>;
  name: string;
  roundTripTenthMiles: Generated<number>;
  createdAt: CreatedAt;
  /** Travel time kept free before and after anything at this place (0032); 0: none. */
  bufferMinutes: Generated<number>;
}

/** One class she teaches elsewhere (0017); a recurring gig's entries share seriesId. */
export interface GigsTable {
  id: Generated<string>;
  seriesId: string | null;
  /** YYYY-MM-DD and HH:mm in SITE_TIMEZONE. */
  date: string;
  time: string;
  className: string;
  locationId: string;
  rateCents: number;
  frequency: 'perClass' | 'weekly' | 'biweekly' | 'monthly';
  repeatUntil: string | null;
  paymentMethod: 'cash' | 'check' | 'venmo' | 'paypal' | 'zelle' | 'card';
  requestSent: Generated<boolean>;
  paid: Generated<boolean>;
  /** YYYY-MM-DD: the day the money came in; null while unpaid. */
  paidOn: string | null;
  taxed: Generated<boolean>;
  cancelled: Generated<boolean>;
  /** The entry adds its location's round trip to her mileage. */
  drove: Generated<boolean>;
  createdAt: CreatedAt;
  updatedAt: Generated<Date>;
  /** How long the gig takes her (0032, issue 35); 60 unless she says. */
  minutes: Generated<number>;
}

/** Miles driven for work besides the gigs (0017), in tenths of a mile. */
export interface TripsTable {
  id: Generated<string>;
  date: string;
  purpose: string;
  tenthMiles: number;
  createdAt: CreatedAt;
}

/** The standard mileage rate of a year (0017), in tenths of a cent a mile, with its name. */
export interface MileageRatesTable {
  year: number;
  rateTenthCents: number;
  name: string;
  updatedAt: Generated<Date>;
}

/** What she sells (0023, issue 32): sessions of some types, on her sliding scale, valid some months. */
export interface PackagesTable {
  id: Generated<string>;
  name: string;
  /** The SPEC's session type names it covers. */
  sessionTypes: ColumnType<string[], string, string>;
  sessions: number;
  minPriceCents: number;
  suggestedPriceCents: number;
  maxPriceCents: number;
  monthsValid: number;
  active: Generated<boolean>;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
}

export type LotMethod = 'paypal' | 'cash' | 'check' | 'venmo' | 'zelle' | 'card' | 'free' | 'adjustment' | 'gift_card';
export type LedgerReason = 'bought' | 'used' | 'returned' | 'forfeited' | 'expired' | 'refunded' | 'adjusted';

/** One purchase or grant a client holds (0023): its terms copied at the sale, its money. */
export interface CreditLotsTable {
  id: Generated<string>;
  userId: string | null;
  packageId: string | null;
  name: string;
  unit: Generated<'session' | 'cents'>;
  sessionTypes: ColumnType<string[], string, string>;
  /** What was granted: sessions (or cents). */
  quantity: number;
  priceCents: Generated<number>;
  method: LotMethod;
  /** YYYY-MM-DD, her day. */
  paidOn: string;
  /** YYYY-MM-DD, the last day it can be used; null: never lapses. */
  expiresOn: string | null;
  paypalOrderId: string | null;
  createdBy: 'client' | 'admin';
  expiryRemindedAt: Timestamp | null;
  createdAt: CreatedAt;
}

/** Every change of a lot (0023), append-only: a balance is the sum of these rows. */
export interface LedgerEntriesTable {
  id: Generated<string>;
  userId: string | null;
  lotId: string;
  change: number;
  reason: LedgerReason;
  slotId: string | null;
  /** The order a gift card paid for (0027). */
  orderId: Generated<string | null>;
  /** The payment attempt a card's debit waits on while PayPal takes the rest (0028). */
  attemptId: Generated<string | null>;
  /** The class place a credit or a gift card paid (0030). */
  signupId: Generated<string | null>;
  note: Generated<string>;
  createdBy: 'client' | 'admin' | 'system';
  createdAt: CreatedAt;
}

/** A gift card (0027, decision 0041): its money is its lot's ledger; the code only as a hash. */
export interface GiftCardsTable {
  id: Generated<string>;
  lotId: string;
  /** SHA-256 (hex) of the code's 16 characters, as api/gift-cards/codes.ts normalises them. */
  codeHash: string;
  /** What the teacher and the buyer see of the code. */
  codeLast4: string;
  design: GiftCardDesign;
  buyerName: string;
  /** Null for a card she issued herself. */
  buyerEmail: string | null;
  recipientName: string;
  recipientEmail: string;
  message: Generated<string>;
  /** Her day the recipient's mail leaves (YYYY-MM-DD). */
  sendOn: string;
  deliveredAt: Timestamp | null;
  voidedAt: Timestamp | null;
  createdBy: 'buyer' | 'admin';
  createdAt: CreatedAt;
}

export type GiftCardDesign = 'yoga' | 'chocolates';

/** A private tasting asked for on /chocolates (0031, issue 34). */
export interface TastingRequestsTable {
  id: Generated<string>;
  name: string;
  /** Lower-cased, as the form's schema makes it. */
  email: string;
  phone: string;
  occasion: string;
  guests: number;
  /** Two or three possible days, her days (YYYY-MM-DD), in the order the visitor gave them. */
  dates: ColumnType<string[], string, string>;
  place: string;
  createdAt: CreatedAt;
}

/** Her quote for a request (one per request, changed in place until the deposit is paid). */
export interface TastingQuotesTable {
  id: Generated<string>;
  requestId: string;
  priceCents: number;
  depositCents: number;
  /** YYYY-MM-DD and HH:mm in SITE_TIMEZONE. */
  date: string;
  time: string;
  place: string;
  /** The deposit came in: the day is held in her agenda by `eventId` (a private event). */
  depositPaidAt: Timestamp | null;
  eventId: string | null;
  /** Called off (0040: its client was erased); its payments owed back by her policy. */
  cancelledAt: Timestamp | null;
  createdAt: CreatedAt;
  updatedAt: Generated<Date>;
}

/** A tasting's deposit or balance: through PayPal or by her hand; one of each per quote. */
export interface TastingPaymentsTable {
  id: Generated<string>;
  quoteId: string;
  part: 'deposit' | 'balance';
  amountCents: number;
  method: 'paypal' | 'cash' | 'check';
  paypalOrderId: string | null;
  paypalCaptureId: string | null;
  /** Her day the money came in (YYYY-MM-DD). */
  paidOn: string;
  /** Given back (0040): owed through PayPal ('due'), then 'refunded'; null: kept. */
  refund: 'due' | 'refunded' | null;
  createdAt: CreatedAt;
}

/**
 * A refund made after its commit, owed until PayPal answers (0042, issue 47): written with the
 * ledger's change, tried after the commit and by the refund runner with a growing wait.
 */
export interface RefundsOwedTable {
  id: Generated<string>;
  kind: RefundOwedKind;
  /** The lot or the card refunded; one row each. */
  subjectId: string;
  /** What it was for, in her words ("Eight weeks of yoga therapy"). */
  what: string;
  userId: string | null;
  paypalOrderId: string | null;
  paypalCaptureId: string | null;
  amountCents: number;
  state: Generated<'owed' | 'done'>;
  attempts: Generated<number>;
  nextTryAt: Timestamp;
  lastError: string | null;
  /** When she was mailed of its first failure (once). */
  toldAt: Timestamp | null;
  doneAt: Timestamp | null;
  createdAt: CreatedAt;
}

export type RefundOwedKind = 'package' | 'gift_card';

export interface Database {
  users: UsersTable;
  userSessions: UserSessionsTable;
  loginTokens: LoginTokensTable;
  admins: AdminsTable;
  adminSessions: AdminSessionsTable;
  events: EventsTable;
  classSignups: ClassSignupsTable;
  eventPayments: EventPaymentsTable;
  classWaitlist: ClassWaitlistTable;
  subscribers: SubscribersTable;
  images: ImagesTable;
  imageVariants: ImageVariantsTable;
  galleryPhotos: GalleryPhotosTable;
  products: ProductsTable;
  coupons: CouponsTable;
  orders: OrdersTable;
  orderItems: OrderItemsTable;
  slots: SlotsTable;
  bookingCancellations: BookingCancellationsTable;
  paymentAttempts: PaymentAttemptsTable;
  bookingRequests: BookingRequestsTable;
  contactMessages: ContactMessagesTable;
  mails: MailsTable;
  newsletters: NewslettersTable;
  newsletterOutbox: NewsletterOutboxTable;
  announcements: AnnouncementsTable;
  pages: PagesTable;
  pageRevisions: PageRevisionsTable;
  pageRedirects: PageRedirectsTable;
  renderedPages: RenderedPagesTable;
  settings: SettingsTable;
  bookingOrders: BookingOrdersTable;
  taxRates: TaxRatesTable;
  taxZipRates: TaxZipRatesTable;
  taxRateLookups: TaxRateLookupsTable;
  locations: LocationsTable;
  busyTimes: BusyTimesTable;
  calendarConnections: CalendarConnectionsTable;
  freeMeetings: FreeMeetingsTable;
  calendarMirror: CalendarMirrorTable;
  gigs: GigsTable;
  foodSales: FoodSalesTable;
  trips: TripsTable;
  mileageRates: MileageRatesTable;
  intakeForms: IntakeFormsTable;
  intakeAnswers: IntakeAnswersTable;
  sessionNotes: SessionNotesTable;
  privateAccessLog: PrivateAccessLogTable;
  privateRecordKeys: PrivateRecordKeysTable;
  mailOutbox: MailOutboxTable;
  mailSuppressions: MailSuppressionsTable;
  packages: PackagesTable;
  creditLots: CreditLotsTable;
  ledgerEntries: LedgerEntriesTable;
  giftCards: GiftCardsTable;
  tastingRequests: TastingRequestsTable;
  tastingQuotes: TastingQuotesTable;
  tastingPayments: TastingPaymentsTable;
  refundsOwed: RefundsOwedTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Event = Selectable<EventsTable>;
export type Product = Selectable<ProductsTable>;
export type Slot = Selectable<SlotsTable>;
export type Mail = Selectable<MailsTable>;
