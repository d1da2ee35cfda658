/**
 * The mails of a package bought on the site (issue 32): the client's confirmation and the
 * teacher's note, written to the outbox in the transaction that grants the credits.
 */
import type { Env } from '../env.ts';
import type { OutgoingMail } from '../services/mail/index.ts';
import { greeting, mail, money, oneLine, siteFooter as footer } from '../mail/layout.ts';

export interface BoughtPackage {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  name: string;
  sessions: number;
  sessionTypes: string[];
  amountCents: number;
  /** Her day, YYYY-MM-DD: the last day the credits can book. */
  expiresOn: string | null;
  paypalOrderId: string;
}

/** "15 February 2027": her day in words (a calendar date, no time, so no zone to convert). */
const dayInWords = (day: string) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

export function packageBoughtMails(env: Env, brand: string, p: BoughtPackage): OutgoingMail[] {
  const until = p.expiresOn ? ` until ${dayInWords(p.expiresOn)}` : '';
  const what = `${p.sessions} ${p.sessions === 1 ? 'session' : 'sessions'} (${p.sessionTypes.join(', ')})`;
  const name = `${p.firstName} ${p.lastName}`.trim();
  return [
    mail(p.email, `Your package: ${oneLine(p.name)}`, {
      heading: 'Thank you for your package!',
      paragraphs: [
        greeting(p.firstName),
        `${p.name}: ${what}, to book${until}.`,
        `Payment: ${money(p.amountCents)} paid through PayPal (order ${p.paypalOrderId}).`,
        'When you book a session of this type, the booking page offers to use one of your sessions instead of paying. Your balance is shown in your account.',
      ],
      action: { label: 'My account', url: `${env.SITE_URL}/user/${p.userId}` },
      footer: footer(env, brand),
    }),
    mail(
      env.TEACHER_EMAIL,
      `Package sold: ${oneLine(p.name)} to ${oneLine(name || p.email)}`,
      {
        heading: 'A package was bought',
        paragraphs: [
          `${name || p.email} (${p.email}) bought ${p.name}: ${what}${until}.`,
          `${money(p.amountCents)} paid through PayPal (order ${p.paypalOrderId}).`,
        ],
        footer: footer(env, brand),
      },
      { about: p.email },
    ),
  ];
}
