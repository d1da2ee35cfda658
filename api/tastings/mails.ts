/**
 * The tastings' mails (issue 34), written to the outbox in the transaction of the change they
 * report: her notice of a request, the client's quote with its pay link, and for each payment the
 * client's receipt and her notice. Signed with the chocolate brand. Every value goes to renderMail
 * as text, which escapes it; the visitor's words reach only her (and the client's own quote).
 */
import type { Env } from '../env.ts';
import type { OutgoingMail } from '../services/mail/index.ts';
import { greeting, mail, money, oneLine, siteFooter } from '../mail/layout.ts';
import type { TastingPart } from '../../contract/tastings.ts';
import type { QuoteWithRequest, TastingRequestRow } from './tastings.repo.ts';
import { payLinkOf } from './tastings.ts';

type Request = Omit<TastingRequestRow, 'id' | 'createdAt'>;

/** Her notice of a new request: everything the visitor wrote, and the page to answer it from. */
export function requestNotice(env: Env, brand: string, r: Request): OutgoingMail {
  return mail(
    env.TEACHER_EMAIL,
    `Tasting request from ${oneLine(r.name)} (${r.guests} guests)`,
    {
      heading: 'New request for a private tasting',
      paragraphs: [
        `Name: ${r.name}`,
        `Email: ${r.email}`,
        `Phone: ${r.phone}`,
        `Occasion: ${r.occasion}`,
        `Guests: ${r.guests}`,
        `Possible days: ${r.dates.join(', ')}`,
        `Place: ${r.place}`,
        `Answer it with a quote: ${env.SITE_URL}/admin/tastings`,
      ],
      footer: siteFooter(env, brand),
    },
    { about: r.email, headers: { 'Reply-To': r.email } },
  );
}

/** The client's quote: what, when, where, how much, and the link to pay the deposit. */
export function quoteMail(env: Env, brand: string, q: QuoteWithRequest): OutgoingMail {
  const link = payLinkOf(env, q.id);
  return mail(q.email, `Your tasting quote: ${oneLine(q.occasion)} on ${q.date}`, {
    heading: 'Your private tasting',
    paragraphs: [
      greeting(q.name),
      `Thank you for asking about a chocolate tasting for ${q.occasion}. Here is my quote:`,
      `When: ${q.date} at ${q.time}\nWhere: ${q.place}\nGuests: ${q.guests}\nPrice: ${money(q.priceCents)}\nDeposit to hold the day: ${money(q.depositCents)}`,
      `The day is held for you once the deposit is paid. Pay it here: ${link}`,
      `The balance (${money(q.priceCents - q.depositCents)}) is due on the day, through the same link or in cash or by check.`,
    ],
    links: [link],
    footer: siteFooter(env, brand),
  });
}

export interface PaymentNote {
  part: TastingPart;
  amountCents: number;
  /** What is left to pay after it. */
  leftCents: number;
  method: 'paypal' | 'cash' | 'check';
  paypalOrderId: string | null;
}

const WHAT: Record<TastingPart, string> = { deposit: 'deposit', balance: 'balance' };

/** The client's receipt and her notice of a payment (the deposit holds the day in her agenda). */
export function paymentMails(env: Env, brand: string, q: QuoteWithRequest, p: PaymentNote): OutgoingMail[] {
  const amount = money(p.amountCents);
  const left = p.leftCents > 0 ? `${money(p.leftCents)} is left to pay on the day: ${payLinkOf(env, q.id)}` : 'The tasting is paid in full.';
  const by = p.method === 'paypal' ? `through PayPal (order ${p.paypalOrderId})` : `in ${p.method}`;
  return [
    mail(
      q.email,
      `Your receipt: the ${WHAT[p.part]} for your tasting on ${q.date}`,
      {
        heading: p.part === 'deposit' ? 'Your tasting is booked' : 'Thank you for your payment',
        paragraphs: [
          greeting(q.name),
          `I received your ${WHAT[p.part]} of ${amount} ${by} for the tasting (${q.occasion}) on ${q.date} at ${q.time}, at ${q.place}.`,
          ...(p.part === 'deposit' ? ['The day is held for you.'] : []),
          left,
        ],
        footer: siteFooter(env, brand),
      },
      { about: q.email },
    ),
    mail(
      env.TEACHER_EMAIL,
      `Tasting ${WHAT[p.part]} paid: ${oneLine(q.name)}, ${q.date}`,
      {
        heading: `A tasting's ${WHAT[p.part]} came in`,
        paragraphs: [
          `${q.name} paid the ${WHAT[p.part]} of ${amount} ${by}.`,
          `Tasting: ${q.occasion}, ${q.date} at ${q.time}, ${q.place}, ${q.guests} guests.`,
          ...(p.part === 'deposit' ? ['It is held in your agenda as a private event.'] : []),
          p.leftCents > 0 ? `Still to pay: ${money(p.leftCents)}.` : 'Paid in full.',
        ],
        footer: siteFooter(env, brand),
      },
      { about: q.email },
    ),
  ];
}
