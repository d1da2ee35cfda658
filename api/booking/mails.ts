/**
 * The booking's mails: a booked session's confirmation (with its .ics) and the teacher's
 * notification, the notice of a session the teacher cancelled (with the .ics that removes it),
 * the reminders, a changed place, and an approved payment the client never finalized (issue 20).
 * Every value goes to renderMail as text, which escapes it; the session's place is linked when it
 * is a web address (she set it, not a visitor). Each is signed with her yoga brand (`brand`,
 * api/site/brand.ts).
 */
import type { Env } from '../env.ts';
import type { OutgoingMail } from '../services/mail/index.ts';
import { buildIcs, icsOrganizer } from '../mail/ics.ts';
import { classWhen, greeting, icsAttachment, mail, money, oneLine, siteFooter } from '../mail/layout.ts';
import { placeLink } from '../../contract/slots.ts';
import { hoursInWords } from '../../contract/settings.ts';
import { ONLINE_LINK_TO_FOLLOW } from '../../contract/free-meetings.ts';

const footer = siteFooter;

export interface BookedSession {
  slotId: string;
  /** The instant the session starts. */
  startsAt: Date;
  /** When it was booked: with the slot id, it makes the calendar entry's UID. */
  bookedAt: Date;
  duration: string;
  sessionType: string;
  firstName: string;
  lastName: string;
  email: string;
  message: string;
  userId: string;
  /** Paid amount in cents; null with the coupon. */
  amountCents: number | null;
  couponUsed: boolean;
  paypalOrderId: string | null;
  /** Where the session happens (an address or an online link); '' for none. */
  place: string;
  /** Given online (issue 35): `link` is its way in (null: it will follow), `place` is not shown. */
  online?: boolean;
  link?: string | null;
  /**
   * The client approved the payment and never pressed Finalize Booking (the tab closed): the
   * server finalized it (api/booking/unfinalized.ts), and both mails say so.
   */
  finalizedByServer?: boolean;
  /** What a gift card paid for the session (issue 33), named in both mails; `amountCents` is then PayPal's part, if any. */
  giftCardCents?: number;
}

const minutesOf = (duration: string) => {
  const m = /(\d+)/.exec(duration);
  const n = m ? Number(m[1]) : 60;
  return n > 0 && n <= 600 ? n : 60;
};

/**
 * The calendar entry's UID of one booking, shared by its confirmation and its cancellation so
 * the calendar matches them. Stable for this booking: the same slot booked again later is
 * another booking.
 */
export const bookingUid = (env: Pick<Env, 'SITE_URL'>, slotId: string, bookedAt: Date) =>
  `booking-${slotId}-${bookedAt.getTime()}@${new URL(env.SITE_URL).host}`;

const sessionDetails = (sessionType: string, when: { date: string; time: string }, duration: string, place = '') =>
  `Session: ${sessionType}\nDate: ${when.date}\nTime: ${when.time}\nDuration: ${duration}${place ? `\nPlace: ${place}` : ''}`;

/** The place's link (when it is a web address), for MailContent.links. */
const placeLinks = (place: string | undefined) => {
  const link = placeLink(place ?? '');
  return link ? [link] : [];
};

/** Where a session happens, as its mails read it: online (issue 35) its link is the way in and its place is not shown. */
interface Where {
  place: string | undefined;
  online?: boolean;
  link?: string | null;
}

/** The place a mail's details name: 'Online' for an online session. */
const shownPlace = (w: Where) => (w.online ? 'Online' : (w.place ?? ''));

/** An online session's line: its link, or that the link will follow (her room not set yet). */
const joinLines = (w: Where) => (w.online ? [w.link ? `Join here: ${w.link}` : ONLINE_LINK_TO_FOLLOW] : []);

/** The links a mail makes clickable: an online session's link, else the place's when it is a web address. */
const whereLinks = (w: Where) => (w.online ? (w.link ? [w.link] : []) : placeLinks(w.place));

/**
 * A session's calendar entry's place: LOCATION always (an address, or the link itself, which
 * calendars show and most make clickable), and for an online link URL too; without one, the
 * client's bookings page is the URL. An online session (issue 35) is at 'Online', its link the URL.
 */
