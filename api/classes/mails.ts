/**
 * The classes' mails: the teacher's notice of a sign-up (reply goes to the student) and the
 * student's confirmation with the class's .ics. Every value goes to renderMail as text. Signed
 * with her yoga brand (`brand`, api/site/brand.ts).
 */
import type { Env } from '../env.ts';
import type { OutgoingMail } from '../services/mail/index.ts';
import { buildIcs, icsOrganizer } from '../mail/ics.ts';
import { classWhen, exclaim, icsAttachment, mail, oneLine, siteFooter } from '../mail/layout.ts';
import { signToken } from '../lib/signed-token.ts';
import type { ClassEvent } from './signups.repo.ts';
import { refundPolicyLine, usd } from '../../contract/event-prices.ts';
import { hoursInWords } from '../../contract/settings.ts';

/** Signed-link purposes: a token for one is worthless for the other. */
export const GIVE_BACK_PURPOSE = 'class-give-back';
export const LEAVE_WAITLIST_PURPOSE = 'class-waitlist-leave';

/** The page that gives a place back (it asks first; only its POST changes anything). */
export const giveBackUrl = (env: Pick<Env, 'SITE_URL' | 'APP_SECRET'>, signupId: string) =>
  `${env.SITE_URL}/class-cancel?token=${encodeURIComponent(signToken(env.APP_SECRET, GIVE_BACK_PURPOSE, signupId))}`;
export const leaveWaitlistUrl = (env: Pick<Env, 'SITE_URL' | 'APP_SECRET'>, entryId: string) =>
  `${env.SITE_URL}/class-cancel?waitlist=${encodeURIComponent(signToken(env.APP_SECRET, LEAVE_WAITLIST_PURPOSE, entryId))}`;

/** The class's calendar file for one sign-up: the same for the confirmation and the "you're in" mail. */
export function classIcs(env: Env, brand: string, signupId: string, c: ClassMail): string {
  return buildIcs({
    uid: `${signupId}@${new URL(env.SITE_URL).host}`,
    start: c.startsAt,
    durationMinutes: 60,
    timezone: env.SITE_TIMEZONE,
    summary: c.title,
    location: c.location,
    description: `Your place in ${c.title}. See you on the mat!`,
    url: `${env.SITE_URL}/calendar`,
    organizer: icsOrganizer(env, brand),
  });
}

export interface SignupMail {
  id: string;
  name: string;
  email: string;
  phone: string;
  returning: boolean;
}

export interface ClassMail {
  title: string;
  date: string;
  time: string;
  startsAt: Date;
  location: string;
}

/** The class as its mails show it. */
export const classMail = (e: Pick<ClassEvent, 'title' | 'date' | 'time' | 'startsAt' | 'location'>): ClassMail => ({
  title: e.title,
  date: e.date,
  time: e.time,
  startsAt: new Date(e.startsAt),
  location: e.location,
});

/** A paid place (issue 34): what was paid, and her notice period for a refunded cancellation. */
export interface PaidPlace {
  amountCents: number;
  noticeHours: number;
  /** Paid with one of the client's class credits (the money was paid for the pass). */
  credit?: boolean;
}

/** The paid place's lines: what was paid and until when a cancellation is refunded, on her clocks. */
function paidLines(env: Env, c: ClassMail, paid: PaidPlace | undefined): string[] {
  if (!paid) return [];
  const until = classWhen(new Date(c.startsAt.getTime() - paid.noticeHours * 3_600_000), env.SITE_TIMEZONE);
  const paidWith = paid.credit ? 'Paid with one of your class credits.' : `Paid: ${usd(paid.amountCents)}.`;
  return [`${paidWith} ${refundPolicyLine(`${until.date}, ${until.time}`, hoursInWords(paid.noticeHours))}`];
}

