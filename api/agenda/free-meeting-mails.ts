/**
 * The free meeting's mails (issue 35): the visitor's invitation (the link, or that it will follow,
 * the .ics and the cancel link) and her notice; on a cancel, the visitor's note with the .ics that
 * takes the entry off their calendar, and hers. The visitor has not proven the address, so their
 * mails echo nothing they typed but a name that reads as one (exclaim, trustedName).
 */
import type { Env } from '../env.ts';
import type { OutgoingMail } from '../services/mail/index.ts';
import { buildIcs, icsOrganizer } from '../mail/ics.ts';
import { classWhen, exclaim, icsAttachment, mail, oneLine, siteFooter } from '../mail/layout.ts';
import { signToken } from '../lib/signed-token.ts';
import { ONLINE_LINK_TO_FOLLOW } from '../../contract/free-meetings.ts';
import type { FreeMeeting } from './free-meetings.repo.ts';

/** Purpose of the signed token in a free meeting's cancel link (api/lib/signed-token.ts). */
export const FREE_MEETING_CANCEL_PURPOSE = 'free-meeting-cancel';

export const freeMeetingCancelUrl = (env: Pick<Env, 'SITE_URL' | 'APP_SECRET'>, id: string) =>
  `${env.SITE_URL}/meeting-cancel?token=${encodeURIComponent(signToken(env.APP_SECRET, FREE_MEETING_CANCEL_PURPOSE, id))}`;

const uid = (env: Pick<Env, 'SITE_URL'>, id: string) => `free-meeting-${id}@${new URL(env.SITE_URL).host}`;

const joinLine = (m: Pick<FreeMeeting, 'link'>) => (m.link ? `Join here: ${m.link}` : ONLINE_LINK_TO_FOLLOW);

function meetingIcs(env: Env, brand: string, m: FreeMeeting, method: 'PUBLISH' | 'CANCEL'): string {
  return buildIcs({
    uid: uid(env, m.id),
    start: new Date(m.startsAt),
    durationMinutes: m.minutes,
    timezone: env.SITE_TIMEZONE,
    summary: `Free meeting with ${brand}`,
    location: 'Online',
    ...(m.link ? { url: m.link } : {}),
    description: joinLine(m),
    method,
    ...(method === 'CANCEL' ? { status: 'CANCELLED' as const, sequence: 1 } : {}),
    organizer: icsOrganizer(env, brand),
  });
}

/** Her notice of a meeting booked or cancelled: a reply goes to the visitor. */
const toHer = (env: Env, m: FreeMeeting, subject: string, heading: string, paragraphs: string[]): OutgoingMail =>
  mail(env.TEACHER_EMAIL, subject, { heading, paragraphs }, { about: m.email, headers: { 'Reply-To': m.email } });

/** The visitor's invitation and her notice, written with the booking. */
export function freeMeetingMails(env: Env, brand: string, m: FreeMeeting): OutgoingMail[] {
  const when = classWhen(new Date(m.startsAt), env.SITE_TIMEZONE);
  const cancel = freeMeetingCancelUrl(env, m.id);
  return [
    mail(
      m.email,
      `Your free meeting on ${when.date} at ${when.time}`,
      {
        heading: exclaim('See you soon', m.name),
        paragraphs: [
          `Your free ${m.minutes}-minute online meeting is booked.`,
          `Date: ${when.date}\nTime: ${when.time}`,
          joinLine(m),
          'The attached calendar file adds the meeting to your calendar.',
          `Can't make it? Cancel here, and the time is free for someone else: ${cancel}`,
        ],
        links: [...(m.link ? [m.link] : []), cancel],
        footer: siteFooter(env, brand),
      },
      { attachments: [icsAttachment('meeting.ics', meetingIcs(env, brand, m, 'PUBLISH'), 'PUBLISH')] },
    ),
    toHer(env, m, `Free meeting booked: ${oneLine(m.name)}, ${when.date} ${when.time}`, 'A free meeting was booked', [
      `${when.date}, ${when.time}: ${m.minutes} minutes online with ${m.name} (${m.email}, ${m.phone}) about ${m.sessionType}.`,
      m.link ? `Link: ${m.link}` : 'Link: none yet (set your meeting room link in Settings, then send it to the visitor)',
      `Message:\n${m.message || '(none)'}`,
      'It is on your Today panel and in your agenda. Reply to this mail to answer the visitor directly.',
    ]),
  ];
}

/** The visitor cancelled: their note (with the .ics that removes the entry) and hers. */
export function freeMeetingCancelledMails(env: Env, brand: string, m: FreeMeeting): OutgoingMail[] {
  const when = classWhen(new Date(m.startsAt), env.SITE_TIMEZONE);
  return [
    mail(
      m.email,
      `Your free meeting on ${when.date} is cancelled`,
      {
        heading: 'Meeting cancelled',
        paragraphs: [
          `Your free meeting of ${when.date}, ${when.time} is cancelled.`,
          'The attached calendar file removes it from your calendar. You are welcome to book another time on the home page.',
        ],
        action: { label: 'Choose another time', url: `${env.SITE_URL}/#book` },
        footer: siteFooter(env, brand),
      },
      { attachments: [icsAttachment('meeting.ics', meetingIcs(env, brand, m, 'CANCEL'), 'CANCEL')] },
    ),
    toHer(env, m, `Free meeting cancelled: ${oneLine(m.name)}, ${when.date} ${when.time}`, 'A free meeting was cancelled', [
      `${m.name} (${m.email}) cancelled the free meeting of ${when.date}, ${when.time}.`,
      'The time is free again.',
    ]),
  ];
}