const icsPlace = (env: Env, w: Where, userId: string) => {
  if (w.online) {
    return { location: 'Online', url: w.link ?? `${env.SITE_URL}/user/${userId}`, description: w.link ? `Join here: ${w.link}` : ONLINE_LINK_TO_FOLLOW };
  }
  const place = w.place;
  const link = placeLink(place ?? '');
  return {
    ...(place ? { location: place } : {}),
    url: link ?? `${env.SITE_URL}/user/${userId}`,
    description: link
      ? `Your one-to-one session, online: ${link}`
      : place
        ? `Your one-to-one session at ${place}.`
        : 'Your one-to-one session. The link to join comes before the session.',
  };
};

/** Finalized for the client (issue 20): what each side reads first. */
export const FINALIZED_BY_SERVER_CLIENT =
  'Your payment was approved, but the booking was not finalized on the page (the window may have closed before "Finalize Booking"), so it has been finalized for you.';
export const FINALIZED_BY_SERVER_TEACHER = 'Finalized by the server: the client approved the payment in PayPal and left before pressing "Finalize Booking".';

/** The client's 'Booking Confirmed!' mail with the calendar file, and the teacher's notification. */
export function bookingMails(env: Env, brand: string, b: BookedSession): OutgoingMail[] {
  const when = classWhen(b.startsAt, env.SITE_TIMEZONE);
  const minutes = minutesOf(b.duration);
  const payment = b.giftCardCents
    ? `${money(b.giftCardCents)} paid with a gift card${b.amountCents ? ` and ${money(b.amountCents)} through PayPal` : ''}`
    : b.couponUsed
      ? 'Coupon applied (no charge)'
      : b.amountCents !== null
        ? `${money(b.amountCents)} paid through PayPal`
        : '';
  const ics = buildIcs({
    uid: bookingUid(env, b.slotId, b.bookedAt),
    start: b.startsAt,
    durationMinutes: minutes,
    timezone: env.SITE_TIMEZONE,
    summary: b.sessionType,
    ...icsPlace(env, b, b.userId),
    organizer: icsOrganizer(env, brand),
  });
  const name = `${b.firstName} ${b.lastName}`.trim();
  return [
    mail(
      b.email,
      `Booking Confirmed! ${oneLine(b.sessionType)} on ${when.date}`,
      {
        heading: 'Booking Confirmed!',
        paragraphs: [
          greeting(b.firstName),
          ...(b.finalizedByServer ? [FINALIZED_BY_SERVER_CLIENT] : []),
          'Booking successful. Your session is booked:',
          sessionDetails(b.sessionType, when, b.duration, shownPlace(b)),
          ...joinLines(b),
          ...(payment ? [`Payment: ${payment}`] : []),
          'The attached calendar file adds the session to your calendar. Your bookings are listed in your account.',
        ],
        links: whereLinks(b),
        action: { label: 'My bookings', url: `${env.SITE_URL}/user/${b.userId}` },
        footer: footer(env, brand),
      },
      {
        attachments: [icsAttachment('session.ics', ics, 'PUBLISH')],
      },
    ),
    mail(
      env.TEACHER_EMAIL,
      `New booking: ${oneLine(name)}, ${oneLine(b.sessionType)} on ${when.date} ${when.time}`,
      {
        heading: 'New session booked',
        paragraphs: [
          ...(b.finalizedByServer ? [FINALIZED_BY_SERVER_TEACHER] : []),
          `Session: ${b.sessionType}`,
          `When: ${when.date}, ${when.time} (${b.duration})`,
          ...(shownPlace(b) ? [`Place: ${shownPlace(b)}`] : []),
          ...(b.online ? [b.link ? `Link: ${b.link}` : 'Link: none yet (set your meeting room link in Settings, then send it to the client)'] : []),
          `Client: ${name}`,
          `Email: ${b.email}`,
          `Payment: ${payment || 'none'}${b.paypalOrderId ? ` (PayPal order ${b.paypalOrderId})` : ''}`,
          `Message:\n${b.message || '(none)'}`,
        ],
        action: { label: 'Open the bookings', url: `${env.SITE_URL}/admin/bookings` },
      },
      { about: b.email, headers: { 'Reply-To': b.email } },
    ),
  ];
}