export function signupMails(env: Env, brand: string, s: SignupMail, c: ClassMail, paid?: PaidPlace): OutgoingMail[] {
  const when = classWhen(c.startsAt, env.SITE_TIMEZONE);
  const place = c.location || 'See the class on the calendar for the place.';
  const ics = classIcs(env, brand, s.id, c);
  return [
    mail(
      env.TEACHER_EMAIL,
      `Class sign-up: ${oneLine(s.name)} for ${oneLine(c.title)} on ${c.date}`,
      {
        heading: 'New class sign-up',
        paragraphs: [
          `Class: ${c.title}`,
          `When: ${when.date}, ${when.time}`,
          `Place: ${place}`,
          `Name: ${s.name}`,
          `Email: ${s.email}`,
          `Phone: ${s.phone}`,
          s.returning ? 'Returning student: the waiver and signature of the last sign-up were reused.' : 'Waiver accepted and signed.',
          ...(paid ? [paid.credit ? 'Paid with a class credit.' : `Paid: ${usd(paid.amountCents)} through PayPal.`] : []),
        ],
        action: { label: 'Open the class sign-ups', url: `${env.SITE_URL}/admin/signups` },
      },
      { about: s.email, headers: { 'Reply-To': s.email } },
    ),
    mail(
      s.email,
      `You're signed up: ${oneLine(c.title)} on ${when.date}`,
      {
        heading: exclaim('See you in class', s.name),
        paragraphs: [
          `You are signed up for ${c.title}.`,
          `Date: ${when.date}\nTime: ${when.time}\nPlace: ${place}`,
          ...paidLines(env, c, paid),
          'The attached calendar file adds the class to your calendar. Please arrive a few minutes early.',
          `Can't come after all? Give your place back, up to the start of the class, so someone on the waitlist can have it: ${giveBackUrl(env, s.id)}`,
        ],
        footer: siteFooter(env, brand),
      },
      { attachments: [icsAttachment('class.ics', ics, 'PUBLISH')] },
    ),
  ];
}

/** A waitlisted student got a freed place: "you're in", with the same .ics as a confirmation; the teacher is told. */
export function promotedMails(env: Env, brand: string, s: Omit<SignupMail, 'returning' | 'phone'>, c: ClassMail): OutgoingMail[] {
  const when = classWhen(c.startsAt, env.SITE_TIMEZONE);
  const place = c.location || 'See the class on the calendar for the place.';
  return [
    mail(
      s.email,
      `You're in: ${oneLine(c.title)} on ${when.date}`,
      {
        heading: exclaim("You're in", s.name),
        paragraphs: [
          `A place in ${c.title} has come free and it is yours: you were next on the waitlist.`,
          `Date: ${when.date}\nTime: ${when.time}\nPlace: ${place}`,
          'The attached calendar file adds the class to your calendar. Please arrive a few minutes early.',
          `Can't come after all? Give your place back, up to the start of the class: ${giveBackUrl(env, s.id)}`,
        ],
        footer: siteFooter(env, brand),
      },
      { attachments: [icsAttachment('class.ics', classIcs(env, brand, s.id, c), 'PUBLISH')] },
    ),
    mail(
      env.TEACHER_EMAIL,
      `Waitlist: ${oneLine(s.name)} got a place in ${oneLine(c.title)} on ${c.date}`,
      {
        heading: 'A waitlisted student got a place',
        paragraphs: [`Class: ${c.title}`, `When: ${when.date}, ${when.time}`, `Name: ${s.name}`, `Email: ${s.email}`],
        action: { label: 'Open the class sign-ups', url: `${env.SITE_URL}/admin/signups` },
      },
      { about: s.email },
    ),
  ];
}

/** On the waitlist: where in line, and the link that leaves it. */
export function waitlistMail(env: Env, brand: string, w: { id: string; name: string; email: string; position: number }, c: ClassMail): OutgoingMail {
  const when = classWhen(c.startsAt, env.SITE_TIMEZONE);
  return mail(w.email, `You're on the waitlist: ${oneLine(c.title)} on ${when.date}`, {
    heading: exclaim("You're on the waitlist", w.name),
    paragraphs: [
      `${c.title} is full, and you are number ${w.position} on its waitlist.`,
      `Date: ${when.date}\nTime: ${when.time}`,
      'When a place comes free before the class starts, the first in line gets it at once and an e-mail with the calendar file. Nothing to do until then.',
      `Changed your plans? Leave the waitlist: ${leaveWaitlistUrl(env, w.id)}`,
    ],
    footer: siteFooter(env, brand),
  });
}

