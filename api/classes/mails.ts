/**
 * The classes' mails: the teacher's notice of a sign-up (reply goes to the student) and the
 * student's confirmation with the class's .ics. Every value goes to renderMail as text.
 */
import type { Env } from '../env.ts';
import type { OutgoingMail } from '../services/mail/index.ts';
import { buildIcs, icsOrganizer } from '../mail/ics.ts';
import { classWhen, exclaim, icsAttachment, mail, oneLine, siteFooter } from '../mail/layout.ts';

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

export function signupMails(env: Env, s: SignupMail, c: ClassMail): OutgoingMail[] {
  const when = classWhen(c.startsAt, env.SITE_TIMEZONE);
  const place = c.location || 'See the class on the calendar for the place.';
  const ics = buildIcs({
    uid: `${s.id}@${new URL(env.SITE_URL).host}`,
    start: c.startsAt,
    durationMinutes: 60,
    timezone: env.SITE_TIMEZONE,
    summary: c.title,
    location: c.location,
    description: `Your place in ${c.title}. See you on the mat!`,
    url: `${env.SITE_URL}/calendar`,
    organizer: icsOrganizer(env),
  });
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
      { headers: { 'Reply-To': s.email } },
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
        ],
        footer: siteFooter(env),
      },
      { attachments: [icsAttachment('class.ics', ics, 'PUBLISH')] },
    ),
  ];
}
