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

export function signupMails(env: Env, brand: string, s: SignupMail, c: ClassMail): OutgoingMail[] {
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
