/**
 * The mails of the visitors' forms: the teacher's notifications (reply goes to the visitor) and
 * the visitors' confirmations. Every value is passed to renderMail as text, which escapes it,
 * so what a visitor types never becomes markup. Confirmations don't echo the visitor's free
 * text: the form can't be used to send someone else a message of the sender's choosing.
 */
import type { Env } from '../../env.ts';
import { signToken } from '../../lib/signed-token.ts';
import { buildIcs, type CalendarPerson } from './ics.ts';
import type { Mailer, OutgoingMail } from './index.ts';
import { escapeHtml, renderMail, type MailContent } from './layout.ts';

const BRAND = 'Yoga & Chocolates';

/** Purpose of the signed token in unsubscribe links (api/lib/signed-token.ts). */
export const UNSUBSCRIBE_PURPOSE = 'unsubscribe';

/** Subjects carry visitor text: one line, bounded. */
const oneLine = (s: string, max = 80) => {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

function mail(to: string, subject: string, content: MailContent, extra: Partial<OutgoingMail> = {}): OutgoingMail {
  return { to, subject, ...renderMail(content), ...extra };
}

/**
 * Sends each mail; a failure is logged and does not fail the request: the submission is stored
 * by then, and the teacher sees it in the admin area even if a mail never leaves.
 */
export async function deliver(mailer: Mailer, mails: OutgoingMail[]): Promise<void> {
  for (const m of mails) {
    try {
      await mailer.send(m);
    } catch (err) {
      console.error(`[mail] could not send "${m.subject}":`, err instanceof Error ? err.message : err);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Home page: free 30-minute meeting request

export interface BookingRequestMail {
  name: string;
  email: string;
  phone: string;
  sessionType: string;
  message: string;
}

export function bookingRequestMails(env: Env, r: BookingRequestMail): OutgoingMail[] {
  return [
    mail(
      env.TEACHER_EMAIL,
      `Free meeting request from ${oneLine(r.name)} (${r.sessionType})`,
      {
        heading: 'New request for a free 30-minute meeting',
        paragraphs: [
          `Name: ${r.name}`,
          `Email: ${r.email}`,
          `Phone: ${r.phone}`,
          `Session type: ${r.sessionType}`,
          `Message:\n${r.message || '(none)'}`,
          'Reply to this mail to answer the visitor directly.',
        ],
      },
      { headers: { 'Reply-To': r.email } },
    ),
    mail(r.email, 'Your free 30-minute meeting request was received', {
      heading: `Thank you, ${r.name}!`,
      paragraphs: [
        `Your request for a free 30-minute online meeting about ${r.sessionType} has been received.`,
        'I will write back soon to find a time that suits you.',
      ],
      footer: [`${BRAND} · ${env.SITE_URL}`],
    }),
  ];
}

// ---------------------------------------------------------------------------------------------
// Contact form

export interface ContactMail {
  name: string;
  email: string;
  message: string;
}

export function contactMails(env: Env, m: ContactMail): OutgoingMail[] {
  return [
    mail(
      env.TEACHER_EMAIL,
      `Message from ${oneLine(m.name)} through the contact form`,
      {
        heading: 'New message from the contact form',
        paragraphs: [`Name: ${m.name}`, `Email: ${m.email}`, `Message:\n${m.message}`, 'Reply to this mail to answer the visitor directly.'],
      },
      { headers: { 'Reply-To': m.email } },
    ),
    mail(m.email, 'Thank you for your message', {
      heading: `Thank you, ${m.name}!`,
      paragraphs: ['Your message has been received. I will get back to you soon.'],
      footer: [`${BRAND} · ${env.SITE_URL}`],
    }),
  ];
}

// ---------------------------------------------------------------------------------------------
// Newsletter

/**
 * The unsubscribe page link and the RFC 8058 headers every mail to a subscriber carries:
 * List-Unsubscribe (one-click URL first, mailto as the fallback) and List-Unsubscribe-Post.
 */
export function unsubscribeLinks(env: Env, email: string) {
  const token = encodeURIComponent(signToken(env.APP_SECRET, UNSUBSCRIBE_PURPOSE, email));
  const page = `${env.SITE_URL}/unsubscribe?token=${token}`;
  const oneClick = `${env.SITE_URL}/api/subscribers/one-click?token=${token}`;
  return {
    page,
    oneClick,
    headers: {
      'List-Unsubscribe': `<${oneClick}>, <mailto:${env.TEACHER_EMAIL}?subject=Unsubscribe>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/** Any newsletter mail: content plus the unsubscribe line (a real link in the html) and headers. */
export function newsletterMail(env: Env, to: string, subject: string, content: MailContent): OutgoingMail {
  const links = unsubscribeLinks(env, to);
  const line = `Unsubscribe: ${links.page}`;
  const rendered = renderMail({ ...content, footer: [...(content.footer ?? []), `You receive this because ${to} subscribed at ${env.SITE_URL}.`, line] });
  // renderMail writes the footer as text; the one line we wrote ourselves becomes a link.
  const escaped = escapeHtml(links.page);
  const html = rendered.html.replace(`Unsubscribe: ${escaped}`, `<a href="${escaped}" style="color:#666">Unsubscribe</a>`);
  return { to, subject, text: rendered.text, html, headers: links.headers };
}

export function welcomeMail(env: Env, email: string): OutgoingMail {
  return newsletterMail(env, email, `Welcome to the ${BRAND} newsletter`, {
    heading: 'Thanks for signing up!',
    paragraphs: [
      'You are on the list for news about yoga classes, workshops, yoga therapy and new chocolates.',
      'Mails come rarely, and every one of them has a link to leave the list with one click.',
    ],
  });
}

// ---------------------------------------------------------------------------------------------
// Class sign-up

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

/** The class's date and 12-hour time with the zone's abbreviation, on the teacher's clocks. */
export function classWhen(startsAt: Date, zone: string): { date: string; time: string } {
  return {
    date: new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(startsAt),
    time: new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: '2-digit', hour12: true, timeZoneName: 'short' }).format(startsAt),
  };
}

/** The teacher as the organizer of every calendar file the site sends. */
export const icsOrganizer = (env: Env): CalendarPerson => ({ name: BRAND, email: env.TEACHER_EMAIL });

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
        heading: `See you in class, ${s.name}!`,
        paragraphs: [
          `You are signed up for ${c.title}.`,
          `Date: ${when.date}\nTime: ${when.time}\nPlace: ${place}`,
          'The attached calendar file adds the class to your calendar. Please arrive a few minutes early.',
        ],
        footer: [`${BRAND} · ${env.SITE_URL}`],
      },
      { attachments: [{ filename: 'class.ics', contentType: 'text/calendar; charset=utf-8; method=PUBLISH', content: Buffer.from(ics, 'utf8').toString('base64') }] },
    ),
  ];
}
