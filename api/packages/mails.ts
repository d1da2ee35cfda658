/**
 * The packages' mails (issue 32): the confirmation of a package bought on the site and her note
 * of it (written to the outbox in the transaction that grants the credits), the receipt of a
 * package she sold by hand when she ticks "send a receipt", and the week-before reminder that
 * session credits are about to lapse. Every value goes to renderMail as text, which escapes it;
 * signed with her yoga brand (`brand`, api/site/brand.ts).
 */
import type { Env } from '../env.ts';
import type { OutgoingMail } from '../services/mail/index.ts';
import { greeting, mail, money, oneLine, siteFooter } from '../mail/layout.ts';
import { SALE_METHOD_WORDS, type SaleMethod } from '../../contract/packages.ts';

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
  /** Null when a gift card paid it all (issue 33). */
  paypalOrderId: string | null;
  /** What a gift card paid beside PayPal's `amountCents` (issue 33). */
  giftCardCents?: number;
}

/** "15 February 2027": her day in words (a calendar date, no time, so no zone to convert). */
const dayInWords = (day: string) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** How it was paid: through PayPal (its order), or with a gift card (issue 33). */
const paidWith = (p: BoughtPackage) =>
  !p.paypalOrderId
    ? `${money(p.amountCents)} paid with a gift card`
    : `${p.giftCardCents ? `${money(p.giftCardCents)} paid with a gift card and ` : ''}${money(p.amountCents)} paid through PayPal (order ${p.paypalOrderId})`;

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
        `Payment: ${paidWith(p)}.`,
        'When you book a session of this type, the booking page offers to use one of your sessions instead of paying. Your balance is shown in your account.',
      ],
      action: { label: 'My account', url: `${env.SITE_URL}/user/${p.userId}` },
      footer: siteFooter(env, brand),
    }),
    mail(
      env.TEACHER_EMAIL,
      `Package sold: ${oneLine(p.name)} to ${oneLine(name || p.email)}`,
      {
        heading: 'A package was bought',
        paragraphs: [`${name || p.email} (${p.email}) bought ${p.name}: ${what}${until}.`, `${paidWith(p)}.`],
        footer: siteFooter(env, brand),
      },
      { about: p.email },
    ),
  ];
}

export interface Receipt {
  userId: string;
  email: string;
  firstName: string;
  packageName: string;
  sessions: number;
  amountCents: number;
  method: SaleMethod;
  /** Her days, YYYY-MM-DD. */
  paidOn: string;
  expiresOn: string | null;
}

/** The receipt of a package sold outside the site: what, how much, how paid, until when. */
export function receiptMail(env: Env, brand: string, r: Receipt): OutgoingMail {
  const paid = r.method === 'free' ? 'Given free of charge' : `${money(r.amountCents)} paid by ${SALE_METHOD_WORDS[r.method]} on ${r.paidOn}`;
  return mail(r.email, `Your receipt: ${oneLine(r.packageName)}`, {
    heading: 'Thank you',
    paragraphs: [
      greeting(r.firstName),
      `Your receipt for ${r.packageName} (${r.sessions} ${r.sessions === 1 ? 'session' : 'sessions'}).`,
      `Payment: ${paid}.`,
      r.expiresOn ? `The sessions can be booked until ${r.expiresOn}.` : 'The sessions do not lapse.',
      'Your balance and your bookings are in your account.',
    ],
    action: { label: 'My bookings', url: `${env.SITE_URL}/user/${r.userId}` },
    footer: siteFooter(env, brand),
  });
}

export interface LapsingLot {
  name: string;
  remaining: number;
  /** YYYY-MM-DD, her day: the last day it can be used. */
  expiresOn: string;
}

const sessionsWords = (n: number) => `${n} ${n === 1 ? 'session' : 'sessions'}`;

/** One mail per client, listing each lot lapsing within the week. */
export function expiryReminderMail(env: Env, brand: string, client: { email: string; firstName: string; userId: string; lots: LapsingLot[] }): OutgoingMail {
  const total = client.lots.reduce((n, l) => n + l.remaining, 0);
  return mail(client.email, `Your ${sessionsWords(total)} with ${brand} lapse soon`, {
    heading: 'Your sessions lapse soon',
    paragraphs: [
      greeting(client.firstName),
      'A reminder that these session credits lapse within a week:',
      client.lots.map((l) => `${l.name}: ${sessionsWords(l.remaining)}, usable until ${dayInWords(l.expiresOn)}`).join('\n'),
      'Book a time before then to use them.',
    ],
    action: { label: 'Book a session', url: `${env.SITE_URL}/user/${client.userId}` },
    footer: siteFooter(env, brand),
  });
}