export type CancelledSession = Pick<BookedSession, 'slotId' | 'startsAt' | 'bookedAt' | 'duration' | 'sessionType' | 'firstName' | 'email' | 'amountCents'> & {
  /** Null when the client's account is gone: then there is no booking page to send them to. */
  userId: string | null;
  /** The entry as last sent (bookingCalendar), when the booking was moved or changed since its confirmation. */
  calendar?: { uid: string; sequence: number };
  /** What happened to a paid session's money: refunded through PayPal, or to be refunded by hand ('failed'). */
  refund?: 'none' | 'refunded' | 'failed';
  /** What a gift card paid of it, back on the card now (issue 33). */
  giftCardBackCents?: number;
};

/** The sentence that says a gift card's part of a cancelled session is back on the card (issue 33), or none. */
const cardBackText = (cents: number | undefined) => (cents ? [`The ${money(cents)} your gift card paid is back on the card.`] : []);

/** The .ics that takes a session off the client's calendar: its entry's UID, a higher SEQUENCE, METHOD:CANCEL. */
function cancellingIcs(
  env: Env,
  brand: string,
  b: Pick<BookedSession, 'startsAt' | 'duration' | 'sessionType' | 'firstName' | 'email'>,
  calendar: { uid: string; sequence: number },
): string {
  return buildIcs({
    uid: calendar.uid,
    start: b.startsAt,
    durationMinutes: minutesOf(b.duration),
    timezone: env.SITE_TIMEZONE,
    summary: b.sessionType,
    description: 'This session has been cancelled.',
    method: 'CANCEL',
    status: 'CANCELLED',
    sequence: calendar.sequence,
    organizer: icsOrganizer(env, brand),
    attendee: { name: b.firstName, email: b.email },
  });
}

/**
 * The teacher deleted a booked session: the client's notice, with an .ics that cancels the
 * confirmation's calendar entry (same UID, a higher SEQUENCE, METHOD:CANCEL).
 */
export function sessionCancelledMail(env: Env, brand: string, b: CancelledSession): OutgoingMail {
  const when = classWhen(b.startsAt, env.SITE_TIMEZONE);
  const paid = b.amountCents !== null && b.amountCents > 0;
  // The confirmation's entry is revision 0 (no SEQUENCE line); a moved booking's is higher.
  const ics = cancellingIcs(env, brand, b, { uid: b.calendar?.uid ?? bookingUid(env, b.slotId, b.bookedAt), sequence: (b.calendar?.sequence ?? 0) + 1 });
  return mail(
    b.email,
    `Session cancelled: ${oneLine(b.sessionType)} on ${when.date}`,
    {
      heading: 'Session cancelled',
      paragraphs: [
        greeting(b.firstName),
        'I’m sorry, your session has been cancelled:',
        sessionDetails(b.sessionType, when, b.duration),
        !paid
          ? 'I will be in touch about rescheduling it.'
          : b.refund === 'refunded'
            ? `Your payment of ${money(b.amountCents!)} has been refunded in full through PayPal; it can take a few days to show.`
            : 'I will be in touch about rescheduling it or refunding your payment.',
        ...cardBackText(b.giftCardBackCents),
        'The attached calendar file removes the session from your calendar.',
      ],
      ...(b.userId ? { action: { label: 'Book another time', url: `${env.SITE_URL}/user/${b.userId}/book` } } : {}),
      footer: footer(env, brand),
    },
    {
      attachments: [icsAttachment('session.ics', ics, 'CANCEL')],
    },
  );
}

/** A reminder of a booked session: 'day' (the day before) or 'soon' (two hours before). */
export function reminderMail(
  env: Env,
  brand: string,
  r: { email: string; firstName: string; sessionType: string; startsAt: Date; duration: string; link: string | null; userId: string | null; place: string },
  kind: 'day' | 'soon',
  noticeHours: number,
): OutgoingMail {
  const when = classWhen(r.startsAt, env.SITE_TIMEZONE);
  const lead = kind === 'day' ? 'A reminder: your session is tomorrow.' : 'A reminder: your session starts in about two hours.';
  return mail(r.email, `Reminder: ${oneLine(r.sessionType)} ${kind === 'day' ? 'tomorrow' : 'today'} at ${when.time}`, {
    heading: kind === 'day' ? 'See you tomorrow' : 'See you soon',
    paragraphs: [
      greeting(r.firstName),
      lead,
      sessionDetails(r.sessionType, when, r.duration, r.place),
      ...(r.link ? [`Join here: ${r.link}`] : []),
      // Her notice period, as the cancel rule and her pages have it (issue 30).
      `Need to change it? Up to ${hoursInWords(noticeHours)} before it starts you can cancel or move it from My bookings; closer, reply to this mail or write through the contact page.`,
    ],
    links: placeLinks(r.place),
    ...(r.userId ? { action: { label: 'My bookings', url: `${env.SITE_URL}/user/${r.userId}` } } : {}),
    footer: footer(env, brand),
  });
}

