/**
 * The packages' mails (issue 32): the week-before reminder that session credits are about to
 * lapse. Every value goes to renderMail as text, which escapes it; signed with her yoga brand.
 */
import type { Env } from '../env.ts';
import type { OutgoingMail } from '../services/mail/index.ts';
import { greeting, mail, siteFooter } from '../mail/layout.ts';

export interface LapsingLot {
  name: string;
  remaining: number;
  /** YYYY-MM-DD, her day: the last day it can be used. */
  expiresOn: string;
}

/** "Friday 4 December", her day (a date with no zone: read at noon UTC, it is that day everywhere). */
const dayWords = (date: string) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' });

const sessionsWords = (n: number) => `${n} ${n === 1 ? 'session' : 'sessions'}`;

/** One mail per client, listing each lot lapsing within the week. */
export function expiryReminderMail(env: Env, brand: string, client: { email: string; firstName: string; userId: string; lots: LapsingLot[] }): OutgoingMail {
  const total = client.lots.reduce((n, l) => n + l.remaining, 0);
  return mail(client.email, `Your ${sessionsWords(total)} with ${brand} lapse soon`, {
    heading: 'Your sessions lapse soon',
    paragraphs: [
      greeting(client.firstName),
      'A reminder that these session credits lapse within a week:',
      client.lots.map((l) => `${l.name}: ${sessionsWords(l.remaining)}, usable until ${dayWords(l.expiresOn)}`).join('\n'),
      'Book a time before then to use them.',
    ],
    action: { label: 'Book a session', url: `${env.SITE_URL}/user/${client.userId}` },
    footer: siteFooter(env, brand),
  });
}