/** The teacher's notice that a student gave a place back. */
export function placeGivenBackMail(env: Env, brand: string, s: { name: string; email: string }, c: ClassMail): OutgoingMail {
  const when = classWhen(c.startsAt, env.SITE_TIMEZONE);
  return mail(
    env.TEACHER_EMAIL,
    `Place given back: ${oneLine(s.name)} for ${oneLine(c.title)} on ${c.date}`,
    {
      heading: 'A student gave a class place back',
      paragraphs: [`Class: ${c.title}`, `When: ${when.date}, ${when.time}`, `Name: ${s.name}`, `Email: ${s.email}`],
      action: { label: 'Open the class sign-ups', url: `${env.SITE_URL}/admin/signups` },
    },
    { about: s.email },
  );
}

/** The day-before reminder, on the teacher's clocks, with the give-back link. */
export function classReminderMail(env: Env, brand: string, s: { id: string; name: string; email: string }, c: ClassMail): OutgoingMail {
  const when = classWhen(c.startsAt, env.SITE_TIMEZONE);
  const place = c.location || 'See the class on the calendar for the place.';
  return mail(s.email, `Reminder: ${oneLine(c.title)} tomorrow, ${when.time}`, {
    heading: exclaim('See you tomorrow', s.name),
    paragraphs: [
      `A reminder of your place in ${c.title}.`,
      `Date: ${when.date}\nTime: ${when.time}\nPlace: ${place}`,
      `Can't come? Give your place back so someone on the waitlist can have it: ${giveBackUrl(env, s.id)}`,
    ],
    footer: siteFooter(env, brand),
  });
}

/** The signed-up page of a class: where a waitlisted student offered a paid place pays for it. */
export const signupPageUrl = (env: Pick<Env, 'SITE_URL'>, c: Pick<ClassMail, 'title' | 'date' | 'location'>) =>
  `${env.SITE_URL}/signup?${new URLSearchParams({ date: c.date, title: c.title, location: c.location })}`;

/** A paid class's freed place offered to the first in line (issue 34): held for them until `heldUntil`, paid on the sign-up page. */
export function offeredPlaceMail(env: Env, brand: string, s: { name: string; email: string; heldUntil: Date }, c: ClassMail): OutgoingMail {
  const when = classWhen(c.startsAt, env.SITE_TIMEZONE);
  const until = classWhen(s.heldUntil, env.SITE_TIMEZONE);
  return mail(s.email, `A place is yours if you want it: ${oneLine(c.title)} on ${when.date}`, {
    heading: exclaim('A place has come free', s.name),
    paragraphs: [
      `A place in ${c.title} has come free and you are next on the waitlist. It is held for you until ${until.date}, ${until.time}.`,
      `Date: ${when.date}\nTime: ${when.time}`,
      `To take it, sign up and pay for it before then: ${signupPageUrl(env, c)}`,
      'If you do not, it goes to the next person in line.',
    ],
    footer: siteFooter(env, brand),
  });
}

/** She called the event off (issue 34): each person signed up is told, and what comes back to them. */
export function eventCancelledMail(env: Env, brand: string, s: { name: string; email: string; refund: string | null }, c: ClassMail): OutgoingMail {
  const when = classWhen(c.startsAt, env.SITE_TIMEZONE);
  return mail(s.email, `Cancelled: ${oneLine(c.title)} on ${when.date}`, {
    heading: exclaim('A change of plans', s.name),
    paragraphs: [
      `I'm sorry: ${c.title} on ${when.date} at ${when.time} is cancelled.`,
      ...(s.refund ? [s.refund] : []),
      'I hope to see you at another class soon.',
    ],
    footer: siteFooter(env, brand),
  });
}