/**
 * The calendar entry of a booking as stored on its slot (migration 0009): the UID its first
 * confirmation was sent with (derived from slot id and booking time until the booking moves,
 * then stored) and the SEQUENCE of its latest revision.
 */
export const bookingCalendar = (
  env: Pick<Env, 'SITE_URL'>,
  s: { id: string; bookedAt: Date | string | null; calendarUid: string | null; calendarSequence: number },
): { uid: string; sequence: number } => ({
  uid: s.calendarUid ?? bookingUid(env, s.id, new Date(s.bookedAt ?? 0)),
  sequence: s.calendarSequence,
});

/** A booked session a client changed themselves: what its mails need. */
export interface ChangedSession {
  startsAt: Date;
  duration: string;
  sessionType: string;
  firstName: string;
  lastName: string;
  email: string;
  userId: string;
  amountCents: number | null;
  couponUsed: boolean;
  paypalOrderId: string | null;
  /** Booked with a session credit (issue 32): no money changed hands at the booking. */
  withCredit: boolean;
  /** The entry's UID and the SEQUENCE of this revision (above every one sent before). */
  calendar: { uid: string; sequence: number };
  /** The slot's place ('' for none). */
  place: string;
  /** Given online (issue 35), with its link (null: it will follow). */
  online?: boolean;
  link?: string | null;
  /** What a gift card paid of it, back on the card now (issue 33). */
  giftCardBackCents?: number;
}

const paymentLine = (b: Pick<ChangedSession, 'couponUsed' | 'amountCents' | 'paypalOrderId' | 'withCredit'>) =>
  b.couponUsed
    ? 'Coupon (no charge)'
    : b.withCredit
      ? 'A session credit from a package'
      : b.amountCents !== null
        ? `${money(b.amountCents)} through PayPal${b.paypalOrderId ? ` (order ${b.paypalOrderId})` : ''}`
        : 'none';

/**
 * The client cancelled: their notice with the .ics that takes the entry off their calendar
 * (same UID, higher SEQUENCE, METHOD:CANCEL), and the teacher's, which says what became of the
 * payment (a refund PayPal refused is the teacher's to make by hand).
 */
