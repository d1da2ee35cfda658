/**
 * The packages' mails (issue 32): the receipt of a package she sold by hand, when she ticks
 * "send a receipt". Every value goes to renderMail as text, which escapes it. Signed with her
 * yoga brand (`brand`, api/site/brand.ts).
 */
import type { Env } from '../env.ts';
import type { OutgoingMail } from '../services/mail/index.ts';
import { greeting, mail, money, oneLine, siteFooter as footer } from '../mail/layout.ts';
import { SALE_METHOD_WORDS, type SaleMethod } from '../../contract/packages.ts';

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
    footer: footer(env, brand),
  });
}