export function clientCancelledMails(
  env: Env,
  brand: string,
  b: ChangedSession,
  refund: 'none' | 'refunded' | 'failed',
  /** For a session booked with a credit (issue 32): what became of it, as the cancel's answer says. */
  credit?: 'returned' | 'forfeited',
): OutgoingMail[] {
  const when = classWhen(b.startsAt, env.SITE_TIMEZONE);
  const ics = cancellingIcs(env, brand, b, b.calendar);
  const paid = b.amountCents !== null ? money(b.amountCents) : '';
  const refundText =
    refund === 'refunded'
      ? `Your payment of ${paid} has been refunded in full through PayPal; it can take a few days to show.`
      : refund === 'failed'
        ? `Your payment of ${paid} could not be refunded automatically just now. I have been told and will refund it in full shortly.`
        : credit === 'returned'
          ? 'The session credit it used is back in your balance: book another time with it from My Bookings.'
          : credit === 'forfeited'
            ? 'It was cancelled within the notice period, so the session credit it used stays used, as the booking page said.'
            : '';
  const name = `${b.firstName} ${b.lastName}`.trim();
  return [
    mail(
      b.email,
      `Session cancelled: ${oneLine(b.sessionType)} on ${when.date}`,
      {
        heading: 'Session cancelled',
        paragraphs: [
          greeting(b.firstName),
          'As you asked, your session has been cancelled:',
          sessionDetails(b.sessionType, when, b.duration),
          ...(refundText ? [refundText] : []),
          ...cardBackText(b.giftCardBackCents),
          'The attached calendar file removes the session from your calendar.',
        ],
        action: { label: 'Book another time', url: `${env.SITE_URL}/user/${b.userId}/book` },
        footer: footer(env, brand),
      },
      { attachments: [icsAttachment('session.ics', ics, 'CANCEL')] },
    ),
    mail(
      env.TEACHER_EMAIL,
      `${refund === 'failed' ? 'REFUND NEEDED: ' : ''}Cancelled by the client: ${oneLine(name)}, ${oneLine(b.sessionType)} on ${when.date} ${when.time}`,
      {
        heading: refund === 'failed' ? 'Session cancelled: refund by hand' : 'Session cancelled by the client',
        paragraphs: [
          `Session: ${b.sessionType}`,
          `When: ${when.date}, ${when.time} (${b.duration})`,
          `Client: ${name}`,
          `Email: ${b.email}`,
          `Payment: ${paymentLine(b)}`,
          refund === 'refunded'
            ? 'Refunded in full through PayPal.'
            : refund === 'failed'
              ? 'PayPal refused the refund: please refund it by hand. The cancellation is listed in the bookings.'
              : credit === 'returned'
                ? 'The session credit went back to the client’s balance.'
                : credit === 'forfeited'
                  ? 'Cancelled within the notice period: the session credit stays used.'
                  : 'Nothing to refund.',
          'The slot is free again.',
        ],
        action: { label: 'Open the bookings', url: `${env.SITE_URL}/admin/bookings` },
      },
      { about: b.email, headers: { 'Reply-To': b.email } },
    ),
  ];
}

/**
 * The client moved their session: the updated .ics (same UID, higher SEQUENCE, METHOD:REQUEST)
 * that moves the calendar entry, and the teacher's notice.
 */
/** The .ics that updates a booked session's calendar entry (same UID, higher SEQUENCE, METHOD:REQUEST). */
function updatingIcs(env: Env, brand: string, b: ChangedSession, note: string): string {
  const place = icsPlace(env, b, b.userId);
  return buildIcs({
    uid: b.calendar.uid,
    start: b.startsAt,
    durationMinutes: minutesOf(b.duration),
    timezone: env.SITE_TIMEZONE,
    summary: b.sessionType,
    ...place,
    description: `${place.description} ${note}`,
    method: 'REQUEST',
    sequence: b.calendar.sequence,
    organizer: icsOrganizer(env, brand),
    attendee: { name: b.firstName, email: b.email },
  });
}

export function rescheduledMails(env: Env, brand: string, b: ChangedSession, from: { startsAt: Date }): OutgoingMail[] {
  const when = classWhen(b.startsAt, env.SITE_TIMEZONE);
  const before = classWhen(from.startsAt, env.SITE_TIMEZONE);
  const ics = updatingIcs(env, brand, b, '(Moved.)');
  const name = `${b.firstName} ${b.lastName}`.trim();
  return [
    mail(
      b.email,
      `Session moved: ${oneLine(b.sessionType)} now on ${when.date}`,
      {
        heading: 'Session moved',
        paragraphs: [
          greeting(b.firstName),
          `Your session of ${before.date}, ${before.time} has been moved to:`,
          sessionDetails(b.sessionType, when, b.duration, shownPlace(b)),
          ...joinLines(b),
          'Your payment carries over; nothing more is charged.',
          'The attached calendar file moves the session in your calendar.',
        ],
        links: whereLinks(b),
        action: { label: 'My bookings', url: `${env.SITE_URL}/user/${b.userId}` },
        footer: footer(env, brand),
      },
      { attachments: [icsAttachment('session.ics', ics, 'REQUEST')] },
    ),
    mail(
      env.TEACHER_EMAIL,
      `Session moved by the client: ${oneLine(name)}, now ${when.date} ${when.time}`,
      {
        heading: 'Session moved by the client',
        paragraphs: [
          `Session: ${b.sessionType}`,
          `Was: ${before.date}, ${before.time}`,
          `Now: ${when.date}, ${when.time} (${b.duration})`,
          `Client: ${name}`,
          `Email: ${b.email}`,
          `Payment: ${paymentLine(b)} (carried over)`,
          'The old slot is free again.',
        ],
        action: { label: 'Open the bookings', url: `${env.SITE_URL}/admin/bookings` },
      },
      { about: b.email, headers: { 'Reply-To': b.email } },
    ),
  ];
}

/**
 * The teacher changed a booked session's place (PUT /api/bookings/{slotId}/place): the client's
 * notice with the updated .ics (same UID, higher SEQUENCE, METHOD:REQUEST), which moves the
 * place in their calendar.
 */
export function placeChangedMail(env: Env, brand: string, b: ChangedSession): OutgoingMail {
  const when = classWhen(b.startsAt, env.SITE_TIMEZONE);
  return mail(
    b.email,
    `New place for your session on ${when.date}`,
    {
      heading: 'Your session has a new place',
      paragraphs: [
        greeting(b.firstName),
        b.place ? `Your session now takes place here: ${b.place}` : 'The place of your session will be sent to you before the session.',
        sessionDetails(b.sessionType, when, b.duration, b.place),
        'The attached calendar file updates the session in your calendar.',
      ],
      links: placeLinks(b.place),
      action: { label: 'My bookings', url: `${env.SITE_URL}/user/${b.userId}` },
      footer: footer(env, brand),
    },
    { attachments: [icsAttachment('session.ics', updatingIcs(env, brand, b, '(New place.)'), 'REQUEST')] },
  );
}

/** Why an approved booking payment the client never finalized was released instead (api/booking/unfinalized.ts). */
export type ReleaseReason = 'slot-taken' | 'slot-past' | 'slot-gone' | 'amount-out-of-range' | 'account-gone' | 'capture-failed';

const RELEASE_WHY: Record<ReleaseReason, { client: string; teacher: string }> = {
  'slot-taken': {
    client: 'Before the booking was finalized, someone else booked that time.',
    teacher: 'The slot was booked by someone else before the booking was finalized.',
  },
  'slot-past': { client: 'The time of the session has passed.', teacher: 'The slot’s time passed before the booking was finalized.' },
  'slot-gone': { client: 'That time is no longer offered.', teacher: 'The slot was deleted before the booking was finalized.' },
  'amount-out-of-range': {
    client: 'The amount is outside the range accepted for this session now.',
    teacher: 'The approved amount is outside the booking ranges you set.',
  },
  'account-gone': { client: 'Your account no longer exists.', teacher: 'The client’s account was deleted.' },
  'capture-failed': { client: 'PayPal did not complete the payment.', teacher: 'PayPal declined the capture.' },
};

export interface ReleasedBooking {
  firstName: string;
  lastName: string;
  /** Empty when the account is gone: then only the teacher is told. */
  email: string;
  userId: string | null;
  sessionType: string;
  /** The slot's start; null when the slot is gone. */
  startsAt: Date | null;
  amountCents: number;
  paypalOrderId: string;
}

/**
 * An approved payment the client never finalized, which the server could not book: the client
 * learns nothing was booked and nothing charged (the approval lapses at PayPal uncaptured), the
 * teacher why.
 */
export function releasedBookingMails(env: Env, brand: string, r: ReleasedBooking, why: ReleaseReason): OutgoingMail[] {
  const when = r.startsAt ? classWhen(r.startsAt, env.SITE_TIMEZONE) : null;
  const what = `${r.sessionType}${when ? ` on ${when.date} at ${when.time}` : ''}`;
  const name = `${r.firstName} ${r.lastName}`.trim() || 'A client';
  return [
    ...(r.email
      ? [
          mail(r.email, `Your session was not booked: ${oneLine(r.sessionType)}${when ? ` on ${when.date}` : ''}`, {
            heading: 'Your session was not booked',
            paragraphs: [
              greeting(r.firstName),
              `You approved a payment of ${money(r.amountCents)} for ${what}, but the booking was not finalized on the page.`,
              `${RELEASE_WHY[why].client} So the session was not booked, and you have not been charged: the payment was never taken, and PayPal lets the approval lapse.`,
              'You are welcome to pick another time.',
            ],
            ...(r.userId ? { action: { label: 'Book a session', url: `${env.SITE_URL}/user/${r.userId}/book` } } : {}),
            footer: footer(env, brand),
          }),
        ]
      : []),
    mail(
      env.TEACHER_EMAIL,
      `Not booked: ${oneLine(name)}, ${oneLine(r.sessionType)}${when ? ` on ${when.date} ${when.time}` : ''} (approved, never finalized)`,
      {
        heading: 'An approved booking payment was released',
        paragraphs: [
          `${name} approved a payment of ${money(r.amountCents)} for ${what} and left before pressing "Finalize Booking".`,
          `${RELEASE_WHY[why].teacher} Nothing was booked and nothing was charged (PayPal order ${r.paypalOrderId}, left uncaptured).`,
          r.email ? `The client was told by e-mail (${r.email}).` : 'The client could not be told: no e-mail address is known.',
        ],
        action: { label: 'Open the bookings', url: `${env.SITE_URL}/admin/bookings` },
      },
      r.email ? { about: r.email, headers: { 'Reply-To': r.email } } : {},
    ),
  ];
}

/**
 * A weekly series booked with credits (issue 32): one confirmation listing its sessions, each with
 * its own calendar file (its own UID, so cancelling one later cancels that entry alone), the weeks
 * not booked with why; and one notification to the teacher.
 */
export function seriesMails(
  env: Env,
  brand: string,
  s: {
    sessions: BookedSession[];
    missed: { startsAt: Date; why: string }[];
    bookedByTeacher: boolean;
  },
): OutgoingMail[] {
  const first = s.sessions[0]!;
  const lines = s.sessions.map((b) => {
    const when = classWhen(b.startsAt, env.SITE_TIMEZONE);
    return `${when.date}, ${when.time}`;
  });
  const missedLines = s.missed.map((m) => {
    const when = classWhen(m.startsAt, env.SITE_TIMEZONE);
    return `${when.date}, ${when.time}: ${m.why}`;
  });
  const attachments = s.sessions.map((b, i) =>
    icsAttachment(
      `session-${i + 1}.ics`,
      buildIcs({
        uid: bookingUid(env, b.slotId, b.bookedAt),
        start: b.startsAt,
        durationMinutes: minutesOf(b.duration),
        timezone: env.SITE_TIMEZONE,
        summary: b.sessionType,
        ...icsPlace(env, b, b.userId),
        organizer: icsOrganizer(env, brand),
      }),
      'PUBLISH',
    ),
  );
  const name = `${first.firstName} ${first.lastName}`.trim();
  const count = `${s.sessions.length} ${s.sessions.length === 1 ? 'session' : 'sessions'}`;
  return [
    mail(
      first.email,
      `Weekly sessions booked: ${oneLine(first.sessionType)}, ${count}`,
      {
        heading: 'Your weekly sessions are booked',
        paragraphs: [
          greeting(first.firstName),
          `${s.bookedByTeacher ? 'I have booked' : 'You have booked'} ${count} of ${first.sessionType}, one session credit each:`,
          lines.join('\n'),
          ...(shownPlace(first) ? [`Place: ${shownPlace(first)}`] : []),
          ...joinLines(first),
          ...(missedLines.length ? ['These weeks could not be booked:', missedLines.join('\n')] : []),
          'Each session can be moved or cancelled on its own from your account. The attached calendar files add them to your calendar.',
        ],
        links: whereLinks(first),
        action: { label: 'My bookings', url: `${env.SITE_URL}/user/${first.userId}` },
        footer: footer(env, brand),
      },
      { attachments },
    ),
    mail(
      env.TEACHER_EMAIL,
      `New weekly series: ${oneLine(name)}, ${oneLine(first.sessionType)}, ${count}`,
      {
        heading: 'Weekly sessions booked',
        paragraphs: [
          `Session: ${first.sessionType} (${first.duration}), with a credit each`,
          `Client: ${name}`,
          `Email: ${first.email}`,
          lines.join('\n'),
          ...(missedLines.length ? ['Not booked:', missedLines.join('\n')] : []),
          ...(first.message ? [`Message:\n${first.message}`] : []),
        ],
        action: { label: 'Open the bookings', url: `${env.SITE_URL}/admin/bookings` },
      },
      { about: first.email, headers: { 'Reply-To': first.email } },
    ),
  ];
}
